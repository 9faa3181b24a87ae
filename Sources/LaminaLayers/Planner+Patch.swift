import Foundation
import LaminaCore

// Patching the last plan (docs/architecture.md, "Damage"): when a layer's own state and its list of sublayers are
// as they were and only some sublayers changed, the last plan is kept and only those sublayers' quads are planned
// again, in place. A tree of 100,000 sprites where one moved costs a scan of the root's sublayers (a pointer compare
// each) and the one sprite, instead of copying 100,000 quads and their records.

extension Planner {
    /// The last plan of `cache` with the changed sublayers of `root` planned again in place, its identity and damage
    /// set and the cache updated; nil when the tree changed in a way patching does not cover (then the plan is made
    /// the usual way).
    func patchedPlan(_ root: LayerSnapshot, rootToTarget: Matrix3, cache: PlanCache) throws -> RenderPlan? {
        // Fields are read from the cache one by one: a copy of its plan held here would make the quads be copied
        // when they are changed.
        guard !cache.tilesChanged, let lastIdentity = cache.plan?.identity, lastIdentity != 0,
            let groups = cache.plan?.groups,
            let orderedGroups = cache.orderedPlan?.groups, let width = cache.plan?.width,
            let height = cache.plan?.height, let count = cache.plan?.quads.count,
            let index = cache.fragmentIndex[root.id], index == cache.fragments.count - 1
        else { return nil }
        let old = cache.fragments[index]
        guard old.layerToTarget == rootToTarget, old.opacity == 1, old.clip == nil, old.quads == 0..<count
        else { return nil }
        var replacements: [PlanReplacement] = []
        var patched: [(fragment: Int, node: LayerSnapshot)] = [(index, root)]
        let visit = Visit(layer: root, layerToTarget: rootToTarget, opacity: 1, clip: nil)
        guard try patch(visit, fragment: index, cache: cache, size: (width, height), into: &replacements,
                        patched: &patched)
        else { return nil }
        return applied(replacements, patched: patched, to: cache, lastIdentity: lastIdentity, groups: groups,
                       orderedGroups: orderedGroups, width: width, height: height)
    }

    /// The cache's last plan with `replacements` written in place (the old and new boxes of each replaced quad as
    /// damage, unless its quads came out the same), the records of `patched` given their new nodes, and the cache
    /// updated: the end of a patch and of an animated node frame (Planner+AnimatedNodes.swift).
    func applied(
        _ replacements: [PlanReplacement], patched: [(fragment: Int, node: LayerSnapshot)], to cache: PlanCache,
        lastIdentity: UInt64, groups: [PlanGroup], orderedGroups: [PlanGroup], width: Int, height: Int
    ) -> RenderPlan {
        var bounds = cache.plan?.quadBounds
        // The cache lets go of the last plan, so that its quads are changed in place rather than copied, and of its
        // records, which are changed in place through their buffer (a record assigned whole released every
        // reference of the old one and retained the new one's).
        var quads = Self.takeQuads(from: cache)
        var records: [PlanFragment] = []
        swap(&records, &cache.fragments)
        var region = DamageRegion()
        var fresh: [Quad] = []
        if bounds?.count != quads.count { bounds = nil }
        // Replacements are read where they lie: a copy of each retained its quads, node and clip.
        replacements.withUnsafeBufferPointer { replacements in
            records.withUnsafeMutableBufferPointer { records in
                quads.withUnsafeMutableBufferPointer { quads in
                    for index in replacements.indices {
                        apply(replacements.baseAddress! + index, records: records, quads: quads, width: width,
                              height: height, bounds: &bounds, region: &region, fresh: &fresh)
                    }
                }
            }
        }
        for (fragment, node) in patched {
            records[fragment].node = node
            records[fragment].contentVersion = node.contentVersion
        }
        swap(&records, &cache.fragments)
        let updated = replacements.count(where: { $0.updated })
        return finishedPatch(quads: quads, bounds: bounds, region: region, fresh: fresh, to: cache,
                             lastIdentity: lastIdentity, groups: groups, orderedGroups: orderedGroups,
                             width: width, height: height, updated: updated, planned: replacements.count - updated)
    }

    /// Writes one replacement into the last plan's `quads` and `records` in place: its quads moved and faded or
    /// replaced, their old and new boxes added to `region` (unless they came out the same), the boxes `bounds` keeps
    /// updated, its record given its new place, and the records of a moved subtree moved with it.
    private func apply(
        _ replacement: UnsafePointer<PlanReplacement>, records: UnsafeMutableBufferPointer<PlanFragment>,
        quads: UnsafeMutableBufferPointer<Quad>, width: Int, height: Int, bounds: inout [PixelBox?]?,
        region: inout DamageRegion, fresh: inout [Quad]
    ) {
        let fragment = replacement.pointee.fragment
        let range = records[fragment].quads
        let made = replacement.pointee.quads.count
        // A layer planned again into the same quads (an animation that set the same values) damages nothing.
        let same = !replacement.pointee.differs && (replacement.pointee.inPlace != nil
            || made == range.count && replacement.pointee.quads.withUnsafeBufferPointer { new in
                (0..<made).allSatisfy { quads[range.lowerBound + $0] == new[$0] }
            })
        if !same {
            Self.addBoxes(of: UnsafeBufferPointer(quads), range, width: width, height: height, bounds: &bounds,
                          old: true, to: &region)
        }
        if let (d, fade) = replacement.pointee.inPlace {
            // The old quads follow their node where they are.
            if !same, range.count >= Self.movedInChunksMinimum, Processors.active > 1 {
                // The new boxes go where the plan keeps them (or, keeping none, to an array of their own).
                func move(into boxes: UnsafeMutableBufferPointer<PixelBox?>) {
                    Self.movedInChunks(quads, range, by: d, fade: fade, width: width, height: height, into: boxes)
                    region.add(contentsOf: UnsafeBufferPointer(boxes))
                }
                if bounds != nil {
                    bounds!.withUnsafeMutableBufferPointer { move(into: .init(rebasing: $0[range])) }
                } else {
                    var boxes = [PixelBox?](repeating: nil, count: range.count)
                    boxes.withUnsafeMutableBufferPointer { move(into: $0) }
                }
            } else {
                if d != .zero { PlanRun.moveChecked(quads, range, by: d) }
                if let fade { Self.fade(quads, range, to: fade) }
                if !same {
                    Self.addBoxes(of: UnsafeBufferPointer(quads), range, width: width, height: height,
                                  bounds: &bounds, old: false, to: &region)
                }
            }
        }
        if made > 0 {
            for (offset, quad) in replacement.pointee.quads.enumerated() {
                let box = quad.damageBounds(width: width, height: height)
                if !same { box.map { region.add($0) } }
                bounds?[range.lowerBound + offset] = box
                quads[range.lowerBound + offset] = quad
            }
            if replacement.pointee.made { fresh += replacement.pointee.quads }
        }
        records[fragment].place(replacement.pointee.placement)
        if let (moved, d) = replacement.pointee.movedDescendants {
            // The records inside a moved subtree move with it, as a reused subtree's do (PlanRun.reuse).
            for position in moved { records[position].move(by: d) }
        }
    }

    /// The plan of `quads` (the last plan's, changed in place) with their boxes and damage `region`, `fresh` the
    /// quads made anew: given its identity and damage (with the images that changed since), kept by the cache with
    /// the frame's counters, and returned with its groups in drawing order.
    func finishedPatch(
        quads: [Quad], bounds: [PixelBox?]?, region: DamageRegion, fresh: [Quad], to cache: PlanCache,
        lastIdentity: UInt64, groups: [PlanGroup], orderedGroups: [PlanGroup], width: Int, height: Int,
        updated: Int, planned: Int, remapped: Int = 0
    ) -> RenderPlan {
        var region = region
        var result = RenderPlan(width: width, height: height, quads: quads, groups: groups)
        result.quadBounds = bounds
        let run = PlanRun(cache: cache)
        run.markSampled(fresh[...])
        run.addChangedImages(of: result, to: &region)
        result.identity = PlanIdentity.next()
        result.damage = PlanDamage(region: region, since: lastIdentity)
        var statistics = PlanStatistics()
        statistics.layersUpdated = updated
        statistics.layersPlanned = planned
        statistics.subtreesReused = 1
        statistics.quadsReused = quads.count - fresh.count - remapped
        statistics.quadsRemapped = remapped
        cache.statistics = statistics
        cache.plan = result
        var orderedResult = result
        orderedResult.groups = orderedGroups
        cache.orderedPlan = orderedResult
        return orderedResult
    }

    /// Adds to `region` the damage boxes of `quads[range]`: with `old`, the boxes `bounds` keeps for them (worked out
    /// where it keeps none), else their boxes worked out anew, which `bounds` then keeps. The quads are read through
    /// the array's buffer: its subscript would copy each one (a retain and a release for each of its references).
    static func addBoxes(of quads: [Quad], _ range: Range<Int>, width: Int, height: Int, bounds: inout [PixelBox?]?,
                         old: Bool, to region: inout DamageRegion) {
        quads.withUnsafeBufferPointer {
            addBoxes(of: $0, range, width: width, height: height, bounds: &bounds, old: old, to: &region)
        }
    }

    /// `addBoxes` of quads read through their buffer.
    static func addBoxes(of quads: UnsafeBufferPointer<Quad>, _ range: Range<Int>, width: Int, height: Int,
                         bounds: inout [PixelBox?]?, old: Bool, to region: inout DamageRegion) {
        if old, let kept = bounds {
            // Only read: the array may be shared.
            kept.withUnsafeBufferPointer { region.add(contentsOf: .init(rebasing: $0[range])) }
            return
        }
        if bounds == nil {
            addBoxes(of: quads, range, width: width, height: height, bounds: nil, old: old, to: &region)
            return
        }
        bounds!.withUnsafeMutableBufferPointer {
            addBoxes(of: quads, range, width: width, height: height, bounds: $0, old: old, to: &region)
        }
    }

    /// `addBoxes` with the kept boxes in a buffer (nil: none kept): what the cores applying a node frame's changes
    /// share, each writing its own quads' boxes.
    static func addBoxes(of quads: UnsafeBufferPointer<Quad>, _ range: Range<Int>, width: Int, height: Int,
                         bounds: UnsafeMutableBufferPointer<PixelBox?>?, old: Bool, to region: inout DamageRegion) {
        guard let first = quads.baseAddress else { return }
        if old, let bounds {
            region.add(contentsOf: UnsafeBufferPointer(rebasing: bounds[range]))
            return
        }
        for position in range {
            let box = Quad.damageBounds(at: first + position, width: width, height: height)
            box.map { region.add($0) }
            if !old { bounds?[position] = box }
        }
    }

    /// The quads of one node update from which the patch moves them and works out their boxes in chunks on every
    /// core: a moved parent's subtree (`parent-moving-10k`, where the boxes were three fifths of the patch). Below
    /// it, handing the work to another core costs more than it saves.
    static let movedInChunksMinimum = 2_048

    /// Moves `quads[range]` by `d` (`PlanRun.moveChecked`) and gives them `fade`, in place, in chunks on every core,
    /// each chunk writing its quads' new damage boxes (`Quad.damageBounds(at:)`) to `boxes` (one for each quad of
    /// `range`, in order): the region then takes them in the order the one loop adds them, so the damage is the same.
    static func movedInChunks(_ quads: UnsafeMutableBufferPointer<Quad>, _ range: Range<Int>, by d: CGPoint,
                              fade: Float?, width: Int, height: Int,
                              into boxes: UnsafeMutableBufferPointer<PixelBox?>) {
        let chunks = LayerSnapshot.evaluationChunks(range.count, minimum: movedInChunksMinimum / 2)
        let size = (range.count + chunks - 1) / chunks
        let work = MoveChunks(quads: quads, boxes: boxes, range: range, size: size, by: d, fade: fade,
                              width: width, height: height)
        DispatchQueue.concurrentPerform(iterations: chunks) { work.run(chunk: $0) }
    }

    /// Gives every one of `quads[range]` the opacity `fade`, in place, through their buffer.
    static func fade(_ quads: UnsafeMutableBufferPointer<Quad>, _ range: Range<Int>, to fade: Float) {
        for position in range { quads[position].opacity = fade }
    }

    /// The quads of the cache's last plan, which the cache no longer holds: the array is changed in place, not copied.
    static func takeQuads(from cache: PlanCache) -> [Quad] {
        var quads: [Quad] = []
        if cache.plan != nil { swap(&quads, &cache.plan!.quads) }
        cache.plan = nil
        cache.orderedPlan = nil
        return quads
    }

    /// Collects the replacements that bring `visit`'s subtree (kept as fragment `fragment`) up to date; false when it
    /// cannot be patched: its own state, mask or list of sublayers changed, it draws through a group or a rounded
    /// clip or casts a shadow (all of which follow its sublayers), or a changed sublayer paints a different number of
    /// quads, a group or a shadow.
    private func patch(
        _ visit: Visit, fragment: Int, cache: PlanCache, size: (width: Int, height: Int),
        into replacements: inout [PlanReplacement], patched: inout [(fragment: Int, node: LayerSnapshot)]
    ) throws -> Bool {
        let layer = visit.layer
        guard let old = cache.fragments[fragment].node, old.ownVersion == layer.ownVersion, layer.effects == nil,
            old.effects == nil, layer.mask == nil, old.mask == nil, !layer.isHidden,
            // A replicator's instances are planned on their own, not kept as fragments.
            layer.state.replicator == nil,
            // A shadow's silhouette is the layer's whole subtree: it changes with the sublayers.
            layer.shadowOpacity <= 0,
            // A rasterized layer's picture is its whole subtree.
            !layer.shouldRasterize,
            // A blended layer's group follows its sublayers.
            layer.blendMode?.composite == nil
        else { return false }
        let own = min(max(layer.opacity, 0), 1)
        let (kids, oldKids) = (layer.sublayers, old.sublayers)
        guard kids.count == oldKids.count else { return false }
        // A group's bounds and a rounded clip's shape follow the sublayers: such a layer is planned anew.
        let grouped = own < 1 && layer.allowsGroupOpacity && kids.contains { !$0.isHidden && $0.opacity > 0 }
        guard !grouped, !(layer.masksToBounds && layer.roundedBounds != nil) else { return false }
        var changed: [Int] = []
        // Leaves whose picture changed: no node update can keep their quads.
        var newPictures = 0
        for position in kids.indices where kids[position] !== oldKids[position] {
            let (kid, oldKid) = (kids[position], oldKids[position])
            guard kid.id == oldKid.id, kid.state.zPosition == oldKid.state.zPosition else { return false }
            changed.append(position)
            if kid.pictureVersion != oldKid.pictureVersion, kid.sublayers.isEmpty { newPictures += 1 }
        }
        // Sublayers planned again here (node updates, Planner+NodeUpdate.swift, are not): past a quarter of them
        // (and 64), planning each on its own costs more than the usual plan, which copies what did not change. Leaves
        // with new pictures are counted first, so that the patch gives up before it plans any.
        if newPictures > 64 && newPictures * 4 > kids.count { return false }
        var replanned = 0
        var clip = visit.clip
        if layer.masksToBounds, !changed.isEmpty {
            guard let bounds = ConvexPolygon(projecting: unitCorners.map(Matrix3.unitSquare(to: layer.bounds)
                .concatenating(visit.layerToTarget).apply)) else { return false }
            clip = clip.map { $0.intersection(bounds) } ?? bounds
            guard clip.map({ !$0.isEmpty }) ?? true else { return false }
        }
        let opacity = visit.opacity * own
        let sublayerSpace = layer.sublayerTransformAboutAnchor
        // The records and the last plan's quads are read where they lie: a record or a quad copied out of its array
        // retains and releases each of its references, once for every changed sublayer.
        let records = cache.fragments
        guard let lastQuads = cache.plan?.quads else { return false }
        replacements.reserveCapacity(replacements.count + changed.count)
        let unique = cache.fragmentIDsAreUnique
        var found = -1
        return try records.withUnsafeBufferPointer { records in try lastQuads.withUnsafeBufferPointer { last in
            for position in changed {
                let kid = kids[position]
                let childVisit = Visit(
                    layer: kid, layerToTarget: kid.mapToSuperlayer(sublayerSpace: sublayerSpace)
                        .concatenating(visit.layerToTarget), opacity: opacity, clip: clip)
                // The record that follows the last one found is tried first (sublayers painting one record each, as
                // sprites do, lie one after the other); with every id kept once, one whose id matches is the one the
                // index holds. Hashing 100,000 ids was a tenth of a patch that moved them all.
                let next = found + 1
                let hinted = unique && next > 0 && next < records.count && records[next].id == kid.id ? next : nil
                guard let kidIndex = hinted ?? cache.fragmentIndex[kid.id] else {
                    // It painted nothing before: it must paint nothing now.
                    let invisible = !childVisit.layerToTarget.isFinite || kid.isHidden || opacity * kid.opacity <= 0
                    if invisible { continue }
                    guard try planned(childVisit, width: size.width, height: size.height)?.isEmpty == true else {
                        return false
                    }
                    continue
                }
                found = kidIndex
                if let update = nodeUpdate(kid: kid, record: records.baseAddress! + kidIndex, index: kidIndex,
                                           visit: childVisit, quads: last, cache: cache) {
                    replacements.append(update)
                    continue
                }
                replanned += 1
                if replanned > 64 && replanned * 4 > kids.count { return false }
                let record = records[kidIndex]
                if record.firstDescendant == kidIndex {
                    // A leaf's record: its quads planned again must fit its place.
                    guard childVisit.layerToTarget.isFinite, !kid.shouldRasterize,
                        let quads = try planned(childVisit, width: size.width, height: size.height),
                        quads.count == record.quads.count, record.groups.isEmpty
                    else { return false }
                    func isShadow(_ quad: Quad) -> Bool { if case .shadow = quad.paint { true } else { false } }
                    if quads.contains(where: isShadow) || last[record.quads].contains(where: isShadow) { return false }
                    replacements.append(PlanReplacement(fragment: kidIndex, quads: quads, placement: childVisit))
                } else {
                    // A branch placed as before: patch inside it.
                    guard record.layerToTarget == childVisit.layerToTarget, record.opacity == childVisit.opacity,
                        record.clip == childVisit.clip,
                        try patch(childVisit, fragment: kidIndex, cache: cache, size: size, into: &replacements,
                                  patched: &patched)
                    else { return false }
                    patched.append((kidIndex, kid))
                }
            }
            return true
        } }
    }

    /// The quads of a leaf's subtree planned on their own (no groups may come of it); nil when it made groups.
    private func planned(_ visit: Visit, width: Int, height: Int) throws -> [Quad]? {
        guard visit.layer.sublayers.isEmpty, visit.layer.mask == nil else { return nil }
        let piece = try plan(visit.layer, rootToTarget: visit.layerToTarget, width: width, height: height,
                             silhouette: false, run: PlanRun(cache: nil), rootOpacity: visit.opacity,
                             rootClip: visit.clip, caching: false)
        return piece.groups.isEmpty ? piece.quads : nil
    }
}

/// One chunk's share of `Planner.movedInChunks`: its quads (distinct from every other chunk's) moved, faded and boxed
/// through the buffers, which outlive the concurrent loop that runs it.
private final class MoveChunks: @unchecked Sendable {
    let quads: UnsafeMutableBufferPointer<Quad>
    let boxes: UnsafeMutableBufferPointer<PixelBox?>
    let range: Range<Int>
    let size: Int
    let d: CGPoint
    let fade: Float?
    let width: Int, height: Int

    init(quads: UnsafeMutableBufferPointer<Quad>, boxes: UnsafeMutableBufferPointer<PixelBox?>, range: Range<Int>,
         size: Int, by d: CGPoint, fade: Float?, width: Int, height: Int) {
        (self.quads, self.boxes, self.range, self.size, self.d, self.fade) = (quads, boxes, range, size, d, fade)
        (self.width, self.height) = (width, height)
    }

    func run(chunk: Int) {
        let start = range.lowerBound + chunk * size, end = min(range.upperBound, start + size)
        guard start < end, let first = quads.baseAddress else { return }
        if d != .zero { PlanRun.moveChecked(quads, start..<end, by: d) }
        if let fade { Planner.fade(quads, start..<end, to: fade) }
        for position in start..<end {
            boxes[position - range.lowerBound] = Quad.damageBounds(at: first + position, width: width, height: height)
        }
    }
}
