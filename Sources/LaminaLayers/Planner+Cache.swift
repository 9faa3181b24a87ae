import Foundation
import LaminaCore

/// One run of the planner over a tree: what it reuses from the cache's last plan, and what it keeps for the next.
final class PlanRun {
    let cache: PlanCache?
    private var fragments: [PlanFragment] = []
    private var shadows: [LayerID: PlannedShadow] = [:]
    private var shadowPaths: [LayerID: ShadowPathImage] = [:]
    private var rasterized: [LayerID: RasterizedPicture] = [:]
    /// Decisions made so far that depend on where quads lie in the target's pixels (group bounds, shadow buffers,
    /// rounded clips): a subtree with none of them can be moved as a whole.
    var fixedDecisions = 0
    var statistics = PlanStatistics()
    /// The runs of quads copied from the last plan to the same place in the target, in the order of this plan: what
    /// damage (Planner+Damage.swift) leaves out.
    var reusedRuns: [ReusedRun] = []

    init(cache: PlanCache?) {
        self.cache = cache
    }

    /// The last plan's quads and groups, read from the cache once per run: taking the whole plan out of the cache
    /// for each reused subtree retained and released every one of its arrays, 100,000 times in a frame where
    /// 100,000 sprites moved. Read on first use, not at the start: a patch (Planner+Patch.swift) changes the last
    /// plan's quads in place before any reuse, and a copy held here would make that change copy them all.
    private var lastParts: (quads: [Quad], groups: [PlanGroup])?

    /// The number of quads of the cache's last plan (0 without one).
    var lastQuadCount: Int { cache?.plan?.quads.count ?? 0 }

    private func lastPlanParts() -> (quads: [Quad], groups: [PlanGroup])? {
        if let lastParts { return lastParts }
        guard let last = cache?.plan else { return nil }
        lastParts = (last.quads, last.groups)
        return lastParts
    }

    var fragmentCount: Int { fragments.count }

    /// Copies `visit`'s subtree from the last plan when it did not change and lies where it lay or moved by a
    /// translation it can follow; false when it must be planned.
    func reuse(_ visit: Planner.Visit, into plan: inout RenderPlan) -> Bool {
        guard let cache, let index = cache.fragmentIndex[visit.layer.id], let last = lastPlanParts() else { return false }
        let old = cache.fragments[index]
        guard old.contentVersion == visit.layer.contentVersion, old.opacity == visit.opacity else { return false }
        // A tiled layer's tiles depend on where it lies and on what has been drawn since (TileCache.swift).
        if !cache.tiledSubtrees.isEmpty, cache.tiledSubtrees.contains(visit.layer.id),
            cache.tilesChanged || old.layerToTarget != visit.layerToTarget || old.clip != visit.clip
        {
            return false
        }
        let base = plan.quads.count, fragmentBase = fragments.count
        let quadShift = base - old.quads.lowerBound
        let groupShift = plan.groups.count - old.groups.lowerBound
        var move: CGPoint?
        if old.layerToTarget == visit.layerToTarget, old.clip == visit.clip {
            if old.quads.count == 1 {
                plan.quads.append(last.quads[old.quads.lowerBound])
            } else {
                plan.quads.append(contentsOf: last.quads[old.quads])
            }
            if !old.groups.isEmpty { plan.groups += last.groups[old.groups].map { $0.shifted(by: quadShift) } }
            noteReused(old: old.quads, new: base..<plan.quads.count, oldGroups: old.groups,
                       newGroups: (plan.groups.count - old.groups.count)..<plan.groups.count)
            statistics.subtreesReused += 1
            if !old.movable { fixedDecisions += 1 }
            if old.firstDescendant == index {
                // A leaf: its record alone comes along (the common case, kept cheap).
                statistics.quadsReused += old.quads.count
                var fragment = old
                fragment.quads = base..<(base + old.quads.count)
                fragment.groups = plan.groups.count - old.groups.count..<plan.groups.count
                fragment.firstDescendant = fragmentBase
                fragments.append(fragment)
                if !old.movable { keepShadows(of: base..<plan.quads.count, in: plan, from: cache) }
                return true
            }
        } else {
            guard old.movable, old.groups.isEmpty,
                let d = old.translation(to: visit.layerToTarget, hasClips: false),
                Self.moved(old.clip, by: d) == visit.clip
            else { return false }
            let onGrid = PlanFragment.onClipGrid(d)
            if old.quads.count == 1 {
                plan.quads.append(last.quads[old.quads.lowerBound])
            } else {
                plan.quads.append(contentsOf: last.quads[old.quads])
            }
            // Moved in place; a quad that cannot follow (a clip off the grid, a shadow, a number that overflows)
            // sends the subtree back to be planned.
            guard Self.move(&plan.quads, base..<plan.quads.count, by: d, clipsOnGrid: onGrid) else {
                plan.quads.removeSubrange(base...)
                return false
            }
            move = d
            statistics.subtreesMoved += 1
            if old.firstDescendant == index {
                // A moved leaf: its record alone, at its new place (what the loop below makes of it, without it).
                statistics.quadsReused += old.quads.count
                var fragment = old
                fragment.quads = base..<plan.quads.count
                fragment.groups = plan.groups.count..<plan.groups.count
                fragment.firstDescendant = fragmentBase
                fragment.layerToTarget = visit.layerToTarget
                fragment.clip = visit.clip
                fragments.append(fragment)
                return true
            }
        }
        statistics.quadsReused += old.quads.count
        // The subtree's own fragments come along, so a later change inside it re-plans only its branch. A moved
        // subtree brings only those of layers with descendants: moving each leaf's record too would cost about what
        // planning the leaf does, and a leaf is planned again only when its parent is.
        var kept: [Int] = []  // the old indices of the fragments brought, in order
        for position in old.firstDescendant...index {
            if move != nil, cache.fragments[position].firstDescendant == position, position != index { continue }
            var fragment = cache.fragments[position]
            fragment.quads = (fragment.quads.lowerBound + quadShift)..<(fragment.quads.upperBound + quadShift)
            fragment.groups = (fragment.groups.lowerBound + groupShift)..<(fragment.groups.upperBound + groupShift)
            // Its descendants brought are the last ones brought from its first descendant on.
            var (low, high) = (0, kept.count)
            while low < high {
                let middle = (low + high) / 2
                if kept[middle] < fragment.firstDescendant { low = middle + 1 } else { high = middle }
            }
            fragment.firstDescendant = fragmentBase + low
            if let move {
                fragment.layerToTarget = fragment.layerToTarget.concatenating(.translation(move.x, move.y))
                fragment.clip = Self.moved(fragment.clip, by: move)
            }
            kept.append(position)
            fragments.append(fragment)
        }
        fragments[fragments.count - 1].layerToTarget = visit.layerToTarget
        fragments[fragments.count - 1].clip = visit.clip
        // Shadows in a reused subtree stay planned (they are reused only in place, so never in a movable one).
        if !old.movable { keepShadows(of: base..<plan.quads.count, in: plan, from: cache) }
        return true
    }

    /// The last plan whole, when `root` is unchanged and placed as before: nothing to plan, copy or keep anew.
    func unchangedPlan(root: LayerSnapshot, rootToTarget: Matrix3) -> RenderPlan? {
        guard let cache, let last = cache.plan, let ordered = cache.orderedPlan, !cache.tilesChanged,
            let index = cache.fragmentIndex[root.id], index == cache.fragments.count - 1
        else { return nil }
        let old = cache.fragments[index]
        guard old.contentVersion == root.contentVersion, old.layerToTarget == rootToTarget, old.opacity == 1,
            old.clip == nil, old.quads == 0..<last.quads.count
        else { return nil }
        var statistics = PlanStatistics()
        statistics.subtreesReused = 1
        statistics.quadsReused = last.quads.count
        cache.statistics = statistics
        // The same quads; only textures changed in place can make pixels differ.
        var region = DamageRegion()
        addChangedImages(of: last, to: &region)
        let identity = PlanIdentity.next()
        let damage = last.identity == 0 ? nil : PlanDamage(region: region, since: last.identity)
        var result = ordered
        (result.identity, result.damage) = (identity, damage)
        (cache.plan!.identity, cache.plan!.damage) = (identity, damage)
        cache.orderedPlan = result
        return result
    }

    /// Keeps the planned shadows of the shadow quads among `range`, copied from the last plan.
    private func keepShadows(of range: Range<Int>, in plan: RenderPlan, from cache: PlanCache) {
        for index in range {
            guard case .shadow = plan.quads[index].paint, let id = plan.quads[index].layerID else { continue }
            if let shadow = cache.shadows[id] { shadows[id] = shadow }
            if let path = cache.shadowPaths[id] { shadowPaths[id] = path }
        }
    }

    /// Keeps the subtree that `ended` began as a fragment for the next plan.
    func keepFragment(_ ended: Planner.End, quadCount: Int, groupCount: Int) {
        guard cache != nil else { return }
        let layer = ended.visit.layer
        fragments.append(PlanFragment(
            id: layer.id, node: layer, contentVersion: layer.contentVersion, layerToTarget: ended.visit.layerToTarget,
            opacity: ended.visit.opacity, clip: ended.visit.clip, quads: ended.start..<quadCount,
            groups: ended.groupStart..<groupCount, firstDescendant: ended.fragmentStart,
            movable: fixedDecisions == ended.fixedAtStart))
    }

    /// Forgets the fragments of quads from `quadIndex` on, which the planner has just removed.
    func dropFragments(from quadIndex: Int) {
        while let last = fragments.last, last.quads.upperBound > quadIndex { fragments.removeLast() }
        // Quads from here on were removed or changed in place: they no longer stand for the copied ones.
        while let last = reusedRuns.last, last.new.upperBound > quadIndex { reusedRuns.removeLast() }
    }

    /// The shadow planned for `id` in the last plan, and records the one used in this plan.
    func lastShadow(_ id: LayerID) -> PlannedShadow? { cache?.shadows[id] }
    func keepShadow(_ shadow: PlannedShadow, for id: LayerID) { shadows[id] = shadow }
    func lastShadowPath(_ id: LayerID) -> ShadowPathImage? { cache?.shadowPaths[id] }
    func keepShadowPath(_ image: ShadowPathImage, for id: LayerID) { shadowPaths[id] = image }
    func keepRasterized(_ picture: RasterizedPicture, for id: LayerID) { rasterized[id] = picture }

    /// Gives `plan` an identity and its damage against the cache's last plan, and leaves it and what this run kept in
    /// the cache, for the next plan.
    func finish(_ plan: inout RenderPlan) {
        guard let cache else { return }
        plan.identity = PlanIdentity.next()
        // Worked out once: the damage reads them, and so does every restriction of the plan to a region.
        // Read through the buffer: `quads.map` copied every quad (a retain and a release of each reference).
        let (width, height) = (plan.width, plan.height)
        plan.quadBounds = plan.quads.withUnsafeBufferPointer { quads in
            guard let first = quads.baseAddress else { return [] }
            return (0..<quads.count).map { Quad.damageBounds(at: first + $0, width: width, height: height) }
        }
        plan.damage = damage(of: plan, last: cache.plan)
        lastParts = nil
        cache.plan = plan
        // Later records of an id win, as they did with `uniquingKeysWith`; built in place, without the pairs.
        var index = [LayerID: Int](minimumCapacity: fragments.count)
        for position in fragments.indices { index[fragments[position].id] = position }
        cache.fragmentIndex = index
        cache.fragments = fragments
        // Worked out only for trees with tiled layers (this frame chose tiles, or the last plan held some).
        if !cache.tiledSubtrees.isEmpty || cache.tiles.choseTiles { cache.tiledSubtrees = Self.tiledSubtrees(fragments) }
        cache.shadows = shadows
        cache.shadowPaths = shadowPaths
        if cache.rasterized.count > rasterized.count {
            // Pictures of rasterized layers in subtrees copied from the last plan are still drawn: kept too.
            var left = cache.rasterized.filter { rasterized[$0.key] == nil }
            for quad in plan.quads where !left.isEmpty {
                guard let id = quad.layerID, let picture = left[id], case .texture(let source) = quad.paint,
                    source.image === picture.image
                else { continue }
                rasterized[id] = picture
                left[id] = nil
            }
        }
        cache.rasterized = rasterized
        cache.statistics = statistics
    }

    /// Moves `quads[range]` by `d` target pixels; false when one cannot be moved so (`canMove`), and then none is
    /// moved.
    static func move(_ quads: inout [Quad], _ range: Range<Int>, by d: CGPoint, clipsOnGrid: Bool) -> Bool {
        quads.withUnsafeMutableBufferPointer { move($0, range, by: d, clipsOnGrid: clipsOnGrid) }
    }

    /// `move` of quads changed through their buffer.
    static func move(_ quads: UnsafeMutableBufferPointer<Quad>, _ range: Range<Int>, by d: CGPoint, clipsOnGrid: Bool)
        -> Bool {
        guard canMove(UnsafeBufferPointer(rebasing: quads[range]), by: d, clipsOnGrid: clipsOnGrid) else {
            return false
        }
        moveChecked(quads, range, by: d)
        return true
    }

    /// Whether every one of `quads` can follow a translation by `d`: none is a shadow, a clipped one only by whole
    /// steps of the clip grid (`clipsOnGrid`), and every moved map stays finite. Read through their buffer
    /// (iterating an array would copy each quad).
    static func canMove(_ quads: UnsafeBufferPointer<Quad>, by d: CGPoint, clipsOnGrid: Bool) -> Bool {
        guard let first = quads.baseAddress else { return true }
        for index in quads.indices {
            if Quad.movesByOffset(at: first + index) {
                let m = quads[index].unitToTarget
                guard (m.m31 + d.x).isFinite, (m.m32 + d.y).isFinite else { return false }
                continue
            }
            if case .shadow = quads[index].paint { return false }
            guard quads[index].clip == nil || clipsOnGrid, quads[index].hasFiniteGeometry,
                quads[index].translationStaysFinite(x: d.x, y: d.y)
            else { return false }
        }
        return true
    }

    /// Moves `quads` by `d` target pixels, where `canMove` said they can follow: an affine, unclipped, unshaped quad
    /// takes the translation added to its offset (exactly what the product gives), any other is `translated`.
    /// The array is changed through its buffer: `&quads[range]` would copy the slice and write it back, a retain
    /// and a release for each reference of every quad.
    static func moveChecked(_ quads: UnsafeMutableBufferPointer<Quad>, _ range: Range<Int>, by d: CGPoint) {
        guard let first = quads.baseAddress else { return }
        for index in range {
            let m = quads[index].unitToTarget
            if Quad.movesByOffset(at: first + index) {
                quads[index].unitToTarget.m31 = m.m31 + d.x
                quads[index].unitToTarget.m32 = m.m32 + d.y
            } else {
                quads[index] = quads[index].translated(x: d.x, y: d.y)
            }
        }
    }

    static func moved(_ clip: ConvexPolygon?, by d: CGPoint) -> ConvexPolygon? {
        clip.map { ConvexPolygon(vertices: $0.vertices.map { CGPoint(x: $0.x + d.x, y: $0.y + d.y) }) }
    }

    /// The layers among `fragments` (post-order) whose subtree holds a tiled layer (each has a fragment of its own).
    private static func tiledSubtrees(_ fragments: [PlanFragment]) -> Set<LayerID> {
        var prefix = [Int](repeating: 0, count: fragments.count + 1)
        for (index, fragment) in fragments.enumerated() {
            prefix[index + 1] = prefix[index] + (fragment.node?.state.tiled != nil ? 1 : 0)
        }
        guard prefix[fragments.count] > 0 else { return [] }
        var found = Set<LayerID>()
        for (index, fragment) in fragments.enumerated()
        where prefix[index + 1] - prefix[min(fragment.firstDescendant, index)] > 0 {
            found.insert(fragment.id)
        }
        return found
    }
}
