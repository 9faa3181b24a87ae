import Foundation

/// The nesting of a plan's groups and masks made explicit: every group's begin, mask begin and end, in drawing
/// order, each at the quad it comes before. `RenderPlan.nesting` works it out once per set of groups; validation
/// (`RenderPlan.validate()`), the steps both renderers draw from (`RenderPlan.forEachStep`) and the CPU renderer's
/// memory reservation all walk this one structure, so nobody sorts the groups or re-derives their nesting again.
///
/// At one quad the events come as the renderers need them: first the groups that end there (innermost first), then
/// the mask of the innermost group still open, if it starts there, then the groups that begin there (outermost
/// first). A group whose mask and an inner group start at the same quad therefore holds that inner group in its
/// mask.
public struct PlanNesting: Sendable {
    /// One change of nesting, made before quad `position` is drawn.
    public struct Event: Equatable, Sendable {
        /// The quad it comes before; a group that ends with the plan's last quad ends at `quads.count`, after it.
        public var position: Int
        /// `.begin`, `.beginMask` or `.end` of a group; never `.quad`.
        public var step: PlanStep

        public init(position: Int, step: PlanStep) {
            self.position = position
            self.step = step
        }
    }

    /// The groups in drawing order (`RenderPlan.ordered`).
    public let groups: [PlanGroup]
    /// Every begin, mask begin and end, in drawing order.
    public let events: [Event]
    /// The most groups open at once.
    public let depth: Int
    /// The first group in drawing order (an index into `groups`) that does not nest in the group around it, and
    /// why; nil when every group nests. Validation reports it when it reaches that group.
    let problem: (group: Int, message: String)?

    /// The nesting of `groups` (in any order). Groups that do not nest still give events (each group begins and
    /// ends once), and `problem` says which one broke the nesting first.
    /// - Complexity: O(g log g) for g groups; no recursion, so any nesting depth is fine.
    public init(groups: [PlanGroup]) {
        let ordered = RenderPlan.ordered(groups)
        var events: [Event] = []
        events.reserveCapacity(ordered.count * 2 + ordered.lazy.filter { $0.maskStart != nil }.count)
        var problem: (group: Int, message: String)?
        var open: [PlanGroup] = []
        var depth = 0
        var next = 0
        // Only the quads where something begins or ends matter; between them nothing changes.
        var positions = Set<Int>()
        for group in ordered {
            positions.insert(group.range.lowerBound)
            positions.insert(group.range.upperBound)
            if let m = group.maskStart { positions.insert(m) }
        }
        for position in positions.sorted() {
            while let last = open.last, last.range.upperBound <= position {
                events.append(Event(position: position, step: .end(open.removeLast())))
            }
            if let last = open.last, last.maskStart == position {
                events.append(Event(position: position, step: .beginMask(last)))
            }
            while next < ordered.count, ordered[next].range.lowerBound == position {
                let group = ordered[next]
                if problem == nil, let message = Self.nestingProblem(group, in: open.last) {
                    problem = (next, message)
                }
                open.append(group)
                depth = max(depth, open.count)
                events.append(Event(position: position, step: .begin(group)))
                next += 1
            }
        }
        // Left open only where groups overlap without nesting: close them after everything else.
        var last = events.last?.position ?? 0
        while let group = open.popLast() {
            last = max(last, group.range.upperBound)
            events.append(Event(position: last, step: .end(group)))
        }
        self.groups = ordered
        self.events = events
        self.depth = depth
        self.problem = problem
    }

    /// Why `group` cannot open inside `outer` (the innermost group still open at its start), or nil.
    private static func nestingProblem(_ group: PlanGroup, in outer: PlanGroup?) -> String? {
        guard let outer else { return nil }
        let r = group.range
        guard r.upperBound <= outer.range.upperBound else {
            return "group \(r) overlaps group \(outer.range) without nesting"
        }
        if let m = outer.maskStart, r.lowerBound < m, r.upperBound > m {
            return "group \(r) straddles the mask of group \(outer.range) at \(m)"
        }
        return nil
    }
}

/// Holds a plan's nesting once it has been worked out. Copies of a plan share one box until one of them changes
/// its groups, which gives that copy a new, empty box, so a plan stays a value. The bands of the CPU renderer ask
/// for the nesting from several threads at once, hence the lock.
final class PlanNestingBox: @unchecked Sendable {
    private let lock = NSLock()
    private var nesting: PlanNesting?

    /// The kept nesting, or `make()`'s, kept.
    func nesting(_ make: () -> PlanNesting) -> PlanNesting {
        lock.lock()
        defer { lock.unlock() }
        if let nesting { return nesting }
        let made = make()
        nesting = made
        return made
    }
}
