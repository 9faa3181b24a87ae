import Foundation

/// Counters of the last frame a renderer drew.
public struct RenderStatistics: Hashable, Sendable {
    /// Quads in the plan.
    public var quads = 0
    /// Quads that touched at least one pixel.
    public var quadsDrawn = 0
    /// Quads left undrawn because an opaque quad drawn straight onto the target after them covers all of it (the
    /// CPU renderer: all of every band it drew), so that none of their pixels could show (RenderPlan+Occlusion.swift).
    public var quadsHidden = 0
    /// Rasteriser calls (pixman composites, or GL draw calls).
    public var drawCalls = 0
    /// GL instances drawn (boxes of pixels; a sprite seen through a rounded rectangle is one, its coverage
    /// computed by the fragment shader); 0 for the CPU renderer.
    public var instances = 0
    /// Rows of the GLES span table uploaded for this frame (quads under the pixel-centre rule that are turned, sheared
    /// or clipped obliquely, drawn by coverage over their box); 0 for the CPU renderer.
    public var spanTableRows = 0
    /// Entries of the GLES shape table uploaded for this frame (quads whose coverage the fragment shader computes:
    /// rounded shapes, and turned quads with antialiased edges); 0 for the CPU renderer.
    public var shapeTableEntries = 0
    /// Bytes of image data uploaded or converted for this frame.
    public var bytesUploaded = 0
    /// Offscreen passes (group opacity, masks, shadows); 0 for a flat plan.
    public var offscreenPasses = 0
    /// Seconds spent copying image data to the GPU (0 for the CPU renderer, which reads images in place).
    public var uploadSeconds: Double = 0
    /// Seconds of the renderer's CPU preparation of the frame before it draws: the CPU renderer's quad preparation
    /// (coverage, mip levels, texture views); GLES encoding (texture uploads included) and the instance and span
    /// uploads. With the plan's stages (`lastPlanTimings` in LaminaLayers), a frame's CPU build time.
    public var prepareSeconds: Double = 0
    /// Shadows drawn and blurred this frame (each counts two offscreen passes: silhouette and blur).
    public var shadowsBlurred = 0
    /// Shadows taken from the renderer's cache: unchanged since an earlier frame, not blurred again.
    public var shadowsReused = 0
    /// Target pixels drawn this frame: the whole target, or the damage a retained frame redrew
    /// (`render(_:into:redrawing:)`); 0 for a frame with nothing to redraw.
    public var pixelsRedrawn = 0
    /// Pixels in the target.
    public var targetPixels = 0
    /// The share of the target redrawn (0...1): 1 for a full frame, less for an incremental one.
    public var damagedShare: Double { targetPixels == 0 ? 0 : Double(pixelsRedrawn) / Double(targetPixels) }

    public init() {}
}

/// A consumer of render plans: it rasterises a plan and never sees a layer
/// (docs/architecture.md, "Plan first, render second").
/// `render(_:scale:)` for a layer tree is added by LaminaLayers.
public protocol Renderer: AnyObject {
    /// A short name ("cpu", "gles").
    var name: String { get }
    /// Counters of the last frame.
    var statistics: RenderStatistics { get }
    /// Renders `plan` into a new transparent image of the plan's size.
    func render(_ plan: RenderPlan) throws -> Image
    /// Renders `plan` over the current contents of `target`, which must have the plan's size.
    func render(_ plan: RenderPlan, into target: Image) throws
    /// Redraws the pixels of `region` in `target`, which must have the plan's size and hold, outside `region`, this
    /// plan's pixels already (a retained frame): `region` is cleared and the plan drawn inside it only; the other
    /// pixels are not touched. What a live frame does with its damage (`RetainedFrames`).
    func render(_ plan: RenderPlan, into target: Image, redrawing region: DamageRegion) throws
    /// The limit on the memory the renderer allocates: the output image of `render(_:)`, offscreen buffers
    /// (groups, masks, shadows) and GPU textures, each reserved before it is allocated; over it, rendering
    /// throws `MemoryLimitError`. A budget of 2 GiB of its own unless set; share one with
    /// `SceneOptions.memoryBudget` so that decoded images count too.
    var memoryBudget: MemoryBudget { get set }
    /// What this renderer keeps between frames for the planner (plan fragments, planned shadows): its own, so that
    /// renderers drawing one tree do not evict each other's.
    var caches: RendererCaches { get }
}

extension Renderer {
    /// The plain way, for renderers with nothing better: the whole target cleared and drawn again.
    public func render(_ plan: RenderPlan, into target: Image, redrawing region: DamageRegion) throws {
        guard !region.isEmpty else { return }
        memset(target.baseAddress, 0, target.byteCount)
        try render(plan, into: target)
    }

    public func render(_ plan: RenderPlan) throws -> Image {
        try plan.validate()
        let reservation = try memoryBudget.reserve(
            plan.width * plan.height * 4, for: "the \(plan.width)x\(plan.height) output image")
        let target = try Image(width: plan.width, height: plan.height)
        // Held by the image: the bytes come back when the caller lets it go.
        target.memoryReservation = reservation
        try render(plan, into: target)
        return target
    }
}
