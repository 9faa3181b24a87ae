import Foundation
import LaminaCore

/// Which points a shape layer's path encloses (CAShapeLayerFillRule).
public enum ShapeLayerFillRule: String, Sendable, CaseIterable {
    /// Core Animation's raw value "non-zero".
    case nonZero = "non-zero"
    /// Core Animation's raw value "even-odd".
    case evenOdd = "even-odd"
}

/// The ends of a shape layer's stroke (CAShapeLayerLineCap).
public typealias ShapeLayerLineCap = LineCap
/// The corners of a shape layer's stroke (CAShapeLayerLineJoin).
public typealias ShapeLayerLineJoin = LineJoin

/// Everything a shape layer paints with (docs/semantics.md, "Shape layers"): CAShapeLayer's properties. The path
/// is in the layer's space and is not clipped to the bounds.
public struct ShapeStyle: Equatable, Sendable {
    /// nil paints nothing.
    public var path: Path? = nil
    /// nil: no fill. Opaque black by default.
    public var fillColor: Color? = .black
    public var fillRule: ShapeLayerFillRule = .nonZero
    /// nil (the default): no stroke.
    public var strokeColor: Color? = nil
    /// Points, >= 0.
    public var lineWidth: CGFloat = 1
    public var lineCap: ShapeLayerLineCap = .butt
    public var lineJoin: ShapeLayerLineJoin = .miter
    public var miterLimit: CGFloat = 10
    /// Alternating lengths of dashes and gaps, in points; nil or empty: a solid stroke.
    public var lineDashPattern: [Double]? = nil
    /// How far into the dash pattern the stroke starts, in points.
    public var lineDashPhase: CGFloat = 0
    /// The part of the path that is stroked, as fractions of its total length; the fill ignores them.
    public var strokeStart: CGFloat = 0
    public var strokeEnd: CGFloat = 1

    public init() {}
}
