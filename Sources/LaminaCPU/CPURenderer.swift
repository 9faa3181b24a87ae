import CPixman
import Foundation
import LaminaCore

/// The CPU renderer: rasterises a RenderPlan with pixman (SIMD fast paths, as cairo and Weston use) on
/// premultiplied BGRA memory, following docs/semantics.md, "Pixels": pixel-centre coverage with the top-left rule
/// (Quad.pixelCoverage), analytic coverage for antialiased edges, texel centres at i + 0.5, the no-bleed clamp
/// (CPUTextureViews), bilinear or nearest sampling and premultiplied source-over.
///
/// It uses every core: each quad's coverage is worked out once, then horizontal bands of the target are
/// composited in parallel, every band drawing every quad that reaches it, in plan order. Rows never interact
/// and pixman computes each row from its own start, so the pixels are those of a single thread (a test checks).
///
/// A renderer belongs to the thread that uses it; it keeps no GPU or shared state.
public final class CPURenderer: Renderer {
    public let name = "cpu"
    public private(set) var statistics = RenderStatistics()
    /// Threads that composite bands in parallel (1: everything on the calling thread).
    public let threads: Int
    /// Reserved from before the output, group, mask and shadow buffers are allocated (`Renderer.memoryBudget`).
    public var memoryBudget = MemoryBudget()
    /// The planner's caches for the trees this renderer draws (`Renderer.caches`).
    public let caches = RendererCaches()
    private var bandViews: [CPUTextureViews] = []
    /// The edge masks of rounded and antialiased quads, kept while they come back unchanged.
    private let coverages = FrameCache<CoverageKey, CPUPreparedQuad.Coverage>()

    /// A renderer using `threads` threads (default: one per core).
    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.threads = max(1, threads)
    }

    /// The pixman library's version, e.g. "0.42.2".
    public static var pixmanVersion: String { String(cString: pixman_version_string()) }

    public func render(_ plan: RenderPlan, into target: Image) throws {
        try plan.validate()
        guard target.width == plan.width, target.height == plan.height else {
            throw RenderError.targetMismatch(
                "plan is \(plan.width)x\(plan.height), target is \(target.width)x\(target.height)")
        }
        defer { target.markModified() }
        frame += 1
        var stats = RenderStatistics()
        let shadowMemory = try reserveShadowBuffers(plan.quads)
        defer { shadowMemory.release() }
        let quads = try resolveShadows(plan.quads, statistics: &stats)
        defer { shadows = shadows.filter { $0.value.lastUsed + 4 > frame } }
        // Mip chains are built here, before the bands start (once per image generation; cached on the image).
        defer { coverages.endFrame() }
        let prepared = try quads.map {
            try CPUPreparedQuad($0, width: plan.width, height: plan.height, coverages: coverages).withMipLevels()
        }
        // Two bands per thread even out uneven scenes; bands of fewer than 16 rows are not worth a thread.
        let bandCount = threads == 1 ? 1 : max(1, min(threads * 2, plan.height / 16))
        while bandViews.count < bandCount { bandViews.append(CPUTextureViews()) }
        let rows = (0...bandCount).map { $0 * plan.height / bandCount }
        let groupMemory = try reserveGroupBuffers(plan.groups, rows: rows)
        defer { groupMemory.release() }
        let job = CPUBandJob(
            prepared: prepared, plan: plan, target: target, rows: rows,
            views: Array(bandViews.prefix(bandCount)))
        if bandCount == 1 {
            job.draw(band: 0)
        } else {
            DispatchQueue.concurrentPerform(iterations: bandCount) { job.draw(band: $0) }
        }
        if let error = job.error { throw error }
        stats.quads = plan.quads.count
        stats.quadsDrawn = prepared.reduce(0) { $0 + ($1.isEmpty ? 0 : 1) }
        stats.drawCalls = stats.quadsDrawn
        // Passes inside silhouettes (their groups) were counted as the silhouettes were drawn, as the GLES renderer
        // counts them.
        stats.offscreenPasses += plan.groups.count + 2 * stats.shadowsBlurred
        statistics = stats
    }

    // MARK: Shadows

    /// Blurred shadows by source, with the frame that last used them.
    private var shadows: [ShadowSource: (image: Image, lastUsed: Int)] = [:]
    private var frame = 0
    /// Draws silhouettes (which may hold shadows of their own).
    private lazy var silhouetteRenderer = CPURenderer(threads: threads)

    /// Shadows whose blurred picture was kept from an earlier frame.
    public var cachedShadowCount: Int { shadows.count }

    /// `quads` with every shadow replaced by its blurred picture as a texture: from the cache when an equal shadow
    /// was made in the last few frames, else drawn and blurred now.
    private func resolveShadows(_ quads: [Quad], statistics: inout RenderStatistics) throws -> [Quad] {
        guard quads.contains(where: { if case .shadow = $0.paint { return true } else { return false } }) else {
            return quads
        }
        // The shadows to make, each once, made side by side on every core (each silhouette drawn by a renderer of
        // its own on one thread).
        var missing: [ShadowSource] = []
        var seen = Set<ShadowSource>()
        for quad in quads {
            if case .shadow(let source) = quad.paint, shadows[source] == nil, seen.insert(source).inserted {
                missing.append(source)
            }
        }
        if !missing.isEmpty {
            let made = CPUShadowJob(missing)
            if missing.count == 1 || threads == 1 {
                for index in missing.indices { made.make(index, renderer: silhouetteRenderer) }
            } else {
                let (workers, count) = (min(threads, missing.count), missing.count)
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    let renderer = CPURenderer(threads: 1)
                    var index = worker
                    while index < count {
                        made.make(index, renderer: renderer)
                        index += workers
                    }
                }
            }
            for (source, result) in zip(missing, made.results) {
                let (image, passes) = try result.get()
                shadows[source] = (image, frame)
                statistics.offscreenPasses += passes
                statistics.shadowsBlurred += 1
            }
        }
        var resolved = quads
        for index in resolved.indices {
            guard case .shadow(let source) = resolved[index].paint, let cached = shadows[source] else { continue }
            if !seen.contains(source) { statistics.shadowsReused += 1 }
            shadows[source] = (cached.image, frame)
            resolved[index].paint = .texture(source.texture(of: cached.image))
        }
        return resolved
    }
}

/// One quad with its covered pixels worked out (once, for every band).
struct CPUPreparedQuad: @unchecked Sendable {
    enum Coverage {
        /// Nothing to draw.
        case none
        /// Every pixel of one box.
        case box(PixelBox)
        /// Every pixel of several boxes (a non-rectangular shape under the pixel-centre rule).
        case boxes([PixelBox], bounds: PixelBox)
        /// Analytic coverage (antialiased edges, shapes): see CPUEdgeCoverage (a class, so the prepared quads that
        /// 10,000 sprites make stay small).
        case analytic(CPUEdgeCoverage)
    }

    let quad: Quad
    let coverage: Coverage
    /// The solid colour to composite (opacity applied, unless the mask carries it), or nil for a texture.
    let solid: PremultipliedColor?
    /// The opacity as a solid mask where no coverage mask carries it (textures, and solids of analytic quads, whose
    /// `solid` is unscaled); 255: no mask.
    let opacityMask: UInt8
    /// Trilinear minification: the levels to sample (nil: level 0 alone), and the image's mip chain.
    private(set) var mip: MipSelection?
    private(set) var mipLevels: [Image] = []

    var isEmpty: Bool {
        if case .none = coverage { return true }
        return false
    }

    init(_ quad: Quad, width: Int, height: Int, coverages: FrameCache<CoverageKey, Coverage>? = nil) {
        self.quad = quad
        let opacity = min(max(quad.opacity, 0), 1)
        var solidColor: PremultipliedColor?
        if case .solid(let color) = quad.paint { solidColor = color }
        opacityMask = PremultipliedColor.byte(opacity)
        if quad.hasAnalyticCoverage {
            // The full boxes go through the opacity as a mask, the edge pixels through a mask of coverage x
            // opacity; both apply to the source at full strength, as the GLES renderer does.
            solid = solidColor
            let make = { Self.analytic(quad.analyticCoverage(width: width, height: height), opacity: opacity) }
            coverage = coverages?.value(for: CoverageKey(quad, width: width, height: height, opacity: opacity),
                                        make: make) ?? make()
            return
        }
        solid = solidColor?.scaled(by: opacity)
        let visible = solid.map { $0.quantized.alpha > 0 } ?? (opacityMask > 0)
        guard visible else {
            coverage = .none
            return
        }
        let pixels = quad.pixelCoverage(width: width, height: height)
        switch pixels {
        case .none:
            coverage = .none
        case .rect(let x0, let y0, let x1, let y1):
            coverage = .box(PixelBox(x0: x0, y0: y0, x1: x1, y1: y1))
        case .spans:
            let boxes = pixels.boxes
            var bounds = boxes[0]
            for box in boxes {
                bounds.x0 = min(bounds.x0, box.x0); bounds.x1 = max(bounds.x1, box.x1)
                bounds.y1 = max(bounds.y1, box.y1)
            }
            coverage = .boxes(boxes, bounds: bounds)
        }
    }

    private static func analytic(_ coverage: AntialiasedCoverage, opacity: Float) -> Coverage {
        let opacityByte = PremultipliedColor.byte(opacity)
        let full = opacityByte > 0 ? coverage.full : []
        let partial = coverage.partial.filter { PartialPixel.alpha($0.coverage, opacity: opacity) > 0 }
        guard !full.isEmpty || !partial.isEmpty else { return .none }
        var fullBounds: PixelBox?
        for box in full {
            fullBounds = fullBounds.map {
                PixelBox(x0: min($0.x0, box.x0), y0: min($0.y0, box.y0), x1: max($0.x1, box.x1), y1: max($0.y1, box.y1))
            } ?? box
        }
        guard !partial.isEmpty else {
            return .analytic(CPUEdgeCoverage(full: full, fullBounds: fullBounds, mask: [],
                                             bounds: PixelBox(x0: 0, y0: 0, x1: 0, y1: 0), stride: 0, pieces: []))
        }
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for pixel in partial {
            x0 = min(x0, Int(pixel.x)); y0 = min(y0, Int(pixel.y))
            x1 = max(x1, Int(pixel.x) + 1); y1 = max(y1, Int(pixel.y) + 1)
        }
        let stride = (x1 - x0 + 3) & ~3
        var bytes = [UInt8](repeating: 0, count: stride * (y1 - y0))
        for pixel in partial {
            bytes[(Int(pixel.y) - y0) * stride + Int(pixel.x) - x0] = PartialPixel.alpha(pixel.coverage, opacity: opacity)
        }
        // Composited a piece at a time, near the pixels the mask holds (pieces relative to the mask).
        let pieces = AntialiasedCoverage(partial: partial).pieces().map {
            PixelBox(x0: $0.x0 - x0, y0: $0.y0 - y0, x1: $0.x1 - x0, y1: $0.y1 - y0)
        }
        return .analytic(CPUEdgeCoverage(full: full, fullBounds: fullBounds, mask: bytes,
                         bounds: PixelBox(x0: x0, y0: y0, x1: x1, y1: y1), stride: stride, pieces: pieces))
    }
}

/// The pixels of a quad with analytic coverage: boxes covered wholly (drawn like plain boxes, with the quad's
/// opacity), and the partly covered pixels as an 8-bit mask of coverage x opacity over `bounds`, rows of `stride`
/// bytes (pixman wants a multiple of 4), drawn a piece at a time (`pieces`, mask-relative boxes holding every
/// non-zero byte) so that a thin outline does not cost its whole bounding box. Shared read-only by the bands.
final class CPUEdgeCoverage: @unchecked Sendable {
    let full: [PixelBox]
    let fullBounds: PixelBox?
    let mask: [UInt8]
    let bounds: PixelBox
    let stride: Int
    let pieces: [PixelBox]

    init(full: [PixelBox], fullBounds: PixelBox?, mask: [UInt8], bounds: PixelBox, stride: Int, pieces: [PixelBox]) {
        (self.full, self.fullBounds, self.mask, self.bounds, self.stride, self.pieces) =
            (full, fullBounds, mask, bounds, stride, pieces)
    }
}

/// The bands of one frame: each draws every prepared quad clipped to its rows, into its own pixman view of the
/// target (pixman images are not shared between threads; their memory is). A group is drawn into an offscreen
/// buffer covering the group's pixels in the band's rows, then composited with its opacity.
final class CPUBandJob: @unchecked Sendable {
    let prepared: [CPUPreparedQuad]
    /// The plan (for its groups, through `forEachStep`).
    let plan: RenderPlan
    let target: Image
    let rows: [Int]
    let views: [CPUTextureViews]
    private let lock = NSLock()
    private(set) var error: Error?

    init(prepared: [CPUPreparedQuad], plan: RenderPlan, target: Image, rows: [Int], views: [CPUTextureViews]) {
        self.prepared = prepared
        self.plan = plan
        self.target = target
        self.rows = rows
        self.views = views
    }

    func draw(band: Int) {
        let top = rows[band], bottom = rows[band + 1]
        guard bottom > top else { return }
        let views = views[band]
        defer { views.removeAll() }
        let first = target.baseAddress.advanced(by: top * target.bytesPerRow).assumingMemoryBound(to: UInt32.self)
        guard let destination = pixman_image_create_bits_no_clear(
            PIXMAN_a8r8g8b8, Int32(target.width), Int32(bottom - top), first, Int32(target.bytesPerRow))
        else { return fail(RenderError.failed("pixman could not wrap rows \(top)..<\(bottom) of the target")) }
        defer { pixman_image_unref(destination) }
        // Where quads go now: the band, or the innermost open group's buffer (nil when the group misses the band).
        struct Target {
            var image: OpaquePointer?
            var origin: (x: Int, y: Int)
            var rows: Range<Int>
            var group: PlanGroup?
            /// true: this buffer holds `group`'s mask, above its content buffer.
            var isMask = false
        }
        var stack = [Target(image: destination, origin: (0, top), rows: top..<bottom, group: nil)]
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
            var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(PremultipliedColor.byte(group.opacity)) * 257)
            let mask = pixman_image_create_solid_fill(&alpha)
            defer { if let mask { pixman_image_unref(mask) } }
            pixman_image_composite32(
                PIXMAN_OP_OVER, image, mask, into, 0, 0, 0, 0, Int32(group.bounds.x0 - parent.origin.x),
                Int32(done.rows.lowerBound - parent.origin.y), Int32(group.bounds.x1 - group.bounds.x0),
                Int32(done.rows.count))
        }
        do {
            try plan.forEachStep { step in
                switch step {
                case .begin(let group):
                    let outer = stack[stack.count - 1]
                    let low = max(group.bounds.y0, outer.rows.lowerBound)
                    let rows = low..<max(low, min(group.bounds.y1, outer.rows.upperBound))
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
                    guard let into = current.image else { return }
                    try draw(prepared[index], rows: current.rows, into: into, origin: current.origin, views: views)
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
    private func draw(
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
        try composite(item, x0: bounds.x0, y0: y0, x1: bounds.x1, y1: y1, origin: origin, mask: nil, destination, views)
    }

    /// Composites the quad's source over target pixels x0..<x1, y0..<y1 (the destination's (0, 0) is target pixel
    /// `origin`), through `mask` (whose (0, 0) is (x0, y0)) or the quad's opacity.
    private func composite(
        _ item: CPUPreparedQuad, x0: Int, y0: Int, x1: Int, y1: Int, origin: (x: Int32, y: Int32), mask: OpaquePointer?,
        maskOffset: (x: Int32, y: Int32) = (0, 0), _ destination: OpaquePointer, _ views: CPUTextureViews
    ) throws {
        if let mip = item.mip, mip.fraction > 0 {
            return try compositeTrilinear(item, mip, x0: x0, y0: y0, x1: x1, y1: y1, origin: origin, mask: mask,
                                          maskOffset: maskOffset, destination, views)
        }
        guard let source = try source(for: item, views: views, region: (x0, y0, x1, y1)) else { return }
        defer { if source.owned { pixman_image_unref(source.image) } }
        var opacity: OpaquePointer?
        let scaledSolid = item.solid != nil && !item.quad.hasAnalyticCoverage
        if mask == nil, !scaledSolid, item.opacityMask < 255 {
            var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(item.opacityMask) * 257)
            opacity = pixman_image_create_solid_fill(&alpha)
        }
        defer { if let opacity { pixman_image_unref(opacity) } }
        let opaqueSolid = mask == nil && opacity == nil && item.solid.map { $0.quantized.alpha == 255 } == true
        pixman_image_composite32(
            opaqueSolid ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, source.image, mask ?? opacity, destination,
            Int32(x0) + source.offset.x, Int32(y0) + source.offset.y, maskOffset.x, maskOffset.y, Int32(x0) - origin.x,
            Int32(y0) - origin.y,
            Int32(x1 - x0), Int32(y1 - y0))
    }

    /// A pixman source for a quad's paint: `offset` is added to target coordinates to get source coordinates.
    fileprivate struct Source {
        var image: OpaquePointer
        var offset: (x: Int32, y: Int32)
        var owned: Bool
    }

    /// A solid fill, or the texture view with the quad's transform and filter (nil for a degenerate mapping).
    private func source(
        for item: CPUPreparedQuad, views: CPUTextureViews, region: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) throws -> Source? {
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
    fileprivate func textureSource(
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
            return Source(image: view, offset: (Int32(offset.x), Int32(offset.y)), owned: false)
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
        var transform = pixman_transform()
        var f = Self.pixmanMatrix(targetToView)
        guard pixman_transform_from_pixman_f_transform(&transform, &f) != 0 else { return nil }
        pixman_image_set_transform(view, &transform)
        let filter = texture.filter == .nearest ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR
        pixman_image_set_filter(view, filter, nil, 0)
        return Source(image: view, offset: (0, 0), owned: false)
    }

    /// True when `m` maps the corners of `region` (and so, being affine, all of it) to texel coordinates pixman's
    /// 16.16 fixed point holds with room to spare.
    private static func fitsFixedPoint(_ m: Matrix3, region: (x0: Int, y0: Int, x1: Int, y1: Int)) -> Bool {
        let limit: CGFloat = 16_384
        guard [m.m11, m.m12, m.m21, m.m22].allSatisfy({ abs($0) < limit }) else { return false }
        for (x, y) in [(region.x0, region.y0), (region.x1, region.y0), (region.x0, region.y1), (region.x1, region.y1)] {
            let p = m.apply(CGPoint(x: CGFloat(x), y: CGFloat(y))).projected
            guard abs(p.x) < limit, abs(p.y) < limit else { return false }
        }
        return true
    }

    /// Lamina's row-vector Matrix3 (affine here) as pixman's column-vector double matrix.
    private static func pixmanMatrix(_ m: Matrix3) -> pixman_f_transform {
        pixman_f_transform(m: (
            (Double(m.m11), Double(m.m21), Double(m.m31)),
            (Double(m.m12), Double(m.m22), Double(m.m32)),
            (Double(m.m13), Double(m.m23), Double(m.m33))))
    }
}

// MARK: Trilinear minification

extension CPUPreparedQuad {
    /// This quad with its texture's mip chain, when it samples levels other than level 0 alone.
    func withMipLevels() throws -> CPUPreparedQuad {
        guard !isEmpty, case .texture(let texture) = quad.paint, let selection = texture.mipSelection else {
            return self
        }
        var copy = self
        copy.mip = selection
        copy.mipLevels = try texture.image.mipChain()
        return copy
    }
}

extension CPUBandJob {
    /// Composites a quad that mixes two mip levels: level L bilinear into a buffer with SRC through a solid mask
    /// of 255 - fraction, level L + 1 with ADD through `fraction` (pixman rounds each product, as the GLES
    /// shader does), then the buffer over the target through the coverage mask or the opacity, as `composite`
    /// draws any texture.
    fileprivate func compositeTrilinear(
        _ item: CPUPreparedQuad, _ mip: MipSelection, x0: Int, y0: Int, x1: Int, y1: Int, origin: (x: Int32, y: Int32),
        mask: OpaquePointer?, maskOffset: (x: Int32, y: Int32), _ destination: OpaquePointer, _ views: CPUTextureViews
    ) throws {
        guard case .texture(let texture) = item.quad.paint else { return }
        let (width, height) = (Int32(x1 - x0), Int32(y1 - y0))
        guard let mixed = pixman_image_create_bits(PIXMAN_a8r8g8b8, width, height, nil, 0) else {
            throw RenderError.failed("pixman could not make a \(width)x\(height) trilinear buffer")
        }
        defer { pixman_image_unref(mixed) }
        let steps = [(mip.level, 255 - mip.fraction, PIXMAN_OP_SRC), (mip.level + 1, mip.fraction, PIXMAN_OP_ADD)]
        for (level, weight, op) in steps {
            guard let source = try textureSource(item, texture, level: level, views: views, region: (x0, y0, x1, y1))
            else { return }
            defer { if source.owned { pixman_image_unref(source.image) } }
            var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(weight) * 257)
            guard let weightMask = pixman_image_create_solid_fill(&alpha) else {
                throw RenderError.failed("pixman could not make a solid fill")
            }
            defer { pixman_image_unref(weightMask) }
            pixman_image_composite32(
                op, source.image, weightMask, mixed, Int32(x0) + source.offset.x, Int32(y0) + source.offset.y, 0, 0,
                0, 0, width, height)
        }
        var opacity: OpaquePointer?
        if mask == nil, item.opacityMask < 255 {
            var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(item.opacityMask) * 257)
            opacity = pixman_image_create_solid_fill(&alpha)
        }
        defer { if let opacity { pixman_image_unref(opacity) } }
        pixman_image_composite32(
            PIXMAN_OP_OVER, mixed, mask ?? opacity, destination, 0, 0, maskOffset.x, maskOffset.y, Int32(x0) - origin.x,
            Int32(y0) - origin.y, width, height)
    }
}

/// Shadows made side by side: each slot is written by one worker.
final class CPUShadowJob: @unchecked Sendable {
    let sources: [ShadowSource]
    private(set) var results: [Result<(Image, Int), Error>]

    init(_ sources: [ShadowSource]) {
        self.sources = sources
        results = Array(repeating: .failure(RenderError.failed("shadow not made")), count: sources.count)
    }

    /// Draws shadow `index`'s silhouette with `renderer` and blurs it; keeps the picture and the offscreen passes
    /// the silhouette took.
    func make(_ index: Int, renderer: CPURenderer) {
        results[index] = Result {
            let silhouette = try renderer.render(sources[index].silhouette)
            return (try sources[index].blurred(from: silhouette), renderer.statistics.offscreenPasses)
        }
    }
}
