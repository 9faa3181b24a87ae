import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Every reference scene rendered by both renderers at scale 1 and 2: the outputs meet the parity
/// bound of docs/semantics.md, "Parity" (at most 2 per channel on 99.9% of pixels, at most 8 anywhere). A failure
/// leaves cpu.png, gles.png and diff.png under .build/test-failures/parity-NAME@Sx/.
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct ParityTests {
    static let folder = Bundle.module.url(forResource: "Scenes", withExtension: nil)!

    @Test(arguments: ReferenceScenes.probeFiles(under: folder))
    func cpuAndGLESAgree(_ probesPath: String) throws {
        try Self.check(probesPath, gles: try #require(GLESAvailability.renderer()), label: "")
    }

    /// The same with the texture maps evaluated per pixel, as on a GPU (`evaluatesTextureMapsPerPixel`, off for
    /// llvmpipe, which interpolates them exactly): the programs an NVIDIA GPU runs meet parity here too.
    @Test(arguments: ReferenceScenes.probeFiles(under: folder))
    func cpuAndGLESWithPerPixelMapsAgree(_ probesPath: String) throws {
        var options = GLESRenderer.Options()
        options.evaluatesTextureMapsPerPixel = true
        let gles = try #require(GLESAvailability.renderer(options: options))
        #expect(gles.evaluatesTextureMapsPerPixel)
        try Self.check(probesPath, gles: gles, label: "-pixel-maps")
    }

    static func check(_ probesPath: String, gles: GLESRenderer, label: String) throws {
        let probes = try ProbeFile.load(Self.folder.appendingPathComponent(probesPath))
        let sceneURL = Self.folder.appendingPathComponent(probesPath).deletingLastPathComponent()
            .appendingPathComponent(probes.scene)
        let scene = try Scene.load(contentsOf: sceneURL)
        let cpu = CPURenderer()
        // Each probed time, in order (forwards costs the timeline least).
        for time in probes.times {
            scene.advance(to: time)
            for scale in [1.0, 2.0] {
                let a = try cpu.render(scene.root, scale: scale, at: time)
                let b = try gles.render(scene.root, scale: scale, at: time)
                let difference = try #require(ImageDifference(a, b, tolerance: 2))
                let ok = ImageDifference.meetsParity(a, b)
                if !ok {
                    var images = ["cpu": a, "gles": b]
                    images["diff"] = try ImageDifference.visualize(a, b)
                    let name = "parity\(label)-" + probesPath.replacingOccurrences(of: ".probes.json", with: "")
                        + (time == 0 ? "" : "@\(time)s") + "@\(Int(scale))x"
                    let folder = FailureArtifacts.write(test: name, images: images)
                    Issue.record("\(probesPath) at \(time) s, scale \(scale): max \(difference.maxChannelDifference), \(difference.pixelsOverTolerance) pixels over 2 of \(difference.pixelCount); images in \(folder)")
                }
            }
        }
    }
}
