import LaminaCore

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
