import Foundation
import LaminaCore
import LaminaDrawing

/// A keyframe animation's `path` (docs/animation.md, "Keyframes"): where along the path a progress is, in each
/// calculation mode. The path's keyframes are PathMeasure's vertices (its first point, then the end of each line
/// and curve).
/// - `linear` and `cubic`: keyframe k at keyTimes[k] (one per keyframe; evenly spaced without, or with a list
///   that breaks the rules), constant speed along the path between two keyframes, eased by timingFunctions[k].
///   The path's own curves are followed (cubic makes no spline of its own).
/// - `discrete`: keyframe k held from keyTimes[k] (one per keyframe or one more; evenly spaced without).
/// - `paced` and `cubicPaced`: constant speed over the whole length; key times and timing functions ignored.
/// The tangent (for rotationMode) is the path's where the point is; in discrete mode, the direction in which the
/// path arrives at the keyframe shown (at the first, the one in which it leaves).
struct KeyframePath {
    let measure: PathMeasure
    let vertices: [PathMeasure.Vertex]
    let mode: KeyframeAnimation.CalculationMode
    /// The key times in use: linear and cubic, one per vertex; discrete, one per vertex or one more; paced modes,
    /// none.
    let keyTimes: [Double]

    /// nil for a path with no point.
    init?(_ measure: PathMeasure, mode: KeyframeAnimation.CalculationMode, keyTimes given: [Double]?) {
        guard !measure.vertices.isEmpty else { return nil }
        self.measure = measure
        vertices = measure.vertices
        self.mode = mode
        let n = vertices.count
        switch mode {
        case .paced, .cubicPaced:
            keyTimes = []
        case .discrete:
            keyTimes = KeyframeAnimation.validKeyTimes(given, counts: [n, n + 1])
                ?? KeyframeAnimation.evenKeyTimes(count: n, discrete: true)
        case .linear, .cubic:
            keyTimes = KeyframeAnimation.validKeyTimes(given, counts: [n])
                ?? KeyframeAnimation.evenKeyTimes(count: n, discrete: false)
        }
    }

    /// The point at eased progress `p` (clamped to 0...1) and the tangent's direction there, atan2(dy, dx).
    func position(at p: Double, timingFunctions: [MediaTimingFunction]?) -> (point: CGPoint, angle: Double) {
        let p = p.isNaN ? 0 : min(max(p, 0), 1)
        let n = vertices.count
        guard n > 1 else { return (vertices[0].point, vertices[0].angle) }
        switch mode {
        case .paced, .cubicPaced:
            return measure.point(atDistance: p * measure.length)
        case .discrete:
            var k = 0
            while k + 1 < n, k + 1 < keyTimes.count, keyTimes[k + 1] <= p { k += 1 }
            return (vertices[k].point, vertices[k].angle)
        case .linear, .cubic:
            let (index, raw) = KeyframeMath.segment(for: p, keyTimes: keyTimes)
            let k = min(max(index, 0), n - 2)
            var local = min(max(raw, 0), 1)
            if let functions = timingFunctions, k < functions.count { local = functions[k].evaluate(local) }
            let from = vertices[k], to = vertices[k + 1]
            // At a keyframe, its own point: where a move starts the next subpath, the jump comes after it.
            if local <= 0 { return (from.point, measure.point(atDistance: from.distance).angle) }
            if local >= 1 || to.distance <= from.distance { return (to.point, to.angle) }
            return measure.point(atDistance: from.distance + (to.distance - from.distance) * local)
        }
    }
}
