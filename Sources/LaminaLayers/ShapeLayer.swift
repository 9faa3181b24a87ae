import Foundation
import LaminaCore
import LaminaDrawing

/// A layer that fills and strokes a path (CAShapeLayer; docs/semantics.md, "Shape layers"). The path is in the
/// layer's space and is not clipped to the bounds; the fill is painted first, the stroke above it, in place of
/// contents. The shape is made at the density the layer is shown at, so it stays sharp when scaled.
open class ShapeLayer: Layer, @unchecked Sendable {
    override class var styleKeys: [String: StyleKey] { ShapeLayer.ownStyleKeys }

    public override init() {
        super.init()
        becomeSpecial(.shape(ShapeStyle()))
    }

    /// A copy of `layer` (a presentation copy, as Core Animation makes them): its properties and, when it is of the
    /// same kind, its style; another kind of layer gives this kind's default style.
    public override init(layer: Any) {
        super.init(layer: layer)
        if model.shape == nil { becomeSpecial(.shape(ShapeStyle())) } else { committed.special = model.special }
    }

    /// NSCoding's initialiser (Lamina does not archive layers): a layer with the defaults.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeSpecial(.shape(ShapeStyle()))
    }

    /// All of the layer's shape properties at once.
    public var shapeStyle: ShapeStyle {
        get { read { $0.shape ?? ShapeStyle() } }
        set { writeStyle(key: nil) { $0.shape = newValue } }
    }
    /// nil (the default) paints nothing. Animates between paths of the same elements.
    public var path: CGPath? {
        get { read { $0.shape?.path.map(CGPath.init) } }
        set { writeStyle(key: "path") { $0.shape?.path = newValue?.path } }
    }
    /// nil: no fill; opaque black by default.
    public var fillColor: Color? {
        get { read { $0.shape?.fillColor } }
        set { writeStyle(key: "fillColor") { $0.shape?.fillColor = newValue } }
    }
    public var fillRule: ShapeLayerFillRule {
        get { read { $0.shape?.fillRule ?? .nonZero } }
        set { writeStyle(key: nil) { $0.shape?.fillRule = newValue } }
    }
    /// nil (the default): no stroke.
    public var strokeColor: Color? {
        get { read { $0.shape?.strokeColor } }
        set { writeStyle(key: "strokeColor") { $0.shape?.strokeColor = newValue } }
    }
    /// Points; 1 by default.
    public var lineWidth: CGFloat {
        get { read { $0.shape?.lineWidth ?? 1 } }
        set { writeStyle(key: "lineWidth") { $0.shape?.lineWidth = newValue } }
    }
    public var lineCap: ShapeLayerLineCap {
        get { read { $0.shape?.lineCap ?? .butt } }
        set { writeStyle(key: nil) { $0.shape?.lineCap = newValue } }
    }
    public var lineJoin: ShapeLayerLineJoin {
        get { read { $0.shape?.lineJoin ?? .miter } }
        set { writeStyle(key: nil) { $0.shape?.lineJoin = newValue } }
    }
    /// 10 by default.
    public var miterLimit: CGFloat {
        get { read { $0.shape?.miterLimit ?? 10 } }
        set { writeStyle(key: "miterLimit") { $0.shape?.miterLimit = newValue } }
    }
    /// Dash and gap lengths in points; nil (the default): solid.
    public var lineDashPattern: [NSNumber]? {
        get { read { $0.shape?.lineDashPattern?.map { NSNumber(value: $0) } } }
        set { writeStyle(key: "lineDashPattern") { $0.shape?.lineDashPattern = newValue?.map(\.doubleValue) } }
    }
    public var lineDashPhase: CGFloat {
        get { read { $0.shape?.lineDashPhase ?? 0 } }
        set { writeStyle(key: "lineDashPhase") { $0.shape?.lineDashPhase = newValue } }
    }
    /// The fraction of the path's length where the stroke starts; 0 by default.
    public var strokeStart: CGFloat {
        get { read { $0.shape?.strokeStart ?? 0 } }
        set { writeStyle(key: "strokeStart") { $0.shape?.strokeStart = newValue } }
    }
    /// The fraction of the path's length where the stroke ends; 1 by default.
    public var strokeEnd: CGFloat {
        get { read { $0.shape?.strokeEnd ?? 1 } }
        set { writeStyle(key: "strokeEnd") { $0.shape?.strokeEnd = newValue } }
    }
}

extension ShapeLayer {
    /// The keys of this class that the animatable key paths do not cover (or give another type), for key-value
    /// coding (Layer+KeyValueCoding.swift).
    nonisolated(unsafe) static let ownStyleKeys: [String: StyleKey] = [
        "fillRule": StyleKey(\ShapeLayer.fillRule), "lineCap": StyleKey(\ShapeLayer.lineCap),
        "lineJoin": StyleKey(\ShapeLayer.lineJoin),
    ]
}
