import Foundation
import Lamina

/// Reference scenes: NAME.json beside NAME.probes.json, grouped in folders by area (WebRender's reftests,
/// Weston's one corpus for every renderer).
public enum ReferenceScenes {
    /// The probes files under `folder`, as paths relative to it ("core/gravity.probes.json"), sorted.
    public static func probeFiles(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".probes.json") }.sorted()
    }

    /// The renderers the tests run on: `LAMINA_RENDERER` = cpu (default) or all.
    public static func renderers() -> [Renderer] {
        [CPURenderer()]
    }

    /// Renders the scene of `probesPath` (relative to `folder`) at each of its scales and returns the failures,
    /// leaving the image of each failing render under FailureArtifacts.
    public static func check(_ probesPath: String, in folder: URL, renderer: Renderer) throws -> [String] {
        let probesURL = folder.appendingPathComponent(probesPath)
        let probes = try ProbeFile.load(probesURL)
        let sceneURL = probesURL.deletingLastPathComponent().appendingPathComponent(probes.scene)
        let scene = try Scene.load(contentsOf: sceneURL)
        var failures: [String] = []
        for scale in probes.scales ?? [1, 2] {
            let image = try renderer.render(scene.root, scale: CGFloat(scale))
            let failed = image.failedProbes(probes.probes, scale: CGFloat(scale))
            if !failed.isEmpty {
                let name = probesPath.replacingOccurrences(of: ".probes.json", with: "") + "@\(scale)x-\(renderer.name)"
                let folder = FailureArtifacts.write(test: name, images: ["actual": image])
                failures += failed.map { "\(probesPath) [\(renderer.name)]: \($0) (image in \(folder))" }
            }
        }
        return failures
    }
}
