import Foundation
import LaminaCore

// Node updates (docs/architecture.md, "Property trees"): a sublayer whose picture is as the last plan has it, and
// that was only moved, turned, scaled or faded (a new position, transform, anchorPoint or opacity; animated or set),
// keeps its planned quads: they are moved by the translation between its old and new map to the target, given the
// new opacity, or (a turned or scaled leaf) its quads are made again from its own geometry without planning it. Its
// record in the plan cache is the node: the map to the target, the inherited opacity and clip it was planned under.

/// A sublayer planned again or updated in place: the quads that replace its old ones (or how its old ones change in
/// place), where its record now places it and, for a moved subtree, the records of its descendants to move with it.
struct PlanReplacement {
    var fragment: Int
    var quads: [Quad]
    /// The old quads kept where they are, moved by a translation (`PlanRun.canMove` said they can follow it) and,
    /// with `fade`, given a new opacity; `quads` is then empty. Nothing is copied: the patch changes the last plan's
    /// quads in place.
    var inPlace: (move: CGPoint, fade: Float?)?
    /// What the record of `fragment` takes: the rest of the record stays as it is, changed in place by the patch (a
    /// whole record carried here was copied twice per sublayer, a retain and a release of each of its references).
    var placement: Planner.Visit
    /// The records of the subtree's descendants (`firstDescendant..<fragment`) and the translation that moves them.
    var movedDescendants: (records: Range<Int>, by: CGPoint)?
    /// Whether the quads were made anew (their images are marked as sampled); a moved or faded quad samples what
    /// it sampled before.
    var made = true
    /// A node update (the sublayer was not planned).
    var updated = false
    /// The quads are known to differ from the old ones (moved by a translation other than 0): the patch does not
    /// compare them.
    var differs = false
}

extension Planner {
    /// The replacement of the subtree of `kid` (kept as fragment `index` with `record`) when the last plan's quads
    /// can follow its new placement `visit` and opacity without planning it; nil when it must be planned.
    ///
    /// - A subtree (a leaf's included) whose content is the same (`contentVersion`) at the same inherited opacity is
    ///   moved, when its map differs by a translation it can follow (`PlanFragment.movable`, no groups): two
    ///   additions per affine quad.
    /// - A leaf whose own picture is the same (`pictureVersion`: only its placement or opacity changed) is moved
    ///   the same way or, when it turned or was scaled, its quads are made again from its bounds and contents
    ///   (`emit`), as planning it would make them; its quads take the new opacity (every quad of a leaf without
    ///   a shadow, group or border carries the layer's faded opacity, which is checked).
    ///
    /// `record` and `quads` (the last plan's) are read where they lie: a copy of a record, the plan or a quad retains
    /// its references.
    func nodeUpdate(kid: LayerSnapshot, record: UnsafePointer<PlanFragment>, index: Int,
                    visit: Visit, quads last: UnsafeBufferPointer<Quad>, cache: PlanCache) -> PlanReplacement?
    {
        guard let old = record.pointee.node, record.pointee.groups.isEmpty, !record.pointee.quads.isEmpty,
            record.pointee.quads.upperBound <= last.count,
            kid.effects == nil, old.effects == nil, !kid.isHidden, visit.layerToTarget.isFinite,
            cache.tiledSubtrees.isEmpty || !cache.tiledSubtrees.contains(kid.id)
        else { return nil }
        let leaf = record.pointee.firstDescendant == index
        let sameContent = record.pointee.contentVersion == kid.contentVersion
        // The same content at the same opacity, placed anew: moved whole where its quads can follow (as a reused
        // subtree is moved, `PlanRun.reuse`), the records of a branch's descendants with it.
        if sameContent, record.pointee.opacity == visit.opacity,
            record.pointee.layerToTarget != visit.layerToTarget || record.pointee.clip != visit.clip,
            let d = translation(of: record.pointee, to: visit,
                                quads: UnsafeBufferPointer(rebasing: last[record.pointee.quads]))
        {
            return PlanReplacement(
                fragment: index, quads: [], inPlace: (d, nil), placement: visit,
                movedDescendants: leaf ? nil : (record.pointee.firstDescendant..<index, d), made: false,
                updated: true, differs: d != .zero)
        }
        // A branch that did not move so is planned (patched inside by the caller when it lies where it lay).
        guard leaf else { return nil }
        // A leaf: its picture must be the one planned, at most faded anew.
        guard kid.sublayers.isEmpty, kid.mask == nil, old.sublayers.isEmpty, old.mask == nil,
            sameContent || old.pictureVersion == kid.pictureVersion, Self.isPlainLeaf(kid), Self.isPlainLeaf(old)
        else { return nil }
        let oldFade = record.pointee.opacity * min(max(old.opacity, 0), 1)
        let fade = visit.opacity * min(max(kid.opacity, 0), 1)
        guard fade > 0 else { return nil }
        // Every quad of a plain leaf carries its faded opacity: one that does not was made some other way.
        for position in record.pointee.quads {
            if case .shadow = last[position].paint { return nil }
            guard last[position].opacity == oldFade else { return nil }
        }
        let newFade = fade != oldFade ? fade : nil
        if record.pointee.layerToTarget == visit.layerToTarget, record.pointee.clip == visit.clip {
            return PlanReplacement(fragment: index, quads: [], inPlace: (.zero, newFade), placement: visit,
                                   made: false, updated: true, differs: newFade != nil)
        }
        if let d = translation(of: record.pointee, to: visit, quads: .init(rebasing: last[record.pointee.quads])) {
            return PlanReplacement(fragment: index, quads: [], inPlace: (d, newFade), placement: visit, made: false,
                                   updated: true, differs: d != .zero || newFade != nil)
        }
        // Turned, scaled or projected: made again from the layer's geometry, as planning the leaf makes them.
        guard kid.isDoubleSided || visit.layerToTarget.determinant >= 0 else { return nil }
        var quads: [Quad] = []
        quads.reserveCapacity(record.pointee.quads.count)
        emit(kid, layerToTarget: visit.layerToTarget, opacity: fade, clip: visit.clip, into: &quads)
        guard quads.count == record.pointee.quads.count else { return nil }
        return PlanReplacement(fragment: index, quads: quads, placement: visit, updated: true)
    }

    /// A leaf whose planned quads are its background, contents and border only, each at the layer's faded opacity:
    /// no shadow, group (mask, blend mode), rasterized picture, special picture or border bands planned after it.
    static func isPlainLeaf(_ layer: LayerSnapshot) -> Bool {
        guard case .none = layer.state.special else { return false }
        return layer.shadowOpacity <= 0 && !layer.shouldRasterize && layer.blendMode == nil && layer.mask == nil
            && layer.borderWidth <= 0
    }

    /// The translation that takes the quads of `record` to `visit`'s map, when the maps differ by one they can
    /// follow (as a reused subtree is moved: `PlanRun.reuse`); nil otherwise. The quads are only looked at: the
    /// patch moves them in place (`PlanRun.moveChecked`).
    func translation(of record: PlanFragment, to visit: Visit, quads: UnsafeBufferPointer<Quad>) -> CGPoint? {
        guard record.movable, let d = record.translation(to: visit.layerToTarget, hasClips: false),
            PlanRun.moved(record.clip, by: d) == visit.clip,
            PlanRun.canMove(quads, by: d, clipsOnGrid: PlanFragment.onClipGrid(d))
        else { return nil }
        return d
    }
}

extension PlanFragment {
    /// Takes the layer, map, opacity and clip of `visit` (the layer planned or updated, with its content version),
    /// keeping its quads, groups and descendants.
    mutating func place(_ visit: Planner.Visit) {
        node = visit.layer
        contentVersion = visit.layer.contentVersion
        layerToTarget = visit.layerToTarget
        opacity = visit.opacity
        clip = visit.clip
    }
}
