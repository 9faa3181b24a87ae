import Foundation

/// The target pixels a quad covers under the pixel-centre rule (SEMANTICS.md, "Coverage and edges").
public enum PixelCoverage: Equatable, Sendable {
    /// Nothing.
    case none
    /// Every pixel of x0 ..< x1, y0 ..< y1.
    case rect(x0: Int, y0: Int, x1: Int, y1: Int)
    /// One run per row, increasing y.
    case spans([PixelSpan])
}

extension Quad {
    /// The pixels this quad covers in a target of `width` x `height`. Axis-aligned quads with no clip or an
    /// axis-aligned clip (the common case: no rotation) take a path without allocation; everything else goes
    /// through `coverage(width:height:)` and `ConvexPolygon.spans()`. Both give the same pixels.
    public func pixelCoverage(width: Int, height: Int) -> PixelCoverage {
        let m = unitToTarget
        if m.isAffine, m.m12 == 0, m.m21 == 0 {
            let snap = ConvexPolygon.snap
            func snapped(_ v: CGFloat) -> CGFloat { (v / snap).rounded() * snap }
            let xa = snapped(m.m31), xb = snapped(m.m31 + m.m11)
            let ya = snapped(m.m32), yb = snapped(m.m32 + m.m22)
            var rect = CGRect(x: min(xa, xb), y: min(ya, yb), width: abs(xb - xa), height: abs(yb - ya))
            var simple = true
            if let clip {
                if let clipRect = clip.axisAlignedRect { rect = rect.intersection(clipRect) } else { simple = false }
            }
            if simple {
                guard !rect.isNull else { return .none }
                var (x0, x1) = ConvexPolygon.centreRange(rect.minX, rect.maxX)
                var (y0, y1) = ConvexPolygon.centreRange(rect.minY, rect.maxY)
                x0 = max(x0, 0); y0 = max(y0, 0)
                x1 = min(x1, width); y1 = min(y1, height)
                return x1 > x0 && y1 > y0 ? .rect(x0: x0, y0: y0, x1: x1, y1: y1) : .none
            }
        }
        guard let polygon = coverage(width: width, height: height) else { return .none }
        if let rect = polygon.axisAlignedRect {
            let (x0, x1) = ConvexPolygon.centreRange(rect.minX, rect.maxX)
            let (y0, y1) = ConvexPolygon.centreRange(rect.minY, rect.maxY)
            return x1 > x0 && y1 > y0 ? .rect(x0: x0, y0: y0, x1: x1, y1: y1) : .none
        }
        let spans = polygon.spans()
        return spans.isEmpty ? .none : .spans(spans)
    }
}
