import Foundation
import LaminaCore

/// The cubic calculation modes of KeyframeAnimation on values (docs/animation.md, "Keyframes"): a
/// Kochanek-Bartels spline through the values, each value with its own tension, continuity and bias.
enum KeyframeSpline {
    /// The tension, continuity and bias of each of `count` values: entry k of each list, 0 where a list is nil,
    /// shorter, or its entry is not finite (Core Animation uses 0 for a value without an entry); extra entries
    /// are ignored.
    static func parameters(count: Int, tension: [NSNumber]?, continuity: [NSNumber]?, bias: [NSNumber]?)
        -> [KeyframeMath.TCB]
    {
        func entry(_ list: [NSNumber]?, _ k: Int) -> Double {
            guard let list, k < list.count else { return 0 }
            let x = list[k].doubleValue
            return x.isFinite ? x : 0
        }
        return (0..<count).map { k in
            KeyframeMath.TCB(tension: entry(tension, k), continuity: entry(continuity, k), bias: entry(bias, k))
        }
    }

    /// The spline's value in segment k (from values[k] to values[k + 1]) at local progress s: the end values are
    /// their own outer neighbours. Values that cannot be added and scaled (transforms, images, flags, nil
    /// colours, lists of different lengths) go straight, as `linear` does.
    static func value(_ values: [AnimatedValue], segment k: Int, local s: Double, parameters: [KeyframeMath.TCB])
        -> AnimatedValue
    {
        let p1 = values[k], p2 = values[k + 1]
        let p0 = values[max(k - 1, 0)], p3 = values[min(k + 2, values.count - 1)]
        let start = k < parameters.count ? parameters[k] : .zero
        let end = k + 1 < parameters.count ? parameters[k + 1] : .zero
        let w = KeyframeMath.hermiteWeights(s, start: start, end: end)
        return AnimatedValue.combination(p0, p1, p2, p3, weights: w) ?? AnimatedValue.interpolate(p1, p2, s)
    }
}

extension AnimatedValue {
    /// w0 a + w1 b + w2 c + w3 d for values that can be added and scaled: vectors (numbers, points, sizes,
    /// rects), colours (each component, clamped to 0...1), and lists of numbers or colours of one length. nil for
    /// any other value.
    static func combination(_ a: AnimatedValue, _ b: AnimatedValue, _ c: AnimatedValue, _ d: AnimatedValue,
                            weights w: SIMD4<Double>) -> AnimatedValue? {
        func mix(_ x: SIMD4<Double>, _ y: SIMD4<Double>, _ z: SIMD4<Double>, _ u: SIMD4<Double>) -> SIMD4<Double> {
            w[0] * x + w[1] * y + w[2] * z + w[3] * u
        }
        func rgba(_ color: Color) -> SIMD4<Double> { SIMD4(color.red, color.green, color.blue, color.alpha) }
        func color(_ v: SIMD4<Double>) -> Color {
            let v = v.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
            return Color(red: v[0], green: v[1], blue: v[2], alpha: v[3])
        }
        switch (a, b, c, d) {
        case (.vector(let x, _), .vector(let y, let n), .vector(let z, _), .vector(let u, _)):
            return .vector(mix(x, y, z, u), count: n)
        case (.color(let x?), .color(let y?), .color(let z?), .color(let u?)):
            return .color(color(mix(rgba(x), rgba(y), rgba(z), rgba(u))))
        case (.numbers(let x?), .numbers(let y?), .numbers(let z?), .numbers(let u?))
            where x.count == y.count && z.count == y.count && u.count == y.count:
            return .numbers(y.indices.map { i in w[0] * x[i] + w[1] * y[i] + w[2] * z[i] + w[3] * u[i] })
        case (.colors(let x), .colors(let y), .colors(let z), .colors(let u))
            where x.count == y.count && z.count == y.count && u.count == y.count:
            return .colors(y.indices.map { i in color(mix(rgba(x[i]), rgba(y[i]), rgba(z[i]), rgba(u[i]))) })
        default:
            return nil
        }
    }
}

/// cubicPaced: where along the spline through the values each progress is, so that it is travelled at constant
/// speed. The spline is sampled `samplesPerSegment` times per segment and the distances between the samples
/// (AnimatedValue.distance) summed once; a progress p is then the point p x length along it, found by a binary
/// search and placed linearly between two samples. The samples are at most `maximumSamples` in all, so memory
/// and the time to make it are bounded (with more segments than that, each is one sample: key times by the
/// distances between the values).
struct KeyframeSplinePacing {
    static let samplesPerSegment = 256
    static let maximumSamples = 1 << 16

    let samplesPerSegment: Int
    /// The distance along the spline at each sample: segment k's sample i is entry k x samplesPerSegment + i; the
    /// last entry is the whole length.
    let distances: [Double]

    /// nil for fewer than two values, or a spline with no length (or one that is not finite).
    init?(values: [AnimatedValue], parameters: [KeyframeMath.TCB]) {
        let segments = values.count - 1
        guard segments >= 1 else { return nil }
        let m = max(1, min(Self.samplesPerSegment, Self.maximumSamples / segments))
        var distances = [0.0]
        distances.reserveCapacity(segments * m + 1)
        var previous = values[0]
        var total = 0.0
        for k in 0..<segments {
            for i in 1...m {
                let next = i == m ? values[k + 1]
                    : KeyframeSpline.value(values, segment: k, local: Double(i) / Double(m), parameters: parameters)
                total += AnimatedValue.distance(previous, next)
                distances.append(total)
                previous = next
            }
        }
        guard total > 0, total.isFinite else { return nil }
        samplesPerSegment = m
        self.distances = distances
    }

    /// The segment and local progress (0...1) at progress p (clamped to 0...1; NaN counts as 0).
    func segment(at p: Double) -> (index: Int, local: Double) {
        let p = p.isNaN ? 0 : min(max(p, 0), 1)
        let total = distances[distances.count - 1]
        let target = p * total
        // The last sample at or before target, below the final one.
        var low = 0, high = distances.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if distances[mid] <= target { low = mid } else { high = mid }
        }
        let span = distances[low + 1] - distances[low]
        let fraction = span > 0 ? min(max((target - distances[low]) / span, 0), 1) : 0
        let m = samplesPerSegment
        let segments = (distances.count - 1) / m
        let k = min(low / m, segments - 1)
        return (k, (Double(low - k * m) + fraction) / Double(m))
    }
}
