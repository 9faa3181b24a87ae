import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Live frames (`renderer.render(root)`: plan damage, retained images, only the damage redrawn) against a fresh
/// renderer drawing a plan from scratch, byte for byte, after each of thousands of random changes: moves, colours,
/// additions, removals, re-orders, masks, shadows, corner radii, textures changed in place, frames the caller keeps.
@Suite struct LiveFrameRandomTests {
    static let baseSeed = RandomScenes.baseSeed(fallback: 16_000)

    func layers(_ root: Layer) -> [Layer] {
        var all: [Layer] = []
        var pending = [root]
        while let layer = pending.popLast() {
            all.append(layer)
            pending.append(contentsOf: layer.sublayers.reversed())
            if let mask = layer.mask { pending.append(mask) }
        }
        return all
    }

    /// One random change; returns what it did.
    func change(_ root: Layer, random: inout TreeRandom) -> String {
        let all = layers(root)
        let layer = all[random.below(all.count)]
        switch random.below(16) {
        case 0:
            layer.position.x += CGFloat(random.below(21) - 10)
            return "move \(layer.id) by whole points"
        case 1:
            layer.position.y += CGFloat(random.between(-5, 5))
            return "move \(layer.id) by a fraction"
        case 2:
            layer.backgroundColor = Color(red: random.unit(), green: random.unit(), blue: random.unit(),
                                          alpha: random.chance(0.7) ? 1 : random.unit())
            return "colour \(layer.id)"
        case 3:
            layer.opacity = Float(random.between(0.2, 1))
            return "opacity \(layer.id)"
        case 4:
            layer.isHidden.toggle()
            return "hide \(layer.id)"
        case 5:
            layer.transform = Transform3D(rotationAngle: CGFloat(random.between(-0.5, 0.5)))
            return "turn \(layer.id)"
        case 6:
            layer.masksToBounds.toggle()
            return "clip \(layer.id)"
        case 7:
            guard layer !== root else { return "none" }
            layer.removeFromSuperlayer()
            return "remove \(layer.id)"
        case 8:
            // Re-order: a sublayer goes to another place among its siblings.
            guard let parent = layer.superlayer, parent.mask !== layer, parent.sublayers.count > 1 else { return "none" }
            let index = random.below(parent.sublayers.count)
            parent.insertSublayer(layer, at: index)
            return "re-order \(layer.id) to \(index)"
        case 9:
            layer.zPosition = CGFloat(random.below(3) - 1)
            return "zPosition \(layer.id)"
        case 10:
            if layer.mask != nil {
                layer.mask = nil
                return "unmask \(layer.id)"
            }
            let mask = Layer(frame: CGRect(x: random.between(0, 20), y: random.between(0, 20), width: 30, height: 24))
            mask.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: random.chance(0.5) ? 1 : 0.5)
            mask.cornerRadius = random.chance(0.5) ? 6 : 0
            layer.mask = mask
            return "mask \(layer.id)"
        case 11:
            layer.shadowOpacity = random.chance(0.3) ? 0 : Float(random.between(0.3, 1))
            layer.shadowRadius = CGFloat(random.below(6))
            layer.shadowOffset = CGSize(width: random.below(7) - 3, height: random.below(7) - 3)
            return "shadow \(layer.id)"
        case 12:
            layer.cornerRadius = CGFloat(random.below(3) * 4)
            return "corners \(layer.id)"
        case 13:
            // A texture changed in place: every layer showing it must be redrawn.
            guard let image = layer.contents else { return "none" }
            let x = random.below(image.width), y = random.below(image.height)
            image.baseAddress.storeBytes(of: UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000,
                                         toByteOffset: y * image.bytesPerRow + x * 4, as: UInt32.self)
            image.markModified()
            return "texel (\(x), \(y)) of \(layer.id)"
        case 14:
            layer.borderWidth = CGFloat(random.below(3))
            layer.borderColor = .red
            return "border \(layer.id)"
        default:
            let added = Layer(frame: CGRect(x: random.between(0, 40), y: random.between(0, 40), width: 12, height: 9))
            added.backgroundColor = .blue
            layer.addSublayer(added)
            return "add under \(layer.id)"
        }
    }

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
                    history.append(change(root, random: &random))
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
