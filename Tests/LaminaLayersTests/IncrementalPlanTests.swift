import Foundation
import LaminaCore
import LaminaDrawing
import Testing

@testable import LaminaLayers

/// The planner reuses what it planned for unchanged subtrees; every kind of change must still show.
@Suite struct IncrementalPlanTests {
    func tree() -> (Layer, [Layer]) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.backgroundColor = .white
        var leaves: [Layer] = []
        for i in 0..<5 {
            let group = Layer(frame: CGRect(x: CGFloat(i) * 20, y: 0, width: 20, height: 100))
            for j in 0..<3 {
                let leaf = Layer(frame: CGRect(x: 0, y: CGFloat(j) * 30, width: 10, height: 10))
                leaf.backgroundColor = .red
                group.addSublayer(leaf)
                leaves.append(leaf)
            }
            root.addSublayer(group)
        }
        return (root, leaves)
    }

    /// A plan from scratch, for comparison.
    func fresh(_ root: Layer, scale: CGFloat = 1) throws -> [Quad] {
        try Planner(scale: scale).plan(root).quads
    }

    /// A frame's plan with `cache` (what a renderer does).
    func incremental(_ root: Layer, cache: PlanCache, scale: CGFloat = 1) throws -> RenderPlan {
        try Planner(scale: scale).plan(root.snapshotForFrame(), cache: cache)
    }

    @Test func anUnchangedTreeReusesItsWholePlan() throws {
        let (root, _) = tree()
        let cache = PlanCache()
        let first = try incremental(root, cache: cache)
        #expect(cache.statistics.layersPlanned == 21 && cache.statistics.subtreesReused == 0)
        let second = try incremental(root, cache: cache)
        #expect(second.quads == first.quads && second.quads.count == 16)
        #expect(cache.statistics.layersPlanned == 0 && cache.statistics.subtreesReused == 1)
        #expect(cache.statistics.quadsReused == 16)
    }

    @Test func everyKindOfChangeShowsInTheNextPlan() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let (root, leaves) = tree()
        let cache = PlanCache()
        let changes: [(String, () -> Void)] = [
            ("position", { leaves[4].position.x += 3 }),
            ("colour", { leaves[7].backgroundColor = .blue }),
            ("hidden", { leaves[2].isHidden = true }),
            ("parent opacity", { root.sublayers![3].opacity = 0.5 }),
            ("parent transform", { root.sublayers![1].transform = Transform3D(rotationAngle: 0.2) }),
            ("sublayerTransform", { root.sublayers![0].sublayerTransform = Transform3D(scaleX: 2, y: 2) }),
            ("parent moved", { root.sublayers![2].position.x += 7 }),
            ("parent moved by a fraction", { root.sublayers![2].position.y += 0.3 }),
            ("removed", { leaves[9].removeFromSuperlayer() }),
            ("added", {
                let added = Layer(frame: CGRect(x: 0, y: 0, width: 4, height: 4))
                added.backgroundColor = .green
                root.sublayers![2].addSublayer(added)
            }),
            ("contents", { leaves[0].contents = try! Image(width: 2, height: 2) }),
            ("masksToBounds", { root.sublayers![4].masksToBounds = true; leaves[13].position.x = 25 }),
            ("clipping parent moved", { root.sublayers![4].position.x -= 2 }),
            ("zPosition", { leaves[5].zPosition = -1 }),
            ("bounds", { root.bounds.origin.x = 5 }),
            ("mask", {
                let mask = Layer(frame: CGRect(x: 0, y: 0, width: 20, height: 50))
                mask.backgroundColor = .black
                root.sublayers![0].mask = mask
            }),
            ("mask moved", { root.sublayers![0].mask?.position.y += 10 }),
            ("masked parent moved", { root.sublayers![0].position.y += 4 }),
        ]
        for (name, change) in changes {
            _ = try incremental(root, cache: cache)
            change()
            let planned = try incremental(root, cache: cache).quads
            let reference = try fresh(root)
            #expect(planned == reference, "after a change of \(name)")
        }
        // A different scale is a different place on screen: nothing stale survives it.
        let atTwo = try incremental(root, cache: cache, scale: 2).quads
        #expect(atTwo == (try fresh(root, scale: 2)))
    }

    /// 100 leaves (a third of them bordered) and a gradient, planned once into `cache`.
    func leavesAndGradient(cache: PlanCache) throws -> (root: Layer, plain: [Layer], gradient: GradientLayer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        var plain: [Layer] = []
        for i in 0..<100 {
            let leaf = Layer(frame: CGRect(x: CGFloat(i % 10) * 20, y: CGFloat(i / 10) * 20, width: 10, height: 10))
            leaf.backgroundColor = i.isMultiple(of: 2) ? .red : .blue
            leaf.borderWidth = i.isMultiple(of: 3) ? 1 : 0
            root.addSublayer(leaf)
            plain.append(leaf)
        }
        let gradient = GradientLayer()
        gradient.frame = CGRect(x: 150, y: 150, width: 30, height: 30)
        gradient.colors = [Color.red, Color.blue]
        root.addSublayer(gradient)
        _ = try incremental(root, cache: cache)
        return (root, plain, gradient)
    }

    /// Quads equal but for the gradient's, compared by place: a plan from scratch draws the gradient into an image of
    /// its own.
    func same(_ a: [Quad], _ b: [Quad], gradient: GradientLayer) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            x.layerID == gradient.id ? x.unitToTarget == y.unitToTarget && x.layerID == y.layerID : x == y
        }
    }

    /// After a plan where every leaf of `plain` moved, a change to one leaf plans only that leaf, and its damage is
    /// its own boxes: the moved records stayed whole.
    func expectRecordsWhole(_ root: Layer, _ plain: [Layer], gradient: GradientLayer, cache: PlanCache) throws {
        plain[55].backgroundColor = .green
        let next = try incremental(root, cache: cache)
        #expect(same(next.quads, try fresh(root), gradient: gradient))
        #expect(cache.statistics.layersPlanned == 1)
        let box = try #require(next.quads.first { $0.layerID == plain[55].id }?.damageBounds(width: 200, height: 200))
        #expect(next.damage?.region.rects == [box])
    }

    /// `leavesAndGradient` planned, then every leaf moved a quarter point right and the gradient two points down (and
    /// with `changingTheRoot`, the root given a background), planned again: the plan must be the one from scratch.
    func everyLeafMoved(changingTheRoot: Bool) throws
        -> (root: Layer, plain: [Layer], gradient: GradientLayer, cache: PlanCache, moved: RenderPlan) {
        let cache = PlanCache()
        let (root, plain, gradient) = try leavesAndGradient(cache: cache)
        for leaf in plain { leaf.position.x += 0.25 }
        gradient.position.y += 2
        if changingTheRoot { root.backgroundColor = .white }
        let moved = try incremental(root, cache: cache)
        #expect(same(moved.quads, try fresh(root), gradient: gradient))
        return (root, plain, gradient, cache, moved)
    }

    @Test func movedLeavesAreMovedWithTheirRecords() throws {
        // A moved leaf's quads and record are copied and moved on their own (PlanRun.reuse), not through the loop
        // over a subtree's records; the next change inside must still find each leaf's record whole.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        // The root's own change (a background) sends the frame to the usual plan rather than a patch.
        let (root, plain, gradient, cache, _) = try everyLeafMoved(changingTheRoot: true)
        // The root is planned, every plain leaf moved: 100 backgrounds and 34 borders of four quads each. The
        // gradient is planned again: its picture is made for what can be seen where it lies (cut where it reaches
        // past the target), so it is not moved.
        #expect(cache.statistics.layersPlanned == 2)
        #expect(cache.statistics.layersUpdated == 0)
        #expect(cache.statistics.subtreesMoved == 100)
        #expect(cache.statistics.quadsReused == 100 + 34 * 4)
        try expectRecordsWhole(root, plain, gradient: gradient, cache: cache)
    }

    @Test func aPatchMovesEverySublayerThatMoved() throws {
        // Every sublayer moved, the root as it was: the last plan is patched, however many sublayers changed. Each
        // leaf, bordered or not, follows its node (its quads moved in place); the gradient is planned again.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let (root, plain, gradient, cache, moved) = try everyLeafMoved(changingTheRoot: false)
        #expect(cache.statistics.layersUpdated == 100)
        #expect(cache.statistics.layersPlanned == 1)
        #expect(cache.statistics.subtreesMoved == 0)
        #expect(cache.statistics.quadsReused == moved.quads.count - 1)
        // Every leaf's old and new boxes are damaged, and no more: the strip 0.25 points to the right of each.
        let region = try #require(moved.damage?.region)
        let leafBoxes = plain.flatMap { leaf in moved.quads.filter { $0.layerID == leaf.id } }
            .compactMap { $0.damageBounds(width: 200, height: 200) }
        #expect(leafBoxes.count == 100 + 34 * 4)
        for box in leafBoxes { #expect(region.clipped(to: box).area == box.area) }
        #expect(!region.intersects(PixelBox(x0: 15, y0: 5, x1: 16, y1: 6)))
        #expect(!region.intersects(PixelBox(x0: 195, y0: 5, x1: 196, y1: 6)))
        try expectRecordsWhole(root, plain, gradient: gradient, cache: cache)
    }

    @Test func movingAParentMovesItsPlannedSubtree() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let (root, leaves) = tree()
        let cache = PlanCache()
        _ = try incremental(root, cache: cache)
        root.sublayers![3].position.x += 2
        let moved = try incremental(root, cache: cache)
        // Nothing is planned again: the moved group's node moves its quads in place (Planner+NodeUpdate.swift).
        #expect(cache.statistics.layersUpdated == 1 && cache.statistics.layersPlanned == 0)
        #expect(moved.quads == (try fresh(root)))
        // The records inside the moved group moved with it: a change inside it later plans only the changed leaf.
        leaves[10].backgroundColor = .blue
        #expect(try incremental(root, cache: cache).quads == (try fresh(root)))
        #expect(cache.statistics.layersPlanned == 1)
        // A parent moved while another layer changes is planned the usual way, its subtree moved.
        root.sublayers![3].position.x += 2
        root.backgroundColor = .gray
        #expect(try incremental(root, cache: cache).quads == (try fresh(root)))
        #expect(cache.statistics.subtreesMoved == 1 && cache.statistics.layersPlanned == 1)
        leaves[10].backgroundColor = .red
        #expect(try incremental(root, cache: cache).quads == (try fresh(root)))
        #expect(cache.statistics.layersPlanned == 5)
        leaves[11].backgroundColor = .blue
        #expect(try incremental(root, cache: cache).quads == (try fresh(root)))
        // Only the leaf: the root's and the group's own state and sublayers are as they were, so the last plan is
        // patched in place (Planner+Patch.swift).
        #expect(cache.statistics.layersPlanned == 1)
    }

    @Test func aChangeInvalidatesOnlyItsBranch() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let (root, leaves) = tree()
        _ = try Planner().plan(root)
        func version(_ layer: Layer) -> UInt64 { layer.presentationSnapshot()!.contentVersion }
        let untouched = version(leaves[0]), sibling = version(root.sublayers![1])
        let rootVersion = version(root), group = version(root.sublayers![4]), moved = version(leaves[14])
        leaves[14].position.y += 1
        Transaction.flush()
        #expect(version(leaves[0]) == untouched && version(root.sublayers![1]) == sibling)
        #expect(version(root) != rootVersion && version(root.sublayers![4]) != group)
        // Its own content did not change: only where it lies.
        #expect(version(leaves[14]) == moved)
    }

    @Test func markedLayersAreDrawnThroughTheCache() throws {
        final class Counter: LayerDelegate {
            var draws = 0
            func draw(_ layer: Layer, in context: DrawingContext) { draws += 1 }
        }
        let (root, leaves) = tree()
        let counter = Counter()
        leaves[6].delegate = counter
        leaves[6].setNeedsDisplay()
        _ = try Planner().plan(root)
        _ = try Planner().plan(root)
        #expect(counter.draws == 1)
        leaves[6].setNeedsDisplay()
        _ = try Planner().plan(root)
        #expect(counter.draws == 2)
    }
}
