import Foundation
import LaminaCore
import LaminaDrawing

/// A value a Lottie property can take and interpolate: numbers (`[Double]`, one per dimension) or a bezier shape.
protocol LottieInterpolatable: Sendable {
    /// `a` to `b` at progress `p` per dimension (`progress(d)`; dimension 0 for values without dimensions).
    static func lerp(_ a: Self, _ b: Self, _ progress: (Int) -> Double) -> Self
}

extension Array: LottieInterpolatable where Element == Double {
    static func lerp(_ a: [Double], _ b: [Double], _ progress: (Int) -> Double) -> [Double] {
        let n = Swift.min(a.count, b.count)
        var out = a
        for d in 0..<n { out[d] = a[d] + (b[d] - a[d]) * progress(d) }
        return out
    }
}

/// A Lottie bezier shape (`sh`'s `ks`): vertices with in and out tangents relative to them.
struct LottieBezier: Equatable, LottieInterpolatable {
    var closed: Bool
    var vertices: [CGPoint]
    var inTangents: [CGPoint]
    var outTangents: [CGPoint]

    static func lerp(_ a: LottieBezier, _ b: LottieBezier, _ progress: (Int) -> Double) -> LottieBezier {
        let p = CGFloat(progress(0))
        // Shapes of different vertex counts cannot morph: the first shape holds until the next keyframe (as
        // lottie-web does).
        guard a.vertices.count == b.vertices.count else { return a }
        func mix(_ x: [CGPoint], _ y: [CGPoint]) -> [CGPoint] {
            zip(x, y).map { CGPoint(x: $0.x + ($1.x - $0.x) * p, y: $0.y + ($1.y - $0.y) * p) }
        }
        return LottieBezier(closed: a.closed, vertices: mix(a.vertices, b.vertices),
                            inTangents: mix(a.inTangents, b.inTangents), outTangents: mix(a.outTangents, b.outTangents))
    }

    /// The path: a cubic from each vertex to the next, through vertex + out tangent and next + in tangent.
    var path: Path {
        var path = Path()
        guard let first = vertices.first else { return path }
        path.move(to: first)
        let n = vertices.count
        let segments = closed ? n : n - 1
        guard segments > 0 else { return path }
        for k in 0..<segments {
            let a = vertices[k], b = vertices[(k + 1) % n]
            let o = k < outTangents.count ? outTangents[k] : .zero
            let i = (k + 1) % n < inTangents.count ? inTangents[(k + 1) % n] : .zero
            if o == .zero && i == .zero {
                path.addLine(to: b)
            } else {
                path.addCurve(to: b, control1: CGPoint(x: a.x + o.x, y: a.y + o.y),
                              control2: CGPoint(x: b.x + i.x, y: b.y + i.y))
            }
        }
        if closed { path.closeSubpath() }
        return path
    }
}

/// The easing of one keyframe segment: a cubic bezier from (0, 0) to (1, 1) through (o.x, o.y) and (i.x, i.y),
/// one per dimension (the last given serves the dimensions beyond).
struct LottieEasing: Sendable {
    var outX: [Double], outY: [Double], inX: [Double], inY: [Double]

    static let linear = LottieEasing(outX: [0], outY: [0], inX: [1], inY: [1])

    func progress(_ t: Double, dimension d: Int) -> Double {
        func pick(_ a: [Double], _ fallback: Double) -> Double { a.isEmpty ? fallback : a[Swift.min(d, a.count - 1)] }
        let x1 = pick(outX, 0), y1 = pick(outY, 0), x2 = pick(inX, 1), y2 = pick(inY, 1)
        return LottieEasing.cubic(t, x1: x1, y1: y1, x2: x2, y2: y2)
    }

    /// y at x = `t` of the bezier (0,0) (x1,y1) (x2,y2) (1,1): x solved by Newton steps, then bisection.
    static func cubic(_ t: Double, x1: Double, y1: Double, x2: Double, y2: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        if x1 == y1 && x2 == y2 { return t }
        let x1 = Swift.min(Swift.max(x1, 0), 1), x2 = Swift.min(Swift.max(x2, 0), 1)
        func bx(_ u: Double) -> Double { 3 * (1 - u) * (1 - u) * u * x1 + 3 * (1 - u) * u * u * x2 + u * u * u }
        func by(_ u: Double) -> Double { 3 * (1 - u) * (1 - u) * u * y1 + 3 * (1 - u) * u * u * y2 + u * u * u }
        func dx(_ u: Double) -> Double {
            3 * (1 - u) * (1 - u) * x1 + 6 * (1 - u) * u * (x2 - x1) + 3 * u * u * (1 - x2)
        }
        var u = t
        for _ in 0..<8 {
            let err = bx(u) - t
            if abs(err) < 1e-9 { return by(u) }
            let slope = dx(u)
            if abs(slope) < 1e-9 { break }
            u -= err / slope
            if u < 0 || u > 1 { break }
        }
        var lo = 0.0, hi = 1.0
        u = t
        for _ in 0..<60 {
            let x = bx(u)
            if abs(x - t) < 1e-10 { break }
            if x < t { lo = u } else { hi = u }
            u = (lo + hi) / 2
        }
        return by(u)
    }
}

/// One keyframe: from its time `time` (frames) its value goes from `start` to the next keyframe's start (or its
/// own `end`, in older files), eased, or holds.
struct LottieKeyframe<Value: LottieInterpolatable>: Sendable {
    var time: Double
    var start: Value?
    var end: Value?
    var hold: Bool
    var easing: LottieEasing
    /// Spatial tangents (positions): out of this keyframe's value, into the next one's.
    var spatialOut: [Double]?
    var spatialIn: [Double]?
}

/// A Lottie property: a fixed value or keyframes, and the expression that may replace it.
struct LottieProperty<Value: LottieInterpolatable>: Sendable {
    var fixed: Value?
    var keyframes: [LottieKeyframe<Value>] = []
    /// The After Effects expression (`x`), evaluated by LottieExpressions when one is available.
    var expression: String?
    /// The JSON path, for messages.
    var path: String = ""

    init(_ value: Value) { fixed = value }
    init(keyframes: [LottieKeyframe<Value>], path: String) {
        self.keyframes = keyframes
        self.path = path
    }

    var isAnimated: Bool { !keyframes.isEmpty }

    /// The keyframe times, frames.
    var keyframeTimes: [Double] { keyframes.map(\.time) }

    /// The value at `frame` (keyframes only; the expression is applied by the caller that has a context).
    func value(at frame: Double) -> Value? {
        if keyframes.isEmpty { return fixed }
        let first = keyframes[0]
        if frame <= first.time || keyframes.count == 1 { return first.start ?? first.end ?? fixed }
        // The segment: the last keyframe whose time is <= frame.
        var lo = 0, hi = keyframes.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if keyframes[mid].time <= frame { lo = mid } else { hi = mid - 1 }
        }
        let k = keyframes[lo]
        guard lo + 1 < keyframes.count else {
            // Past the last keyframe: its value, or the previous one's end.
            return k.start ?? keyframes[lo - 1].end ?? keyframes[lo - 1].start ?? fixed
        }
        let next = keyframes[lo + 1]
        guard let a = k.start ?? (lo > 0 ? keyframes[lo - 1].end : nil) else { return next.start ?? fixed }
        if k.hold { return a }
        guard let b = k.end ?? next.start else { return a }
        let span = next.time - k.time
        guard span > 0 else { return b }
        let t = (frame - k.time) / span
        if let out = k.spatialOut, let into = k.spatialIn, let av = a as? [Double], let bv = b as? [Double],
           av.count >= 2, bv.count >= 2, out.count >= 2, into.count >= 2,
           out.contains(where: { $0 != 0 }) || into.contains(where: { $0 != 0 }) {
            let p = k.easing.progress(t, dimension: 0)
            return LottieSpatial.point(from: av, to: bv, out: out, in: into, progress: p) as? Value
        }
        return Value.lerp(a, b) { k.easing.progress(t, dimension: $0) }
    }
}

/// Positions along a spatial bezier, by arc length (as After Effects moves a layer along its motion path).
enum LottieSpatial {
    static func point(from a: [Double], to b: [Double], out: [Double], in into: [Double], progress: Double)
        -> [Double]
    {
        let p0 = SIMD2(a[0], a[1]), p3 = SIMD2(b[0], b[1])
        let p1 = p0 + SIMD2(out[0], out[1]), p2 = p3 + SIMD2(into[0], into[1])
        func at(_ u: Double) -> SIMD2<Double> {
            let v = 1 - u
            return v * v * v * p0 + 3 * v * v * u * p1 + 3 * v * u * u * p2 + u * u * u * p3
        }
        let steps = 64
        var lengths = [0.0]
        var previous = p0
        for s in 1...steps {
            let q = at(Double(s) / Double(steps))
            let d = q - previous
            lengths.append(lengths[s - 1] + (d * d).sum().squareRoot())
            previous = q
        }
        let total = lengths[steps]
        var result = a
        let point: SIMD2<Double>
        if total <= 0 || !total.isFinite {
            point = p0 + (p3 - p0) * progress
        } else if progress <= 0 || progress >= 1 {
            // Easing that overshoots: on along the end's tangent.
            point = progress <= 0 ? p0 + unit(p1 - p0, p3 - p0) * (progress * total)
                : p3 + unit(p3 - p2, p3 - p0) * ((progress - 1) * total)
        } else {
            let target = progress * total
            var s = 1
            while s < steps && lengths[s] < target { s += 1 }
            let seg = lengths[s] - lengths[s - 1]
            let f = seg > 0 ? (target - lengths[s - 1]) / seg : 0
            point = at((Double(s - 1) + f) / Double(steps))
        }
        result[0] = point.x
        result[1] = point.y
        if result.count > 2, b.count > 2 { result[2] = a[2] + (b[2] - a[2]) * progress }
        return result
    }

    private static func unit(_ v: SIMD2<Double>, _ fallback: SIMD2<Double>) -> SIMD2<Double> {
        let w = (v * v).sum() > 1e-18 ? v : fallback
        let n = (w * w).sum().squareRoot()
        return n > 0 ? w / n : .zero
    }
}
