import Foundation
import Testing

@testable import LaminaCore

/// The plan's explicit nesting (`PlanNesting`): the one walk that validation, the steps and the CPU renderer's
/// memory reservation share.
@Suite struct PlanNestingTests {
    static let box = PixelBox(x0: 0, y0: 0, x1: 8, y1: 8)
    static let quad = Quad(unitToTarget: .scale(8, 8), paint: .solid(Color.red.premultiplied))

    static func plan(_ count: Int, _ groups: [PlanGroup]) -> RenderPlan {
        RenderPlan(width: 8, height: 8, quads: Array(repeating: quad, count: count), groups: groups)
    }

    static func steps(_ plan: RenderPlan) -> [PlanStep] {
        var steps: [PlanStep] = []
        plan.forEachStep { steps.append($0) }
        return steps
    }

    /// An outer group over 0..<6 masked from 4, holding a group over 1..<3 in its picture and one over 4..<6 in its
    /// mask, with a sibling group over 6..<7 after it: given in a scrambled order.
    @Test func eventsComeInDrawingOrderWithMasksBeforeTheGroupsTheyHold() {
        let outer = PlanGroup(range: 0..<6, opacity: 0.5, bounds: Self.box, maskStart: 4)
        let inPicture = PlanGroup(range: 1..<3, opacity: 1, bounds: Self.box)
        let inMask = PlanGroup(range: 4..<6, opacity: 0.25, bounds: Self.box)
        let sibling = PlanGroup(range: 6..<7, opacity: 1, bounds: Self.box)
        let nesting = PlanNesting(groups: [sibling, inMask, outer, inPicture])
        #expect(nesting.groups == [outer, inPicture, inMask, sibling])
        #expect(nesting.depth == 2)
        #expect(nesting.problem == nil)
        let expected: [PlanNesting.Event] = [
            .init(position: 0, step: .begin(outer)), .init(position: 1, step: .begin(inPicture)),
            .init(position: 3, step: .end(inPicture)), .init(position: 4, step: .beginMask(outer)),
            .init(position: 4, step: .begin(inMask)), .init(position: 6, step: .end(inMask)),
            .init(position: 6, step: .end(outer)), .init(position: 6, step: .begin(sibling)),
            .init(position: 7, step: .end(sibling)),
        ]
        #expect(nesting.events == expected)

        let plan = Self.plan(7, [sibling, inMask, outer, inPicture])
        #expect(Self.steps(plan) == [
            .begin(outer), .quad(0), .begin(inPicture), .quad(1), .quad(2), .end(inPicture), .quad(3),
            .beginMask(outer), .begin(inMask), .quad(4), .quad(5), .end(inMask), .end(outer), .begin(sibling),
            .quad(6), .end(sibling),
        ])
        #expect(throws: Never.self) { try plan.validate() }
    }

    @Test func aPlanWithoutGroupsIsItsQuads() {
        let plan = Self.plan(3, [])
        #expect(plan.nesting.events.isEmpty && plan.nesting.depth == 0)
        #expect(Self.steps(plan) == [.quad(0), .quad(1), .quad(2)])
    }

    @Test func deepNestingNeedsNoRecursion() {
        let groups = (0..<10_000).map { PlanGroup(range: $0..<(20_000 - $0), opacity: 1, bounds: Self.box) }
        let nesting = PlanNesting(groups: groups.reversed())
        #expect(nesting.depth == 10_000 && nesting.events.count == 20_000)
        #expect(nesting.events.first == .init(position: 0, step: .begin(groups[0])))
        #expect(nesting.events[10_000] == .init(position: 10_001, step: .end(groups[9_999])))
        #expect(nesting.events.last == .init(position: 20_000, step: .end(groups[0])))
    }

    /// Validation reports the first bad group in drawing order, nesting problems included, with its reason.
    @Test func validationNamesTheFirstGroupThatDoesNotNest() {
        let cases: [([PlanGroup], String)] = [
            ([PlanGroup(range: 0..<4, opacity: 1, bounds: Self.box, maskStart: 2),
              PlanGroup(range: 1..<3, opacity: 1, bounds: Self.box)],
             "group 1..<3 straddles the mask of group 0..<4 at 2"),
            ([PlanGroup(range: 0..<2, opacity: 1, bounds: Self.box), PlanGroup(range: 1..<3, opacity: 1, bounds: Self.box)],
             "group 1..<3 overlaps group 0..<2 without nesting"),
            // The overlapping group comes later in drawing order than the empty one, which is reported first.
            ([PlanGroup(range: 1..<3, opacity: 1, bounds: Self.box), PlanGroup(range: 0..<2, opacity: 1, bounds: Self.box),
              PlanGroup(range: 0..<0, opacity: 1, bounds: Self.box)],
             "group 0..<0: out of the plan's 4 quads or empty"),
            ([PlanGroup(range: 0..<4, opacity: 1, bounds: Self.box, maskStart: 4)],
             "group 0..<4: mask start 4 is not inside the group"),
        ]
        for (groups, message) in cases {
            #expect(throws: RenderError.invalidPlan(message)) { try Self.plan(4, groups).validate() }
        }
        let overlapping = PlanNesting(groups: [PlanGroup(range: 0..<2, opacity: 1, bounds: Self.box),
                                               PlanGroup(range: 1..<3, opacity: 1, bounds: Self.box)])
        #expect(overlapping.problem?.group == 1)
        // Every group still begins and ends once, so a walk over a bad plan stays balanced.
        #expect(overlapping.events.filter { if case .begin = $0.step { true } else { false } }.count == 2)
        #expect(overlapping.events.filter { if case .end = $0.step { true } else { false } }.count == 2)
    }

    /// The nesting is kept while the groups stay, and worked out again for a copy whose groups change, without
    /// touching the original's.
    @Test func changingTheGroupsOfACopyLeavesTheOriginalsNesting() {
        let outer = PlanGroup(range: 0..<3, opacity: 0.5, bounds: Self.box)
        let original = Self.plan(3, [outer])
        #expect(original.nesting.events.count == 2)
        var copy = original
        copy.groups.append(PlanGroup(range: 1..<2, opacity: 1, bounds: Self.box))
        copy.quads.append(Self.quad)
        #expect(copy.nesting.events.count == 4 && copy.nesting.depth == 2)
        #expect(original.nesting.events.count == 2 && original.nesting.depth == 1)
        #expect(Self.steps(copy) == [.begin(outer), .quad(0), .begin(copy.groups[1]), .quad(1), .end(copy.groups[1]),
                                     .quad(2), .end(outer), .quad(3)])
        copy.groups[1].range = 0..<1
        #expect(copy.nesting.events[1] == .init(position: 0, step: .begin(copy.groups[1])))
    }
}
