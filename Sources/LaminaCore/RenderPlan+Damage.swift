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
        // Where each old quad lands: the kept quads before it.
        var newIndex = [Int](repeating: 0, count: quads.count + 1)
        var kept: [Quad] = []
        var keptBounds: [PixelBox?] = []
        let known = quadBounds.flatMap { $0.count == quads.count ? $0 : nil }
        for index in quads.indices {
            newIndex[index] = kept.count
            guard keep[index] else { continue }
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
}
