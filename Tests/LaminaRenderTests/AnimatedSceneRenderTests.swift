import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// A scene file's animation drawn at given times by every renderer: the pixels follow the animation and the
/// renderers agree.
@Suite struct AnimatedSceneRenderTests {
    /// A 20 x 20 red box whose centre moves from x 10 to x 90 in 1 s (linear), on white; model x 50.
    static let scene = #"""
        {"size": [100, 20], "backgroundColor": "#FFFFFF",
         "layers": [{"bounds": [0, 0, 20, 20], "position": [50, 10], "backgroundColor": "#FF0000",
                     "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 10, "toValue": 90,
                                     "duration": 1}]}]}
        """#

    private func load() throws -> Scene {
        try Scene.load(data: Data(Self.scene.utf8), baseDirectory: FileManager.default.temporaryDirectory,
                       fileName: "scene.json")
    }

    /// The red pixels' columns in row 10 at scale `scale`, in points.
    private func redSpan(_ image: Image, scale: Int) -> ClosedRange<Double>? {
        let red = (0..<image.width).filter { image.rgba(x: $0, y: 10 * scale) == RGBA8(r: 255, g: 0, b: 0, a: 255) }
        guard let first = red.first, let last = red.last else { return nil }
        return Double(first) / Double(scale)...Double(last + 1) / Double(scale)
    }

    @Test func positionAnimationAtTimes() throws {
        let scene = try load()
        for renderer in ReferenceScenes.renderers() {
            for scale in [1, 2] {
                // 0 s: centred at 10; 0.5 s: at 50; 1 s: over (removed), back at the model's 50.
                for (time, span) in [(0.0, 0.0...20.0), (0.5, 40.0...60.0), (1.0, 40.0...60.0), (0.25, 20.0...40.0)] {
                    let image = try renderer.render(scene.root, scale: CGFloat(scale), at: time)
                    #expect(redSpan(image, scale: scale) == span, "\(renderer.name) at \(time) s, scale \(scale)")
                }
            }
        }
    }

    @Test(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display"))
    func renderersAgreeAtEveryTime() throws {
        let scene = try load()
        let cpu = CPURenderer()
        let gles = try #require(GLESAvailability.renderer())
        // Fractional positions too, where edges fall between pixels.
        for time in [0.0, 0.1, 0.33, 0.5, 0.77, 1.0] {
            for scale in [1.0, 2.0] {
                let a = try cpu.render(scene.root, scale: scale, at: time)
                let b = try gles.render(scene.root, scale: scale, at: time)
                #expect(ImageDifference.meetsParity(a, b), "at \(time) s, scale \(scale)")
            }
        }
    }
}
