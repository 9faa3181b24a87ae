// Occlusion culling, as WebRender and Chromium's compositor do it for opaque primitives, in the case that pays most:
// where a quad drawn straight onto the target (inside no group) paints every pixel of an area opaque, nothing drawn
// before it can show there, so the renderers start that area with it. A full-screen opaque picture or background
// then costs one write of the target instead of a fill under it as well
// (docs/benchmarks.md, "Opaque layers hide what is under them (2026-11-27)").
// Source-over of an opaque source gives the source whatever lies below (pixman's OVER, Lamina's loops and GL's ONE,
// ONE_MINUS_SRC_ALPHA blend multiply the destination by 1 - 1 = 0), so the pixels are exactly those of drawing every
// quad.

extension RenderPlan {
    /// For each of `areas`, the last quad inside no group that paints every pixel of the area opaque
    /// (`Quad.opaqueBox(at:width:height:opaqueImages:)`), or nil when none does: the first quad a renderer needs to
    /// draw there. `bounds`: each quad's pixel bounds where the renderer knows them (nil: the quad draws nothing),
    /// which rules quads out faster than their maps.
    public func lastOpaqueQuads(covering areas: [PixelBox], bounds: [PixelBox?]? = nil,
                                opaqueImages: OpaqueImages) -> [Int?] {
        var found = [Int?](repeating: nil, count: areas.count)
        var open = areas.indices.filter { !areas[$0].isEmpty }
        guard !open.isEmpty else { return found }
        // The smallest box that could cover an open area.
        let reach = open.reduce(into: (x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)) {
            ($0.x0, $0.y0) = (min($0.x0, areas[$1].x0), min($0.y0, areas[$1].y0))
            ($0.x1, $0.y1) = (max($0.x1, areas[$1].x1), max($0.y1, areas[$1].y1))
        }
        let smallest = open.map { areas[$0].area }.min() ?? 0
        let grouped = groupedQuads()
        let (width, height) = (self.width, self.height)
        quads.withUnsafeBufferPointer { quads in
            guard let base = quads.baseAddress else { return }
            for index in quads.indices.reversed() where !open.isEmpty {
                if let grouped, grouped[index] { continue }
                // Cheap tests first: pixel bounds or the map's rectangle must reach over some area.
                if let bounds {
                    guard let box = bounds[index], box.area >= smallest,
                        box.x0 <= reach.x1, box.x1 >= reach.x0, box.y0 <= reach.y1, box.y1 >= reach.y0
                    else { continue }
                } else {
                    guard let extent = Quad.axisAlignedExtent(at: base + index),
                        (extent.x1 - extent.x0) * (extent.y1 - extent.y0) >= Double(smallest)
                    else { continue }
                }
                guard let opaque = Quad.opaqueBox(at: base + index, width: width, height: height,
                                                  opaqueImages: opaqueImages)
                else { continue }
                for area in open where opaque.contains(areas[area]) { found[area] = index }
                open.removeAll { found[$0] != nil }
            }
        }
        return found
    }

    /// `forEachStep` without what lies under quad `start`, a quad inside no group (`lastOpaqueQuads`): the quads
    /// before it, and each group that ends before it, with every step inside.
    public func forEachStep(from start: Int, _ body: (PlanStep) throws -> Void) rethrows {
        guard start > 0 else { return try forEachStep(body) }
        var hiddenGroups = 0
        try forEachStep { step in
            switch step {
            case .begin(let group) where hiddenGroups > 0 || group.range.upperBound <= start: hiddenGroups += 1
            case .beginMask where hiddenGroups > 0: break
            case .end where hiddenGroups > 0: hiddenGroups -= 1
            case .quad(let index) where index < start: break
            default: try body(step)
            }
        }
    }

    /// Whether each quad lies inside a group (nil: the plan has none). Groups nest, so counting the ranges open at
    /// each quad says it: one pass over the groups and one over the quads.
    private func groupedQuads() -> [Bool]? {
        guard !groups.isEmpty else { return nil }
        var opened = [Int](repeating: 0, count: quads.count + 1)
        for group in groups {
            opened[group.range.lowerBound] += 1
            opened[group.range.upperBound] -= 1
        }
        var depth = 0
        return quads.indices.map { index in
            depth += opened[index]
            return depth > 0
        }
    }
}

extension Quad {
    /// The box of target pixels whose every pixel the quad at `quad` paints opaque, in a `width` x `height` target,
    /// or nil: an axis-aligned affine quad whose pixels are one rectangle (no antialiased edge, shape or clip that
    /// cuts it otherwise), painting a solid colour opaque after its opacity, or a plain texture (no tint, not
    /// additive) at full opacity whose image is opaque throughout (`OpaqueImages`; its mip levels then are too: a
    /// 2 x 2 average of 255s and a blend of two levels are 255). Bilinear and trilinear samples of opaque texels are
    /// opaque on both renderers (their weights add up to one: exactly in pixman's and the loops' fixed point, to
    /// within rounding to 255 on a GPU).
    public static func opaqueBox(at quad: UnsafePointer<Quad>, width: Int, height: Int,
                                 opaqueImages: OpaqueImages) -> PixelBox? {
        guard axisAlignedExtent(at: quad) != nil, !hasAnalyticCoverage(at: quad) else { return nil }
        let opacity = min(max(quad.pointee.opacity, 0), 1)
        switch quad.pointee.paint {
        case .solid(let color):
            guard color.scaled(by: opacity).quantized.alpha == 255 else { return nil }
        case .texture(let texture):
            guard PremultipliedColor.byte(opacity) == 255, texture.isPlain, opaqueImages.isOpaque(texture.image)
            else { return nil }
        case .shadow:
            return nil
        }
        guard case .rect(let x0, let y0, let x1, let y1) = pixelCoverage(at: quad, width: width, height: height)
        else { return nil }
        return PixelBox(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// The target rectangle of an affine quad that is neither turned nor sheared (a flip is fine), before its clip;
    /// nil for any other.
    static func axisAlignedExtent(at quad: UnsafePointer<Quad>) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        let m = quad.pointee.unitToTarget
        guard m.m13 == 0, m.m23 == 0, m.m33 == 1, m.m12 == 0, m.m21 == 0 else { return nil }
        let (xa, xb) = (m.m31, m.m31 + m.m11), (ya, yb) = (m.m32, m.m32 + m.m22)
        return (min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb))
    }
}

/// Which images are opaque throughout (every texel's alpha 255), worked out once per image generation and kept
/// while frames draw them (a `FrameCache`: an image is forgotten two frames after its last use). Only images that
/// a quad draws over a whole area are asked, and a scan stops at the first row holding a translucent texel.
/// An image is scanned only once a frame finds it with the generation an earlier frame saw (its pixels held still
/// for a frame): a picture changed every frame (a video) is never scanned, since reading all of it each frame
/// would cost more than the drawing it could save, and counts as not opaque.
/// Not thread-safe: a renderer asks from the thread that draws its frame.
public final class OpaqueImages {
    private struct Key: Hashable {
        let image: ObjectIdentifier
        let generation: UInt64
    }

    /// The image is kept with its answer, so that its identity cannot be reused while the entry lives.
    private let cache = FrameCache<Key, (image: Image, opaque: Bool)>()
    /// Images asked for at a generation not scanned yet, and the frame that first asked: scanned when one of the next
    /// two frames asks again, else forgotten.
    private var seen: [Key: (image: Image, frame: Int)] = [:]
    private var frame = 0

    /// The images scanned so far (for tests and figures).
    public private(set) var scans = 0
    /// How many answers were "not opaque" only because the image's pixels had not held still for a frame yet: a
    /// renderer that keeps what it drew (the GLES renderer's encoded instances) draws again once this moved.
    public private(set) var undecided = 0

    public init() {}

    /// Whether `image` is known to be opaque throughout: at once where its decoder said so (`Image.markOpaque`),
    /// else false until its pixels have held still for a frame.
    public func isOpaque(_ image: Image) -> Bool {
        if image.isKnownOpaque { return true }
        let key = Key(image: ObjectIdentifier(image), generation: image.generation)
        if let known = cache.use(key) { return known.opaque }
        guard let first = seen[key], first.frame < frame else {
            if seen[key] == nil { seen[key] = (image, frame) }
            undecided += 1
            return false
        }
        seen[key] = nil
        scans += 1
        let opaque = Self.scan(image)
        cache.insert((image, opaque), for: key)
        return opaque
    }

    /// Ends a frame (`FrameCache.endFrame` for the answers).
    public func endFrame() {
        cache.endFrame()
        frame += 1
        if !seen.isEmpty { seen = seen.filter { $0.value.frame + 2 >= frame } }
    }

    /// Every texel's alpha is 255: the words of a row ANDed together keep 0xFF in their top byte only then.
    static func scan(_ image: Image) -> Bool {
        for row in 0..<image.height {
            let words = (image.baseAddress + row * image.bytesPerRow).assumingMemoryBound(to: UInt32.self)
            var all: UInt32 = 0xFFFF_FFFF
            for column in 0..<image.width { all &= words[column] }
            guard all >> 24 == 0xFF else { return false }
        }
        return true
    }
}
