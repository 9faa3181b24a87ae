import Foundation

/// A layer's shadow as the planner hands it to renderers: the silhouette (a small plan of its own, in the
/// shadow's pixels), the blur and the colour. Renderers draw the silhouette, reduce it when the blur asks for it
/// (`ShadowBlur.factor` > 1: box-averaged, `downsampled(_:)`), blur its alpha with a separable Gaussian
/// (`GaussianKernel`) and tint it, then composite the result like a texture over the silhouette's full size
/// (bilinear, so a reduced shadow is magnified back); they keep the result and reuse it while an equal source comes
/// back (equal silhouette, blur and colour), so an unchanged shadow is blurred once.
///
/// Shadow pixels (0, 0) ..< (width, height), multiples of the blur's factor: the silhouette sits inside with a
/// margin of at least the blur's spread on every side (or, where the shadow reaches beyond what can be seen,
/// the buffer is cut to what can be seen plus the spread), so the blur never needs texels beyond the buffer.
public final class ShadowSource: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// What casts the shadow, in shadow pixels; only its alpha counts.
    public let silhouette: RenderPlan
    /// The blur: its factor and the kernel run at that factor.
    public let blur: ShadowBlur
    /// shadowColor x shadowOpacity, premultiplied.
    public let color: PremultipliedColor
    private let hash: Int

    public init(silhouette: RenderPlan, blur: ShadowBlur, color: PremultipliedColor) {
        precondition(silhouette.width % blur.factor == 0 && silhouette.height % blur.factor == 0,
                     "a reduced shadow's size is a multiple of its factor")
        self.silhouette = silhouette
        self.blur = blur
        self.color = color
        var hasher = Hasher()
        hasher.combine(silhouette.width)
        hasher.combine(silhouette.height)
        hasher.combine(silhouette.quads)
        hasher.combine(silhouette.groups)
        hasher.combine(blur)
        hasher.combine(color)
        hash = hasher.finalize()
    }

    /// A shadow blurred exactly with `kernel` at full resolution.
    public convenience init(silhouette: RenderPlan, kernel: GaussianKernel, color: PremultipliedColor) {
        self.init(silhouette: silhouette, blur: ShadowBlur(kernel: kernel), color: color)
    }

    /// The kernel the renderers run (in reduced texels when the blur's factor is above 1).
    public var kernel: GaussianKernel { blur.kernel }
    /// The silhouette's size: the shadow's size in target pixels.
    public var width: Int { silhouette.width }
    public var height: Int { silhouette.height }
    /// The size the blur runs at and the blurred picture has: the silhouette's divided by the factor.
    public var blurWidth: Int { silhouette.width / blur.factor }
    public var blurHeight: Int { silhouette.height / blur.factor }

    public static func == (a: ShadowSource, b: ShadowSource) -> Bool {
        a === b || (a.hash == b.hash && a.blur == b.blur && a.color == b.color
            && a.silhouette.width == b.silhouette.width && a.silhouette.height == b.silhouette.height
            && a.silhouette.quads == b.silhouette.quads && a.silhouette.groups == b.silhouette.groups)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// The shadow as a texture over a quad's unit square: what renderers sample once the shadow is made (the
    /// blurred picture, `blurWidth` x `blurHeight`, stretched over the quad bilinearly).
    public func texture(of image: Image) -> TextureSource {
        TextureSource(image: image, unitToTexel: .scale(CGFloat(blurWidth), CGFloat(blurHeight)),
                      clamp: TexelRect(x0: 0, y0: 0, x1: blurWidth, y1: blurHeight), filter: .linear)
    }

    public var description: String {
        "shadow \(width)x\(height), \(blur), \(silhouette.quads.count) silhouette quads"
    }
}

/// A normalised, symmetric 1D Gaussian for a separable blur: weights[i] for offsets -radius ... radius (weights[0]
/// is the centre), radius = ceil(3 sigma), weight(i) = exp(-i^2 / (2 sigma^2)) / sum. Sigma 0: no blur.
public struct GaussianKernel: Hashable, Sendable {
    /// The standard deviation, in pixels.
    public let sigma: Float
    public let radius: Int
    /// Weights for offsets 0 ... radius.
    public let weights: [Float]
    /// 1 / the sum of the unnormalised weights over -radius ... radius (the GPU computes each weight itself).
    public let normalisation: Float

    /// The largest sigma, in full-resolution pixels, a shadow is blurred with (`ShadowBlur` runs any sigma above 16
    /// at reduced resolution); beyond it the shadow would be one faint smear anyway, and the silhouette a buffer
    /// wider than the output by 6 x sigma.
    public static let maximumSigma: Float = 500

    public init(sigma: Float) {
        let sigma = sigma.isFinite ? min(max(sigma, 0), Self.maximumSigma) : 0
        self.sigma = sigma
        guard sigma > 0.01 else {
            radius = 0
            weights = [1]
            normalisation = 1
            return
        }
        radius = Int((3 * sigma).rounded(.up))
        let raw = (0...radius).map { Self.raw(offset: $0, sigma: sigma) }
        let sum = raw[0] + 2 * raw.dropFirst().reduce(0, +)
        normalisation = 1 / sum
        weights = raw.map { $0 / sum }
    }

    /// exp(-i^2 / (2 sigma^2)), as the GLES shader computes it.
    @inlinable
    public static func raw(offset: Int, sigma: Float) -> Float {
        let i = Float(offset)
        return exp(-(i * i) / (2 * sigma * sigma))
    }
}

extension ShadowSource {
    /// The blurred, tinted shadow (`blurWidth` x `blurHeight`) from the silhouette's rendered pixels
    /// (`silhouette`, premultiplied BGRA of this source's full size): what the CPU renderer composites, and the
    /// exact arithmetic the GLES passes do. A reduced blur first box-averages the silhouette (`downsampled(_:)`).
    /// The horizontal pass keeps 8 bits (a GPU's RGBA8 buffer between passes); the vertical pass multiplies the
    /// colour's bytes by the blurred alpha and rounds.
    public func blurred(from silhouette: Image) throws -> Image {
        let silhouette = blur.factor == 1 ? silhouette : try downsampled(silhouette)
        let width = blurWidth, height = blurHeight
        precondition(silhouette.width == width && silhouette.height == height, "silhouette of another size")
        let output = try Image(width: width, height: height)
        let r = kernel.radius
        let q = color.quantized
        let channels = (Float(q.blue), Float(q.green), Float(q.red), Float(q.alpha))
        // Across, into whole numbers held as floats (the 8-bit buffer between the GPU's passes). Rows are padded
        // with r zeros on both sides, so the taps need no bounds checks.
        var across = [Float](repeating: 0, count: width * height)
        var padded = [Float](repeating: 0, count: width + 2 * r)
        kernel.weights.withUnsafeBufferPointer { w in
            across.withUnsafeMutableBufferPointer { out in
                padded.withUnsafeMutableBufferPointer { a in
                    for y in 0..<height {
                        let row = silhouette.baseAddress.advanced(by: y * silhouette.bytesPerRow)
                            .assumingMemoryBound(to: UInt8.self)
                        var any = false
                        for x in 0..<width {
                            let value = row[x * 4 + 3]
                            a[r + x] = Float(value)
                            any = any || value != 0
                        }
                        guard any else { continue }
                        let line = out.baseAddress! + y * width
                        for x in 0..<width {
                            let centre = r + x
                            var sum = w[0] * a[centre]
                            var i = 1
                            while i <= r {
                                sum += w[i] * (a[centre - i] + a[centre + i])
                                i += 1
                            }
                            line[x] = min(max(sum.rounded(), 0), 255)
                        }
                    }
                }
            }
        }
        // Down, then the colour times the blurred alpha.
        var column = [Float](repeating: 0, count: width)
        kernel.weights.withUnsafeBufferPointer { w in
            across.withUnsafeBufferPointer { h in
                column.withUnsafeMutableBufferPointer { c in
                    for y in 0..<height {
                        let centre = h.baseAddress! + y * width
                        for x in 0..<width { c[x] = w[0] * centre[x] }
                        var i = 1
                        while i <= r {
                            let weight = w[i]
                            if y - i >= 0 {
                                let up = h.baseAddress! + (y - i) * width
                                for x in 0..<width { c[x] += weight * up[x] }
                            }
                            if y + i < height {
                                let down = h.baseAddress! + (y + i) * width
                                for x in 0..<width { c[x] += weight * down[x] }
                            }
                            i += 1
                        }
                        let row = output.baseAddress.advanced(by: y * output.bytesPerRow)
                            .assumingMemoryBound(to: UInt8.self)
                        for x in 0..<width {
                            let v = c[x] / 255
                            guard v > 0 else { continue }
                            row[x * 4] = UInt8(saturatingRounded: channels.0 * v)
                            row[x * 4 + 1] = UInt8(saturatingRounded: channels.1 * v)
                            row[x * 4 + 2] = UInt8(saturatingRounded: channels.2 * v)
                            row[x * 4 + 3] = UInt8(saturatingRounded: channels.3 * v)
                        }
                    }
                }
            }
        }
        output.markModified()
        return output
    }
}

extension Quad {
    /// The same quad moved by (x, y) target pixels.
    public func translated(x: CGFloat, y: CGFloat) -> Quad {
        var quad = self
        let move = Matrix3.translation(x, y)
        quad.unitToTarget = unitToTarget.concatenating(move)
        quad.clip = clip.map { ConvexPolygon(vertices: $0.vertices.map { CGPoint(x: $0.x + x, y: $0.y + y) }) }
        quad.shape = shape.map {
            CoverageShape(toTarget: $0.toTarget.concatenating(move), outer: $0.outer, inner: $0.inner,
                          fillsShape: $0.fillsShape)
        }
        return quad
    }

    /// Whether the maps `translated(x:y:)` makes (the quad's and its shape's) are finite, worked out without making
    /// the quad: with `hasFiniteGeometry` of this quad, what `hasFiniteGeometry` of the moved one says.
    public func translationStaysFinite(x: CGFloat, y: CGFloat) -> Bool {
        let move = Matrix3.translation(x, y)
        guard unitToTarget.concatenating(move).isFinite else { return false }
        return shape.map { $0.toTarget.concatenating(move).isFinite } ?? true
    }
}

extension RenderPlan {
    /// This plan moved by whole pixels into a target of `width` x `height` (what falls outside is cut).
    public func translated(x: Int, y: Int, width: Int, height: Int) -> RenderPlan {
        var moved = quads.map { $0.translated(x: CGFloat(x), y: CGFloat(y)) }
        let kept = groups.compactMap { group -> PlanGroup? in
            let b = group.bounds
            let box = PixelBox(x0: max(b.x0 + x, 0), y0: max(b.y0 + y, 0), x1: min(b.x1 + x, width),
                               y1: min(b.y1 + y, height))
            guard box.x1 > box.x0, box.y1 > box.y0 else {
                // The group's picture falls outside: none of its quads (its mask's included) may be drawn unmasked.
                for index in group.range { moved[index].opacity = 0 }
                return nil
            }
            var cut = group
            cut.bounds = box
            return cut
        }
        return RenderPlan(width: width, height: height, quads: moved, groups: kept)
    }
}

extension ShadowSource {
    /// The generations of the images the silhouette samples (its shadows' too), folded into one number: it changes
    /// when one of them is changed in place (`Image.markModified()`), so a blurred picture kept under the old number
    /// is not used for the new pixels.
    public var textureStamp: UInt64 {
        var stamp: UInt64 = 0
        for quad in silhouette.quads {
            switch quad.paint {
            case .texture(let texture):
                let key = UInt64(UInt(bitPattern: ObjectIdentifier(texture.image).hashValue))
                stamp = (stamp &* 0x100_0000_01B3) ^ (key &+ texture.image.generation &* 0x9E37_79B9_7F4A_7C15)
            case .shadow(let inner):
                stamp = (stamp &* 0x100_0000_01B3) ^ inner.textureStamp
            case .solid:
                break
            }
        }
        return stamp
    }

    /// Calls `body` with every image the silhouette samples (its shadows' too).
    public func forEachImage(_ body: (Image) -> Void) {
        for quad in silhouette.quads {
            switch quad.paint {
            case .texture(let texture): body(texture.image)
            case .shadow(let inner): inner.forEachImage(body)
            case .solid: break
            }
        }
    }
}

/// What renderers key their blurred shadows by: the source, and the generations of the images it samples then.
public struct ShadowKey: Hashable, Sendable {
    public let source: ShadowSource
    public let stamp: UInt64

    public init(_ source: ShadowSource) {
        self.source = source
        stamp = source.textureStamp
    }
}
