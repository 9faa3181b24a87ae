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
    /// false: every quad takes the general path (tests compare the fast paths with it, pixel for pixel).
    var usesFastPaths = true

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
        var stats = RenderStatistics()
        let shadowMemory = try reserveShadowBuffers(plan.quads)
        defer { shadowMemory.release() }
        let quads = try resolveShadows(plan.quads, statistics: &stats)
        defer { shadows.endFrame() }
        // Mip chains are built here, before the bands start (once per image generation; cached on the image).
        defer { coverages.endFrame() }
        defer { textureSlots.endFrame() }
        let slots = usesFastPaths ? textureSlots : nil
        let prepared = try CPUPreparedQuads(quads, slots: slots) {
            try CPUPreparedQuad($0, width: plan.width, height: plan.height, coverages: coverages, slots: slots)
                .withMipLevels()
        }
        // Two bands per thread even out uneven scenes; bands of fewer than 16 rows are not worth a thread.
        let bandCount = threads == 1 ? 1 : max(1, min(threads * 2, plan.height / 16))
        while bandViews.count < bandCount { bandViews.append(CPUTextureViews()) }
        let rows = (0...bandCount).map { $0 * plan.height / bandCount }
        let groupMemory = try reserveGroupBuffers(plan.nesting, rows: rows)
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

    // MARK: Shadows (drawn and blurred in CPURenderer+Shadows.swift)

    /// Blurred shadows by source, forgotten after 4 frames unused (the GLES renderer's policy too).
    let shadows = FrameCache<ShadowSource, Image>(keep: 4)
    /// Draws silhouettes (which may hold shadows of their own).
    lazy var silhouetteRenderer = CPURenderer(threads: threads)

    /// Shadows whose blurred picture was kept from an earlier frame.
    public var cachedShadowCount: Int { shadows.count }
}
