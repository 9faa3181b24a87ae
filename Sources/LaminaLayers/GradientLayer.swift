import Foundation
import LaminaCore
import LaminaDrawing

/// A layer that fills its bounds with a gradient (CAGradientLayer; docs/semantics.md, "Gradient layers"): axial,
/// radial or conic, through `colors` at `locations`, from `startPoint` to `endPoint` (unit coordinates of the
/// bounds, y down). The gradient is painted above the background in place of contents and is clipped to the rounded
/// bounds. Every property animates.
open class GradientLayer: Layer, @unchecked Sendable {
    override class var styleKeys: [String: StyleKey] { GradientLayer.ownStyleKeys }

    public override init() {
        super.init()
        becomeSpecial(.gradient(GradientStyle()))
    }

    /// A copy of `layer` (a presentation copy, as Core Animation makes them): its properties and, when it is of the
    /// same kind, its style; another kind of layer gives this kind's default style.
    public override init(layer: Any) {
        super.init(layer: layer)
        if model.gradient == nil { becomeSpecial(.gradient(GradientStyle())) } else { committed.special = model.special }
    }

    /// NSCoding's initialiser (Lamina does not archive layers): a layer with the defaults.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeSpecial(.gradient(GradientStyle()))
    }

    /// All of the layer's gradient properties at once.
    public var gradientStyle: GradientStyle {
        get { read { $0.gradient ?? GradientStyle() } }
        set { writeStyle(key: nil) { $0.gradient = newValue } }
    }
    /// The colours (CGColor, which is Lamina's `Color`), as Core Animation's `[Any]?`: nil (the default) or empty
    /// paints nothing, one colour fills the bounds. Elements that are not colours are left out. Reads give nil when
    /// there are none; `gradientStyle.colors` is the typed list.
    public var colors: [Any]? {
        get {
            let list: [Color] = read { $0.gradient?.colors ?? [] }
            return list.isEmpty ? nil : list
        }
        set {
            let list = (newValue ?? []).compactMap { $0 as? Color }
            writeStyle(key: "colors") { $0.gradient?.colors = list }
        }
    }
    /// Where each colour sits, 0...1, non-decreasing; nil (the default) spreads them evenly.
    public var locations: [NSNumber]? {
        get { read { $0.gradient?.locations?.map { NSNumber(value: $0) } } }
        set { writeStyle(key: "locations") { $0.gradient?.locations = newValue?.map(\.doubleValue) } }
    }
    /// (0.5, 0) by default: the middle of the top edge.
    public var startPoint: CGPoint {
        get { read { $0.gradient?.startPoint ?? .zero } }
        set { writeStyle(key: "startPoint") { $0.gradient?.startPoint = newValue } }
    }
    /// (0.5, 1) by default: the middle of the bottom edge.
    public var endPoint: CGPoint {
        get { read { $0.gradient?.endPoint ?? .zero } }
        set { writeStyle(key: "endPoint") { $0.gradient?.endPoint = newValue } }
    }
    /// Axial by default.
    public var type: GradientLayerType {
        get { read { $0.gradient?.type ?? .axial } }
        set { writeStyle(key: nil) { $0.gradient?.type = newValue } }
    }
}

extension GradientLayer {
    /// The keys of this class that the animatable key paths do not cover (or give another type), for key-value
    /// coding (Layer+KeyValueCoding.swift).
    nonisolated(unsafe) static let ownStyleKeys: [String: StyleKey] = [
        "type": StyleKey(\GradientLayer.type),
    ]
}
