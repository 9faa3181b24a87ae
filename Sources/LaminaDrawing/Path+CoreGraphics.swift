import Foundation
import LaminaCore

// Core Graphics' view of a path: the elements CGPath hands out (moves, lines, quadratic and cubic curves, closes;
// arcs, rectangles and ellipses as Core Graphics decomposes them), and the geometry asked of them.
extension Path {
    /// The constant that places a cubic's control points on a quarter circle (4/3 (sqrt 2 - 1)).
    static let kappa = 0.5522847498307936

    /// The circle that `addArc(tangent1End:tangent2End:radius:)` adds after the current point `p0`: tangent to
    /// p0-p1 at `start` and to p1-p2, from `startAngle` to `endAngle` (the short way). Nil when the points are in
    /// a line (or equal) or the radius is not positive: then only a line to p1 is added.
    public static func tangentArc(from p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, radius: CGFloat)
        -> (start: CGPoint, center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool)?
    {
        let r = Double(radius)
        guard r > 0, r.isFinite else { return nil }
        let (ax, ay) = (Double(p0.x - p1.x), Double(p0.y - p1.y))
        let (bx, by) = (Double(p2.x - p1.x), Double(p2.y - p1.y))
        let (la, lb) = (hypot(ax, ay), hypot(bx, by))
        guard la > 0, lb > 0 else { return nil }
        let (ux, uy, vx, vy) = (ax / la, ay / la, bx / lb, by / lb)
        let cross = ux * vy - uy * vx
        let cosine = max(-1, min(1, ux * vx + uy * vy))
        let half = acos(cosine) / 2
        guard abs(cross) > 1e-12, half > 0, half.isFinite else { return nil }
        let along = r / tan(half)          // from p1 to each tangent point
        let toCenter = r / sin(half)       // from p1 to the centre, along the bisector
        let (bisX, bisY) = (ux + vx, uy + vy)
        let bisLength = hypot(bisX, bisY)
        guard bisLength > 0, along.isFinite, toCenter.isFinite else { return nil }
        let t1 = CGPoint(x: Double(p1.x) + ux * along, y: Double(p1.y) + uy * along)
        let t2 = CGPoint(x: Double(p1.x) + vx * along, y: Double(p1.y) + vy * along)
        let c = CGPoint(x: Double(p1.x) + bisX / bisLength * toCenter, y: Double(p1.y) + bisY / bisLength * toCenter)
        let a0 = atan2(Double(t1.y - c.y), Double(t1.x - c.x)), a1 = atan2(Double(t2.y - c.y), Double(t2.x - c.x))
        // Walking p0 -> p1 -> p2 turns towards increasing angle when (p1 - p0) x (p2 - p1) > 0, that is when
        // (-u) x v > 0.
        return (t1, c, radius, CGFloat(a0), CGFloat(a1), -cross < 0)
    }

    /// The sweep, in radians (negative: decreasing angle), of an arc from `start` to `end` the way `clockwise` says
    /// (true: decreasing angle), as Core Graphics takes it: an end behind the start is reached by going round,
    /// and a sweep is at most one full turn. Nil when an angle is not finite.
    public static func arcSweep(start: Double, end: Double, clockwise: Bool) -> Double? {
        guard start.isFinite, end.isFinite else { return nil }
        let turn = 2 * Double.pi
        var sweep = clockwise ? start - end : end - start
        guard sweep.isFinite else { return clockwise ? -turn : turn }
        if sweep < 0 {
            sweep = sweep.truncatingRemainder(dividingBy: turn)
            if sweep < 0 { sweep += turn }
        } else if sweep > turn {
            sweep = turn
        }
        return clockwise ? -sweep : sweep
    }

    /// The start point and the cubic curves (each at most a quarter turn) of an arc of `sweep` radians from
    /// `start`; the last curve ends exactly at the angle start + sweep.
    public static func arcCurves(center: CGPoint, radius: CGFloat, start: Double, sweep: Double)
        -> (start: CGPoint, curves: [Element])
    {
        let (cx, cy, r) = (Double(center.x), Double(center.y), Double(radius))
        func point(_ a: Double) -> CGPoint { CGPoint(x: cx + r * cos(a), y: cy + r * sin(a)) }
        let count = sweep == 0 || !sweep.isFinite ? 0 : max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = count == 0 ? 0 : sweep / Double(count)
        let k = 4.0 / 3 * tan(step / 4) * r
        var curves: [Element] = []
        for i in 0..<count {
            let a = start + step * Double(i), b = i == count - 1 ? start + sweep : start + step * Double(i + 1)
            let p0 = point(a), p3 = point(b)
            let c1 = CGPoint(x: Double(p0.x) - k * sin(a), y: Double(p0.y) + k * cos(a))
            let c2 = CGPoint(x: Double(p3.x) + k * sin(b), y: Double(p3.y) - k * cos(b))
            curves.append(.curve(to: p3, control1: c1, control2: c2))
        }
        return (point(start), curves)
    }

    /// A closed rectangle as Core Graphics adds one: from the minimum corner along +x.
    public static func rectElements(_ rect: CGRect) -> [Element] {
        let r = rect.standardized
        return [.move(to: CGPoint(x: r.minX, y: r.minY)), .line(to: CGPoint(x: r.maxX, y: r.minY)),
                .line(to: CGPoint(x: r.maxX, y: r.maxY)), .line(to: CGPoint(x: r.minX, y: r.maxY)), .close]
    }

    /// A closed ellipse inscribed in `rect` as four cubics from (maxX, midY) towards increasing angle.
    public static func ellipseElements(_ rect: CGRect) -> [Element] {
        let r = rect.standardized
        guard !r.isNull, !r.isInfinite else { return [] }
        let (rx, ry, cx, cy) = (r.width / 2, r.height / 2, r.midX, r.midY)
        let (kx, ky) = (rx * kappa, ry * kappa)
        return [
            .move(to: CGPoint(x: r.maxX, y: cy)),
            .curve(to: CGPoint(x: cx, y: r.maxY), control1: CGPoint(x: r.maxX, y: cy + ky),
                   control2: CGPoint(x: cx + kx, y: r.maxY)),
            .curve(to: CGPoint(x: r.minX, y: cy), control1: CGPoint(x: cx - kx, y: r.maxY),
                   control2: CGPoint(x: r.minX, y: cy + ky)),
            .curve(to: CGPoint(x: cx, y: r.minY), control1: CGPoint(x: r.minX, y: cy - ky),
                   control2: CGPoint(x: cx - kx, y: r.minY)),
            .curve(to: CGPoint(x: r.maxX, y: cy), control1: CGPoint(x: cx + kx, y: r.minY),
                   control2: CGPoint(x: r.maxX, y: cy - ky)),
            .close,
        ]
    }

    /// A closed rounded rectangle with elliptical corners of `cornerWidth` x `cornerHeight` (clamped to half the
    /// sides; a plain rectangle when either is zero), from (minX + cornerWidth, minY) along +x.
    public static func roundedRectElements(_ rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat) -> [Element] {
        let r = rect.standardized
        let w = min(max(0, cornerWidth.isNaN ? 0 : cornerWidth), r.width / 2)
        let h = min(max(0, cornerHeight.isNaN ? 0 : cornerHeight), r.height / 2)
        guard w > 0, h > 0 else { return rectElements(r) }
        let (kx, ky) = (w * (1 - kappa), h * (1 - kappa))
        let (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
        func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }
        return [
            .move(to: p(x0 + w, y0)), .line(to: p(x1 - w, y0)),
            .curve(to: p(x1, y0 + h), control1: p(x1 - kx, y0), control2: p(x1, y0 + ky)),
            .line(to: p(x1, y1 - h)),
            .curve(to: p(x1 - w, y1), control1: p(x1, y1 - ky), control2: p(x1 - kx, y1)),
            .line(to: p(x0 + w, y1)),
            .curve(to: p(x0, y1 - h), control1: p(x0 + kx, y1), control2: p(x0, y1 - ky)),
            .line(to: p(x0, y0 + h)),
            .curve(to: p(x0 + w, y0), control1: p(x0, y0 + ky), control2: p(x0 + kx, y0)),
            .close,
        ]
    }

    /// The path as Core Graphics' elements only (move, line, quadCurve, curve, close): Lamina's arcs (as
    /// DrawingContext draws them, `DrawingContext.arcAngles`), rectangles, ellipses and rounded rectangles decomposed.
    public var cgElements: [Element] {
        var out: [Element] = []
        var hasCurrent = false
        for element in elements {
            switch element {
            case .move, .line, .curve, .quadCurve:
                out.append(element)
                hasCurrent = true
            case .close:
                out.append(.close)
            case .arc(let c, let r, let a0, let a1, let clockwise):
                guard let (start, end) = DrawingContext.arcAngles(start: Double(a0), end: Double(a1),
                                                                   clockwise: clockwise)
                else { continue }
                let arc = Path.arcCurves(center: c, radius: max(0, r), start: start, sweep: end - start)
                out.append(hasCurrent ? .line(to: arc.start) : .move(to: arc.start))
                out += arc.curves
                hasCurrent = true
            case .rect(let r):
                out += Path.rectElements(r)
                hasCurrent = true
            case .ellipse(let r):
                let parts = Path.ellipseElements(r)
                out += parts
                hasCurrent = hasCurrent || !parts.isEmpty
            case .roundedRect(let r, let radius):
                out += Path.roundedRectElements(r, cornerWidth: radius, cornerHeight: radius)
                hasCurrent = true
            }
        }
        return out
    }

    /// The point where the next element starts: the end of the last element (a close: its subpath's start); nil
    /// when the path is empty.
    public var currentPoint: CGPoint? {
        var subpathStart: CGPoint?, current: CGPoint?
        for element in elements {
            switch element {
            case .move(let p):
                (subpathStart, current) = (p, p)
            case .line(let p), .curve(let p, _, _), .quadCurve(let p, _):
                if current == nil { subpathStart = p }
                current = p
            case .close:
                current = subpathStart
            case .arc(let c, let r, let a0, let a1, let clockwise):
                guard let (start, end) = DrawingContext.arcAngles(start: Double(a0), end: Double(a1),
                                                                   clockwise: clockwise)
                else { continue }
                let radius = Double(max(0, r))
                if current == nil {
                    subpathStart = CGPoint(x: Double(c.x) + radius * cos(start), y: Double(c.y) + radius * sin(start))
                }
                current = CGPoint(x: Double(c.x) + radius * cos(end), y: Double(c.y) + radius * sin(end))
            case .rect, .ellipse, .roundedRect:
                if case .move(let p)? = Path([element]).cgElements.first { (subpathStart, current) = (p, p) }
            }
        }
        return current
    }
}
