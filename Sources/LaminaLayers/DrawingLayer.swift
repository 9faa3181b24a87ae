import Foundation
import LaminaCore
import LaminaDrawing

/// A layer that paints a vector drawing (docs/semantics.md, "Vector drawings"): fills, strokes, gradients, images
/// and text in groups with opacity, operators, masks and effects, in the layer's space, in place of contents. The
/// drawing is not clipped to the bounds (unless `masksToBounds`) and is made at the density the layer is shown at,
/// as a shape layer's path is. Lottie layers are drawing layers whose drawing a `FunctionAnimation` changes at
/// every frame.
open class DrawingLayer: Layer, @unchecked Sendable {
    public override init() {
        super.init()
        becomeSpecial(.drawing(VectorDrawing()))
    }

    /// A copy of `layer` (a presentation copy, as Core Animation makes them): its properties and, when it is of the
    /// same kind, its drawing; another kind of layer gives an empty drawing.
    public override init(layer: Any) {
        super.init(layer: layer)
        if model.drawing == nil { becomeSpecial(.drawing(VectorDrawing())) } else { committed.special = model.special }
    }

    /// NSCoding's initialiser (Lamina does not archive layers): a layer with an empty drawing.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeSpecial(.drawing(VectorDrawing()))
    }

    /// What the layer paints; empty by default. Changes are not animated implicitly (a drawing has no in-between).
    public var drawing: VectorDrawing {
        get { read { $0.drawing ?? VectorDrawing() } }
        set { writeStyle(key: nil) { $0.drawing = newValue } }
    }
}
