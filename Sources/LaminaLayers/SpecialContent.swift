import Foundation
import LaminaCore
import LaminaDrawing

/// The properties of a specialised layer (docs/semantics.md, "Specialised layers"), as part of its `LayerState`: a
/// gradient, shape or text layer paints its style in place of `contents`; a replicator repeats its sublayers.
public enum SpecialContent: Equatable, Sendable {
    case none
    indirect case gradient(GradientStyle)
    indirect case shape(ShapeStyle)
    indirect case text(TextStyle)
    indirect case replicator(ReplicatorStyle)
    indirect case tiled(TiledStyle)
    indirect case emitter(EmitterStyle)
    /// A drawing layer's vector drawing (`DrawingLayer`).
    indirect case drawing(VectorDrawing)
    /// A transform layer (CATransformLayer): its sublayers share its superlayer's 3D space; it has no style.
    case transform
    /// A scroll layer (CAScrollLayer) and its scroll mode.
    case scroll(ScrollLayerScrollMode)

    /// The layer type's name in scene files and messages ("gradient", "shape", "text", "replicator"; "plain").
    public var typeName: String {
        switch self {
        case .none: "plain"
        case .gradient: "gradient"
        case .shape: "shape"
        case .text: "text"
        case .replicator: "replicator"
        case .tiled: "tiled"
        case .emitter: "emitter"
        case .drawing: "drawing"
        case .transform: "transform"
        case .scroll: "scroll"
        }
    }

    /// An emitter that can make particles: its picture changes with time, as an animated layer's does.
    var emits: Bool {
        if case .emitter(let style) = self { style.emits } else { false }
    }

    /// The field a transaction records for a change of this style.
    var field: LayerState.Field? {
        switch self {
        case .none: nil
        case .gradient: .gradient
        case .shape: .shape
        case .text: .text
        case .replicator: .replicator
        case .tiled: .tiled
        case .emitter: .emitter
        case .drawing: .drawing
        case .transform: nil
        case .scroll: .scroll
        }
    }
}

extension LayerState {
    /// The gradient layer's properties; nil on other layers (setting it on them does nothing).
    public var gradient: GradientStyle? {
        get { if case .gradient(let style) = special { style } else { nil } }
        set { if case .gradient = special, let newValue { special = .gradient(newValue) } }
    }
    /// The shape layer's properties; nil on other layers (setting it on them does nothing).
    public var shape: ShapeStyle? {
        get { if case .shape(let style) = special { style } else { nil } }
        set { if case .shape = special, let newValue { special = .shape(newValue) } }
    }
    /// The text layer's properties; nil on other layers (setting it on them does nothing).
    public var text: TextStyle? {
        get { if case .text(let style) = special { style } else { nil } }
        set { if case .text = special, let newValue { special = .text(newValue) } }
    }
    /// The replicator layer's properties; nil on other layers (setting it on them does nothing).
    public var replicator: ReplicatorStyle? {
        get { if case .replicator(let style) = special { style } else { nil } }
        set { if case .replicator = special, let newValue { special = .replicator(newValue) } }
    }
    /// The tiled layer's properties; nil on other layers (setting it on them does nothing).
    public var tiled: TiledStyle? {
        get { if case .tiled(let style) = special { style } else { nil } }
        set { if case .tiled = special, let newValue { special = .tiled(newValue) } }
    }
    /// The emitter layer's properties; nil on other layers (setting it on them does nothing).
    public var emitter: EmitterStyle? {
        get { if case .emitter(let style) = special { style } else { nil } }
        set { if case .emitter = special, let newValue { special = .emitter(newValue) } }
    }
    /// The drawing layer's drawing; nil on other layers (setting it on them does nothing).
    public var drawing: VectorDrawing? {
        get { if case .drawing(let drawing) = special { drawing } else { nil } }
        set { if case .drawing = special, let newValue { special = .drawing(newValue) } }
    }
}
