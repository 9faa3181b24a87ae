import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Random trees changed frame after frame: a plan made with the renderer's plan cache (reused, moved and re-planned
/// subtrees) must draw what a plan from scratch draws. Moved quads may differ from planned ones in the last bit of
/// a coordinate, so where the quads differ the pictures must be the same, pixel for pixel.
@Suite struct IncrementalRandomTests {
    static let baseSeed = RandomScenes.baseSeed(fallback: 14_000)

    @Test func plansWithTheCacheDrawWhatPlansFromScratchDraw() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let count = max(RandomScenes.count(fallback: 500) / 10, 1)
        let renderer = CPURenderer()
        var failures: [String] = []
        for index in 0..<count {
            let seed = Self.baseSeed &+ UInt64(index)
            let scene = RandomScenes.valid(seed: seed)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-incremental-\(getpid())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let loaded = try Scene.load(contentsOf: try scene.write(to: folder))
            let root = loaded.root
            // Plans with its own plan cache, as it plans its frames.
            let planning = CPURenderer()
            var random = TreeRandom(seed: seed)
            var history: [String] = []
            for step in 0..<8 {
                let incremental = try planning.plan(root, scale: loaded.scale)
                let fresh = try Planner(scale: loaded.scale).plan(root)
                if incremental.quads != fresh.quads || incremental.groups != fresh.groups {
                    let b = try renderer.render(fresh)
                    let a: Image
                    do { a = try renderer.render(incremental) } catch {
                        failures.append("seed \(seed) step \(step) after \(history): \(error)")
                        break
                    }
                    let same = a.width == b.width && a.height == b.height
                        && memcmp(a.baseAddress, b.baseAddress, a.byteCount) == 0
                    if !same {
                        failures.append("seed \(seed) step \(step) after \(history): pictures differ")
                        break
                    }
                }
                history.append(RandomChanges.change(root, random: &random, kinds: 9))
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
