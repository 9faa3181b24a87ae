import Foundation
import LaminaCore

// Commit: a transaction's changes go from the model to the committed state, all under the model lock, so a frame
// (which snapshots the committed state under the same lock) sees all of a transaction or none of it.

extension Layer {
    /// Copies `fields` of the model to the committed state. A layer committed for the first time (a new layer, or
    /// one added to a committed tree) takes its whole model, and so do its new sublayers and mask.
    func commitLocked(_ fields: UInt64, stamp: UInt64) {
        guard everCommitted else {
            commitWholeLocked(stamp: stamp)
            return
        }
        committed.copy(fields, from: model)
        if fields & LayerState.Field.sublayers.bit != 0 {
            adoptLocked(old: committedSublayers, new: modelSublayers, stamp: stamp)
            committedSublayers = modelSublayers
            childrenStale = true
            // A layer joining the committed tree for the first time brings its whole model (and its subtree's).
            for child in committedSublayers where !child.everCommitted { child.commitWholeLocked(stamp: stamp) }
        }
        if fields & LayerState.Field.mask.bit != 0 {
            adoptLocked(old: committedMask.map { [$0] } ?? [], new: modelMask.map { [$0] } ?? [], stamp: stamp)
            committedMask = modelMask
            childrenStale = true
            if let mask = committedMask, !mask.everCommitted { mask.commitWholeLocked(stamp: stamp) }
        }
        if fields & ~LayerState.placementFields != 0 { contentVersion = stamp }
        snapshotStale = true
        invalidateAncestorsLocked(stamp: stamp)
    }

    /// The layer and every descendant not committed before take their whole model. Iterative: any depth.
    private func commitWholeLocked(stamp: UInt64) {
        everCommitted = true
        var pending: [Layer] = [self]
        while let layer = pending.popLast() {
            layer.committed = layer.model
            layer.adoptLocked(old: layer.committedSublayers, new: layer.modelSublayers, stamp: stamp)
            layer.adoptLocked(old: layer.committedMask.map { [$0] } ?? [], new: layer.modelMask.map { [$0] } ?? [],
                              stamp: stamp)
            layer.committedSublayers = layer.modelSublayers
            layer.committedMask = layer.modelMask
            layer.contentVersion = stamp
            layer.snapshotStale = true
            layer.childrenStale = true
            for child in layer.modelSublayers where !child.everCommitted {
                child.everCommitted = true
                pending.append(child)
            }
            if let mask = layer.modelMask, !mask.everCommitted {
                mask.everCommitted = true
                pending.append(mask)
            }
        }
        invalidateAncestorsLocked(stamp: stamp)
    }

    /// Makes this layer the committed parent of `new`, and no longer of those of `old` that left.
    private func adoptLocked(old: [Layer], new: [Layer], stamp: UInt64) {
        if !old.isEmpty {
            let staying = Set(new.map(ObjectIdentifier.init))
            for child in old where child.committedParent === self && !staying.contains(ObjectIdentifier(child)) {
                child.committedParent = nil
            }
        }
        for child in new { child.committedParent = self }
    }

    /// Marks every committed ancestor as changed (its snapshot and its plan of the subtree are stale). Stops where a
    /// walk of this commit has already been.
    private func invalidateAncestorsLocked(stamp: UInt64) {
        var node = committedParent
        while let ancestor = node {
            let done = ancestor.contentVersion == stamp && ancestor.childrenStale
            ancestor.contentVersion = stamp
            ancestor.snapshotStale = true
            ancestor.childrenStale = true
            if done { break }
            node = ancestor.committedParent
        }
    }
}
