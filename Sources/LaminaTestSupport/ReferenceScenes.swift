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

    /// The renderers the tests run on: the CPU renderer and, when an EGL display opens, the GLES renderer.
    /// `LAMINA_RENDERER=cpu` or `gles` limits the run to one (`auto` or unset: both).
    public static func renderers() -> [Renderer] {
        var result: [Renderer] = []
        if choice != "gles" { result.append(CPURenderer()) }
        if choice != "cpu", let gles = GLESAvailability.renderer() { result.append(gles) }
        return result
    }

    /// `LAMINA_RENDERER`, read once for the test process. Anything but cpu, gles or auto stops the run with a
    /// message, rather than quietly testing both renderers (or neither).
    static let choice: String = {
        let value = ProcessInfo.processInfo.environment["LAMINA_RENDERER"] ?? "auto"
        guard ["auto", "cpu", "gles"].contains(value) else {
            fatalError("LAMINA_RENDERER=\(value): expected auto, cpu or gles")
        }
        return value
    }()

    /// Renders the scene of `probesPath` (relative to `folder`) at each of its scales and returns the failures,
    /// leaving the image of each failing render under FailureArtifacts.
    public static func check(_ probesPath: String, in folder: URL, renderer: Renderer) throws -> [String] {
        let probesURL = folder.appendingPathComponent(probesPath)
        let probes = try ProbeFile.load(probesURL)
        let sceneURL = probesURL.deletingLastPathComponent().appendingPathComponent(probes.scene)
        let scene = try Scene.load(contentsOf: sceneURL)
        var failures: [String] = []
        // In the probes' order (a scene's timeline goes back too, but forwards costs least).
        for time in probes.times {
            scene.advance(to: time)
            let atTime = probes.probes.filter { ($0.time ?? 0) == time }
            for scale in probes.scales ?? [1, 2] {
                let image = try renderer.render(scene.root, scale: CGFloat(scale), at: time)
                let failed = image.failedProbes(atTime, scale: CGFloat(scale))
                if !failed.isEmpty {
                    let name = probesPath.replacingOccurrences(of: ".probes.json", with: "")
                        + (time == 0 ? "" : "@\(time)s") + "@\(scale)x-\(renderer.name)"
                    let folder = FailureArtifacts.write(test: name, images: ["actual": image])
                    failures += failed.map { "\(probesPath) [\(renderer.name)]: \($0) (image in \(folder))" }
                }
            }
        }
        return failures
    }
}
