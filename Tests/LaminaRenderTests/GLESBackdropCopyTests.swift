import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// Drivers without GL_EXT_shader_framebuffer_fetch (NVIDIA's among them) copy the pixels beneath a blended group
/// into a texture on unit 1 before blend.frag combines them (GLESRenderer+Blend.swift). llvmpipe offers the
/// extension, so without these tests that path ran nowhere in CI: on an NVIDIA H200 every quad drawn by coverage after
/// a blended group vanished (unit 1 was left unbound where the span table belongs), which took the demo's cube away.
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct GLESBackdropCopyTests {
    /// A GLES renderer that copies the backdrop, as on a driver without framebuffer fetch.
    static func copyingRenderer() throws -> GLESRenderer {
        let renderer = try #require(GLESAvailability.renderer())
        renderer.compiled.framebufferFetch = false
        #expect(!renderer.readsFramebufferInShaders)
        return renderer
    }

    static func check(_ cpu: Image, _ gles: Image, _ name: String) {
        guard let difference = ImageDifference(cpu, gles, tolerance: 2) else {
            Issue.record("\(name): sizes differ")
            return
        }
        if !ImageDifference.meetsParity(cpu, gles) {
            var images = ["cpu": cpu, "gles": gles]
            images["diff"] = try? ImageDifference.visualize(cpu, gles)
            let folder = FailureArtifacts.write(test: "backdrop-copy-" + name, images: images)
            Issue.record("\(name): max \(difference.maxChannelDifference), \(difference.pixelsOverTolerance) pixels over 2; images in \(folder)")
        }
    }

    /// A multiply group, then a turned square drawn by coverage (span table on unit 1): the square is there, in its
    /// colour, on both paths.
    @Test func aTurnedQuadAfterABlendedGroupIsDrawn() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 96, height: 64)
        root.backgroundColor = Color(red: 0.9, green: 0.9, blue: 1, alpha: 1)
        let disc = Layer(frame: CGRect(x: 4, y: 4, width: 40, height: 40))
        disc.backgroundColor = Color(red: 0, green: 0.7, blue: 0.9, alpha: 1)
        disc.cornerRadius = 20
        disc.compositingFilter = "multiplyBlendMode"
        let turned = Layer(frame: CGRect(x: 56, y: 16, width: 28, height: 28))
        turned.backgroundColor = .red
        turned.transform = Transform3D(rotationAngle: 0.5)
        root.sublayers = [disc, turned]
        let plan = try Planner(scale: 1).plan(root)
        let cpu = try CPURenderer().render(plan)
        let copying = try Self.copyingRenderer()
        let fetching = try #require(GLESAvailability.renderer())
        for (name, renderer) in [("copying", copying), ("fetching", fetching)] {
            let image = try renderer.render(plan)
            // The square's centre, (70, 30): red, as on the CPU renderer.
            #expect(image.rgba(x: 70, y: 30) == RGBA8(r: 255, g: 0, b: 0, a: 255), "\(name): \(image.rgba(x: 70, y: 30))")
            #expect(image.rgba(x: 70, y: 30) == cpu.rgba(x: 70, y: 30))
            Self.check(cpu, image, "turned-after-multiply-\(name)")
        }
    }

    /// The demo (`lamina render` with no scene): three multiply discs, then a cube of perspective faces.
    @Test func theDemoIsTheCPURenderersPicture() throws {
        let plan = try Planner(scale: 1).plan(try Demo.makeRoot())
        let cpu = try CPURenderer().render(plan)
        Self.check(cpu, try Self.copyingRenderer().render(plan), "demo")
    }

    /// Every reference scene with a blend mode or compositing operation, on the copying path: its probes and parity
    /// with the CPU renderer.
    @Test(arguments: ReferenceScenes.probeFiles(under: ParityTests.folder).filter { $0.hasPrefix("blend/") })
    func blendedReferenceScenesAgree(_ probesPath: String) throws {
        let renderer = try Self.copyingRenderer()
        #expect(try ReferenceScenes.check(probesPath, in: ParityTests.folder, renderer: renderer) == [])
        let probes = try ProbeFile.load(ParityTests.folder.appendingPathComponent(probesPath))
        let scene = try Scene.load(contentsOf: ParityTests.folder.appendingPathComponent(probesPath)
            .deletingLastPathComponent().appendingPathComponent(probes.scene))
        for time in probes.times {
            scene.advance(to: time)
            for scale in [1.0, 2.0] {
                Self.check(try CPURenderer().render(scene.root, scale: scale, at: time),
                           try renderer.render(scene.root, scale: scale, at: time),
                           probesPath.replacingOccurrences(of: "/", with: "_") + "@\(Int(scale))x")
            }
        }
    }
}
