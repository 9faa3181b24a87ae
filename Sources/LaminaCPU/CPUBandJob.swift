import CPixman
import Foundation
import LaminaCore

/// The areas of one frame (horizontal bands of the target, or the pieces of a damage region): each draws every
/// prepared quad clipped to its rectangle, into its own pixman view of the target (pixman images are not shared
/// between threads; their memory is). A group is drawn into an offscreen buffer covering the group's pixels in the
/// area's rows, then composited with its opacity (source-over or plus, `PlanGroup.composite`). Areas never overlap,
/// so they may be drawn in parallel.
final class CPUBandJob: @unchecked Sendable {
    let prepared: CPUPreparedQuads
    /// The plan (for its groups, through `forEachStep`).
    let plan: RenderPlan
    let target: Image
    let areas: [PixelBox]
    /// Clear each area to transparent first (a retained frame's damage); else draw over what is there.
    let clear: Bool
    let views: [CPUTextureViews]
    /// The loops for the common cases (CPUBandJob+Loops.swift).
    let loops: CPUCompositeLoops
    private let lock = NSLock()
    private(set) var error: Error?

    /// Each quad's pixel bounds (nil: it draws nothing).
    private let bounds: [PixelBox?]
    /// For a plan without groups and several areas: the quads that reach each area, in order.
    private let areaQuads: [[Int32]]?
    /// For each quad that one-quad groups hold, how many hold it (CPUBandJob+BlendFastPath.swift).
    let singleQuadGroupCounts: [Int: Int]
    /// For each area, the last quad that paints all of it opaque, inside no group (`RenderPlan.lastOpaqueQuads`):
    /// drawing starts there, and the area is not cleared first. nil: every quad is drawn.
    let firstVisible: [Int?]

    init(prepared: CPUPreparedQuads, plan: RenderPlan, target: Image, areas: [PixelBox], clear: Bool,
         views: [CPUTextureViews], loops: CPUCompositeLoops, opaqueImages: OpaqueImages? = nil) {
        self.prepared = prepared
        self.loops = loops
        self.plan = plan
        self.target = target
        self.areas = areas
        self.clear = clear
        self.views = views
        bounds = prepared.map(\.pixelBounds)
        areaQuads = plan.groups.isEmpty && areas.count > 1 ? Self.quadsByArea(bounds, areas: areas) : nil
        singleQuadGroupCounts = Self.singleQuadGroups(plan.groups)
        let bounds = self.bounds
        firstVisible = opaqueImages.map {
            plan.lastOpaqueQuads(covering: areas, bounds: bounds, opaqueImages: $0)
        } ?? areas.map { _ in nil }
    }

    /// The indices of the quads that reach each area: areas sorted by top edge, each quad looks only at those that
    /// can reach its rows.
    private static func quadsByArea(_ bounds: [PixelBox?], areas: [PixelBox]) -> [[Int32]] {
        let order = areas.indices.sorted { areas[$0].y0 < areas[$1].y0 }
        let tops = order.map { areas[$0].y0 }
        let tallest = areas.map(\.height).max() ?? 0
        var lists = [[Int32]](repeating: [], count: areas.count)
        for (index, box) in bounds.enumerated() {
            guard let box else { continue }
            // The first area whose top is low enough to reach the quad's first row.
            var (low, high) = (0, tops.count)
            let from = box.y0 - tallest + 1
            while low < high {
                let middle = (low + high) / 2
                if tops[middle] < from { low = middle + 1 } else { high = middle }
            }
            var position = low
            while position < order.count, tops[position] < box.y1 {
                let area = order[position]
                if areas[area].intersects(box) { lists[area].append(Int32(index)) }
                position += 1
            }
        }
        return lists
    }

    /// Draws area `index`, on a thread of `views[slot]`'s own.
    func draw(area index: Int, slot: Int) {
        let area = areas[index]
        let top = area.y0, bottom = area.y1
        guard !area.isEmpty else { return }
        let views = views[slot]
        defer { views.removeAll() }
        let first = target.baseAddress.advanced(by: top * target.bytesPerRow + area.x0 * 4)
            .assumingMemoryBound(to: UInt32.self)
        // Quads before `start` are hidden there by an opaque one (`firstVisible`), which also leaves nothing to clear.
        let start = firstVisible[index] ?? 0
        if clear, firstVisible[index] == nil {
            for row in 0..<(bottom - top) {
                memset(UnsafeMutableRawPointer(first).advanced(by: row * target.bytesPerRow), 0, area.width * 4)
            }
        }
        // The view covers the area only: pixman clips every composite to it.
        guard let destination = pixman_image_create_bits_no_clear(
            PIXMAN_a8r8g8b8, Int32(area.width), Int32(bottom - top), first, Int32(target.bytesPerRow))
        else { return fail(RenderError.failed("pixman could not wrap the area \(area) of the target")) }
        defer { pixman_image_unref(destination) }
        // Where quads go now: the band, or the innermost open group's buffer (nil when the group misses the band).
        struct Target {
            var image: OpaquePointer?
            var origin: (x: Int, y: Int)
            var rows: Range<Int>
            var group: PlanGroup?
            /// true: this buffer holds `group`'s mask, above its content buffer.
            var isMask = false
            /// true: `group` is one solid quad, combined straight with the buffer below (no buffer of its own).
            var withoutBuffer = false
        }
        var stack = [Target(image: destination, origin: (area.x0, top), rows: top..<bottom, group: nil)]
        func close() {
            var done = stack.removeLast()
            if done.isMask {
                // The mask's alpha multiplies the group's picture (IN_REVERSE: destination x source alpha).
                let content = stack.removeLast()
                if let mask = done.image, let picture = content.image {
                    pixman_image_composite32(
                        PIXMAN_OP_IN_REVERSE, mask, nil, picture, 0, 0, 0, 0, 0, 0, Int32(content.rows.isEmpty ? 0 :
                            (content.group!.bounds.x1 - content.group!.bounds.x0)), Int32(content.rows.count))
                }
                if let mask = done.image { pixman_image_unref(mask) }
                done = content
            }
            guard let image = done.image, let group = done.group else { return }
            defer { pixman_image_unref(image) }
            let parent = stack[stack.count - 1]
            guard let into = parent.image else { return }
            if let tint = group.tintBytes { Self.multiply(image, by: tint) }
            if group.composite == .sourceOver, loops.over(
                image, sx: 0, sy: 0, opacity: PremultipliedColor.byte(group.opacity), onto: into,
                dx: group.bounds.x0 - parent.origin.x, dy: done.rows.lowerBound - parent.origin.y,
                width: group.bounds.x1 - group.bounds.x0, height: done.rows.count) { return }
            var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(PremultipliedColor.byte(group.opacity)) * 257)
            let mask = pixman_image_create_solid_fill(&alpha)
            defer { if let mask { pixman_image_unref(mask) } }
            guard let op = group.composite.pixmanOperator else {
                // An operation pixman lacks (CPUBandJob+Blend.swift).
                CPUBlend.composite(
                    group.composite, picture: image, opacity: PremultipliedColor.byte(group.opacity), into: into,
                    x: group.bounds.x0 - parent.origin.x, y: done.rows.lowerBound - parent.origin.y,
                    width: group.bounds.x1 - group.bounds.x0, height: done.rows.count)
                return
            }
            // The opacity (a solid mask) scales the picture before the operator: ADD is min(p + d, 1), as GL's ONE,
            // ONE blend into an 8-bit buffer; the blend modes are pixman's PDF operators (CPUBandJob+Blend.swift).
            pixman_image_composite32(
                op, image, mask, into, 0, 0, 0, 0, Int32(group.bounds.x0 - parent.origin.x),
                Int32(done.rows.lowerBound - parent.origin.y), Int32(group.bounds.x1 - group.bounds.x0),
                Int32(done.rows.count))
        }
        if let areaQuads {
            // No groups: only the quads that reach this area, straight into it.
            do {
                for index in areaQuads[index] where Int(index) >= start {
                    try draw(quad: Int(index), rows: top..<bottom, into: destination, origin: (area.x0, top),
                             views: views)
                }
            } catch {
                fail(error)
            }
            return
        }
        do {
            // Groups that end before `start`, with everything in them, are hidden too.
            try plan.forEachStep(from: start) { step in
                switch step {
                case .begin(let group):
                    let outer = stack[stack.count - 1]
                    let low = max(group.bounds.y0, outer.rows.lowerBound)
                    let rows = low..<max(low, min(group.bounds.y1, outer.rows.upperBound))
                    if drawsWithoutBuffer(group) {
                        stack.append(Target(image: nil, origin: outer.origin, rows: rows.isEmpty ? 0..<0 : rows,
                                            group: group, withoutBuffer: outer.image != nil))
                        return
                    }
                    var image: OpaquePointer?
                    if outer.image != nil, !rows.isEmpty {
                        image = pixman_image_create_bits(
                            PIXMAN_a8r8g8b8, Int32(group.bounds.x1 - group.bounds.x0), Int32(rows.count), nil, 0)
                        guard image != nil else { throw RenderError.failed("pixman could not make a group buffer") }
                    }
                    stack.append(Target(image: image, origin: (group.bounds.x0, rows.lowerBound),
                                        rows: rows.isEmpty ? 0..<0 : rows, group: group))
                case .beginMask(let group):
                    let content = stack[stack.count - 1]
                    var image: OpaquePointer?
                    if content.image != nil, !content.rows.isEmpty {
                        image = pixman_image_create_bits(
                            PIXMAN_a8r8g8b8, Int32(group.bounds.x1 - group.bounds.x0), Int32(content.rows.count), nil,
                            0)
                        guard image != nil else { throw RenderError.failed("pixman could not make a mask buffer") }
                    }
                    stack.append(Target(image: image, origin: content.origin, rows: content.rows, group: group,
                                        isMask: true))
                case .end:
                    close()
                case .quad(let index):
                    let current = stack[stack.count - 1]
                    if current.withoutBuffer, let group = current.group, let into = stack[stack.count - 2].image {
                        guard let box = bounds[index], box.intersects(area), !current.rows.isEmpty else { return }
                        drawBlended(quad: index, group: group, rows: current.rows, into: into,
                                    origin: stack[stack.count - 2].origin)
                        return
                    }
                    guard let into = current.image, let box = bounds[index], box.intersects(area) else { return }
                    try draw(quad: index, rows: current.rows, into: into, origin: current.origin, views: views)
                }
            }
            while stack.count > 1 { close() }
        } catch {
            while stack.count > 1 { close() }
            fail(error)
        }
    }

    private func fail(_ error: Error) {
        lock.lock()
        if self.error == nil { self.error = error }
        lock.unlock()
    }

    /// Draws one quad's part in `rows` into `destination`, whose pixel (0, 0) is target pixel `origin`.
    func draw(
        _ item: CPUPreparedQuad, rows: Range<Int>, into destination: OpaquePointer, origin: (x: Int, y: Int),
        views: CPUTextureViews
    ) throws {
        let top = Int32(origin.y), left = Int32(origin.x)
        switch item.coverage {
        case .none:
            return
        case .box(let box):
            let y0 = max(box.y0, rows.lowerBound), y1 = min(box.y1, rows.upperBound)
            guard y1 > y0 else { return }
            try composite(item, x0: box.x0, y0: y0, x1: box.x1, y1: y1, origin: (left, top), mask: nil, destination,
                          views)
        case .boxes(let boxes, let bounds):
            try drawBoxes(boxes, bounds: bounds, item, rows: rows, into: destination, origin: (left, top), views: views)
        case .analytic(let edges):
            let (full, fullBounds, bytes, bounds, stride, pieces) = (edges.full, edges.fullBounds, edges.mask, edges.bounds,
                                                                     edges.stride, edges.pieces)
            if let fullBounds {
                try drawBoxes(full, bounds: fullBounds, item, rows: rows, into: destination, origin: (left, top),
                              views: views)
            }
            guard !pieces.isEmpty else { return }
            try bytes.withUnsafeBufferPointer { buffer in
                // pixman wants a mutable pointer but only reads a mask.
                let start = UnsafeMutableRawPointer(mutating: buffer.baseAddress!)
                guard let mask = pixman_image_create_bits_no_clear(
                    PIXMAN_a8, Int32(bounds.x1 - bounds.x0), Int32(bounds.y1 - bounds.y0),
                    start.assumingMemoryBound(to: UInt32.self), Int32(stride))
                else { throw RenderError.failed("pixman could not make a coverage mask") }
                defer { pixman_image_unref(mask) }
                for piece in pieces {
                    let y0 = max(bounds.y0 + piece.y0, rows.lowerBound), y1 = min(bounds.y0 + piece.y1, rows.upperBound)
                    guard y1 > y0 else { continue }
                    try composite(item, x0: bounds.x0 + piece.x0, y0: y0, x1: bounds.x0 + piece.x1, y1: y1,
                                  origin: (left, top), mask: mask,
                                  maskOffset: (Int32(piece.x0), Int32(y0 - bounds.y0)), destination, views)
                }
            }
        }
    }

    /// Draws the pixels of `boxes` (within `bounds`) in `rows` through a pixman clip region.
    private func drawBoxes(
        _ boxes: [PixelBox], bounds: PixelBox, _ item: CPUPreparedQuad, rows: Range<Int>,
        into destination: OpaquePointer, origin: (x: Int32, y: Int32), views: CPUTextureViews
    ) throws {
        let (left, top) = origin
        let y0 = max(bounds.y0, rows.lowerBound), y1 = min(bounds.y1, rows.upperBound)
        guard y1 > y0 else { return }
        if boxes.count == 1 {
            let box = boxes[0]
            try composite(item, x0: box.x0, y0: y0, x1: box.x1, y1: y1, origin: origin, mask: nil, destination, views)
            return
        }
        if item.blit != nil && boxes.count <= 8 || drawsBoxesOneByOne(item) {
            // A copy's pixels do not depend on where a composite starts (a transformed source's can, by pixman's
            // rounding): a few boxes one by one cost less than a clip region made for them.
            for box in boxes {
                let a = max(box.y0, y0), b = min(box.y1, y1)
                guard b > a else { continue }
                try composite(item, x0: box.x0, y0: a, x1: box.x1, y1: b, origin: origin, mask: nil, destination, views)
            }
            return
        }
        let clipped = boxes.compactMap { box -> pixman_box32_t? in
            let a = max(box.y0, y0), b = min(box.y1, y1)
            guard b > a else { return nil }
            return pixman_box32_t(
                x1: Int32(box.x0) - left, y1: Int32(a) - top, x2: Int32(box.x1) - left, y2: Int32(b) - top)
        }
        guard !clipped.isEmpty else { return }
        var region = pixman_region32_t()
        _ = clipped.withUnsafeBufferPointer { pixman_region32_init_rects(&region, $0.baseAddress, Int32($0.count)) }
        pixman_image_set_clip_region32(destination, &region)
        defer {
            pixman_image_set_clip_region32(destination, nil)
            pixman_region32_fini(&region)
        }
        try composite(item, x0: bounds.x0, y0: y0, x1: bounds.x1, y1: y1, origin: origin, mask: nil, destination, views,
                      clipped: true)
    }

    /// Composites the quad's source over target pixels x0..<x1, y0..<y1 (the destination's (0, 0) is target pixel
    /// `origin`), through `mask` (whose (0, 0) is (x0, y0)) or the quad's opacity.
    private func composite(
        _ item: CPUPreparedQuad, x0: Int, y0: Int, x1: Int, y1: Int, origin: (x: Int32, y: Int32), mask: OpaquePointer?,
        maskOffset: (x: Int32, y: Int32) = (0, 0), _ destination: OpaquePointer, _ views: CPUTextureViews,
        clipped: Bool = false
    ) throws {
        if let mip = item.mip, mip.fraction > 0 {
            return try compositeTrilinear(item, mip, x0: x0, y0: y0, x1: x1, y1: y1, origin: origin, mask: mask,
                                          maskOffset: maskOffset, destination, views)
        }
        if mask == nil, !clipped, fillSolid(item, x0: x0, y0: y0, x1: x1, y1: y1, origin: origin, destination) {
            return
        }
        guard let source = try source(for: item, views: views, region: (x0, y0, x1, y1)) else { return }
        defer { if source.owned { pixman_image_unref(source.image) } }
        var opacity: OpaquePointer?
        let scaledSolid = item.solid != nil && !item.quad.hasAnalyticCoverage
        if mask == nil, !scaledSolid, item.opacityMask < 255 {
            opacity = views.opacityMask(item.opacityMask)
        }
        let opaqueSolid = mask == nil && opacity == nil && item.solid.map { $0.quantized.alpha == 255 } == true
        var image = source.image, offset = source.offset
        var operation = opaqueSolid ? PIXMAN_OP_SRC : PIXMAN_OP_OVER
        var tinted: OpaquePointer?
        defer { if let tinted { pixman_image_unref(tinted) } }
        if case .texture(let texture) = item.quad.paint, !texture.isPlain {
            // An emitter's particle (docs/semantics.md, "Emitter layers"): tinted, or added to what is below.
            if texture.additive { operation = PIXMAN_OP_ADD }
            if let tint = texture.tintBytes {
                tinted = try Self.tint(image, offset: offset, by: tint, x0: x0, y0: y0, x1: x1, y1: y1)
                image = tinted!
                offset = (Int32(-x0), Int32(-y0))
            }
        }
        if mask == nil, !clipped, source.plain, operation == PIXMAN_OP_OVER, tinted == nil, loops.over(
            image, sx: x0 + Int(offset.x), sy: y0 + Int(offset.y), opacity: opacity == nil ? 255 : item.opacityMask,
            onto: destination, dx: x0 - Int(origin.x), dy: y0 - Int(origin.y), width: x1 - x0, height: y1 - y0) {
            return
        }
        if mask == nil, !clipped, let transform = source.bilinear, operation == PIXMAN_OP_OVER, tinted == nil,
           loops.bilinearOver(
            image, transform: transform, x: x0 + Int(offset.x), y: y0 + Int(offset.y),
            opacity: opacity == nil ? 255 : item.opacityMask, onto: destination, dx: x0 - Int(origin.x),
            dy: y0 - Int(origin.y), width: x1 - x0, height: y1 - y0) {
            return
        }
        pixman_image_composite32(
            operation, image, mask ?? opacity, destination,
            Int32(x0) + offset.x, Int32(y0) + offset.y, maskOffset.x, maskOffset.y, Int32(x0) - origin.x,
            Int32(y0) - origin.y,
            Int32(x1 - x0), Int32(y1 - y0))
    }

    /// The source's pixels over target pixels x0..<x1, y0..<y1 (source pixel = target pixel + `offset`), each
    /// premultiplied channel multiplied by the tint's (x / 255, rounded): a buffer of the region's size, made by SRC
    /// through a solid mask with component alpha (which multiplies channel by channel).
    static func tint(
        _ source: OpaquePointer, offset: (x: Int32, y: Int32), by tint: (blue: UInt8, green: UInt8, red: UInt8, alpha: UInt8),
        x0: Int, y0: Int, x1: Int, y1: Int
    ) throws -> OpaquePointer {
        let (width, height) = (Int32(x1 - x0), Int32(y1 - y0))
        guard let buffer = pixman_image_create_bits(PIXMAN_a8r8g8b8, width, height, nil, 0) else {
            throw RenderError.failed("pixman could not make a \(width)x\(height) tint buffer")
        }
        var color = pixman_color_t(red: UInt16(tint.red) * 257, green: UInt16(tint.green) * 257,
                                   blue: UInt16(tint.blue) * 257, alpha: UInt16(tint.alpha) * 257)
        guard let factors = pixman_image_create_solid_fill(&color) else {
            pixman_image_unref(buffer)
            throw RenderError.failed("pixman could not make a solid fill")
        }
        defer { pixman_image_unref(factors) }
        pixman_image_set_component_alpha(factors, 1)
        pixman_image_composite32(PIXMAN_OP_SRC, source, factors, buffer, Int32(x0) + offset.x, Int32(y0) + offset.y,
                                 0, 0, 0, 0, width, height)
        return buffer
    }

    /// A pixman source for a quad's paint: `offset` is added to target coordinates to get source coordinates.
    struct Source {
        var image: OpaquePointer
        var offset: (x: Int32, y: Int32)
        var owned: Bool
        /// An image view without transform or filter (sampled 1:1: `CPUCompositeLoops.over` may draw it).
        var plain = false
        /// The transform of a view sampled bilinear through an affine map (`CPUCompositeLoops.bilinearOver` may
        /// draw it when the map is a scale along the axes).
        var bilinear: pixman_transform?
    }

    /// A solid fill, or the texture view with the quad's transform and filter (nil for a degenerate mapping).
    private func source(
        for item: CPUPreparedQuad, views: CPUTextureViews, region: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) throws -> Source? {
        if let blit = item.blit {
            guard let view = views.view(slot: blit.slot, of: prepared) else {
                throw RenderError.failed("pixman could not wrap \(blit.image)")
            }
            return Source(image: view, offset: blit.offset, owned: false, plain: true)
        }
        let quad = item.quad
        switch quad.paint {
        case .shadow:
            // Resolved to textures before the bands start.
            return nil
        case .solid:
            let bytes = (item.solid ?? PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)).quantized
            var pixel = pixman_color_t(
                red: UInt16(bytes.red) * 257, green: UInt16(bytes.green) * 257, blue: UInt16(bytes.blue) * 257,
                alpha: UInt16(bytes.alpha) * 257)
            guard let fill = pixman_image_create_solid_fill(&pixel) else {
                throw RenderError.failed("pixman could not make a solid fill")
            }
            return Source(image: fill, offset: (0, 0), owned: true)
        case .texture(let texture):
            return try textureSource(item, texture, level: item.mip?.level ?? 0, views: views, region: region)
        }
    }

    /// The view of mip level `level` of the quad's texture (0: the image itself) with the quad's transform and
    /// filter (trilinear: bilinear within the level); nil for a degenerate mapping.
    func textureSource(
        _ item: CPUPreparedQuad, _ texture: TextureSource, level: Int, views: CPUTextureViews,
        region: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) throws -> Source? {
        let quad = item.quad
        let image = level == 0 ? texture.image : item.mipLevels[level]
        let clamp = texture.clamp.atMipLevel(level, width: texture.image.width, height: texture.image.height)
        guard let view = views.view(of: image, clamp: clamp) else {
            throw RenderError.failed("pixman could not wrap \(image)")
        }
        guard let levelZero = quad.targetToTexel(texture) else { return nil }
        let targetToView = MipSelection.map(levelZero, level: level)
            .concatenating(.translation(-CGFloat(clamp.x0), -CGFloat(clamp.y0)))
        if let offset = targetToView.integerTranslation {
            // Whole-pixel placement at 1:1: no transform and no filtering, so pixman takes its fastest path.
            pixman_image_set_transform(view, nil)
            pixman_image_set_filter(view, PIXMAN_FILTER_NEAREST, nil, 0)
            return Source(image: view, offset: (Int32(offset.x), Int32(offset.y)), owned: false, plain: true)
        }
        if !targetToView.isAffine || texture.filter == .nearest || !Self.fitsFixedPoint(targetToView, region: region) {
            // Perspective: sampled here, as the GLES shader samples (pixman's projective path drifts). So are maps
            // that reach texels beyond pixman's 16.16 fixed point (a contentsRect far outside the image), where
            // pixman would wrap around: the shader clamps them to the edge texels. And nearest sampling that is not
            // a whole-pixel copy: pixman's 16.16 matrix is off by up to 1/65536 per pixel, so across a scaled or
            // rotated image its sample points drift by thousandths of a texel and take the neighbouring texel where
            // a point lies that close to an edge; in doubles the two renderers part only within float rounding.
            guard let sampled = CPUProjectiveSampler.sample(
                image, clamp: clamp, targetToTexel: MipSelection.map(levelZero, level: level),
                filter: texture.filter == .nearest ? .nearest : .linear, x0: region.x0, y0: region.y0,
                x1: region.x1, y1: region.y1)
            else { throw RenderError.failed("pixman could not make a \(region) perspective buffer") }
            return Source(image: sampled, offset: (Int32(-region.x0), Int32(-region.y0)), owned: true)
        }
        guard var transform = Self.fixedPoint(targetToView) else { return nil }
        pixman_image_set_transform(view, &transform)
        let filter = texture.filter == .nearest ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR
        pixman_image_set_filter(view, filter, nil, 0)
        return Source(image: view, offset: (0, 0), owned: false,
                      bilinear: texture.filter == .nearest ? nil : transform)
    }

    /// True when `m`'s terms and the texel coordinates it maps the corners of `region` to (and so, being affine, all
    /// of it) fit pixman's 16.16 fixed point with room to spare. The translation terms count too: a thin layer
    /// (a sliver 0.03 points tall, 384 texels a pixel) far down the target maps its own pixels near texel 0 through
    /// a translation of -37,299, which pixman cannot hold (the map would be refused and the quad not drawn).
    static func fitsFixedPoint(_ m: Matrix3, region: (x0: Int, y0: Int, x1: Int, y1: Int)) -> Bool {
        let limit: CGFloat = 16_384
        // Written out: array literals here were allocated for every scaled sprite of a frame.
        guard abs(m.m11) < limit, abs(m.m12) < limit, abs(m.m21) < limit, abs(m.m22) < limit, abs(m.m31) < limit,
              abs(m.m32) < limit
        else { return false }
        // An affine map's w is 1 exactly (x 0 + y 0 + 1), and a division by 1 changes nothing: the divisions, most of
        // this check's time on every scaled sprite, are left out for it.
        let affine = m.isAffine
        func fits(_ x: Int, _ y: Int) -> Bool {
            let h = m.apply(CGPoint(x: CGFloat(x), y: CGFloat(y)))
            let p = affine ? CGPoint(x: h.x, y: h.y) : h.projected
            return abs(p.x) < limit && abs(p.y) < limit
        }
        return fits(region.x0, region.y0) && fits(region.x1, region.y0) && fits(region.x0, region.y1)
            && fits(region.x1, region.y1)
    }

    /// `m` (affine) as pixman's 16.16 matrix, as `pixman_transform_from_pixman_f_transform` converts
    /// `pixmanMatrix(m)`: each term rounded half up to 1/65536, nil when one lies outside ±32767. Worked out here
    /// because the call, one per scaled sprite, cost as much as the rest of the sprite's copy.
    static func fixedPoint(_ m: Matrix3) -> pixman_transform? {
        let terms = (Double(m.m11), Double(m.m21), Double(m.m31), Double(m.m12), Double(m.m22), Double(m.m32),
                     Double(m.m13), Double(m.m23), Double(m.m33))
        // NaN fails the comparisons (pixman would take it and convert it to an undefined integer).
        func fits(_ d: Double) -> Bool { d >= -32767 && d <= 32767 }
        guard fits(terms.0), fits(terms.1), fits(terms.2), fits(terms.3), fits(terms.4), fits(terms.5),
              fits(terms.6), fits(terms.7), fits(terms.8)
        else { return nil }
        // In range, floor(d x 65536 + 0.5) fits 32 bits.
        func fixed(_ d: Double) -> pixman_fixed_t {
            pixman_fixed_t(truncatingIfNeeded: Int64((d * 65536 + 0.5).rounded(.down)))
        }
        return pixman_transform(matrix: ((fixed(terms.0), fixed(terms.1), fixed(terms.2)),
                                         (fixed(terms.3), fixed(terms.4), fixed(terms.5)),
                                         (fixed(terms.6), fixed(terms.7), fixed(terms.8))))
    }

    /// Lamina's row-vector Matrix3 (affine here) as pixman's column-vector double matrix.
    static func pixmanMatrix(_ m: Matrix3) -> pixman_f_transform {
        pixman_f_transform(m: (
            (Double(m.m11), Double(m.m21), Double(m.m31)),
            (Double(m.m12), Double(m.m22), Double(m.m32)),
            (Double(m.m13), Double(m.m23), Double(m.m33))))
    }
}
