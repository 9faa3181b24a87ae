import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Random trees changed frame after frame: a plan made with the renderer's plan cache (reused, moved and re-planned
/// subtrees) must draw what a plan from scratch draws. Moved quads may differ from planned ones in the last bit of
/// a coordinate, so where the quads differ the pictures must be the same, pixel for pixel.
@Suite struct IncrementalRandomTests {
    static let baseSeed = RandomScenes.baseSeed(fallback: 14_000)

    /// Every layer of the tree, masks included, in a stable order.
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

    /// One random change of the kinds frames see: moves (whole, fractional), colours, opacity, visibility, turns,
    /// clips, removals and additions.
    func change(_ root: Layer, random: inout TreeRandom) -> String {
        let all = layers(root)
        let layer = all[random.below(all.count)]
        switch random.below(9) {
        case 0:
            layer.position.x += CGFloat(random.below(21) - 10)
            return "move \(layer.id) by whole points"
        case 1:
            layer.position.y += CGFloat(random.between(-5, 5))
            return "move \(layer.id) by a fraction"
        case 2:
            layer.backgroundColor = Color(red: random.unit(), green: random.unit(), blue: random.unit(), alpha: 1)
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
        default:
            let added = Layer(frame: CGRect(x: random.between(0, 40), y: random.between(0, 40), width: 12, height: 9))
            added.backgroundColor = .blue
            layer.addSublayer(added)
            return "add under \(layer.id)"
        }
    }

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
                history.append(change(root, random: &random))
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
