import LaminaCore

/// Shadows made side by side: each slot is written by one worker. The slots are plain memory, not an array
/// property: writing elements of one Swift array from several threads is an exclusivity violation (ThreadSanitizer
/// reports it) even when the elements differ.
final class CPUShadowJob: @unchecked Sendable {
    let sources: [ShadowSource]
    private let slots: UnsafeMutablePointer<Result<(Image, Int), Error>>

    init(_ sources: [ShadowSource]) {
        self.sources = sources
        slots = .allocate(capacity: max(sources.count, 1))
        slots.initialize(repeating: .failure(RenderError.failed("shadow not made")), count: sources.count)
    }

    deinit {
        slots.deinitialize(count: sources.count)
        slots.deallocate()
    }

    /// Each shadow's picture and the offscreen passes its silhouette took, or the error that stopped it.
    var results: [Result<(Image, Int), Error>] { Array(UnsafeBufferPointer(start: slots, count: sources.count)) }

    /// Draws shadow `index`'s silhouette with `renderer` and blurs it; keeps the picture and the offscreen passes
    /// the silhouette took. Every buffer is reserved from the renderer's budget first: the silhouette, its group
    /// buffers (by the renderer, while it draws), then the blurred picture (held by the picture, which the shadow
    /// cache keeps) and the blur's scratch (the float row pass, and the reduced silhouette when the blur is reduced).
    func make(_ index: Int, renderer: CPURenderer) {
        slots[index] = Result {
            let source = sources[index]
            let budget = renderer.memoryBudget
            let plan = source.silhouette
            let held = try budget.reserve(plan.width * plan.height * 4,
                                          for: "the \(plan.width)x\(plan.height) silhouette of a shadow")
            let silhouette = try Image(width: plan.width, height: plan.height)
            silhouette.memoryReservation = held
            // Validated with the plan that holds the shadow (`RenderPlan.validate()` checks every silhouette).
            try renderer.drawWhole(plan, into: silhouette)
            let (width, height) = (source.blurWidth, source.blurHeight)
            let picture = try budget.reserve(width * height * 4, for: "the blurred picture of a \(width)x\(height) shadow")
            let scratch = try budget.reserve(width * height * (source.blur.factor == 1 ? 4 : 8),
                                             for: "the blur buffers of a \(width)x\(height) shadow")
            defer { scratch.release() }
            let image = try source.blurred(from: silhouette)
            image.memoryReservation = picture
            return (image, renderer.statistics.offscreenPasses)
        }
    }
}
