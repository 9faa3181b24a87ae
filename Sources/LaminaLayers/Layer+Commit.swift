import Foundation
import LaminaCore

// Commit: a transaction's recorded values become the committed state, all under the model lock, so a frame (which
// snapshots the committed state under the same lock) sees all of a transaction or none of it.

extension Layer {
    /// Applies one layer's recorded change: its fields' values as the transaction set them (where no transaction
    /// committed before set them later: `FieldWrites`), and its list of sublayers and mask as the model has them now.
    func commitLocked(_ change: ChangeSet.Change, stamp: UInt64) {
        let fields = change.writes.newer(change.fields, than: committedWrites)
        guard fields != 0 || !everCommitted else { return }
        everCommitted = true
        withUnsafePointer(to: &change.values) { committed.copy(fields, from: $0) }
        committedWrites.take(fields, from: change.writes)
        if fields & LayerState.Field.sublayers.bit != 0 {
            adoptLocked(old: committedSublayers, new: modelSublayers)
            committedSublayers = modelSublayers
            childrenStale = true
        }
        if fields & LayerState.Field.mask.bit != 0 {
            adoptLocked(old: committedMask.map { [$0] } ?? [], new: modelMask.map { [$0] } ?? [])
            committedMask = modelMask
            childrenStale = true
        }
        if fields & ~LayerState.placementFields != 0 || contentVersion == 0 { contentVersion = stamp }
        let ownFields = ~(LayerState.placementFields | LayerState.structureFields)
        if fields & ownFields != 0 || ownVersion == 0 { ownVersion = stamp }
        if fields & ownFields & ~LayerState.Field.opacity.bit != 0 || pictureVersion == 0 { pictureVersion = stamp }
        snapshotStale = true
        invalidateAncestorsLocked(stamp: stamp)
    }

    /// Marks a change made to the committed state outside a commit (a finished animation taken off): the snapshot
    /// and the plans of this layer and its ancestors are stale. Model lock held.
    func markCommittedChangeLocked() {
        Transaction.commits &+= 1
        contentVersion = Transaction.commits
        ownVersion = Transaction.commits
        pictureVersion = Transaction.commits
        snapshotStale = true
        invalidateAncestorsLocked(stamp: Transaction.commits)
    }

    /// Makes this layer the committed parent of `new`, and no longer of those of `old` that left.
    private func adoptLocked(old: [Layer], new: [Layer]) {
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
