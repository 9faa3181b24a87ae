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
    /// Numbers the frame's whole-pixel texture copies for the bands' views (`CPUBlit`).
    private let textureSlots = CPUTextureSlots()
    /// Which images are opaque throughout, for occlusion (`RenderPlan.lastOpaqueQuads`).
    let opaqueImages = OpaqueImages()
    /// false: every quad is drawn in every band (tests compare the pictures with occlusion and without).
    var usesOcclusion = true
    /// false: every quad takes the general path (tests compare the fast paths with it, pixel for pixel).
    var usesFastPaths = true
    /// How the frame's quads are prepared: on every core (`threads`) from `CPUPreparation.parallelMinimum` quads
    /// on, unless `LAMINA_CPU_PREPARE` (`serial`, `parallel`) or a test forces a way. Every way makes the same
    /// prepared quads, so the same pixels.
    var preparation = CPUPreparation.default
    /// The threads that prepared the last frame's quads (1: the calling thread alone).
    private(set) var lastPreparationWorkers = 1
    /// The loops that composite the common cases (`CPUCompositeLoops`): Lamina's SIMD loops by default, pixman's
    /// with `.pixman`. Every form makes the same bytes.
    public var compositeLoops = CPUCompositeLoops.default

    /// A renderer using `threads` threads (default: one per core).
    public init(threads: Int = Processors.active) {
        self.threads = max(1, threads)
    }

    /// The pixman library's version, e.g. "0.42.2".
    public static var pixmanVersion: String { String(cString: pixman_version_string()) }

    // Each public entry validates its plan once, first, and the drawing below never again
    // (docs/architecture.md, "Validation at the front door").

    /// Renders into a new transparent image (reserved from `memoryBudget` first).
    public func render(_ plan: RenderPlan) throws -> Image {
        try plan.validate()
        let reservation = try memoryBudget.reserve(
            plan.width * plan.height * 4, for: "the \(plan.width)x\(plan.height) output image")
        let target = try Image(width: plan.width, height: plan.height)
        target.memoryReservation = reservation
        try drawWhole(plan, into: target)
        return target
    }

    public func render(_ plan: RenderPlan, into target: Image) throws {
        try plan.validate()
        try checkTarget(target, for: plan)
        try drawWhole(plan, into: target)
    }

    /// Draws a valid plan over all of `target`, in bands for the threads (a shadow's silhouette too: `CPUShadowJob`).
    func drawWhole(_ plan: RenderPlan, into target: Image) throws {
        // Two bands per thread even out uneven scenes; bands of fewer than 16 rows are not worth a thread.
        let bandCount = threads == 1 ? 1 : max(1, min(threads * 2, plan.height / 16))
        let areas = (0..<bandCount).map {
            PixelBox(x0: 0, y0: $0 * plan.height / bandCount, x1: plan.width, y1: ($0 + 1) * plan.height / bandCount)
        }
        try draw(plan, into: target, areas: areas, clear: false)
    }

    /// Clears `region` of `target` and draws the plan there only: the part of the plan that reaches the region
    /// (`RenderPlan.restricted(to:)`), each of its rectangles cut into bands for the threads.
    public func render(_ plan: RenderPlan, into target: Image, redrawing region: DamageRegion) throws {
        // The whole plan, even when only a corner is redrawn: a bad quad or group is the same error on every frame,
        // and `restricted(to:)` may rely on the plan being valid.
        try plan.validate()
        try checkTarget(target, for: plan)
        let region = region.clipped(to: PixelBox(x0: 0, y0: 0, x1: plan.width, y1: plan.height))
        guard !region.isEmpty else {
            var stats = RenderStatistics()
            stats.quads = plan.quads.count
            stats.targetPixels = plan.width * plan.height
            statistics = stats
            return
        }
        let areas = Self.areas(of: region, pieces: threads == 1 ? 1 : threads * 2)
        let restricted = plan.restricted(to: region)
        try draw(restricted, into: target, areas: areas, clear: true, planQuads: plan.quads.count)
    }

    /// The rectangles of `region` cut into horizontal pieces of at least 16 rows, about `pieces` in all, so that
    /// the threads share the work.
    static func areas(of region: DamageRegion, pieces: Int) -> [PixelBox] {
        let rows = max(16, region.rects.reduce(0) { $0 + $1.height } / max(1, pieces))
        var areas: [PixelBox] = []
        for rect in region.rects {
            var top = rect.y0
            while top < rect.y1 {
                let bottom = rect.y1 - top < rows * 2 ? rect.y1 : top + rows
                areas.append(PixelBox(x0: rect.x0, y0: top, x1: rect.x1, y1: bottom))
                top = bottom
            }
        }
        return areas
    }

    private func checkTarget(_ target: Image, for plan: RenderPlan) throws {
        guard target.width == plan.width, target.height == plan.height else {
            throw RenderError.targetMismatch(
                "plan is \(plan.width)x\(plan.height), target is \(target.width)x\(target.height)")
        }
    }

    /// Draws `plan` in `areas` of `target` (disjoint rectangles, in parallel), clearing each first when `clear`.
    /// `planQuads`: the quads of the whole plan, when `plan` is a part of it (for the statistics).
    private func draw(_ plan: RenderPlan, into target: Image, areas: [PixelBox], clear: Bool, planQuads: Int? = nil)
        throws
    {
        defer { target.markModified() }
        var stats = RenderStatistics()
        let quads = try resolveShadows(plan.quads, statistics: &stats)
        defer { shadows.endFrame() }
        // Mip chains are built here, before the bands start (once per image generation; cached on the image).
        defer { coverages.endFrame() }
        defer { textureSlots.endFrame() }
        defer { opaqueImages.endFrame() }
        let slots = usesFastPaths ? textureSlots : nil
        let preparing = DispatchTime.now().uptimeNanoseconds
        let prepared = try CPUPreparedQuads(quads, width: plan.width, height: plan.height, coverages: coverages,
                                            slots: slots, budget: memoryBudget,
                                            threads: preparation.threads(threads, quads: quads.count))
        stats.prepareSeconds = Double(DispatchTime.now().uptimeNanoseconds - preparing) / 1e9
        lastPreparationWorkers = prepared.workers
        let workers = min(areas.count, threads)
        while bandViews.count < workers { bandViews.append(CPUTextureViews()) }
        let groupMemory = try reserveGroupBuffers(plan.nesting, rows: areas.map { $0.y0..<$0.y1 },
                                                  concurrent: workers)
        defer { groupMemory.release() }
        let job = CPUBandJob(prepared: prepared, plan: plan, target: target, areas: areas, clear: clear,
                             views: Array(bandViews.prefix(workers)), loops: compositeLoops,
                             opaqueImages: usesOcclusion ? opaqueImages : nil)
        if workers <= 1 {
            for index in areas.indices { job.draw(area: index, slot: 0) }
        } else {
            // Each worker (with its own texture views) takes areas in turn until none is left.
            let next = AreaCounter()
            DispatchQueue.concurrentPerform(iterations: workers) { slot in
                while let index = next.take(below: areas.count) { job.draw(area: index, slot: slot) }
            }
        }
        if let error = job.error { throw error }
        stats.quads = planQuads ?? plan.quads.count
        // Quads before the opaque quad that covers every area were drawn in none (`CPUBandJob.firstVisible`).
        let hidden = job.firstVisible.map { $0 ?? 0 }.min() ?? 0
        stats.quadsHidden = hidden
        stats.quadsDrawn = prepared.indices.reduce(0) { $0 + (prepared[$1].isEmpty || $1 < hidden ? 0 : 1) }
        stats.drawCalls = stats.quadsDrawn
        stats.pixelsRedrawn = areas.reduce(0) { $0 + $1.area }
        stats.targetPixels = plan.width * plan.height
        // Passes inside silhouettes (their groups) were counted as the silhouettes were drawn, as the GLES renderer
        // counts them.
        stats.offscreenPasses += plan.groups.count + 2 * stats.shadowsBlurred
        statistics = stats
    }

    // MARK: Shadows (drawn and blurred in CPURenderer+Shadows.swift)

    /// Blurred shadows by source, forgotten after 4 frames unused (the GLES renderer's policy too).
    let shadows = FrameCache<ShadowKey, Image>(keep: 4)
    /// Draws silhouettes (which may hold shadows of their own).
    lazy var silhouetteRenderer = {
        let renderer = CPURenderer(threads: threads)
        renderer.compositeLoops = compositeLoops
        renderer.preparation = preparation
        renderer.memoryBudget = memoryBudget
        return renderer
    }()

    /// Shadows whose blurred picture was kept from an earlier frame.
    public var cachedShadowCount: Int { shadows.count }
}

/// Hands out numbers (band areas, chunks of quads to prepare) to the threads of one frame.
final class AreaCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0

    func take(below count: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}

/// How a `CPURenderer` prepares a frame's quads (`CPUPreparedQuads`): the same prepared quads every way.
enum CPUPreparation: String, Sendable {
    /// On every one of the renderer's threads from `parallelMinimum` quads on, for a renderer of
    /// `parallelMinimumThreads` threads or more; else on the calling thread.
    case automatic
    /// On the calling thread.
    case serial
    /// On every one of the renderer's threads, however few the quads (tests).
    case parallel

    /// The fewest quads prepared in parallel by `automatic`: below it, starting the workers costs more than they
    /// save.
    static let parallelMinimum = 256

    /// The fewest threads `automatic` prepares on. The calling thread's ordered pass keeps 15 to 46% of the work
    /// (docs/benchmarks.md, "Preparing quads on every core (2026-11-27)"); in release builds two threads measured
    /// as fast as one on whole-pixel sprites and up to a third faster where quads take the general path (a tiny
    /// output, nine-slice cells), so every renderer of more than one thread prepares in parallel.
    static let parallelMinimumThreads = 2

    /// `LAMINA_CPU_PREPARE`'s way (`automatic`, `serial`, `parallel`), else `automatic`.
    static let `default` = ProcessInfo.processInfo.environment["LAMINA_CPU_PREPARE"]
        .flatMap { CPUPreparation(rawValue: $0.lowercased()) } ?? .automatic

    /// The threads preparing `quads` quads for a renderer of `threads` threads.
    func threads(_ threads: Int, quads: Int) -> Int {
        switch self {
        case .automatic: quads >= Self.parallelMinimum && threads >= Self.parallelMinimumThreads ? threads : 1
        case .serial: 1
        case .parallel: threads
        }
    }
}
