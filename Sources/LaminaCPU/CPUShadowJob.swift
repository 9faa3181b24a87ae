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
    /// the silhouette took.
    func make(_ index: Int, renderer: CPURenderer) {
        slots[index] = Result {
            // Validated with the plan that holds the shadow (`RenderPlan.validate()` checks every silhouette).
            let silhouette = try renderer.renderValid(sources[index].silhouette)
            return (try sources[index].blurred(from: silhouette), renderer.statistics.offscreenPasses)
        }
    }
}
