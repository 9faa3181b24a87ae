import Foundation

/// Core Animation's CAMediaTimingFunction: how an animation's progress is eased. A cubic Bezier from (0, 0) to
/// (1, 1) with two control points; the linear progress p is the curve's x, the eased progress its y, solved to
/// 1e-6 (docs/animation.md, "Timing functions").
///
/// Any numbers give a function: control points' x are limited to 0...1 (so the curve's x only grows and every p
/// has one answer), and a number that is not finite counts as 0. y may leave 0...1 (an overshoot).
public struct MediaTimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// Core Animation's named functions.
    public enum Name: String, CaseIterable, Hashable, Sendable {
        /// (0, 0, 1, 1): no easing.
        case linear
        /// (0.42, 0, 1, 1): slow start.
        case easeIn
        /// (0, 0, 0.58, 1): slow end.
        case easeOut
        /// (0.42, 0, 0.58, 1): slow start and end.
        case easeInEaseOut
        /// (0.25, 0.1, 0.25, 1): what implicit animations use when the transaction names none.
        case `default`
    }

    /// The first control point.
    public let c1: (x: Float, y: Float)
    /// The second control point.
    public let c2: (x: Float, y: Float)

    public init(name: Name) {
        switch name {
        case .linear: self.init(controlPoints: 0, 0, 1, 1)
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        }
    }

    /// A function through the control points (c1x, c1y) and (c2x, c2y), as CAMediaTimingFunction's
    /// `init(controlPoints:_:_:_:)`.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        func finite(_ v: Float) -> Float { v.isFinite ? v : 0 }
        c1 = (min(max(finite(c1x), 0), 1), finite(c1y))
        c2 = (min(max(finite(c2x), 0), 1), finite(c2y))
    }

    /// Control point `index` as CAMediaTimingFunction numbers them: 0 is (0, 0), 1 and 2 the control points, 3 is
    /// (1, 1); nil for any other index.
    public func controlPoint(at index: Int) -> (x: Float, y: Float)? {
        switch index {
        case 0: return (0, 0)
        case 1: return c1
        case 2: return c2
        case 3: return (1, 1)
        default: return nil
        }
    }

    /// The eased progress at linear progress `p` (limited to 0...1; not a number counts as 0).
    public func evaluate(_ p: Double) -> Double {
        let x = p.isNaN ? 0 : min(max(p, 0), 1)
        let (x1, y1, x2, y2) = (Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y))
        if x1 == y1 && x2 == y2 { return x }  // a straight line: y = x
        let s = Self.parameter(forX: x, x1, x2)
        return Self.bezier(s, y1, y2)
    }

    /// The curve's parameter s in 0...1 where its x is `x`. Newton's method where the curve's x is steep enough for
    /// a small step to mean a small error in s; else (a flat stretch, where a tiny error in x is a large one in s
    /// and so in the eased value) bisection down to an interval of 1e-10, which always converges since x never
    /// decreases along the curve.
    static func parameter(forX x: Double, _ x1: Double, _ x2: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var s = x
        for _ in 0..<8 {
            let slope = derivative(s, x1, x2)
            guard slope > 1e-3 else { break }
            let step = (bezier(s, x1, x2) - x) / slope
            let next = s - step
            guard next >= 0, next <= 1 else { break }
            s = next
            if abs(step) < 1e-12 { return s }
        }
        var (lo, hi) = (0.0, 1.0)
        while hi - lo > 1e-10 {
            let middle = (lo + hi) / 2
            if bezier(middle, x1, x2) < x { lo = middle } else { hi = middle }
        }
        return (lo + hi) / 2
    }

    /// One coordinate of the Bezier from 0 to 1 with inner control values `a` and `b`, at parameter s.
    static func bezier(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
    }

    static func derivative(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * a + 6 * u * s * (b - a) + 3 * s * s * (1 - b)
    }

    public static func == (l: MediaTimingFunction, r: MediaTimingFunction) -> Bool {
        l.c1 == r.c1 && l.c2 == r.c2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(c1.x)
        hasher.combine(c1.y)
        hasher.combine(c2.x)
        hasher.combine(c2.y)
    }

    public var description: String { "MediaTimingFunction(\(c1.x), \(c1.y), \(c2.x), \(c2.y))" }
}
