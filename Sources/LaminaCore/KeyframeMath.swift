import Foundation

/// The arithmetic of KeyframeAnimation's calculation modes on values as up to four components (a number is
/// (v, 0, 0, 0), a point (x, y, 0, 0), a colour (r, g, b, a) ...): cubic (Catmull-Rom) interpolation, the key
/// times that pace an animation, and finding the keyframe segment of a progress. Nothing here allocates but
/// `pacedKeyTimes`, which runs once per animation.
public enum KeyframeMath {
    /// The uniform Catmull-Rom spline through p1 (t = 0) and p2 (t = 1), p0 and p3 giving the tangents
    /// (p2 - p0) / 2 and (p3 - p1) / 2: a Kochanek-Bartels spline with tension, continuity and bias 0, Core
    /// Animation's cubic mode. A t outside 0...1 extends the same cubic. At the ends of a list of values, pass the
    /// end value as its own neighbour (the first and last segments then start and end with half the chord as
    /// tangent).
    public static func catmullRom(_ p0: SIMD4<Double>, _ p1: SIMD4<Double>, _ p2: SIMD4<Double>,
                                  _ p3: SIMD4<Double>, _ t: Double) -> SIMD4<Double> {
        let t2 = t * t, t3 = t2 * t
        let b: SIMD4<Double> = 0.5 * (p2 - p0)
        let c: SIMD4<Double> = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3
        let d: SIMD4<Double> = 1.5 * (p1 - p2) + 0.5 * (p3 - p0)
        return p1 + t * b + t2 * c + t3 * d
    }

    /// Tension, continuity and bias at one keyframe of a Kochanek-Bartels spline (CAKeyframeAnimation's
    /// `tensionValues`, `continuityValues` and `biasValues`); all 0 is Catmull-Rom.
    public struct TCB: Equatable, Sendable {
        public var tension, continuity, bias: Double

        public init(tension: Double = 0, continuity: Double = 0, bias: Double = 0) {
            (self.tension, self.continuity, self.bias) = (tension, continuity, bias)
        }

        public static let zero = TCB()
    }

    /// The weights w0...w3 with which the Kochanek-Bartels segment from p1 (s = 0) to p2 (s = 1) is
    /// w0 p0 + w1 p1 + w2 p2 + w3 p3, p0 and p3 being the neighbours (pass the end value as its own neighbour at the
    /// ends of a list). The standard form: a cubic Hermite from p1 to p2 with the tangent leaving p1
    /// (1 - t1)(1 + c1)(1 + b1)/2 (p1 - p0) + (1 - t1)(1 - c1)(1 - b1)/2 (p2 - p1) and the one arriving at p2
    /// (1 - t2)(1 - c2)(1 + b2)/2 (p2 - p1) + (1 - t2)(1 + c2)(1 - b2)/2 (p3 - p2), with (t1, c1, b1) of p1 and
    /// (t2, c2, b2) of p2. The weights sum to 1, so any value that can be added and scaled (numbers, points,
    /// colours, lists of them) is combined with them. An s outside 0...1 extends the same cubic.
    public static func hermiteWeights(_ s: Double, start: TCB, end: TCB) -> SIMD4<Double> {
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        let inA = (1 - start.tension) * (1 + start.continuity) * (1 + start.bias) / 2
        let inB = (1 - start.tension) * (1 - start.continuity) * (1 - start.bias) / 2
        let outA = (1 - end.tension) * (1 - end.continuity) * (1 + end.bias) / 2
        let outB = (1 - end.tension) * (1 + end.continuity) * (1 - end.bias) / 2
        return SIMD4(-h10 * inA,
                     h00 + h10 * (inA - inB) - h11 * outA,
                     h01 + h10 * inB + h11 * (outA - outB),
                     h11 * outB)
    }

    /// The Kochanek-Bartels segment from p1 to p2 at s (`hermiteWeights` applied to four points).
    public static func kochanekBartels(_ p0: SIMD4<Double>, _ p1: SIMD4<Double>, _ p2: SIMD4<Double>,
                                       _ p3: SIMD4<Double>, _ s: Double, start: TCB = .zero, end: TCB = .zero)
        -> SIMD4<Double>
    {
        let w = hermiteWeights(s, start: start, end: end)
        return w[0] * p0 + w[1] * p1 + w[2] * p2 + w[3] * p3
    }

    /// The key times of paced mode, from the lengths of the legs between consecutive values (n - 1 legs for n
    /// values): the distance travelled up to each value divided by the whole distance, so a linear walk through
    /// them moves at constant speed; 0 first and 1 last. When the whole distance is 0 (all values equal) or not
    /// finite the times are evenly spaced. No legs give [0].
    public static func pacedKeyTimes(legs: [Double]) -> [Double] {
        let count = legs.count + 1
        guard count > 1 else { return [0] }
        var times = [Double](repeating: 0, count: count)
        for i in 1..<count { times[i] = times[i - 1] + legs[i - 1] }
        let total = times[count - 1]
        let last = Double(count - 1)
        guard total > 0, total.isFinite else {
            return (0..<count).map { Double($0) / last }
        }
        for i in 1..<count - 1 { times[i] /= total }
        times[count - 1] = 1
        return times
    }

    /// The keyframe segment holding progress `p` in non-decreasing `keyTimes` (segment i runs from keyTimes[i]
    /// to keyTimes[i + 1]) and the local progress within it, 0 at its start and 1 at its end.
    ///
    /// - At a key time, the segment that starts there: with tied key times (a jump), the last of them, so the
    ///   value after the jump holds from that time on.
    /// - p at or past the last key time: the last segment, local 1 at its end (more beyond it, so an overshoot
    ///   carries on along the last segment; clamp if that is not wanted). Before the first key time, the first
    ///   segment with a negative local progress, likewise.
    /// - A zero-length segment can only be chosen at the ends: local 0 before it, 1 from it on.
    /// - Non-finite p: NaN and -infinity give (0, 0), +infinity the end (count - 2, 1). Fewer than two key
    ///   times give (0, 0).
    ///
    /// A binary search: O(log n), no allocation. For discrete mode, pass its n + 1 key times: the segment index
    /// is then the index of the value to show.
    public static func segment(for p: Double, keyTimes: [Double]) -> (index: Int, local: Double) {
        keyTimes.withUnsafeBufferPointer { segment(for: p, keyTimes: $0) }
    }

    /// `segment(for:keyTimes:)` over key times that lie in a buffer (a list shared by many animations).
    public static func segment(for p: Double, keyTimes: UnsafeBufferPointer<Double>) -> (index: Int, local: Double) {
        let n = keyTimes.count
        guard n >= 2, !p.isNaN else { return (0, 0) }
        if p == .infinity { return (n - 2, 1) }
        if p == -.infinity { return (0, 0) }
        // The number of segment starts keyTimes[0 ..< n - 1] at or before p (an upper bound search).
        var first = 0, count = n - 1
        while count > 0 {
            let step = count / 2
            if keyTimes[first + step] <= p {
                first += step + 1
                count -= step + 1
            } else {
                count = step
            }
        }
        let index = max(first - 1, 0)
        let start = keyTimes[index], end = keyTimes[index + 1]
        let span = end - start
        guard span > 0 else { return (index, p < start ? 0 : 1) }
        return (index, (p - start) / span)
    }
}
