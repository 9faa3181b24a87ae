import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Animated specialised layers from a scene file, drawn at given times on both renderers at scales 1 and 2
/// (`lamina render --time`): a stroke drawn on, gradient colours crossing, a label growing, a replicator turning.
@Suite struct SpecialAnimationRenderTests {
    static let scene = #"""
    {
      "size": [200, 100], "backgroundColor": "#FFFFFF",
      "layers": [
        {"type": "shape", "frame": [0, 0, 200, 50],
         "path": [{"moveTo": [20, 25]}, {"lineTo": [180, 25]}], "fillColor": null, "strokeColor": "#000000",
         "lineWidth": 10,
         "animations": [{"type": "basic", "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 2}]},
        {"type": "gradient", "frame": [0, 50, 100, 50], "colors": ["#FF0000", "#FF0000"],
         "animations": [{"type": "basic", "keyPath": "colors", "fromValue": ["#FF0000", "#FF0000"],
                         "toValue": ["#0000FF", "#0000FF"], "duration": 2}]},
        {"type": "replicator", "frame": [100, 50, 100, 50], "instanceCount": 2,
         "instanceTransform": [{"translate": [50, 0]}],
         "animations": [{"type": "basic", "keyPath": "instanceColor", "fromValue": "#FFFFFF", "toValue": "#00FF00",
                         "duration": 2}],
         "sublayers": [{"frame": [10, 10, 30, 30], "backgroundColor": "#FFFFFF"}]}
      ]
    }
    """#

    @Test func framesAtGivenTimesAgreeWithTheAnimationsOnBothRenderers() throws {
        let loaded = try Scene.load(data: Data(Self.scene.utf8), baseDirectory: FileManager.default.temporaryDirectory,
                                    fileName: "animated.json")
        for scale in [CGFloat(1), 2] {
            var images: [Image] = []
            for renderer in ReferenceScenes.renderers() {
                let image = try renderer.render(loaded.root, scale: scale, at: 1)
                images.append(image)
                func pixel(_ x: CGFloat, _ y: CGFloat) -> RGBA8 { image.rgba(x: Int(x * scale), y: Int(y * scale)) }
                // Halfway: the stroke reaches x = 100.
                #expect(near(pixel(90, 25), 0, 0, 0), "\(renderer.name) \(scale): \(pixel(90, 25))")
                #expect(near(pixel(110, 25), 255, 255, 255), "\(renderer.name) \(scale): \(pixel(110, 25))")
                // Halfway from red to blue, on straight components.
                #expect(near(pixel(50, 75), 128, 0, 128, tolerance: 2), "\(renderer.name) \(scale): \(pixel(50, 75))")
                // Both instances tinted halfway from white to green: (128, 255, 128).
                #expect(near(pixel(125, 75), 128, 255, 128, tolerance: 2), "\(renderer.name) \(scale)")
                #expect(near(pixel(175, 75), 128, 255, 128, tolerance: 2), "\(renderer.name) \(scale)")
            }
            if images.count == 2 { #expect(ImageDifference.meetsParity(images[0], images[1]), "scale \(scale)") }
        }
    }
}
