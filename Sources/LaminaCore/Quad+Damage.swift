import Foundation

extension Quad {
    /// The target pixels that drawing this quad may change, as a box one pixel wider each way than its geometry (for
    /// antialiased edges and rounding), cut to the target; nil when it reaches none. A solid quad that paints its
    /// whole shape counts the shape's box instead of its own rectangle. Cheap for affine quads (no allocation): the
    /// planner and renderers work it out for every changed quad of a frame.
    public func damageBounds(width: Int, height: Int) -> PixelBox? {
        Self.damageBounds(unitToTarget: unitToTarget, finite: hasFiniteGeometry, solid: isSolid, shape: shape,
                          edges: antialiasedEdges, clip: clip, corners: { corners }, width: width, height: height)
    }

    private var isSolid: Bool {
        if case .solid = paint { return true }
        return false
    }

    /// The box of `damageBounds(width:height:)` from the fields it reads.
    private static func damageBounds(
        unitToTarget: Matrix3, finite: Bool, solid: Bool, shape: CoverageShape?, edges: QuadEdges,
        clip: ConvexPolygon?, corners: () -> [HomogeneousPoint], width: Int, height: Int
    ) -> PixelBox? {
        guard width > 0, height > 0 else { return nil }
        let target = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        guard finite else { return target }
        var rect: CGRect
        if let shape, shape.outlinesQuad || solid && shape.fillsShape {
            guard shape.toTarget.isAffine, shape.toTarget.isFinite,
                let reached = reachBounds(shape.outer.rect, shape.toTarget)
            else { return target }
            rect = reached
        } else if shape == nil, edges == .all, unitToTarget.isAffine, unitToTarget.m12 != 0 || unitToTarget.m21 != 0 {
            // A turned or sheared quad with four antialiased edges is drawn with its outline as its shape
            // (`edgesAsShape`), which reaches as a shape does.
            guard unitToTarget.isFinite,
                let reached = reachBounds(CGRect(x: 0, y: 0, width: 1, height: 1), unitToTarget)
            else { return target }
            rect = reached
        } else if unitToTarget.isAffine {
            rect = Self.affineBounds(unitToTarget)
        } else {
            guard let polygon = ConvexPolygon(projecting: corners()) else { return nil }
            rect = polygon.bounds
        }
        if let clip { rect = rect.intersection(clip.bounds) }
        return pixelBox(rect, width: width, height: height)
    }

    /// The bounds of the pixels a shape whose outline is `rect` under the affine map `toTarget` may shade: the
    /// pixels whose centres lie within its outline's reach (each side moved out by half a pixel and 1/64,
    /// `CoverageShape.Prepared.touched`), before any clip cuts it (random tree 62402: a rounded sliver just outside
    /// a clip still shades the pixel whose centre is on the clip). The moved sides meet beyond the corners, far
    /// beyond a sharp corner of a sheared outline (a thin sliver's reach runs some 30 pixels past its tip, where the
    /// coverage formula still shades pixels: a random live frame of an animated tree missed them). nil when two
    /// neighbouring sides are parallel or the outline is empty (no bound known).
    static func reachBounds(_ rect: CGRect, _ toTarget: Matrix3) -> CGRect? {
        let reach: CGFloat = 0.5 + 1.0 / 64
        guard let planes = CoverageShape.Prepared.planes(rect, toTarget, offset: reach), planes.count >= 3 else {
            return nil
        }
        var (minX, minY, maxX, maxY) = (CGFloat.infinity, CGFloat.infinity, -CGFloat.infinity, -CGFloat.infinity)
        for index in planes.indices {
            // Where the side's line (a x + b y + c = 0) meets the next one's.
            let p = planes[index], q = planes[(index + 1) % planes.count]
            let det = p.a * q.b - q.a * p.b
            guard abs(det) > 1e-12 else { return nil }
            let x = (q.c * p.b - p.c * q.b) / det, y = (p.c * q.a - q.c * p.a) / det
            guard x.isFinite, y.isFinite else { return nil }
            minX = min(minX, x); maxX = max(maxX, x)
            minY = min(minY, y); maxY = max(maxY, y)
        }
        // Held to the guard band, as `affineSides` holds its sides.
        let band = CGFloat.guardBand
        func held(_ v: CGFloat) -> CGFloat { min(max(v, -band), band) }
        return CGRect(x: held(minX), y: held(minY), width: held(maxX) - held(minX), height: held(maxY) - held(minY))
    }

    /// The damage box of `rect` in a `width` x `height` target (positive sides): its pixels and one more around
    /// (antialiasing and rounding), cut to the target; the whole target for a rectangle that is not finite.
    private static func pixelBox(_ rect: CGRect, width: Int, height: Int) -> PixelBox? {
        guard !rect.isNull else { return nil }
        return pixelBox(x0: rect.minX, y0: rect.minY, x1: rect.maxX, y1: rect.maxY, width: width, height: height)
    }

    /// `pixelBox(_:width:height:)` of the rectangle with sides x0, y0, x1, y1.
    private static func pixelBox(x0: CGFloat, y0: CGFloat, x1: CGFloat, y1: CGFloat, width: Int,
                                 height: Int) -> PixelBox? {
        let target = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite else { return target }
        func pixel(_ v: CGFloat, _ limit: Int) -> Int { Int(min(max(v, -1), CGFloat(limit) + 1)) }
        let box = PixelBox(x0: pixel((x0 - 1).rounded(.down), width), y0: pixel((y0 - 1).rounded(.down), height),
                           x1: pixel((x1 + 1).rounded(.up), width), y1: pixel((y1 + 1).rounded(.up), height))
            .intersection(target)
        return box.isEmpty ? nil : box
    }

    /// `pixelBox(affineBounds(m), width:height:)` without the rectangle, for every moved sprite's box: its sides as
    /// `CGRect` gives them (the far side is the near side plus the width, which rounding may move off the largest
    /// corner), and nil where the rectangle would be null (a near side at +infinity), as there.
    static func affinePixelBox(_ m: Matrix3, width: Int, height: Int) -> PixelBox? {
        let (minX, minY, maxX, maxY) = affineSides(m)
        if minX == .infinity || minY == .infinity { return nil }
        return pixelBox(x0: minX, y0: minY, x1: minX + (maxX - minX), y1: minY + (maxY - minY), width: width,
                        height: height)
    }

    /// The bounding rectangle of the unit square under the affine map `m`.
    private static func affineBounds(_ m: Matrix3) -> CGRect {
        let (minX, minY, maxX, maxY) = affineSides(m)
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The least and greatest x and y of the unit square's corners under the affine map `m`, held to the guard band
    /// (which lies far beyond any target): the boxes take the far side as the near side plus the width, as `CGRect`
    /// does, and a side at 1e19 would leave no bits of the width (a sliver reaching 1e19 pixels across the target
    /// got the box (0, 0) - (1, 1)).
    private static func affineSides(_ m: Matrix3) -> (CGFloat, CGFloat, CGFloat, CGFloat) {
        let xs = (m.m31, m.m31 + m.m11, m.m31 + m.m21, m.m31 + m.m11 + m.m21)
        let ys = (m.m32, m.m32 + m.m12, m.m32 + m.m22, m.m32 + m.m12 + m.m22)
        let band = CGFloat.guardBand
        func held(_ v: CGFloat) -> CGFloat { v.isNaN ? v : min(max(v, -band), band) }
        return (held(min(min(xs.0, xs.1), min(xs.2, xs.3))), held(min(min(ys.0, ys.1), min(ys.2, ys.3))),
                held(max(max(xs.0, xs.1), max(xs.2, xs.3))), held(max(max(ys.0, ys.1), max(ys.2, ys.3))))
    }
}

/// A coarse bitmap of the tiles a damage region touches: a quick answer to "does this box meet the region?" for every
/// quad of a frame, in O(tiles the box spans) instead of O(rectangles).
public struct DamageTiles {
    /// Tile side in pixels.
    static let side = 16
    private let columns: Int, rows: Int
    private var bits: [Bool]
    private let region: DamageRegion
    private let bounds: PixelBox?

    public init(_ region: DamageRegion, width: Int, height: Int) {
        self.region = region
        bounds = region.bounds
        columns = (width + Self.side - 1) / Self.side
        rows = (height + Self.side - 1) / Self.side
        bits = [Bool](repeating: false, count: region.rects.count > 4 ? columns * rows : 0)
        guard !bits.isEmpty else { return }
        for rect in region.rects {
            for row in max(0, rect.y0 / Self.side)..<min(rows, (rect.y1 + Self.side - 1) / Self.side) {
                for column in max(0, rect.x0 / Self.side)..<min(columns, (rect.x1 + Self.side - 1) / Self.side) {
                    bits[row * columns + column] = true
                }
            }
        }
    }

    /// Whether `box` meets the region.
    public func intersects(_ box: PixelBox) -> Bool {
        guard let bounds, bounds.intersects(box) else { return false }
        if bits.isEmpty { return region.intersects(box) }
        let r0 = max(0, box.y0 / Self.side), r1 = min(rows, (box.y1 + Self.side - 1) / Self.side)
        let c0 = max(0, box.x0 / Self.side), c1 = min(columns, (box.x1 + Self.side - 1) / Self.side)
        for row in r0..<max(r0, r1) {
            for column in c0..<max(c0, c1) where bits[row * columns + column] {
                // A touched tile: the rectangles decide.
                return region.intersects(box)
            }
        }
        return false
    }
}

extension Quad {
    /// `damageBounds(width:height:)` of the quad at `quad`, read where it lies: the method called from another module
    /// on an element of an array or buffer copies the quad first (a retain and a release for each of its references),
    /// which for 10,000 moved quads costs more than the boxes.
    public static func damageBounds(at quad: UnsafePointer<Quad>, width: Int, height: Int) -> PixelBox? {
        damageBounds(at: quad, movedBy: nil, opacity: quad.pointee.opacity, width: width, height: height)
    }

    /// `damageBounds(at:width:height:)` of the quad at `quad` as it will be once the translation of its map has moved
    /// by `d` (nil: not moved) and its opacity is `opacity`, worked out without changing it: the boxes of the quads
    /// an animated node frame moves or fades, worked out on every core before the frame changes the quads.
    public static func damageBounds(at quad: UnsafePointer<Quad>, movedBy d: CGPoint?, opacity: Float, width: Int,
                                    height: Int) -> PixelBox? {
        var map = quad.pointee.unitToTarget
        if let d {
            map.m31 += d.x
            map.m32 += d.y
        }
        return damageBounds(at: quad, map: map, opacity: opacity, width: width, height: height)
    }

    /// `damageBounds(at:width:height:)` of the quad at `quad` as it will be once its map is `map` and its opacity
    /// `opacity`, worked out without changing it: the boxes of the quads of a leaf turned or scaled by its node
    /// values, whose quads take new maps and keep everything else.
    public static func damageBounds(at quad: UnsafePointer<Quad>, map: Matrix3, opacity: Float, width: Int,
                                    height: Int) -> PixelBox? {
        if quad.pointee.shapeStorage == nil, quad.pointee.clip == nil, quad.pointee.antialiasedEdges != .all,
            map.isAffine, width > 0, height > 0 {
            // A moved sprite (most of them): the general path's affine case, without copying the quad's shape and
            // clip out to it.
            guard map.isFinite, opacity.isFinite, quad.pointee.paintIsFinite else {
                return PixelBox(x0: 0, y0: 0, x1: width, y1: height)
            }
            return affinePixelBox(map, width: width, height: height)
        }
        let shape = quad.pointee.shapeStorage?.shape
        let finite = map.isFinite && opacity.isFinite && quad.pointee.paintIsFinite && (shape?.isFinite ?? true)
        return damageBounds(unitToTarget: map, finite: finite, solid: isSolid(at: quad), shape: shape,
                            edges: quad.pointee.antialiasedEdges, clip: quad.pointee.clip,
                            corners: { corners(of: map) }, width: width, height: height)
    }

    private static func isSolid(at quad: UnsafePointer<Quad>) -> Bool {
        if case .solid = quad.pointee.paint { return true }
        return false
    }

    /// What an encoder asks of a texture quad's paint, read where the quad lies: whether it is a texture, drawn
    /// additively, and its tint. Binding the paint's `TextureSource` would retain its image, which the sprites of
    /// one sheet share: thousands of retains of one object from every encoding thread.
    public static func textureTraits(at quad: UnsafePointer<Quad>) -> (isTexture: Bool, additive: Bool, tint: Color?) {
        guard case .texture(let source) = quad.pointee.paint else { return (false, false, nil) }
        return (true, source.additive, source.tint)
    }

    /// What a renderer's texture copy needs of a texture quad's paint, read where the quad lies, with the image
    /// unretained (the quad keeps it alive for as long as the quad is used): a `TextureSource` bound and kept while
    /// a quad is prepared retains and releases its image, which every core's sprites of one sheet share. nil for
    /// any other paint.
    public static func textureCopyFacts(at quad: UnsafePointer<Quad>) -> TextureCopyFacts? {
        // Stored fields only, with nothing called in between, so that the payload is read in place, not copied.
        guard case .texture(let source) = quad.pointee.paint else { return nil }
        return TextureCopyFacts(image: Unmanaged.passUnretained(source.image), unitToTexel: source.unitToTexel,
                                clamp: source.clamp, filter: source.filter, mipLevel: source.mipLevel,
                                isPlain: source.tint == nil && !source.additive)
    }

    /// `hasAnalyticCoverage` of the quad at `quad` (antialiased edges or a shape), read where it lies.
    public static func hasAnalyticCoverage(at quad: UnsafePointer<Quad>) -> Bool {
        !quad.pointee.antialiasedEdges.isEmpty || quad.pointee.shapeStorage != nil
    }

    /// `hasFiniteGeometry` of the quad at `quad`, read where it lies.
    static func hasFiniteGeometry(at quad: UnsafePointer<Quad>) -> Bool {
        guard quad.pointee.unitToTarget.isFinite, quad.pointee.opacity.isFinite, quad.pointee.paintIsFinite
        else { return false }
        if let shape = quad.pointee.shapeStorage?.shape, !shape.isFinite { return false }
        return true
    }

    /// Whether `paint`'s numbers are finite (`paintIsFinite`).
    static func isFinite(_ paint: Paint) -> Bool {
        if case .texture(let texture) = paint { return texture.unitToTexel.isFinite && texture.mipLevel.isFinite }
        return true
    }

    /// Whether the quad at `quad` follows a translation by its offset alone: affine, unclipped, seen through no
    /// shape and not a shadow (the fields are read where they lie, see `damageBounds(at:width:height:)`).
    @inline(never)
    public static func movesByOffset(at quad: UnsafePointer<Quad>) -> Bool {
        if case .shadow = quad.pointee.paint { return false }
        let m = quad.pointee.unitToTarget
        return quad.pointee.clip == nil && quad.pointee.shapeStorage == nil && m.m13 == 0 && m.m23 == 0 && m.m33 == 1
    }
}

/// A texture quad's paint as a renderer's copy of it reads it (`Quad.textureCopyFacts(at:)`).
public struct TextureCopyFacts {
    /// Unretained: valid while the quad it was read from is.
    public let image: Unmanaged<Image>
    public let unitToTexel: Matrix3
    public let clamp: TexelRect
    public let filter: Filter
    public let mipLevel: Float
    /// `TextureSource.isPlain`.
    public let isPlain: Bool

    /// `TextureSource.mipSelection`.
    public var mipSelection: MipSelection? {
        guard filter == .trilinear else { return nil }
        return image._withUnsafeGuaranteedRef {
            MipSelection.sampled(filter: filter, lod: mipLevel, width: $0.width, height: $0.height)
        }
    }

    /// No mip level is sampled (`mipSelection` is nil).
    public var levelZeroOnly: Bool { mipSelection == nil }
}
