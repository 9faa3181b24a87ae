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
        func clear(_ layer: Layer) {
            layer.planFragment = nil
            for child in layer.sublayers { clear(child) }
        }
        clear(root)
        return try Planner(scale: scale).plan(root).quads
    }

    @Test func anUnchangedTreeReusesItsWholePlan() throws {
        let (root, _) = tree()
        let first = try Planner().plan(root)
        #expect(root.planFragment != nil)
        let second = try Planner().plan(root)
        #expect(second.quads == first.quads && second.quads.count == 16)
    }

    @Test func everyKindOfChangeShowsInTheNextPlan() throws {
        let (root, leaves) = tree()
        let changes: [(String, () -> Void)] = [
            ("position", { leaves[4].position.x += 3 }),
            ("colour", { leaves[7].backgroundColor = .blue }),
            ("hidden", { leaves[2].isHidden = true }),
            ("parent opacity", { root.sublayers[3].opacity = 0.5 }),
            ("parent transform", { root.sublayers[1].transform = Transform3D(rotationAngle: 0.2) }),
            ("sublayerTransform", { root.sublayers[0].sublayerTransform = Transform3D(scaleX: 2, y: 2) }),
            ("removed", { leaves[9].removeFromSuperlayer() }),
            ("added", { root.sublayers[2].addSublayer(Layer(frame: .zero)); root.sublayers[2].sublayers.last!.backgroundColor = .green; root.sublayers[2].sublayers.last!.bounds.size = CGSize(width: 4, height: 4) }),
            ("contents", { leaves[0].contents = try! Image(width: 2, height: 2) }),
            ("masksToBounds", { root.sublayers[4].masksToBounds = true; leaves[13].position.x = 25 }),
            ("zPosition", { leaves[5].zPosition = -1 }),
            ("bounds", { root.bounds.origin.x = 5 }),
        ]
        for (name, change) in changes {
            _ = try Planner().plan(root)
            change()
            let incremental = try Planner().plan(root).quads
            let reference = try fresh(root)
            #expect(incremental == reference, "after a change of \(name)")
        }
        // A different scale is a different place on screen: nothing stale survives it.
        let atTwo = try Planner(scale: 2).plan(root).quads
        #expect(atTwo == (try fresh(root, scale: 2)))
    }

    @Test func aChangeInvalidatesOnlyItsBranch() throws {
        let (root, leaves) = tree()
        _ = try Planner().plan(root)
        let untouched = leaves[0].subtreeVersion, sibling = root.sublayers[1].subtreeVersion
        let rootVersion = root.subtreeVersion
        leaves[14].position.y += 1
        #expect(leaves[0].subtreeVersion == untouched && root.sublayers[1].subtreeVersion == sibling)
        #expect(root.subtreeVersion != rootVersion && root.sublayers[4].subtreeVersion != 0)
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
