import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Random access in time for Lottie files (docs/animation.md, "Random access in time"): one loaded scene, and one
/// `LottieAnimation` layer, drawn at shuffled times have the same pixels, byte for byte, as fresh loads drawn at
/// each time, on every renderer, live frames included; expressions (time, wiggle, loopOut) hold no state between
/// frames.
@Suite struct LottieRandomAccessTests {
    /// Expressions, precomps with time remapping and start times, an animated matte, trim paths and a repeater.
    static let files = ["expression-time.json", "expression-wiggle.json", "expression-loop-out.json",
                        "precomp-time-remap.json", "precomp-start-time.json", "matte-animated.json",
                        "trim-animated.json", "repeater-rotate.json"]
    /// Seconds, out of order, past the out point (the animation loops) and back.
    static let times = [0.7, 0.1, 0.95, 0.0, 1.3, 0.25, 2.05]

    static func url(_ file: String) -> URL { LottieCorpusTests.folder.appendingPathComponent(file) }

    static func identical(_ a: Image, _ b: Image) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height {
            for x in 0..<a.width where a.word(x: x, y: y) != b.word(x: x, y: y) { return false }
        }
        return true
    }

    @Test(arguments: files)
    func aSceneDrawsShuffledTimesAsFreshLoads(_ file: String) throws {
        for renderer in ReferenceScenes.renderers() {
            let scene = try Scene.load(contentsOf: Self.url(file))
            for (index, time) in Self.times.enumerated() {
                scene.advance(to: time)
                // Live frames and still ones in turn, as a player seeking and an export would draw.
                let image = index % 2 == 0
                    ? try renderer.render(renderer.livePlan(scene.root, scale: 1, at: time).plan)
                    : try renderer.render(scene.root, scale: 1, at: time)
                let fresh = try Scene.load(contentsOf: Self.url(file))
                fresh.advance(to: time)
                let expected = try renderer.render(fresh.root, scale: 1, at: time)
                #expect(Self.identical(image, expected), "\(file), \(renderer.name), at \(time) s")
            }
        }
    }

    @Test(arguments: ["expression-wiggle.json", "precomp-time-remap.json"])
    func anAnimationsLayerDrawsShuffledTimesAsFreshLayers(_ file: String) throws {
        let animation = try LottieAnimation(contentsOf: Self.url(file))
        for renderer in ReferenceScenes.renderers() {
            let layer = animation.makeLayer()
            for time in Self.times {
                let image = try renderer.render(layer, at: time)
                let expected = try renderer.render(animation.makeLayer(), at: time)
                #expect(Self.identical(image, expected), "\(file), \(renderer.name), at \(time) s")
            }
        }
    }
}
