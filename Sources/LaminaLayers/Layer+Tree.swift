import Foundation
import LaminaCore

// The layer tree (model): sublayers, superlayer and mask. Every change is made under the model lock and recorded
// in the calling thread's transaction for each parent it touches (the old one and the new one), so a move from
// one parent to another becomes visible to frames in one piece.

extension Layer {
    /// The layer this one is a sublayer of; nil for a root.
    public var superlayer: Layer? { ModelLock.shared.withLock { modelSuperlayer } }

    /// The sublayers, painted in ascending zPosition, ties in this order; nil until one is added (or after nil is
    /// set), as CALayer's. Setting it removes the old ones and adds the new ones, as CALayer does.
    public var sublayers: [Layer]? {
        get { ModelLock.shared.withLock { modelSublayers.isEmpty && !hasSublayerArray ? nil : modelSublayers } }
        set {
            ModelLock.shared.withLock {
                for layer in modelSublayers { layer.modelSuperlayer = nil }
                modelSublayers = []
                hasSublayerArray = newValue != nil
                Transaction.recordLocked(self, fields: LayerState.Field.sublayers.bit)
                markNeedsLayoutLocked()
                for layer in newValue ?? [] { insertLocked(layer, at: modelSublayers.count) }
            }
        }
    }

    /// A layer whose painted alpha masks this layer and its subtree; it lives in this layer's coordinate space (as
    /// a sublayer would, without sublayerTransform) and is not part of the tree. nil: no mask.
    public var mask: Layer? {
        get { ModelLock.shared.withLock { modelMask } }
        set {
            ModelLock.shared.withLock {
                if let old = modelMask, old.maskOwner === self { old.maskOwner = nil }
                modelMask = newValue
                newValue?.maskOwner = self
                Transaction.recordLocked(self, fields: LayerState.Field.mask.bit)
            }
        }
    }

    /// Appends `layer`, removing it from its current superlayer first.
    public func addSublayer(_ layer: Layer) {
        ModelLock.shared.withLock { insertLocked(layer, at: modelSublayers.count) }
    }

    /// Inserts `layer` at `index` (clamped to the valid range), removing it from its current superlayer first.
    public func insertSublayer(_ layer: Layer, at index: Int) {
        ModelLock.shared.withLock { insertLocked(layer, at: index) }
    }

    /// CALayer's `insertSublayer(_:at:)`, whose index is a `UInt32`.
    public func insertSublayer(_ layer: Layer, at index: UInt32) {
        ModelLock.shared.withLock { insertLocked(layer, at: Int(index)) }
    }

    /// Inserts `layer` just below `sibling` (or at the bottom when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: Layer, below sibling: Layer?) {
        ModelLock.shared.withLock {
            let index = sibling.flatMap { s in modelSublayers.firstIndex { $0 === s } } ?? 0
            insertLocked(layer, at: index)
        }
    }

    /// Inserts `layer` just above `sibling` (or at the top when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: Layer, above sibling: Layer?) {
        ModelLock.shared.withLock {
            let index = sibling.flatMap { s in modelSublayers.firstIndex { $0 === s } }.map { $0 + 1 }
            insertLocked(layer, at: index ?? modelSublayers.count)
        }
    }

    /// Puts `newLayer` where `oldLayer` is; does nothing when `oldLayer` is not a sublayer.
    public func replaceSublayer(_ oldLayer: Layer, with newLayer: Layer) {
        ModelLock.shared.withLock {
            guard let index = modelSublayers.firstIndex(where: { $0 === oldLayer }) else { return }
            oldLayer.removeFromSuperlayerLocked()
            insertLocked(newLayer, at: index)
        }
    }

    /// Detaches the layer from its superlayer.
    public func removeFromSuperlayer() {
        ModelLock.shared.withLock { removeFromSuperlayerLocked() }
    }

    private func insertLocked(_ layer: Layer, at index: Int) {
        precondition(
            !layer.isAncestorLocked(ofOrSameAs: self),
            "Layer: cannot add \(layer.model.debugName) as a sublayer of \(model.debugName): it is that layer or one of its ancestors, which would make a cycle"
        )
        layer.removeFromSuperlayerLocked()
        modelSublayers.insert(layer, at: min(max(index, 0), modelSublayers.count))
        hasSublayerArray = true
        layer.modelSuperlayer = self
        Transaction.recordLocked(self, fields: LayerState.Field.sublayers.bit)
        markNeedsLayoutLocked()
    }

    private func removeFromSuperlayerLocked() {
        guard let parent = modelSuperlayer else { return }
        parent.modelSublayers.removeAll { $0 === self }
        modelSuperlayer = nil
        Transaction.recordLocked(parent, fields: LayerState.Field.sublayers.bit)
        parent.markNeedsLayoutLocked()
    }

    /// True when `self` is `layer` or one of its ancestors.
    private func isAncestorLocked(ofOrSameAs layer: Layer) -> Bool {
        if self === layer { return true }
        // Only a layer with sublayers can be an ancestor; this keeps building a deep chain linear.
        if modelSublayers.isEmpty { return false }
        var node: Layer? = layer
        while let current = node {
            if current === self { return true }
            node = current.modelSuperlayer
        }
        return false
    }
}
