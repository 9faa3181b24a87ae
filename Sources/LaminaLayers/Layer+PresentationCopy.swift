import Foundation
import LaminaCore

// Core Animation's presentation layers as layer objects (`presentation()`, `model()`): copies of the committed tree
// with every animation applied at the current media time. Lamina's own frames never need them (they draw
// snapshots, `presentationSnapshot()`); they are for code written against CALayer.

extension Layer {
    /// Core Animation's presentation layer: a copy of the layer as the screen shows it now (the committed state with
    /// every animation applied at `currentMediaTime()`), with its sublayers and mask as presentation copies too, so
    /// `hitTest(_:)`, `frame` and `convert(_:to:)` answer for what is on screen. nil while the layer has never been
    /// committed (as on Apple platforms). Changing the copy changes nothing on screen. Each call makes a new copy.
    ///
    /// The copy is an object of the layer's own class when that is one of Lamina's layer classes (made with
    /// `init(layer:)`). Swift cannot make an object of a class it does not know without a `required` initialiser,
    /// which ported subclasses do not declare; for such a subclass the presentation copy is the layer itself (its
    /// model values), a documented difference from Core Animation (docs/porting.md).
    public func presentation() -> Self? {
        if presentationModel != nil { return self }
        guard let snapshot = presentationSnapshot() else { return nil }
        return Layer.presentationCopy(of: snapshot, model: self) as? Self ?? self
    }

    /// For a presentation copy, the layer it was copied from; nil for any other layer (the QuartzCore module's
    /// `model()` reads it: `model` is the layer's own state inside this module).
    package var presentationSource: Layer? { ModelLock.shared.withLock { presentationModel } }

    /// A new layer of `model`'s class with `snapshot`'s state, and copies of its sublayers and mask. Iterative over
    /// depth (a deep tree must not overflow the stack).
    static func presentationCopy(of snapshot: LayerSnapshot, model: Layer) -> Layer {
        let top = makeCopy(of: model, state: snapshot.state)
        var pending: [(snapshot: LayerSnapshot, model: Layer, copy: Layer)] = [(snapshot, model, top)]
        while let (snapshot, model, copy) = pending.popLast() {
            let (children, mask) = ModelLock.shared.withLock { (model.committedSublayers, model.committedMask) }
            let byID = Dictionary(children.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var copies: [Layer] = []
            for child in snapshot.sublayers {
                guard let childModel = byID[child.id] else { continue }
                let childCopy = makeCopy(of: childModel, state: child.state)
                copies.append(childCopy)
                pending.append((child, childModel, childCopy))
            }
            var maskCopy: Layer?
            if let maskSnapshot = snapshot.mask, let maskModel = mask, maskModel.id == maskSnapshot.id {
                let made = makeCopy(of: maskModel, state: maskSnapshot.state)
                maskCopy = made
                pending.append((maskSnapshot, maskModel, made))
            }
            ModelLock.shared.withLock {
                copy.modelSublayers = copies
                copy.hasSublayerArray = !copies.isEmpty || model.hasSublayerArray
                for child in copies { child.modelSuperlayer = copy }
                copy.modelMask = maskCopy
                maskCopy?.maskOwner = copy
            }
        }
        return top
    }

    /// A copy of `model` of its own class (for Lamina's classes) showing `state`, with no animations.
    private static func makeCopy(of model: Layer, state: LayerState) -> Layer {
        let copy: Layer
        switch ObjectIdentifier(type(of: model)) {
        case ObjectIdentifier(GradientLayer.self): copy = GradientLayer(layer: model)
        case ObjectIdentifier(ShapeLayer.self): copy = ShapeLayer(layer: model)
        case ObjectIdentifier(TextLayer.self): copy = TextLayer(layer: model)
        case ObjectIdentifier(ReplicatorLayer.self): copy = ReplicatorLayer(layer: model)
        case ObjectIdentifier(TiledLayer.self): copy = TiledLayer(layer: model)
        case ObjectIdentifier(EmitterLayer.self): copy = EmitterLayer(layer: model)
        case ObjectIdentifier(DrawingLayer.self): copy = DrawingLayer(layer: model)
        case ObjectIdentifier(TransformLayer.self): copy = TransformLayer(layer: model)
        case ObjectIdentifier(ScrollLayer.self): copy = ScrollLayer(layer: model)
        default: copy = Layer(layer: model)
        }
        var shown = state
        shown.animations = []
        ModelLock.shared.withLock {
            copy.model = shown
            copy.committed.special = shown.special
            copy.presentationModel = model
        }
        return copy
    }
}
