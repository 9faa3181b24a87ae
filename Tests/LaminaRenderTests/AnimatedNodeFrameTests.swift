import Foundation
import Lamina
import LaminaTestSupport
import Testing

@testable import LaminaLayers

/// Frames of a tree whose animations only move, turn, scale or fade plain leaves are made from animated node values
/// alone (docs/architecture.md, "Property trees"): no presentation, no planning. Their plans, pixels and damage are
/// those of frames planned from scratch, on both renderers, at any time in any order; whatever the node values cannot
/// follow goes through the usual presentation and planner.
@Suite struct AnimatedNodeFrameTests {
    static let count = 100

    /// A 240 x 240 white root, a clipping container and 100 leaves of five kinds (solid, image, rounded, antialiased
    /// image, solid behind an image), each with one of seven animations: position eased, opacity by keyframes, a
    /// turn, an additive spring, a group of scale and position.x, anchorPoint, transform.scale with a time offset.
    static func tree() throws -> (root: Layer, container: Layer, sprites: [Layer]) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 240, height: 240)
        root.backgroundColor = .white
        let container = Layer(frame: CGRect(x: 12, y: 8, width: 220, height: 224))
        container.masksToBounds = true
        container.backgroundColor = Color(red: 0.9, green: 0.9, blue: 1)
        let image = try Image(width: 16, height: 16)
        for y in 0..<16 {
            for x in 0..<16 {
                let a = UInt32(128 + (x * 8 + y) % 128), c = UInt32((x * 37 + y * 11) % 128)
                image.setWord(a << 24 | c << 16 | (c / 2) << 8 | (a - c / 3), x: x, y: y)
            }
        }
        // The odd sprites lie in a second container that does not clip: their quads are moved by translations where
        // the clipped ones' are made again.
        let unclipped = Layer(frame: CGRect(x: 8, y: 4, width: 220, height: 224))
        var sprites: [Layer] = []
        for index in 0..<count {
            let sprite = Layer(frame: CGRect(x: CGFloat(index % 10) * 21 + 3, y: CGFloat(index / 10) * 21 + 3,
                                             width: 14, height: 12))
            switch index % 5 {
            case 0: sprite.backgroundColor = Color(red: 0.8, green: 0.2, blue: 0.1)
            case 1: sprite.contents = image
            case 2:
                sprite.backgroundColor = Color(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.8)
                sprite.cornerRadius = 4
            case 3:
                sprite.contents = image
                sprite.allowsEdgeAntialiasing = true
            default:
                sprite.backgroundColor = .black
                sprite.contents = image
                sprite.contentsGravity = .center
            }
            sprite.add(animation(index), forKey: "a")
            sprites.append(sprite)
        }
        container.sublayers = sprites.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        unclipped.sublayers = sprites.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        root.addSublayer(container)
        root.addSublayer(unclipped)
        return (root, container, sprites)
    }

    static func animation(_ index: Int) -> Animation {
        let made: Animation
        switch index % 7 {
        case 0:
            let move = BasicAnimation(keyPath: "position")
            move.toValue = CGPoint(x: 110, y: 112)
            move.timingFunction = MediaTimingFunction(name: .easeInEaseOut)
            made = move
        case 1:
            let fade = KeyframeAnimation(keyPath: "opacity")
            fade.values = [1.0, 0.3, 0.8, 1.0]
            fade.keyTimes = [0, 0.3, 0.7, 1]
            made = fade
        case 2:
            let turn = BasicAnimation(keyPath: "transform.rotation.z")
            turn.fromValue = 0.0
            turn.toValue = 2 * Double.pi
            made = turn
        case 3:
            let spring = SpringAnimation(keyPath: "position.y")
            spring.byValue = 30.0
            spring.isAdditive = true
            made = spring
        case 4:
            let scale = BasicAnimation(keyPath: "transform.scale")
            scale.toValue = 1.8
            let slide = BasicAnimation(keyPath: "position.x")
            slide.byValue = 17.25
            let group = AnimationGroup()
            group.animations = [scale, slide]
            made = group
        case 5:
            let anchor = BasicAnimation(keyPath: "anchorPoint")
            anchor.toValue = CGPoint(x: 0, y: 1)
            made = anchor
        default:
            let scale = BasicAnimation(keyPath: "transform.scale.x")
            scale.fromValue = 0.5
            scale.toValue = 1.5
            scale.timeOffset = 0.4
            made = scale
        }
        made.duration = 1 + Double(index % 3) * 0.5
        made.beginTime = 1 - Double(index % 11) * 0.05
        made.repeatCount = .infinity
        made.autoreverses = index % 2 == 0
        return made
    }

    /// Times out of order: forwards, backwards, before the animations begin, far on.
    static let times: [Double] = [1.0, 1.0167, 1.0334, 1.25, 1.1, 0.5, 0.97, 1.5, 3.75, 2.0, 1.9833, 12.5]

    @Test func nodeFramesPlanWhatPlanningFromScratchPlans() throws {
        let (root, _, _) = try Self.tree()
        let renderer = CPURenderer()
        let cache = renderer.planCache(for: root)
        for (step, time) in Self.times.enumerated() {
            let plan = try renderer.plan(root, scale: 1, at: time)
            let fresh = try CPURenderer().plan(root, scale: 1, at: time)
            let mismatch = Self.mismatch(plan.quads, fresh.quads)
            #expect(mismatch == nil, "at \(time): \(mismatch ?? "")")
            #expect(plan.groups == fresh.groups, "at \(time)")
            if step >= 2 {
                // Node values alone: nothing planned; every leaf that moved, turned or faded updated in place.
                #expect(cache.statistics.nodeValueLayers == Self.count, "at \(time): \(cache.statistics)")
                #expect(cache.statistics.layersPlanned == 0, "at \(time): \(cache.statistics)")
                #expect(cache.statistics.layersUpdated > Self.count / 2, "at \(time): \(cache.statistics)")
                // The turned and scaled leaves that are not rounded (three kinds of five, one with two quads) take
                // their new maps in place.
                #expect(cache.statistics.quadsRemapped > Self.count / 10, "at \(time): \(cache.statistics)")
            }
        }
    }

    /// The quads of turned and scaled leaves take new maps in place (`NodeChange.remap`): the same maps, bit for
    /// bit, as planning from scratch gives, with their paints kept. Where a texture's level of detail changes (a
    /// trilinear sprite scaled) or its filter does (minified, then magnified), the leaf is made again with the new
    /// paint; pixels and damage are those of fresh frames on both renderers.
    @Test func turnedLeavesTakeTheirMapsInPlaceAndScaledTexturesTheirFilters() throws {
        func tree() throws -> Layer {
            let root = Layer()
            root.bounds = CGRect(x: 0, y: 0, width: 160, height: 96)
            root.backgroundColor = .white
            let image = try Image(width: 32, height: 32)
            for y in 0..<32 {
                for x in 0..<32 {
                    let c = UInt32((x * 29 + y * 13) % 200 + 55)
                    image.setWord(0xFF00_0000 | c << 16 | (255 - c) << 8 | UInt32(x * 8), x: x, y: y)
                }
            }
            for index in 0..<40 {
                let sprite = Layer(frame: CGRect(x: CGFloat(index % 10) * 16 + 2, y: CGFloat(index / 10) * 24 + 2,
                                                 width: 12, height: 12 + CGFloat(index % 3)))
                sprite.contents = image
                sprite.backgroundColor = index % 2 == 0 ? Color(red: 0.1, green: 0.3, blue: 0.8, alpha: 0.6) : nil
                sprite.minificationFilter = index % 4 < 2 ? .trilinear : .linear
                sprite.magnificationFilter = index % 3 == 0 ? .nearest : .linear
                let animation: Animation
                if index % 5 < 2 {
                    let turn = BasicAnimation(keyPath: "transform.rotation.z")
                    turn.toValue = Double.pi * Double(index % 3 + 1) / 2
                    animation = turn
                } else {
                    // From minified (12 points of 32 texels) to magnified: the filter and level of detail change.
                    let scale = BasicAnimation(keyPath: "transform.scale")
                    scale.fromValue = 0.5
                    scale.toValue = 3.5
                    animation = scale
                }
                animation.duration = 1 + Double(index % 4) * 0.25
                animation.beginTime = 1
                animation.repeatCount = .infinity
                animation.autoreverses = index % 2 == 1
                sprite.add(animation, forKey: "a")
                root.addSublayer(sprite)
            }
            return root
        }
        let times: [Double] = [1.0, 1.05, 1.1, 1.2, 1.45, 1.3, 1.7, 2.05, 1.6, 3.3]
        for renderer in ReferenceScenes.renderers() {
            let root = try tree()
            let cache = renderer.planCache(for: root)
            var remapped = 0
            var previous: Image?
            for (step, time) in times.enumerated() {
                let plan = try renderer.plan(root, scale: 1, at: time)
                let picture = try renderer.render(plan)
                let fresh = try Planner().plan(root, at: time)
                // Exactly: a map in place is the one planning makes.
                let unlike = plan.quads.indices.first { plan.quads[$0] != fresh.quads[$0] }
                #expect(plan.quads.count == fresh.quads.count && unlike == nil,
                        "\(renderer.name) at \(time): quad \(unlike.map { "\($0)" } ?? "-")")
                let unlikePixels = Self.differences(picture, try renderer.render(try tree(), scale: 1, at: time)).count
                #expect(unlikePixels == 0, "\(renderer.name) at \(time)")
                if let previous, let damage = plan.damage {
                    let outside = Self.differences(picture, previous).filter { x, y in
                        !damage.region.rects.contains { $0.x0 <= x && x < $0.x1 && $0.y0 <= y && y < $0.y1 }
                    }.count
                    #expect(outside == 0, "\(renderer.name) at \(time): pixels changed outside the damage")
                }
                previous = picture
                if step >= 2 {
                    #expect(cache.statistics.nodeValueLayers == 40, "at \(time): \(cache.statistics)")
                    remapped += cache.statistics.quadsRemapped
                    // Made again: the scaled sprites whose level of detail or filter changed.
                    #expect(cache.statistics.quadsRemapped < plan.quads.count - 1, "at \(time): \(cache.statistics)")
                }
            }
            // The turned sprites (16 of 40, 24 quads) take their maps in place in each of the 8 node frames.
            #expect(remapped >= 8 * 24, "\(renderer.name): \(remapped)")
        }
    }

    /// Layers' own timings reach their sublayers' animations: a container at double speed with a time offset,
    /// another begun later, a sprite at half speed. Leaves under superlayers that all keep their parent's time
    /// (`MediaTiming.keepsParentTime`) keep no list of timings; these keep theirs.
    @Test func layerTimingsReachTheAnimatedLeaves() throws {
        let (root, container, sprites) = try Self.tree()
        let unclipped = try #require(root.sublayers?.last)
        Transaction.begin()
        container.speed = 2
        container.timeOffset = 0.25
        unclipped.beginTime = 0.5
        sprites[3].speed = 0.5
        Transaction.commit()
        let renderer = CPURenderer()
        let cache = renderer.planCache(for: root)
        var pictures: [Image] = []
        for (step, time) in Self.times.enumerated() {
            let plan = try renderer.plan(root, scale: 1, at: time)
            let mismatch = Self.mismatch(plan.quads, try CPURenderer().plan(root, scale: 1, at: time).quads)
            #expect(mismatch == nil, "at \(time): \(mismatch ?? "")")
            if step >= 2 { #expect(cache.statistics.nodeValueLayers == Self.count, "at \(time)") }
            pictures.append(try renderer.render(plan))
        }
        // The timings changed the frames: the same times without them draw otherwise.
        let (plain, _, _) = try Self.tree()
        let unlike = Self.differences(pictures[3], try CPURenderer().render(plain, scale: 1, at: Self.times[3])).count
        #expect(unlike > 100, "\(unlike) pixels differ from the tree without timings")
    }

    @Test func nodeFramesDrawWhatFreshFramesDrawOnBothRenderers() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, _, _) = try Self.tree()
            var previous: Image?
            var pictures: [Image] = []
            for time in Self.times {
                let plan = try renderer.plan(root, scale: 1, at: time)
                let picture = try renderer.render(plan)
                let (freshRoot, _, _) = try Self.tree()
                let fresh = try renderer.render(freshRoot, scale: 1, at: time)
                let unlike = Self.differences(picture, fresh).count
                #expect(unlike == 0, "\(renderer.name) at \(time)")
                // The damage holds every pixel that differs from the last frame.
                if let previous, let damage = plan.damage {
                    let outside: [(x: Int, y: Int)] = Self.differences(picture, previous).filter { x, y in
                        !damage.region.rects.contains { $0.x0 <= x && x < $0.x1 && $0.y0 <= y && y < $0.y1 }
                    }
                    let first = outside.first.map { "\($0)" } ?? "none"
                    #expect(outside.count == 0,
                            "\(renderer.name) at \(time): changed outside the damage, first \(first)")
                }
                previous = picture
                pictures.append(picture)
            }
            // The frames differ from one another: the animations ran.
            let moved = Self.differences(pictures[0], pictures[3]).count
            #expect(moved > 100, "\(renderer.name): \(moved) pixels changed between frames")
        }
    }

    /// Where two lists of quads first differ ("count 3 != 4", "quad 12"), nil when they are equal: every field the
    /// same, and the maps to within rounding. A quad moved by a translation adds it to its offset, which can differ
    /// from the offset planning computes by a unit in the last place (docs/architecture.md, "Property trees",
    /// "Exactness"): far below anything a pixel shows, which the pixel tests check exactly.
    static func mismatch(_ a: [Quad], _ b: [Quad]) -> String? {
        guard a.count == b.count else { return "count \(a.count) != \(b.count)" }
        func same(_ x: Quad, _ y: Quad) -> Bool {
            let (m, n) = (x.unitToTarget, y.unitToTarget)
            let pairs = [(m.m11, n.m11), (m.m12, n.m12), (m.m13, n.m13), (m.m21, n.m21), (m.m22, n.m22),
                         (m.m23, n.m23), (m.m31, n.m31), (m.m32, n.m32), (m.m33, n.m33)]
            guard pairs.allSatisfy({ abs($0 - $1) <= 1e-9 * max(1, abs($1)) }) else { return false }
            var aligned = x
            aligned.unitToTarget = n
            return aligned == y
        }
        return a.indices.first { !same(a[$0], b[$0]) }.map { "quad \($0): \(a[$0]); expected \(b[$0])" }
    }

    /// The pixels where `a` and `b` differ.
    static func differences(_ a: Image, _ b: Image) -> [(x: Int, y: Int)] {
        var result: [(x: Int, y: Int)] = []
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) where a.word(x: x, y: y) != b.word(x: x, y: y) {
                result.append((x, y))
            }
        }
        return result
    }

    /// A table of 1,100 animated leaves is evaluated, and its changes worked out, on every core, in chunks of at
    /// least 512 (`LayerSnapshot.evaluationChunks`, Planner+AnimatedNodes.swift): the plans are those made from
    /// scratch. Run under ThreadSanitizer too (tools/tsan.sh).
    @Test func aLargeTreeIsEvaluatedOnEveryCore() throws {
        #expect(LayerSnapshot.evaluationChunks(600) == min(Processors.active, 4))
        #expect(LayerSnapshot.evaluationChunks(255) == 1)
        let minimum = LayerSnapshot.nodeFrameChunkMinimum
        #expect(LayerSnapshot.evaluationChunks(1100, minimum: minimum) == min(Processors.active, 2))
        #expect(LayerSnapshot.evaluationChunks(1000, minimum: minimum) == 1)
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 410, height: 130)
        // Every third sprite shows a cell of one sheet: its turned frames are made again by each core's chunk of
        // node changes, with a table of texture paints of its own.
        let sheet = try Image(width: 8, height: 4, color: .red)
        for index in 0..<1100 {
            let sprite = Layer(frame: CGRect(x: CGFloat(index % 41) * 10, y: CGFloat(index / 41), width: 6, height: 6))
            sprite.backgroundColor = Color(red: 0.2, green: Double(index % 7) / 7, blue: 0.6)
            if index % 3 == 0 {
                sprite.contents = sheet
                sprite.contentsRect = CGRect(x: Double(index % 2) / 2, y: 0, width: 0.5, height: 1)
            }
            sprite.add(Self.animation(index), forKey: "a")
            root.addSublayer(sprite)
        }
        let renderer = CPURenderer()
        let cache = renderer.planCache(for: root)
        // Compared with plans from scratch where node values made the frame (the first two are usual frames; the
        // tree's size makes each fresh plan cost, under the sanitizers most).
        for (step, time) in [1.0, 1.1, 1.2, 2.9].enumerated() {
            let plan = try renderer.plan(root, scale: 1, at: time)
            guard step >= 2 else { continue }
            #expect(cache.statistics.nodeValueLayers == 1100, "at \(time): \(cache.statistics)")
            let mismatch = Self.mismatch(plan.quads, try Planner().plan(root, at: time).quads)
            #expect(mismatch == nil, "at \(time): \(mismatch ?? "")")
        }
    }

    /// Superlayers whose animations only move them (position, anchorPoint) carry their whole subtrees: every quad
    /// moved by the translation, nothing planned; beside them, animated leaves in a still container.
    @Test func movedBranchesCarryTheirSubtrees() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, _, sprites) = try Self.tree()
            // The clipping container's sprites keep their animations; the other container's lose theirs and the
            // container itself slides, eased, with a spring on its anchor point.
            let unclipped = try #require(root.sublayers?.last)
            Transaction.begin()
            for (index, sprite) in sprites.enumerated() where index % 2 == 1 {
                sprite.removeAllAnimations()
                if index % 4 == 1 {
                    sprite.borderWidth = 1
                    sprite.borderColor = .black
                }
            }
            let slide = BasicAnimation(keyPath: "position")
            slide.byValue = CGPoint(x: 13.37, y: -4.5)
            slide.timingFunction = MediaTimingFunction(name: .easeInEaseOut)
            let sway = SpringAnimation(keyPath: "anchorPoint.x")
            sway.fromValue = 0.4
            sway.toValue = 0.55
            let both = AnimationGroup()
            both.animations = [slide, sway]
            both.duration = 1.5
            both.beginTime = 1
            both.repeatCount = .infinity
            both.autoreverses = true
            unclipped.add(both, forKey: "slide")
            Transaction.commit()
            let cache = renderer.planCache(for: root)
            for (step, time) in Self.times.enumerated() {
                let picture = try renderer.render(renderer.plan(root, scale: 1, at: time))
                // Planned from scratch (no cache), drawn by the same renderer.
                let fresh = try renderer.render(Planner().plan(root, at: time))
                let unlike = Self.differences(picture, fresh).count
                #expect(unlike == 0, "\(renderer.name) at \(time): \(unlike) pixels differ")
                if step >= 2 {
                    // The 50 animated sprites and the sliding container.
                    #expect(cache.statistics.nodeValueLayers == 51, "at \(time): \(cache.statistics)")
                    #expect(cache.statistics.layersPlanned == 0, "at \(time): \(cache.statistics)")
                }
            }
        }
    }

    @Test func whatNodeValuesCannotFollowIsPlannedAsUsual() throws {
        let (root, container, sprites) = try Self.tree()
        let renderer = CPURenderer()
        let cache = renderer.planCache(for: root)
        // Pixels against a fresh renderer's: the usual planner moves a rounded quad's shape by a translation too,
        // which can differ from planning it in the last place of its numbers.
        func frame(_ time: Double, _ what: String) throws {
            let picture = try renderer.render(renderer.plan(root, scale: 1, at: time))
            let unlike = Self.differences(picture, try CPURenderer().render(root, scale: 1, at: time)).count
            #expect(unlike == 0, "\(what) at \(time): \(unlike) pixels differ")
        }
        try frame(1.1, "first")
        try frame(1.2, "second")
        #expect(cache.statistics.nodeValueLayers == Self.count, "\(cache.statistics)")
        // A commit: the usual frame, then node values again.
        Transaction.begin()
        Transaction.setDisableActions(true)
        sprites[0].backgroundColor = .blue
        Transaction.commit()
        try frame(1.3, "after a commit")
        #expect(cache.statistics.nodeValueLayers == 0 && cache.statistics.layersPlanned > 0, "\(cache.statistics)")
        try frame(1.4, "the frame after")
        try frame(1.5, "and the next")
        #expect(cache.statistics.nodeValueLayers == Self.count, "\(cache.statistics)")
        // A leaf faded out (a frame node values cannot make: its quads go) and back.
        let out = BasicAnimation(keyPath: "opacity")
        out.fromValue = 1.0
        out.toValue = 0.0
        out.duration = 1
        out.beginTime = 2
        out.fillMode = .both
        Transaction.begin()
        sprites[1].add(out, forKey: "out")
        Transaction.commit()
        for time in [2.5, 2.9, 3.1, 3.2, 2.2, 2.3] { try frame(time, "fading out") }
        // An animation of a key node values do not follow (backgroundColor): the tree is planned as usual.
        let colour = BasicAnimation(keyPath: "backgroundColor")
        colour.toValue = Color.green
        colour.duration = 1
        colour.beginTime = 4
        colour.repeatCount = .infinity
        Transaction.begin()
        sprites[5].add(colour, forKey: "colour")
        Transaction.commit()
        for time in [4.1, 4.2, 4.3] { try frame(time, "colour") }
        #expect(cache.statistics.nodeValueLayers == 0 && cache.statistics.layersPlanned > 0, "\(cache.statistics)")
        // An animated superlayer: planned as usual.
        Transaction.begin()
        sprites[5].removeAnimation(forKey: "colour")
        let slide = BasicAnimation(keyPath: "position.x")
        slide.byValue = 5.0
        slide.duration = 1
        slide.beginTime = 5
        slide.repeatCount = .infinity
        container.add(slide, forKey: "slide")
        Transaction.commit()
        for time in [5.1, 5.2, 5.3] { try frame(time, "animated container") }
    }

    @Test func anAnimationThatEndsIsTakenOffAndItsCompletionRuns() throws {
        let (root, _, sprites) = try Self.tree()
        let renderer = CPURenderer()
        let done = DocCAnimationExampleTests.Counter()
        let move = BasicAnimation(keyPath: "position.x")
        move.byValue = 20.0
        move.duration = 0.5
        move.beginTime = 1
        Transaction.begin()
        Transaction.setCompletionBlock { done.hit() }
        sprites[3].add(move, forKey: "once")
        Transaction.commit()
        for time in [1.1, 1.2, 1.3, 1.4] {
            _ = try renderer.livePlan(root, scale: 1, at: time)
            #expect(sprites[3].animation(forKey: "once") != nil, "at \(time)")
        }
        let after = try renderer.livePlan(root, scale: 1, at: 1.6)
        #expect(Self.mismatch(after.plan.quads, try CPURenderer().plan(root, scale: 1, at: 1.6).quads) == nil)
        #expect(sprites[3].animation(forKey: "once") == nil)
        #expect(done.value == 1)
    }
}
