import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Live frames (`renderer.render(root)`: plan damage, retained images, only the damage redrawn) against a fresh
/// renderer drawing a plan from scratch, byte for byte, after each of thousands of random changes: moves, colours,
/// additions, removals, re-orders, masks, shadows, corner radii, textures changed in place, frames the caller keeps.
@Suite struct LiveFrameRandomTests {
    static let baseSeed = RandomScenes.baseSeed(fallback: 16_000)

    /// Runs `scenes` random scenes of `steps` changes each through a live renderer made by `make`, comparing every
    /// frame with a fresh renderer's picture of a plan from scratch.
    func check(scenes: Int, steps: Int, make: () throws -> Renderer) throws -> (failures: [String], frames: Int,
                                                                                  redrawn: Double) {
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        var failures: [String] = []
        var frames = 0
        var redrawn = 0.0
        for index in 0..<scenes {
            let seed = Self.baseSeed &+ UInt64(index)
            let scene = RandomScenes.valid(seed: seed)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-live-\(getpid())-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let loaded = try Scene.load(contentsOf: try scene.write(to: folder))
            let root = loaded.root
            let live = try make()
            let fresh = try make()
            var random = TreeRandom(seed: seed)
            var history: [String] = []
            var kept: [(image: Image, bytes: Data, step: Int)] = []
            for step in 0..<steps {
                let frame = try live.render(root, scale: loaded.scale)
                let expected = try fresh.render(Planner(scale: loaded.scale).plan(root))
                frames += 1
                redrawn += live.statistics.damagedShare
                if frame.width != expected.width || frame.height != expected.height
                    || memcmp(frame.baseAddress, expected.baseAddress, frame.byteCount) != 0
                {
                    let diff = ImageDifference(frame, expected, premultiplied: true).map { "\($0)" } ?? "sizes differ"
                    failures.append("seed \(seed) step \(step) after \(history.suffix(4)): \(diff)")
                    break
                }
                // Sometimes the caller keeps a frame: it must never change after.
                if random.chance(0.3) {
                    kept.append((frame, Data(bytes: frame.baseAddress, count: frame.byteCount), step))
                    if kept.count > 3 { kept.removeFirst() }
                }
                for (image, bytes, at) in kept where bytes != Data(bytes: image.baseAddress, count: image.byteCount) {
                    failures.append("seed \(seed): the frame of step \(at), kept by the caller, changed by step \(step)")
                }
                // Sometimes nothing changes between frames, sometimes several things do.
                for _ in 0..<(random.chance(0.2) ? 0 : random.chance(0.2) ? 3 : 1) {
                    history.append(RandomChanges.change(root, random: &random))
                }
            }
        }
        return (failures, frames, frames == 0 ? 0 : redrawn / Double(frames))
    }

    @Test func cpuLiveFramesEqualFreshFrames() throws {
        let scenes = max(RandomScenes.count(fallback: 500) / 8, 1)
        let result = try check(scenes: scenes, steps: 40) { CPURenderer() }
        #expect(result.failures.isEmpty, "\(result.failures.prefix(5))")
        #expect(result.frames >= scenes * 40 / 2)
        // Most frames redraw a part only (a frame after no change redraws nothing).
        #expect(result.redrawn < 0.9, "mean share redrawn \(result.redrawn)")
    }

    @Test(.enabled(if: GLESAvailability.skipReason == nil)) func glesLiveFramesEqualFreshFrames() throws {
        let scenes = max(RandomScenes.count(fallback: 500) / 20, 1)
        // Without the atlas: a fresh renderer packs images into other atlas slots than the live one, and a slot's
        // place can move bilinear weights by a float step; each image in a texture of its own, the
        // two must agree to the byte.
        let options = GLESRenderer.Options(atlasMaxImageSize: 0)
        let result = try check(scenes: scenes, steps: 40) { try #require(GLESAvailability.renderer(options: options)) }
        #expect(result.failures.isEmpty, "\(result.failures.prefix(5))")
        #expect(result.redrawn < 0.9, "mean share redrawn \(result.redrawn)")
    }
}
