import Foundation

/// The arithmetic of KeyframeAnimation's calculation modes on values turned into component vectors (a number
/// is [v], a point [x, y], a colour [r, g, b, a] ...): cubic (Catmull-Rom) interpolation, the distances that
/// pace an animation, and finding the keyframe segment of a progress.
///
/// Vectors of different lengths are read up to the shortest. The `into:` forms reuse the caller's array, so a
/// frame's evaluation allocates nothing once it has the right length.
public enum KeyframeMath {
    /// The uniform Catmull-Rom spline through p1 (t = 0) and p2 (t = 1), p0 and p3 giving the tangents
    /// (p2 - p0) / 2 and (p3 - p1) / 2: a Kochanek-Bartels spline with tension, continuity and bias 0, Core
    /// Animation's cubic mode. A t outside 0...1 extends the same cubic.
    public static func catmullRom(_ p0: [Double], _ p1: [Double], _ p2: [Double], _ p3: [Double],
                                  _ t: Double) -> [Double] {
        var result: [Double] = []
        catmullRom(p0, p1, p2, p3, t, into: &result)
        return result
    }

    /// `catmullRom(_:_:_:_:_:)` written into `result`, which is resized only when its length is wrong.
    public static func catmullRom(_ p0: [Double], _ p1: [Double], _ p2: [Double], _ p3: [Double], _ t: Double,
                                  into result: inout [Double]) {
        let n = min(p0.count, p1.count, p2.count, p3.count)
        if result.count != n { result = [Double](repeating: 0, count: n) }
        let t2 = t * t, t3 = t2 * t
        for i in 0..<n {
            let (a, b, c, d) = (p0[i], p1[i], p2[i], p3[i])
            result[i] = b + 0.5 * t * (c - a) + t2 * (a - 2.5 * b + 2 * c - 0.5 * d)
                + t3 * (-0.5 * a + 1.5 * b - 1.5 * c + 0.5 * d)
        }
    }

    /// The cubic-mode value at local progress `t` within segment `segment` (from values[segment] to
    /// values[segment + 1]) of the spline through all of `values`, the end values doubled as their own
    /// neighbours (so the first and last segments start and end with half the chord as tangent). The segment
    /// index is clamped to the segments there are; one value gives itself and none gives [].
    public static func catmullRom(through values: [[Double]], segment: Int, _ t: Double,
                                  into result: inout [Double]) {
        guard values.count > 1 else {
            result = values.first ?? []
            return
        }
        let i = min(max(segment, 0), values.count - 2)
        catmullRom(values[max(i - 1, 0)], values[i], values[i + 1], values[min(i + 2, values.count - 1)], t,
                   into: &result)
    }

    /// The component-wise linear blend a + (b - a) t, written into `result`.
    public static func lerp(_ a: [Double], _ b: [Double], _ t: Double, into result: inout [Double]) {
        let n = min(a.count, b.count)
        if result.count != n { result = [Double](repeating: 0, count: n) }
        for i in 0..<n { result[i] = a[i] + (b[i] - a[i]) * t }
    }

    /// The Euclidean distance between two component vectors.
    public static func distance(_ a: [Double], _ b: [Double]) -> Double {
        var sum = 0.0
        for i in 0..<min(a.count, b.count) {
            let d = b[i] - a[i]
            sum += d * d
        }
        return sum.squareRoot()
    }

    /// The key times of paced mode: for n values, the distance travelled up to each value divided by the whole
    /// distance, so a linear walk through them moves at constant speed; 0 first and 1 last. When the whole
    /// distance is 0 (all values equal) or not finite the times are evenly spaced. One value gives [0], none [].
    public static func pacedKeyTimes(_ values: [[Double]]) -> [Double] {
        guard values.count > 1 else { return values.isEmpty ? [] : [0] }
        var times = [Double](repeating: 0, count: values.count)
        for i in 1..<values.count { times[i] = times[i - 1] + distance(values[i - 1], values[i]) }
        let total = times[values.count - 1]
        let last = Double(values.count - 1)
        guard total > 0, total.isFinite else {
            return (0..<values.count).map { Double($0) / last }
        }
        for i in 1..<values.count - 1 { times[i] /= total }
        times[values.count - 1] = 1
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
