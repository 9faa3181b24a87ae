import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Property-based tests (issue 13): random valid layer trees must load and render alike on the CPU and GLES
/// renderers; trees with extreme numbers must give a picture or a named error. Seeds run from
/// $LAMINA_RANDOM_SEED (else a fixed base) for $LAMINA_RANDOM_TREES trees; a failure prints its seed and
/// leaves the scene, its images and the renders under $TMPDIR/lamina-repro/seed-N/ (docs/reliability.md).
@Suite(.serialized)
struct RandomTreeTests {
    static let baseSeed = RandomScenes.baseSeed(fallback: 13_000)
    let renderers = ReferenceScenes.renderers()

    @Test func validTreesRenderAlikeOnBothRenderers() throws {
        let count = RandomScenes.count(fallback: 500)
        var failed = 0
        for index in 0..<count {
            let scene = RandomScenes.valid(seed: Self.baseSeed &+ UInt64(index))
            if let problem = check(scene, requireParity: true) {
                failed += 1
                Issue.record(Comment(rawValue: problem))
            }
        }
        print("random trees: \(count - failed) of \(count) valid trees passed (seeds \(Self.baseSeed)...)")
    }

    @Test func extremeTreesGiveAPictureOrANamedError() throws {
        let count = max(RandomScenes.count(fallback: 500) * 3 / 5, 1)
        var failed = 0, errors = 0
        for index in 0..<count {
            let scene = RandomScenes.extreme(seed: Self.baseSeed &+ UInt64(index))
            if let problem = check(scene, requireParity: false, namedErrors: &errors) {
                failed += 1
                Issue.record(Comment(rawValue: problem))
            }
        }
        print("random trees: \(count - failed) of \(count) extreme trees passed, \(errors) of them with a named error")
    }

    /// The same seeds always make the same text and files: a printed seed is a reproducer.
    @Test func scenesAreReproducibleFromTheirSeed() {
        for seed: UInt64 in [0, 1, 13_000, .max] {
            #expect(RandomScenes.valid(seed: seed).json.text == RandomScenes.valid(seed: seed).json.text)
            #expect(RandomScenes.extreme(seed: seed).json.text == RandomScenes.extreme(seed: seed).json.text)
        }
        #expect(RandomScenes.valid(seed: 1).json.text != RandomScenes.valid(seed: 2).json.text)
    }

    /// With $LAMINA_RANDOM_DUMP set, writes the scenes of a run to that folder (valid/seed-N, extreme/seed-N)
    /// for tools/random-trees.sh, which renders each in its own process so that a trap is one result, not the
    /// end of the run.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LAMINA_RANDOM_DUMP"] != nil))
    func dumpScenes() throws {
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["LAMINA_RANDOM_DUMP"]!)
        let count = RandomScenes.count(fallback: 500)
        for index in 0..<count {
            let seed = Self.baseSeed &+ UInt64(index)
            let valid = RandomScenes.valid(seed: seed)
            let url = try valid.write(to: folder.appendingPathComponent("valid/seed-\(seed)"))
            #expect(throws: Never.self, "seed \(seed)") { _ = try Scene.load(contentsOf: url) }
            try RandomScenes.extreme(seed: seed).write(to: folder.appendingPathComponent("extreme/seed-\(seed)"))
        }
    }

    private func check(_ scene: RandomScene, requireParity: Bool) -> String? {
        var errors = 0
        return check(scene, requireParity: requireParity, namedErrors: &errors)
    }

    /// Loads and renders `scene` on every renderer; returns what went wrong, with the reproducer's path.
    private func check(_ scene: RandomScene, requireParity: Bool, namedErrors: inout Int) -> String? {
        let kind = scene.extreme ? "extreme" : "valid"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-random-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let loaded: Scene
        do {
            loaded = try Scene.load(contentsOf: try scene.write(to: folder))
        } catch {
            if scene.extreme, error is SceneError { namedErrors += 1; return nil }
            return reproduce(scene, "\(kind) seed \(scene.seed): loading failed: \(error)", renders: [:])
        }
        var renders: [String: Image] = [:]
        for renderer in renderers {
            do {
                let image = try renderer.render(loaded.root, scale: loaded.scale)
                let width = Int((loaded.size.width * loaded.scale).rounded(.up))
                if image.width < 1 || abs(image.width - width) > 1 {
                    return reproduce(scene, "\(kind) seed \(scene.seed) [\(renderer.name)]: a \(image.width)x\(image.height) picture for a scene \(width) pixels wide", renders: renders)
                }
                renders[renderer.name] = image
            } catch let error as PlanError where scene.extreme && !error.description.isEmpty {
                namedErrors += 1
            } catch let error as RenderError where scene.extreme && !error.description.isEmpty {
                namedErrors += 1
            } catch {
                return reproduce(scene, "\(kind) seed \(scene.seed) [\(renderer.name)]: \(type(of: error)): \(error)", renders: renders)
            }
        }
        guard requireParity else { return nil }
        if let problem = checkInvisibleLayers(scene, renders: renders, folder: folder) { return problem }
        guard let cpu = renders["cpu"], let gles = renders["gles"] else { return nil }
        if ImageDifference.meetsParity(cpu, gles) { return nil }
        let difference = ImageDifference(cpu, gles, tolerance: 2)
        var images = renders
        images["diff"] = try? ImageDifference.visualize(cpu, gles)
        return reproduce(
            scene,
            "\(kind) seed \(scene.seed): CPU and GLES differ: max \(difference?.maxChannelDifference ?? -1), "
                + "\(difference?.pixelsOverTolerance ?? -1) pixels over 2 of \(difference?.pixelCount ?? 0)",
            renders: images)
    }

    /// The scene without its layers that paint nothing (hidden, opacity 0, an empty mask) must look the same
    /// on each renderer: parity alone misses a mistake both renderers make.
    private func checkInvisibleLayers(_ scene: RandomScene, renders: [String: Image], folder: URL) -> String? {
        guard let pruned = scene.withoutInvisibleLayers else { return nil }
        for renderer in renderers {
            guard let original = renders[renderer.name] else { continue }
            do {
                let loaded = try Scene.load(contentsOf: try pruned.write(to: folder, name: "pruned.json"))
                let image = try renderer.render(loaded.root, scale: loaded.scale)
                if ImageDifference.meetsParity(original, image) { continue }
                let difference = ImageDifference(original, image, tolerance: 2)
                var images = renders
                images["\(renderer.name)-pruned"] = image
                images["\(renderer.name)-pruned-diff"] = try? ImageDifference.visualize(original, image)
                let message = reproduce(
                    scene,
                    "valid seed \(scene.seed) [\(renderer.name)]: removing or emptying the layers that paint nothing (hidden, "
                        + "opacity 0, an empty or hidden mask) changed the picture: max \(difference?.maxChannelDifference ?? -1), "
                        + "\(difference?.pixelsOverTolerance ?? -1) pixels over 2",
                    renders: images)
                _ = try? pruned.write(to: RandomScenes.reproRoot.appendingPathComponent("seed-\(scene.seed)"), name: "pruned.json")
                return message + "\n  without them: \(RandomScenes.reproRoot.path)/seed-\(scene.seed)/pruned.json"
            } catch {
                return reproduce(scene, "valid seed \(scene.seed) [\(renderer.name)]: the scene without its invisible layers failed: \(error)", renders: renders)
            }
        }
        return nil
    }

    /// Writes the scene and `renders` to $TMPDIR/lamina-repro/seed-N/ and returns `message` with the path.
    private func reproduce(_ scene: RandomScene, _ message: String, renders: [String: Image]) -> String {
        let folder = RandomScenes.reproRoot.appendingPathComponent((scene.extreme ? "extreme-" : "") + "seed-\(scene.seed)")
        let url = try? scene.write(to: folder)
        for (name, image) in renders { try? image.writePNG(to: folder.appendingPathComponent("\(name).png")) }
        let text = "\(message)\n  reproducer: \(url?.path ?? folder.path)\n  rerun: LAMINA_RANDOM_SEED=\(scene.seed) "
            + "LAMINA_RANDOM_TREES=1 swift test --skip-build --filter RandomTreeTests"
        print(text)
        return text
    }
}
