import Foundation

/// One step of drawing a plan's quads and groups, in order (`RenderPlan.forEachStep`). Both renderers draw a plan
/// from these steps, so that the nesting of groups and masks is worked out in one place.
public enum PlanStep: Equatable, Sendable {
    /// Draw quad `index` into the innermost open buffer.
    case quad(Int)
    /// Open a cleared buffer over the group's bounds: what follows is drawn into it.
    case begin(PlanGroup)
    /// The group's mask starts: what follows, up to the group's end, is drawn into a second cleared buffer.
    case beginMask(PlanGroup)
    /// Close the group: with a mask, the mask buffer's alpha first multiplies the group's picture; then the picture,
    /// multiplied by the group's opacity, is combined with the buffer below as its `composite` says.
    case end(PlanGroup)
}

extension RenderPlan {
    /// The groups in drawing order: ascending start; where several start at one quad, the longer (outer) first;
    /// where two cover the same quads, the one without a mask first (a mask belongs to the innermost group at its
    /// start, so a masked group is the inner one). The order is total, so any input gives one answer.
    public static func ordered(_ groups: [PlanGroup]) -> [PlanGroup] {
        // Plans come from the planner in this order already: checking costs one pass, sorting again per band more.
        if zip(groups, groups.dropFirst()).allSatisfy({ !precedes($1, $0) }) { return groups }
        return groups.sorted(by: precedes)
    }

    /// The order of `ordered`: true when `a` is drawn (opened) before `b`.
    static func precedes(_ a: PlanGroup, _ b: PlanGroup) -> Bool {
        if a.range.lowerBound != b.range.lowerBound { return a.range.lowerBound < b.range.lowerBound }
        if a.range.upperBound != b.range.upperBound { return a.range.upperBound > b.range.upperBound }
        let (ma, mb) = (a.maskStart ?? -1, b.maskStart ?? -1)
        if ma != mb { return ma < mb }
        if a.opacity != b.opacity { return a.opacity < b.opacity }
        if a.composite != b.composite { return a.composite.rawValue < b.composite.rawValue }
        // A tinted group (a replicator's instance) holds whatever else covers the same quads.
        if (a.tint == nil) != (b.tint == nil) { return a.tint != nil }
        let (ka, kb) = ([a.bounds.x0, a.bounds.y0, a.bounds.x1, a.bounds.y1],
                        [b.bounds.x0, b.bounds.y0, b.bounds.x1, b.bounds.y1])
        return ka.lexicographicallyPrecedes(kb)
    }

    /// Checks that the groups can be drawn: each covers some quads of the plan, has a finite opacity, bounds inside
    /// the target, a mask (if any) strictly inside its range, and groups nest: an inner group lies wholly inside its
    /// outer group's picture or wholly inside its mask (`PlanNesting` finds the first that does not). Groups are
    /// checked in drawing order, so the first bad one is reported.
    func validateGroups() throws {
        let nesting = self.nesting
        for (index, group) in nesting.groups.enumerated() {
            let r = group.range, b = group.bounds
            guard r.lowerBound >= 0, r.upperBound <= quads.count, !r.isEmpty, group.opacity.isFinite else {
                throw RenderError.invalidPlan("group \(r): out of the plan's \(quads.count) quads or empty")
            }
            guard b.x0 >= 0, b.y0 >= 0, b.x1 <= width, b.y1 <= height, b.x1 > b.x0, b.y1 > b.y0 else {
                throw RenderError.invalidPlan(
                    "group \(r): bounds (\(b.x0), \(b.y0)) - (\(b.x1), \(b.y1)) empty or outside the target")
            }
            if let m = group.maskStart, !(r.lowerBound < m && m < r.upperBound) {
                throw RenderError.invalidPlan("group \(r): mask start \(m) is not inside the group")
            }
            if let problem = nesting.problem, problem.group == index { throw RenderError.invalidPlan(problem.message) }
        }
    }

    /// Calls `body` with every step of drawing the plan, in order: the quads, with the events of `nesting` (groups
    /// open before their first quad, masks begin before their first quad, groups end after their last) between
    /// them. The plan must be valid (`validate()`).
    /// - Complexity: O(q + e) for q quads and e nesting events, once `nesting` is worked out.
    public func forEachStep(_ body: (PlanStep) throws -> Void) rethrows {
        let events = nesting.events
        var next = 0
        for index in quads.indices {
            while next < events.count, events[next].position <= index {
                try body(events[next].step)
                next += 1
            }
            try body(.quad(index))
        }
        while next < events.count {
            try body(events[next].step)
            next += 1
        }
    }
}
