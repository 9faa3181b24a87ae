import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// examples/animation.json, the scene of the README's strip of frames, loads and animates on every renderer.
@Suite struct ExampleSceneTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/animation.json")

    @Test func theAnimationExampleMovesAndAgreesOnEveryRenderer() throws {
        var pictures: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            var scene = try Scene.load(contentsOf: Self.file)
            #expect(scene.duration == 2 && scene.fps == 30)
            let start = try renderer.render(scene.root, at: 0)
            // The spinner starts at x = 40 (centre), unturned: red at its centre, background to its right.
            #expect(start.rgba(x: 40, y: 88) == RGBA8(r: 0xE5, g: 0x39, b: 0x35, a: 255), "\(renderer.name)")
            #expect(start.rgba(x: 70, y: 88) == RGBA8(r: 0xF4, g: 0xF1, b: 0xEA, a: 255), "\(renderer.name)")
            scene.advance(to: 1.3)
            let later = try renderer.render(scene.root, at: 1.3)
            // By then the spinner has gone right along its spline, and the card has turned yellow-ish.
            #expect(later.rgba(x: 40, y: 88) == RGBA8(r: 0xF4, g: 0xF1, b: 0xEA, a: 255), "\(renderer.name)")
            pictures.append(later)
        }
        if pictures.count == 2 { #expect(ImageDifference.meetsParity(pictures[0], pictures[1])) }
    }
}
