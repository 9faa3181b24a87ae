import Foundation

/// What a plan changes against an earlier one (docs/architecture.md, "Damage"): outside `region`, drawing this plan
/// gives the same pixels as drawing the plan whose `identity` is `since`.
public struct PlanDamage: Hashable, Sendable {
    /// The pixels that may differ.
    public var region: DamageRegion
    /// The identity of the plan the damage is measured against.
    public var since: UInt64

    public init(region: DamageRegion, since: UInt64) {
        self.region = region
        self.since = since
    }
}

/// Numbers for plans, unique in the process (0 is never given: it marks plans made by hand).
public enum PlanIdentity {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var last: UInt64 = 0

    /// A number no plan had before.
    public static func next() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        last += 1
        return last
    }
}

extension RenderPlan {
    /// The `damageBounds` of quad `index`: the one the planner kept (`quadBounds`), else worked out now.
    package func damageBounds(ofQuad index: Int) -> PixelBox? {
        if let known = quadBounds, known.count == quads.count { return known[index] }
        return quads[index].damageBounds(width: width, height: height)
    }

    /// The part of the plan that draws inside `region`: the quads whose `damageBounds` meet it, in order, and the
    /// groups that still hold something, their bounds cut to the region's bounding box. Drawn into a target whose
    /// pixels in `region` are cleared, it gives this plan's pixels there (a renderer clips its drawing to the
    /// region). A masked group whose content or mask misses the region shows nothing there and is left out whole.
    /// Groups keep their nesting: where an outer group would be left holding only an inner group's quads, one of its
    /// other quads stays as a placeholder that draws nothing (`placeholders`).
    /// - Complexity: O(q + g) for q quads and g groups, plus the quads inside groups that lose all their content.
    public func restricted(to region: DamageRegion) -> RenderPlan {
        guard let regionBounds = region.bounds else { return RenderPlan(width: width, height: height) }
        let tiles = DamageTiles(region, width: width, height: height)
        var keep: [Bool]
        if let known = quadBounds, known.count == quads.count {
            keep = known.map { $0.map(tiles.intersects) ?? false }
        } else {
            keep = quads.map { quad in quad.damageBounds(width: width, height: height).map(tiles.intersects) ?? false }
        }
        func anyKept(_ range: Range<Int>) -> Bool { range.contains { keep[$0] } }
        func drop(_ range: Range<Int>) { for index in range { keep[index] = false } }
        // Inner groups first (the reverse of drawing order), so that an outer group sees what its inner ones left.
        let ordered = RenderPlan.ordered(groups)
        var bounds = [PixelBox?](repeating: nil, count: ordered.count)
        for (index, group) in ordered.enumerated().reversed() {
            let cut = group.bounds.intersection(regionBounds)
            let content = group.range.lowerBound..<(group.maskStart ?? group.range.upperBound)
            let mask = (group.maskStart ?? group.range.upperBound)..<group.range.upperBound
            if cut.isEmpty || !anyKept(content) || (group.maskStart != nil && !anyKept(mask)) {
                drop(group.range)
            } else {
                bounds[index] = cut
            }
        }
        let placeholders = Self.placeholders(ordered, bounds: bounds, keep: &keep)
        // Where each old quad lands: the kept quads before it.
        var newIndex = [Int](repeating: 0, count: quads.count + 1)
        var kept: [Quad] = []
        var keptBounds: [PixelBox?] = []
        let known = quadBounds.flatMap { $0.count == quads.count ? $0 : nil }
        for index in quads.indices {
            newIndex[index] = kept.count
            guard keep[index] else { continue }
            if placeholders.contains(index) {
                kept.append(Quad(unitToTarget: quads[index].unitToTarget,
                                 paint: .solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)), opacity: 0))
                if known != nil { keptBounds.append(nil) }
                continue
            }
            kept.append(quads[index])
            if let known { keptBounds.append(known[index]) }
        }
        newIndex[quads.count] = kept.count
        var restricted = RenderPlan(width: width, height: height, quads: kept)
        if known != nil { restricted.quadBounds = keptBounds }
        var keptGroups: [PlanGroup] = []
        for (index, group) in ordered.enumerated() {
            guard let cut = bounds[index] else { continue }
            let range = newIndex[group.range.lowerBound]..<newIndex[group.range.upperBound]
            guard !range.isEmpty else { continue }
            keptGroups.append(PlanGroup(range: range, opacity: group.opacity, bounds: cut,
                                        maskStart: group.maskStart.map { newIndex[$0] }, composite: group.composite,
                                        tint: group.tint))
        }
        restricted.groups = keptGroups
        return restricted
    }

    /// The quads `restricted(to:)` keeps as placeholders (marked in `keep`), which draw nothing. Groups nest by their
    /// ranges (`ordered`): where the quads cut out would leave an outer group holding just what a group inside it
    /// holds, the two would cover the same quads and could open the other way round, the inner opacity then
    /// rounded last (the picture off by one where the whole plan draws it). So one quad of the outer group outside
    /// the inner one is kept, drawing nothing, and the outer group still holds more. `groups` in drawing order, each
    /// kept where its `bounds` entry is set.
    private static func placeholders(_ groups: [PlanGroup], bounds: [PixelBox?], keep: inout [Bool]) -> Set<Int> {
        var placeholders = Set<Int>()
        guard groups.count > 1 else { return placeholders }
        while true {
            // Each group's range among the kept quads, as `restricted(to:)` will number them.
            var before = [Int](repeating: 0, count: keep.count + 1)
            for index in keep.indices { before[index + 1] = before[index] + (keep[index] ? 1 : 0) }
            func kept(_ group: PlanGroup) -> (Range<Int>, Int?) {
                (before[group.range.lowerBound]..<before[group.range.upperBound], group.maskStart.map { before[$0] })
            }
            var added = false
            var outer: PlanGroup?
            for (index, group) in groups.enumerated() where bounds[index] != nil {
                defer { outer = group }
                guard let outer, kept(outer) == kept(group), !kept(group).0.isEmpty,
                    outer.range != group.range, outer.range.lowerBound <= group.range.lowerBound,
                    outer.range.upperBound >= group.range.upperBound
                else { continue }
                let quad = outer.range.upperBound > group.range.upperBound ? group.range.upperBound
                    : outer.range.lowerBound
                keep[quad] = true
                placeholders.insert(quad)
                added = true
            }
            if !added { return placeholders }
        }
    }
}
