import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

/// The benchmark scenes' frames as `lamina bench` makes them (each frame's change, then a live frame at its time)
/// against fresh renders of the same tree at the same time, byte for byte, on both renderers: the frames whose build
/// time the benchmarks measure (animated node values, node updates, patches) must be the pictures a fresh renderer
/// makes.
@Suite struct BenchLiveFrameTests {
    /// The scenes whose trees change or animate between frames (the others' live frames are their first one again),
    /// but for those of 20,000 layers or more: seconds a frame in a debug build, on the paths of the 10,000-sprite
    /// scenes (`moving-100k` is `parent-moving-10k`'s usual plan, `emitter-20k` a picture per frame).
    static let scenes: [BenchScene] = [.drawn1kRedraw10, .deeptree, .cards500Moving, .text1kChange10, .shadowRadius30,
                                       .parentMoving10k, .animated1k, .animated10k]

    static func differences(_ a: Image, _ b: Image) -> Int {
        guard a.width == b.width, a.height == b.height else { return a.width * a.height + 1 }
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a.word(x: x, y: y) != b.word(x: x, y: y) { count += 1 }
        }
        return count
    }

    @Test(arguments: scenes)
    func liveBenchFramesEqualFreshFrames(scene: BenchScene) throws {
        let size = CGSize(width: 160, height: 90)
        var failures: [String] = []
        for (index, renderer) in ReferenceScenes.renderers().enumerated() {
            let root = try scene.makeRoot(size: size)
            let fresh = ReferenceScenes.renderers()[index]
            for frame in 0..<4 {
                scene.prepareFrame(root, frame: frame)
                let time = 1 + Double(frame) / 60
                let live = try renderer.render(root, scale: 1, at: time)
                let expected = try fresh.render(Planner(scale: 1).plan(root, at: time))
                let unlike = Self.differences(live, expected)
                if unlike > 0 { failures.append("\(renderer.name) frame \(frame): \(unlike) pixels differ") }
            }
        }
        #expect(failures.isEmpty, "\(scene.rawValue): \(failures)")
    }

    /// `lamina bench --live`'s tree at 2,000 sprites: every sprite moved (a patch of 2,000 node updates), then a
    /// hundred, then one, then every one again. Each live frame must be the fresh renderer's picture
    /// (`IncrementalPlanTests.aPatchMovesEverySublayerThatMoved` checks that such a frame is a patch).
    @Test func liveTreeFramesWhereEverySpriteMovesEqualFreshFrames() throws {
        let size = CGSize(width: 160, height: 90)
        let changes: [LiveTree.Change] = [.all, .hundred, .one, .all]
        var failures: [String] = []
        for (index, renderer) in ReferenceScenes.renderers().enumerated() {
            let tree = try LiveTree(count: 2_000, size: size)
            let fresh = ReferenceScenes.renderers()[index]
            _ = try renderer.render(tree.root, scale: 1, at: 1)
            for (frame, change) in changes.enumerated() {
                tree.apply(change)
                let live = try renderer.render(tree.root, scale: 1, at: 1)
                let expected = try fresh.render(Planner(scale: 1).plan(tree.root, at: 1))
                let unlike = Self.differences(live, expected)
                if unlike > 0 {
                    failures.append("\(renderer.name) frame \(frame) (\(change)): \(unlike) pixels differ")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
