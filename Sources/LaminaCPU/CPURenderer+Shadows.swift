import Foundation
import LaminaCore

/// Shadows: each distinct `ShadowSource` of a frame is drawn and blurred once (side by side on every core) and kept
/// for the next frames that use it.
extension CPURenderer {
    /// `quads` with every shadow replaced by its blurred picture as a texture: from the cache when an equal shadow
    /// was made in the last few frames, else drawn and blurred now.
    func resolveShadows(_ quads: [Quad], statistics: inout RenderStatistics) throws -> [Quad] {
        guard quads.contains(where: { if case .shadow = $0.paint { return true } else { return false } }) else {
            return quads
        }
        // The shadows to make, each once, made side by side on every core (each silhouette drawn by a renderer of
        // its own on one thread).
        var missing: [ShadowSource] = []
        var seen = Set<ShadowSource>()
        var keys: [ShadowSource: ShadowKey] = [:]
        for quad in quads {
            guard case .shadow(let source) = quad.paint else { continue }
            let key = keys[source] ?? ShadowKey(source)
            keys[source] = key
            if !shadows.contains(key), seen.insert(source).inserted { missing.append(source) }
        }
        if !missing.isEmpty {
            // Each buffer reserves its bytes from the budget as it is made (CPUShadowJob), the silhouette renderers'
            // own group buffers included.
            let budget = memoryBudget
            if silhouetteRenderer.memoryBudget !== budget { silhouetteRenderer.memoryBudget = budget }
            let made = CPUShadowJob(missing)
            if missing.count == 1 || threads == 1 {
                for index in missing.indices { made.make(index, renderer: silhouetteRenderer) }
            } else {
                let (workers, count) = (min(threads, missing.count), missing.count)
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    let renderer = CPURenderer(threads: 1)
                    renderer.memoryBudget = budget
                    var index = worker
                    while index < count {
                        made.make(index, renderer: renderer)
                        index += workers
                    }
                }
            }
            for (source, result) in zip(missing, made.results) {
                let (image, passes) = try result.get()
                shadows.insert(image, for: keys[source]!)
                statistics.offscreenPasses += passes
                statistics.shadowsBlurred += 1
            }
        }
        var resolved = quads
        for index in resolved.indices {
            guard case .shadow(let source) = resolved[index].paint, let image = shadows.use(keys[source]!) else { continue }
            if !seen.contains(source) { statistics.shadowsReused += 1 }
            resolved[index].paint = .texture(source.texture(of: image))
        }
        return resolved
    }
}
