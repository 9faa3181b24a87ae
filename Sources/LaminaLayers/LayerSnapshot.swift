import Foundation
import LaminaCore

/// The committed state of a layer and its subtree at one instant: an immutable value that a frame plans from,
/// whatever other threads do to the layers meanwhile. `Layer.presentation()` returns one; renderers take one per
/// frame. Its properties have the layer's names (LayerSnapshot+Properties.swift).
///
/// Snapshots share structure: a new one is made only for the layers that changed since the last and their
/// ancestors, so taking a snapshot of an unchanged tree costs nothing and a changed one costs its changed paths.
public final class LayerSnapshot: @unchecked Sendable {
    /// The layer's identity.
    public let id: LayerID
    /// Every committed property.
    public let state: LayerState
    /// The committed sublayers' snapshots, in array order (not paint order).
    public private(set) var sublayers: [LayerSnapshot]
    /// The committed mask's snapshot.
    public let mask: LayerSnapshot?
    /// Changes when anything this subtree paints in its own space changes; not when only its placement in the
    /// superlayer (position, anchorPoint, transform, zPosition) does. Plan caches key on it.
    public let contentVersion: UInt64

    init(id: LayerID, state: LayerState, sublayers: [LayerSnapshot], mask: LayerSnapshot?, contentVersion: UInt64) {
        self.id = id
        self.state = state
        self.sublayers = sublayers
        self.mask = mask
        self.contentVersion = contentVersion
    }

    /// The sublayers in paint order: ascending zPosition, ties in array order.
    public var sublayersInPaintOrder: [LayerSnapshot] {
        guard let first = sublayers.first else { return [] }
        let z = first.state.zPosition
        if sublayers.allSatisfy({ $0.state.zPosition == z }) { return sublayers }
        return sublayers.enumerated().sorted {
            $0.element.state.zPosition != $1.element.state.zPosition
                ? $0.element.state.zPosition < $1.element.state.zPosition : $0.offset < $1.offset
        }.map(\.element)
    }

    var debugName: String { state.debugName }

    /// Releases `node` without recursion: a 10,000-level chain would overflow the stack.
    static func release(_ node: inout LayerSnapshot?) {
        guard var first = node else { return }
        node = nil
        var pending: [LayerSnapshot] = []
        if isKnownUniquelyReferenced(&first) { pending.append(first) }
        while let next = pending.popLast() {
            var children = next.sublayers
            next.sublayers = []
            while var child = children.popLast() {
                if isKnownUniquelyReferenced(&child) { pending.append(child) }
            }
        }
    }

    deinit {
        var pending = sublayers
        sublayers = []
        while var child = pending.popLast() {
            if isKnownUniquelyReferenced(&child) {
                pending.append(contentsOf: child.sublayers)
                child.sublayers = []
            }
        }
    }
}

extension LayerSnapshot {
    // Geometry, as the layer's (Layer+Geometry.swift).
    public var anchorInLayer: CGPoint { state.anchorInLayer }
    public var frame: CGRect { state.frame }
    public var localToSuperlayer: Transform3D { state.localToSuperlayer }
    public var sublayerTransformAboutAnchor: Transform3D { state.sublayerTransformAboutAnchor }
    public var roundedBounds: RoundedRect? { state.roundedBounds }
}

extension Layer {
    /// The committed state of this layer and its subtree, as the next frame will see it (Core Animation's
    /// presentation layer; animated values join it with the animation model). nil while the layer has never been
    /// committed: set a property and commit, or draw a frame.
    public func presentation() -> LayerSnapshot? {
        ModelLock.shared.withLock { everCommitted ? snapshotLocked() : nil }
    }

    /// The snapshot of the committed subtree: the kept one where nothing changed, else a new one that shares every
    /// unchanged subtree. Iterative (any depth). Model lock held.
    func snapshotLocked() -> LayerSnapshot {
        if !snapshotStale, let node = snapshotNode { return node }
        var stack: [(layer: Layer, expanded: Bool)] = [(self, false)]
        while let (layer, expanded) = stack.popLast() {
            if !layer.snapshotStale, layer.snapshotNode != nil { continue }
            if !expanded {
                stack.append((layer, true))
                layer.snapshotInProgress = true
                if layer.childrenStale || layer.snapshotNode == nil {
                    for child in layer.committedChildren where child.needsSnapshotLocked {
                        // A committed tree has no cycles unless transactions of two threads interleaved changes of
                        // one branch; such a child is left out rather than walked forever.
                        if child.snapshotInProgress { continue }
                        stack.append((child, false))
                    }
                }
                continue
            }
            layer.snapshotInProgress = false
            let old = layer.snapshotNode
            let sublayers: [LayerSnapshot]
            let mask: LayerSnapshot?
            if !layer.childrenStale, let old {
                (sublayers, mask) = (old.sublayers, old.mask)
            } else {
                sublayers = layer.committedSublayers.compactMap { $0.snapshotInProgress ? nil : $0.snapshotNode }
                mask = layer.committedMask.flatMap { $0.snapshotInProgress ? nil : $0.snapshotNode }
            }
            layer.snapshotNode = LayerSnapshot(id: layer.id, state: layer.committed, sublayers: sublayers, mask: mask,
                                               contentVersion: layer.contentVersion)
            layer.snapshotStale = false
            layer.childrenStale = false
        }
        return snapshotNode!
    }

    private var committedChildren: [Layer] {
        committedMask.map { committedSublayers + [$0] } ?? committedSublayers
    }

    private var needsSnapshotLocked: Bool { snapshotStale || snapshotNode == nil }
}
