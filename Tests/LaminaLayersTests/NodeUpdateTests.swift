import Foundation
import LaminaCore
import Testing

@testable import LaminaLayers

/// Layers that are only moved, turned, scaled or faded keep their planned quads (Planner+NodeUpdate.swift): the plan
/// is the one planning from scratch makes, and no layer is planned again.
@Suite struct NodeUpdateTests {
    /// A 200 x 200 white root holding `count` 8 x 8 sprites (a texture cut from one image), with a container of
    /// `count` more.
    func tree(count: Int = 40) throws -> (root: Layer, sprites: [Layer], container: Layer, inner: [Layer]) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.backgroundColor = .white
        let image = try Image(width: 16, height: 16)
        for y in 0..<16 {
            for x in 0..<16 {
                let a = UInt32(128 + (x * 8 + y) % 128), c = UInt32((x * 37 + y * 11) % 128)
                image.setWord(a << 24 | c << 16 | (c / 2) << 8 | (a - c / 3), x: x, y: y)
            }
        }
        func sprite(_ index: Int) -> Layer {
            let layer = Layer(frame: CGRect(x: CGFloat(index % 20) * 9, y: CGFloat(index / 20) * 9, width: 8, height: 8))
            layer.contents = image
            layer.contentsRect = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
            if index % 3 == 0 { layer.backgroundColor = .red }
            return layer
        }
        let sprites = (0..<count).map(sprite)
        let container = Layer(frame: CGRect(x: 0, y: 100, width: 200, height: 100))
        let inner = (0..<count).map(sprite)
        container.sublayers = inner
        root.sublayers = sprites + [container]
        return (root, sprites, container, inner)
    }

    func incremental(_ root: Layer, cache: PlanCache, at time: Double? = nil) throws -> RenderPlan {
        try Planner().plan(root.presentationForFrame(at: time), cache: cache)
    }

    func change(_ body: () -> Void) {
        Transaction.begin()
        Transaction.setDisableActions(true)
        body()
        Transaction.commit()
    }

    @Test func movedFadedAndTurnedLayersKeepTheirQuads() throws {
        let (root, sprites, container, inner) = try tree()
        let cache = PlanCache()
        _ = try incremental(root, cache: cache)
        let changes: [(String, () -> Void)] = [
            ("every sprite moved", { for (i, s) in sprites.enumerated() { s.position.x += CGFloat(i % 5) + 1 } }),
            ("every sprite moved by a fraction", { for s in sprites { s.position.y += 0.25 } }),
            ("every sprite faded", { for (i, s) in sprites.enumerated() { s.opacity = 0.2 + Float(i % 4) * 0.2 } }),
            ("every sprite turned", { for s in sprites { s.transform = Transform3D(rotationAngle: 0.3) } }),
            ("turned further and scaled", { for s in sprites { s.transform = Transform3D(scaleX: 1.5, y: 0.5) } }),
            ("anchor point", { for s in sprites { s.anchorPoint = CGPoint(x: 0, y: 0) } }),
            ("the container moved", { container.position.x += 3 }),
            ("the container moved again", { container.position.y -= 2 }),
            ("moved and faded in the container", {
                for (i, s) in inner.enumerated() {
                    s.position.x += 1
                    s.opacity = i % 2 == 0 ? 0.5 : 1
                }
            }),
        ]
        for (name, body) in changes {
            change(body)
            let plan = try incremental(root, cache: cache)
            #expect(plan.quads == (try Planner().plan(root).quads), "after: \(name)")
            // Nothing planned again: the quads followed their nodes.
            #expect(cache.statistics.layersPlanned == 0, "after: \(name): \(cache.statistics)")
            #expect(cache.statistics.layersUpdated > 0, "after: \(name): \(cache.statistics)")
            #expect(plan.damage != nil, "after: \(name)")
        }
        // What the updates kept is right for later changes: one sprite in the moved container changes colour.
        change { inner[6].backgroundColor = .blue }
        #expect(try incremental(root, cache: cache).quads == (try Planner().plan(root).quads))
        #expect(cache.statistics.layersPlanned == 1, "\(cache.statistics)")
    }

    @Test func aLargeMovedSubtreeIsMovedInChunksAsInOneLoop() throws {
        // A moved parent of `Planner.movedInChunksMinimum` quads or more has them moved, faded and boxed in chunks on
        // every core: the plan must be planning's, and the damage every old box then every new box in the quads'
        // order, as the one loop adds them.
        let (root, _, container, inner) = try tree(count: 2_400)
        let cache = PlanCache()
        var last = try incremental(root, cache: cache)
        let moves: [(String, () -> Void)] = [
            ("moved by whole points", { container.position = CGPoint(x: container.position.x + 3, y: 148) }),
            ("moved by a fraction", { container.position.x -= 0.25 }),
            ("moved again", { container.position.y += 1.5 }),
        ]
        for (name, move) in moves {
            change(move)
            let plan = try incremental(root, cache: cache)
            #expect(plan.quads == (try Planner().plan(root).quads), "after: \(name)")
            #expect(cache.statistics.layersPlanned == 0 && cache.statistics.layersUpdated == 1, "after: \(name)")
            let moved = plan.quads.indices.filter { plan.quads[$0] != last.quads[$0] }
            #expect(moved.count >= Planner.movedInChunksMinimum, "after: \(name): \(moved.count) quads moved")
            var expected = DamageRegion()
            for index in moved { last.quads[index].damageBounds(width: 200, height: 200).map { expected.add($0) } }
            for index in moved { plan.quads[index].damageBounds(width: 200, height: 200).map { expected.add($0) } }
            #expect(plan.damage?.region == expected, "after: \(name)")
            #expect(plan.quadBounds == plan.quads.map { $0.damageBounds(width: 200, height: 200) }, "after: \(name)")
            last = plan
        }
        _ = inner
    }

    @Test func changesNodesCannotFollowArePlannedAgain() throws {
        let (root, sprites, _, _) = try tree(count: 10)
        let cache = PlanCache()
        _ = try incremental(root, cache: cache)
        let changes: [(String, () -> Void)] = [
            ("faded out", { sprites[0].opacity = 0 }),
            ("faded in", { sprites[0].opacity = 1 }),
            ("a shadow", { sprites[1].shadowOpacity = 0.5 }),
            ("a shadow moved", { sprites[1].position.x += 2 }),
            ("a border", { sprites[2].borderWidth = 1 }),
            ("a bordered sprite turned", { sprites[2].transform = Transform3D(rotationAngle: 0.5) }),
            ("contents", { sprites[3].contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1) }),
            ("turned to its back", {
                sprites[4].isDoubleSided = false
                sprites[4].transform = Transform3D(scaleX: -1, y: 1)
            }),
        ]
        for (name, body) in changes {
            change(body)
            #expect(try incremental(root, cache: cache).quads == (try Planner().plan(root).quads), "after: \(name)")
        }
    }

    @Test func animatedPositionOpacityAndTurnFollowTheirNodes() throws {
        let (root, sprites, _, _) = try tree()
        for (index, sprite) in sprites.enumerated() {
            let animation: BasicAnimation
            switch index % 3 {
            case 0:
                animation = BasicAnimation(keyPath: "position")
                animation.toValue = CGPoint(x: 100, y: 100)
            case 1:
                animation = BasicAnimation(keyPath: "opacity")
                animation.fromValue = 1.0
                animation.toValue = 0.25
            default:
                animation = BasicAnimation(keyPath: "transform.rotation.z")
                animation.fromValue = 0.0
                animation.toValue = Double.pi
            }
            animation.duration = 1
            animation.beginTime = 1
            sprite.add(animation, forKey: "a")
        }
        let cache = PlanCache()
        for step in 0...8 {
            let time = 1 + Double(step) * 0.11
            let plan = try incremental(root, cache: cache, at: time)
            #expect(plan.quads == (try Planner().plan(root, at: time).quads), "at \(time)")
            if step > 1 { #expect(cache.statistics.layersPlanned == 0, "at \(time): \(cache.statistics)") }
        }
    }

    @Test func anOpacityAnimationKeepsThePictureVersion() throws {
        let (root, sprites, _, _) = try tree(count: 2)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.5
        fade.duration = 1
        fade.beginTime = 1
        sprites[0].add(fade, forKey: "fade")
        let spin = BasicAnimation(keyPath: "backgroundColor")
        spin.toValue = Color.blue
        spin.duration = 1
        spin.beginTime = 1
        sprites[1].add(spin, forKey: "colour")
        Transaction.flush()
        let committed = try #require(root.presentationSnapshot())
        let presented = try root.presentationForFrame(at: 1.5)
        let (faded, recoloured) = (presented.sublayers[0], presented.sublayers[1])
        #expect(faded.pictureVersion == committed.sublayers[0].pictureVersion)
        #expect(faded.contentVersion != committed.sublayers[0].contentVersion)
        #expect(recoloured.pictureVersion != committed.sublayers[1].pictureVersion)
    }

    @Test func benchLikeAnimationsArePatchedEveryFrame() throws {
        // animated-1k's four kinds (benchmarks.md, "Scenes"), on 60 sprites: past 64 changed sublayers, and a
        // quarter of them, the tree is planned the usual way.
        let (root, sprites, container, _) = try tree(count: 60)
        container.removeFromSuperlayer()
        let move = BasicAnimation(keyPath: "position")
        move.toValue = CGPoint(x: 100, y: 100)
        move.timingFunction = MediaTimingFunction(name: .easeInEaseOut)
        let fade = KeyframeAnimation(keyPath: "opacity")
        fade.values = [1.0, 0.3, 0.8, 1.0]
        fade.keyTimes = [0, 0.3, 0.7, 1]
        let turn = BasicAnimation(keyPath: "transform.rotation.z")
        turn.fromValue = 0.0
        turn.toValue = 2 * Double.pi
        let spring = SpringAnimation(keyPath: "position.y")
        spring.byValue = 40.0
        let kinds: [Animation] = [move, fade, turn, spring]
        for kind in kinds {
            kind.repeatCount = .infinity
            kind.autoreverses = kind !== turn
        }
        for (index, sprite) in sprites.enumerated() {
            let animation = kinds[index % kinds.count]
            animation.duration = 1 + Double(index % 5) * 0.5
            animation.beginTime = 1 - Double(index % 97) * 0.031
            sprite.add(animation, forKey: "bench")
        }
        let cache = PlanCache()
        for step in 0...6 {
            let time = 2 + Double(step) * 0.0167
            let plan = try incremental(root, cache: cache, at: time)
            if step > 0 {
                #expect(cache.statistics.layersPlanned == 0 && cache.statistics.layersUpdated == 60,
                        "at \(time): \(cache.statistics)")
                #expect(plan.quads.count == (try Planner().plan(root, at: time).quads.count))
            }
        }
    }
}
