import Foundation
import Lamina
import LaminaTestSupport
import Testing

@testable import LaminaLayers

/// Live frames of animated trees against plans from scratch, byte for byte, on both renderers: random trees of
/// containers (clipping, faded, turned, with sublayer transforms) and leaves of every plain kind, random animations
/// of the keys node values follow (position, anchorPoint, transform and its parts, opacity, on leaves; moves on
/// branches) and of keys they do not (backgroundColor, bounds, cornerRadius), at times that run on, stand still, go
/// back and jump, with commits between frames (changes, animations added and removed). The frames go through every
/// path a live frame can take: animated node values, node updates, patches and the usual plan (docs/architecture.md,
/// "Property trees"), and each must draw what planning the presented tree from scratch draws.
@Suite struct LiveAnimationRandomTests {
    static let baseSeed = RandomScenes.baseSeed(fallback: 27_000)

    /// A 16 x 16 picture with uneven, partly transparent texels.
    static func picture(_ random: inout TreeRandom) throws -> Image {
        let image = try Image(width: 16, height: 16)
        let shift = random.below(64)
        for y in 0..<16 {
            for x in 0..<16 {
                let a = UInt32(96 + (x * 8 + y + shift) % 160), c = UInt32((x * 37 + y * 11 + shift) % 96)
                image.setWord(a << 24 | c << 16 | (c / 2) << 8 | (a - c / 3), x: x, y: y)
            }
        }
        return image
    }

    static func colour(_ random: inout TreeRandom, opaque: Bool = false) -> Color {
        Color(red: random.unit(), green: random.unit(), blue: random.unit(),
              alpha: opaque || random.chance(0.6) ? 1 : random.between(0.3, 1))
    }

    /// A leaf of one of six kinds: solid, image, rounded, antialiased image, bordered image, image in a solid frame.
    static func leaf(_ random: inout TreeRandom, image: Image, in size: CGSize) -> Layer {
        let sprite = Layer(frame: CGRect(x: random.between(-4, Double(size.width) - 8),
                                         y: random.between(-4, Double(size.height) - 8),
                                         width: random.chance(0.5) ? 12 : random.between(4, 24),
                                         height: random.chance(0.5) ? 10 : random.between(4, 20)))
        if random.chance(0.5) { sprite.position = CGPoint(x: sprite.position.x.rounded(), y: sprite.position.y.rounded()) }
        switch random.below(6) {
        case 0: sprite.backgroundColor = colour(&random)
        case 1: sprite.contents = image
        case 2:
            sprite.backgroundColor = colour(&random)
            sprite.cornerRadius = CGFloat(random.below(5) + 1)
        case 3:
            sprite.contents = image
            sprite.allowsEdgeAntialiasing = true
        case 4:
            sprite.contents = image
            sprite.borderWidth = 1
            sprite.borderColor = .red
        default:
            sprite.backgroundColor = colour(&random, opaque: true)
            sprite.contents = image
            sprite.contentsGravity = .center
        }
        if random.chance(0.15) { sprite.opacity = Float(random.between(0.3, 1)) }
        if random.chance(0.1) { sprite.anchorPoint = CGPoint(x: random.unit(), y: random.unit()) }
        return sprite
    }

    /// A white root of about 80 x 70 points with one to three containers of leaves (one in three with a nested
    /// branch of its own).
    static func tree(_ random: inout TreeRandom) throws -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 64 + random.below(32), height: 56 + random.below(32))
        root.backgroundColor = .white
        let image = try picture(&random)
        for _ in 0..<(1 + random.below(3)) {
            let container = Layer(frame: CGRect(x: random.between(0, 12), y: random.between(0, 12),
                                                width: random.between(40, 70), height: random.between(40, 70)))
            if random.chance(0.3) { container.masksToBounds = true }
            if random.chance(0.3) { container.backgroundColor = colour(&random) }
            if random.chance(0.15) { container.opacity = Float(random.between(0.4, 1)) }
            if random.chance(0.15) { container.transform = Transform3D(rotationAngle: CGFloat(random.between(-0.4, 0.4))) }
            if random.chance(0.1) { container.sublayerTransform = Transform3D(scaleX: 1.25, y: 0.8, z: 1) }
            for _ in 0..<(2 + random.below(8)) {
                container.addSublayer(leaf(&random, image: image, in: container.bounds.size))
            }
            if random.chance(0.35) {
                let branch = Layer(frame: CGRect(x: random.between(0, 20), y: random.between(0, 20), width: 30,
                                                 height: 24))
                if random.chance(0.5) { branch.backgroundColor = colour(&random) }
                for _ in 0..<(1 + random.below(4)) {
                    branch.addSublayer(leaf(&random, image: image, in: branch.bounds.size))
                }
                container.addSublayer(branch)
            }
            root.addSublayer(container)
        }
        return root
    }

    /// A random animation: for a leaf (`branch` false) of any key, mostly those node values follow; for a layer with
    /// sublayers mostly a move.
    static func animation(_ random: inout TreeRandom, branch: Bool, followed: Bool = false) -> Animation {
        let made: Animation
        let kinds = followed ? 8 : 12
        let kind = branch ? (followed || random.chance(0.8) ? random.pick([0, 3, 6]) : random.below(12))
            : random.below(kinds)
        switch kind {
        case 0:
            let move = BasicAnimation(keyPath: "position")
            move.toValue = CGPoint(x: random.between(0, 60), y: random.between(0, 60))
            move.timingFunction = MediaTimingFunction(name: random.pick([.easeInEaseOut, .linear, .easeIn]))
            made = move
        case 1:
            let fade = KeyframeAnimation(keyPath: "opacity")
            fade.values = [1.0, random.between(0, 1), random.between(0.2, 1), 1.0]
            fade.keyTimes = [0, 0.3, 0.7, 1]
            if random.chance(0.3) { fade.calculationMode = .discrete }
            made = fade
        case 2:
            let turn = BasicAnimation(keyPath: "transform.rotation.z")
            turn.fromValue = 0.0
            turn.toValue = random.between(-7, 7)
            made = turn
        case 3:
            let spring = SpringAnimation(keyPath: random.chance(0.5) ? "position.y" : "position.x")
            spring.byValue = random.between(-30, 30)
            spring.isAdditive = random.chance(0.7)
            made = spring
        case 4:
            let scale = BasicAnimation(keyPath: random.pick(["transform.scale", "transform.scale.x", "transform.scale.y"]))
            scale.fromValue = random.between(0.3, 1)
            scale.toValue = random.between(0.8, 2)
            made = scale
        case 5:
            let anchor = BasicAnimation(keyPath: "anchorPoint")
            anchor.toValue = CGPoint(x: random.unit(), y: random.unit())
            made = anchor
        case 6:
            let path = KeyframeAnimation(keyPath: "position")
            path.values = (0..<(2 + random.below(3))).map { _ in
                CGPoint(x: random.between(0, 60), y: random.between(0, 60))
            }
            if random.chance(0.3) { path.calculationMode = .paced }
            made = path
        case 7:
            let slide = BasicAnimation(keyPath: "position.x")
            slide.byValue = random.between(-20, 20)
            let fade = BasicAnimation(keyPath: "opacity")
            fade.fromValue = 1.0
            fade.toValue = random.between(0, 1)
            let group = AnimationGroup()
            group.animations = [slide, fade]
            made = group
        case 8:
            let turn = BasicAnimation(keyPath: "transform")
            turn.toValue = Transform3D(rotationAngle: CGFloat(random.between(-1, 1)))
            made = turn
        case 9:
            let colour = BasicAnimation(keyPath: "backgroundColor")
            colour.toValue = Self.colour(&random)
            made = colour
        case 10:
            let size = BasicAnimation(keyPath: "bounds.size")
            size.toValue = CGSize(width: random.between(4, 30), height: random.between(4, 30))
            made = size
        default:
            let corners = BasicAnimation(keyPath: "cornerRadius")
            corners.toValue = random.between(0, 8)
            made = corners
        }
        made.duration = random.pick([0.5, 1, 1.5, 2.25])
        made.beginTime = random.between(0.5, 1.5)
        made.repeatCount = random.chance(0.7) ? .infinity : Float(random.pick([1, 2, 2.5]))
        made.autoreverses = random.chance(0.4)
        made.fillMode = random.pick([.removed, .forwards, .backwards, .both])
        if random.chance(0.2) { made.isRemovedOnCompletion = false }
        if random.chance(0.1) { made.speed = Float(random.pick([0.5, 2])) }
        if random.chance(0.1) { made.timeOffset = random.between(0, 1) }
        return made
    }

    /// Adds animations to about half of `root`'s layers (the root apart); with `followed`, only of keys node values
    /// follow, on no layer under an animated one (as node values require).
    static func animate(_ root: Layer, random: inout TreeRandom, followed: Bool) {
        for layer in RandomChanges.layers(root).dropFirst() where random.chance(0.5) {
            // A leaf with more than a plain picture (a border) is moved as a branch is.
            let branch = !(layer.sublayers ?? []).isEmpty || followed && layer.borderWidth > 0
            if followed, sequence(first: layer, next: \.superlayer).dropFirst().contains(where: {
                $0.animationKeys() != nil
            }) { continue }
            layer.add(animation(&random, branch: branch, followed: followed), forKey: "a\(random.below(3))")
        }
    }

    struct Outcome {
        var failures: [String] = []
        var frames = 0
        /// Frames made from animated node values alone (`PlanStatistics.nodeValueLayers` > 0).
        var nodeFrames = 0
        /// The frames of the trees animated only on keys node values follow, and how many of those were.
        var followedFrames = 0
        var followedNodeFrames = 0
    }

    /// `scenes` random animated trees (every other one from the random scene generator, animated the same way; one in
    /// four animated only on keys node values follow), each drawn live `steps` times by a renderer made by `make` and
    /// compared with another drawing a plan from scratch of the same tree at the same time; commits between frames
    /// make changes of the first `kinds` kinds of `RandomChanges`.
    func check(scenes: Int, steps: Int, kinds: Int = 9, make: () throws -> Renderer) throws -> Outcome {
        try check(cases: (0..<scenes).map { (Self.baseSeed &+ UInt64($0), $0) }, steps: steps, kinds: kinds,
                  make: make)
    }

    /// `check(scenes:steps:make:)` for the given trees: seed and index (odd: from the random scene generator, its
    /// extreme numbers with `extreme`; a multiple of four: animated only on keys node values follow).
    func check(cases: [(seed: UInt64, index: Int)], steps: Int, kinds: Int = 9, extreme: Bool = false,
               make: () throws -> Renderer) throws -> Outcome
    {
        var outcome = Outcome()
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        for (seed, index) in cases {
            var random = TreeRandom(seed: seed)
            let root: Layer
            var scale: CGFloat = 1
            var folder: URL?
            defer { folder.map { try? FileManager.default.removeItem(at: $0) } }
            if index % 2 == 1 {
                let scene = extreme ? RandomScenes.extreme(seed: seed) : RandomScenes.valid(seed: seed)
                let place = FileManager.default.temporaryDirectory
                    .appendingPathComponent("lamina-live-animation-\(getpid())-\(UUID().uuidString)")
                folder = place
                let loaded = try Scene.load(contentsOf: try scene.write(to: place))
                root = loaded.root
                scale = loaded.scale
            } else {
                root = try Self.tree(&random)
                scale = random.pick([1, 1, 0.5, 1.5])
            }
            Self.animate(root, random: &random, followed: index % 4 == 0)
            Transaction.flush()
            let live = try make()
            let fresh = try make()
            let cache = live.planCache(for: root)
            var time = random.between(0.9, 1.2)
            var history: [String] = []
            for step in 0..<steps {
                let frame = try live.render(root, scale: scale, at: time)
                let nodeValues = cache.statistics.nodeValueLayers
                let expected = try fresh.render(Planner(scale: scale).plan(root, at: time))
                outcome.frames += 1
                if nodeValues > 0 { outcome.nodeFrames += 1 }
                if index % 4 == 0 {
                    outcome.followedFrames += 1
                    if nodeValues > 0 { outcome.followedNodeFrames += 1 }
                }
                if frame.width != expected.width || frame.height != expected.height
                    || memcmp(frame.baseAddress, expected.baseAddress, frame.byteCount) != 0
                {
                    let diff = ImageDifference(frame, expected, premultiplied: true).map { "\($0)" } ?? "sizes differ"
                    outcome.failures.append(
                        "seed \(seed) step \(step) at \(time) (node values for \(nodeValues) layers) after "
                            + "\(history.suffix(4)): \(diff)")
                    break
                }
                // Mostly the clock runs on a frame at a time; sometimes it stands, goes back or jumps, and sometimes
                // something is committed.
                switch random.below(10) {
                case 0: history.append("same time")
                case 1:
                    time -= random.between(0, 0.5)
                    history.append("back to \(time)")
                case 2:
                    time += random.between(0.2, 3)
                    history.append("on to \(time)")
                case 3:
                    history.append(RandomChanges.change(root, random: &random, kinds: kinds))
                    time += 1.0 / 60
                case 4 where random.chance(0.5):
                    let layers = RandomChanges.layers(root)
                    let layer = layers[random.below(layers.count)]
                    if random.chance(0.5), let key = layer.animationKeys()?.first {
                        layer.removeAnimation(forKey: key)
                        history.append("animation \(key) off \(layer.id)")
                    } else {
                        layer.add(Self.animation(&random, branch: !(layer.sublayers ?? []).isEmpty), forKey: "added")
                        history.append("animation added to \(layer.id)")
                    }
                    time += 1.0 / 60
                default:
                    time += 1.0 / 60
                }
            }
        }
        return outcome
    }

    @Test func cpuLiveAnimatedFramesEqualFreshFrames() throws {
        let scenes = max(RandomScenes.count(fallback: 500) / 5, 2)
        let outcome = try check(scenes: scenes, steps: 30, kinds: RandomChanges.kinds) { CPURenderer() }
        #expect(outcome.failures.isEmpty, "\(outcome.failures.prefix(5))")
        #expect(outcome.frames >= scenes * 30 / 2)
        // The path of animated node values was taken, and not only by a few frames (about one frame in ten of the
        // trees animated only on keys node values follow: their superlayers' clips, fades and the like refuse the
        // others).
        #expect(outcome.followedNodeFrames > outcome.followedFrames / 25,
                "\(outcome.followedNodeFrames) of \(outcome.followedFrames) frames")
    }

    /// Trees on which live frames once differed from fresh ones (docs/architecture.md): nested groups cut down to
    /// the same quads (27041), a text picture cut to the view and moved (200057), a sheared sliver shading past its
    /// damage box (200081), a whole picture moved partly out of view (300497), replicator instances beyond the
    /// target moved into view (400159).
    @Test func treesThatOnceDifferedDrawAsFreshFrames() throws {
        let cases: [(seed: UInt64, index: Int)] = [(27_041, 1), (200_057, 1), (200_081, 1), (300_497, 1),
                                                   (400_159, 1)]
        let outcome = try check(cases: cases, steps: 30) { CPURenderer() }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.frames == cases.count * 30)
    }

    /// Trees of extreme numbers (`RandomScenes.extreme`) on which live frames once differed: a clip collapsed to a
    /// point drew its quad whole (910005), layers beyond the guard band moved back into view by a translation
    /// whose sum kept too few bits (920121, 920133, 930023, 930147), a sliver reaching 1e19 pixels across the target
    /// whose damage box had lost its width (920087).
    @Test func extremeTreesThatOnceDifferedDrawAsFreshFrames() throws {
        let cases: [(seed: UInt64, index: Int)] = [(910_005, 1), (920_121, 1), (920_133, 1), (930_023, 1),
                                                   (930_147, 1), (920_087, 1)]
        let outcome = try check(cases: cases, steps: 20, kinds: RandomChanges.kinds, extreme: true) { CPURenderer() }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        #expect(outcome.frames == cases.count * 20)
    }

    @Test(.enabled(if: GLESAvailability.skipReason == nil)) func glesLiveAnimatedFramesEqualFreshFrames() throws {
        let scenes = max(RandomScenes.count(fallback: 500) / 20, 2)
        // Without the atlas, as in LiveFrameRandomTests: slots packed otherwise move bilinear weights by a float step.
        let options = GLESRenderer.Options(atlasMaxImageSize: 0)
        let outcome = try check(scenes: scenes, steps: 30, kinds: RandomChanges.kinds) {
            try #require(GLESAvailability.renderer(options: options))
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures.prefix(5))")
        #expect(outcome.nodeFrames > 0, "\(outcome.nodeFrames) of \(outcome.frames) frames")
    }
}
