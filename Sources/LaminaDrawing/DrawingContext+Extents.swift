import CCairo
import Foundation
import LaminaCore

extension DrawingContext {
    /// The box, in user space, that filling the current path would cover (CGContext's boundingBoxOfPath for the
    /// outline itself, curves' control points not included); .null when it covers nothing. Keeps the path.
    public var fillExtents: CGRect {
        var (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0)
        cairo_fill_extents(cr, &x0, &y0, &x1, &y1)
        return Self.box(x0, y0, x1, y1)
    }

    /// The box, in user space, that stroking the current path with the current line width, caps, joins, miter
    /// limit and dash would cover; .null when it covers nothing. Keeps the path.
    public var strokeExtents: CGRect {
        var (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0)
        cairo_stroke_extents(cr, &x0, &y0, &x1, &y1)
        return Self.box(x0, y0, x1, y1)
    }

    /// How closely curves are flattened, in pixels (cairo's tolerance, 0.1 by default).
    public func setFlatness(_ pixels: CGFloat) {
        if pixels > 0, pixels.isFinite { cairo_set_tolerance(cr, Double(pixels)) }
    }

    private static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> CGRect {
        guard x1 > x0, y1 > y0, x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return .null }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
