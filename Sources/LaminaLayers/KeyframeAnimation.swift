import Foundation
import LaminaCore
import LaminaDrawing

/// Core Animation's CAKeyframeAnimation: a key path through a list of values, or `position` along a path
/// (docs/animation.md, "Keyframes").
open class KeyframeAnimation: PropertyAnimation, @unchecked Sendable {
    /// How the values are reached between key times (CAAnimationCalculationMode).
    public enum CalculationMode: String, CaseIterable, Hashable, Sendable {
        /// Straight from each value to the next.
        case linear
        /// Each value held until the next key time, no interpolation.
        case discrete
        /// Constant speed over the summed distances between values; keyTimes and timingFunctions are ignored.
        case paced
        /// A Catmull-Rom spline through the values (tension, continuity and bias 0).
        case cubic
        /// The spline of `cubic`, travelled at constant speed: key times from the distances between the values
        /// (keyTimes and timingFunctions ignored, as for `paced`).
        case cubicPaced
    }

    /// Whether a layer moved along `path` also turns to follow it (CAAnimationRotationMode).
    public enum RotationMode: String, CaseIterable, Hashable, Sendable {
        /// Turned to the path's tangent (Core Animation's raw value "auto").
        case rotateAuto = "auto"
        /// Turned to the tangent, plus half a turn ("autoReverse").
        case rotateAutoReverse = "autoReverse"
    }

    /// The values, of the key path's type (as `BasicAnimation`'s).
    public var values: [Any]?
    /// Where each value is reached, as fractions of the duration: non-decreasing, 0...1, one per value (discrete:
    /// one more, or one per value). nil or a list that breaks these rules: evenly spaced.
    public var keyTimes: [NSNumber]?
    /// One per segment (values - 1), easing progress within it; nil: linear.
    public var timingFunctions: [MediaTimingFunction]?
    public var calculationMode: CalculationMode = .linear
    /// For a point key path (`position`): the layer's point moves along this path; it overrides `values`. In
    /// `linear` (or `cubic`) mode with one key time per path element, each element's end is reached at its key
    /// time (constant speed within an element, eased by its timing function); otherwise (`paced`, `cubicPaced`,
    /// no key times) at constant speed over the whole path.
    public var path: CGPath?
    /// With `path`, turns the layer to the path's tangent; nil: no turning.
    public var rotationMode: RotationMode?

    open override func copy() -> Animation {
        let copy = KeyframeAnimation(keyPath: keyPath)
        copy.copyPropertyAnimation(from: self)
        copy.values = values
        copy.keyTimes = keyTimes
        copy.timingFunctions = timingFunctions
        copy.calculationMode = calculationMode
        copy.path = path
        copy.rotationMode = rotationMode
        return copy
    }

    /// Values converted to the key path's kind, key times made valid, the path measured: once, for the layer's copy.
    private var prepared: Prepared?

    private struct Prepared {
        var values: [AnimatedValue]
        var keyTimes: [Double]
        var measure: PathMeasure?
    }

    func prepare() {
        prepared = makePrepared()
    }

    private func makePrepared() -> Prepared? {
        guard let property else { return nil }
        if let path, property.kind == .point {
            let measure = PathMeasure(path.path)
            guard measure.length > 0 || measure.pieceCount > 0 else { return nil }
            // Linear mode with one key time per element: each element's end is reached at its key time. Otherwise
            // (paced, cubicPaced, or key times that do not fit) constant speed over the whole path.
            var times: [Double] = []
            if calculationMode == .linear || calculationMode == .cubic,
                let given = keyTimes?.map(\.doubleValue), given.count == measure.elementEnds.count, given.count > 1,
                given.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }),
                zip(given, given.dropFirst()).allSatisfy({ $0 <= $1 })
            {
                times = given
            }
            return Prepared(values: [], keyTimes: times, measure: measure)
        }
        let converted = (values ?? []).compactMap { property.kind.convert($0) }
        guard !converted.isEmpty, converted.count == (values ?? []).count else { return nil }
        return Prepared(values: converted, keyTimes: Self.keyTimes(keyTimes?.map(\.doubleValue), count: converted.count,
                                                                   mode: calculationMode, values: converted),
                        measure: nil)
    }

    /// The key times to use: the given ones when they follow the rules, else evenly spaced (discrete: n + 1 steps
    /// from 0 to 1, value k from k/n; paced: by distance).
    private static func keyTimes(_ given: [Double]?, count n: Int, mode: CalculationMode, values: [AnimatedValue])
        -> [Double]
    {
        if mode == .paced || mode == .cubicPaced {
            let legs = zip(values, values.dropFirst()).map { AnimatedValue.distance($0, $1) }
            return KeyframeMath.pacedKeyTimes(legs: legs)
        }
        if let given, given.count == n || (mode == .discrete && given.count == n + 1),
            given.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }), zip(given, given.dropFirst()).allSatisfy({ $0 <= $1 })
        {
            return given
        }
        if mode == .discrete { return (0...n).map { Double($0) / Double(n) } }
        return (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
    }

    override func value(at phase: MediaTiming.Phase, eased p: Double, property: AnimatableProperty,
                        base: AnimatedValue, model: borrowing LayerState) -> (value: AnimatedValue, cycleStep: AnimatedValue?)? {
        guard let prepared = prepared ?? makePrepared() else { return nil }
        if let measure = prepared.measure {
            let (point, _) = measure.point(atDistance: pathDistance(eased: p, measure: measure, keyTimes: prepared.keyTimes))
            let start = measure.point(atDistance: 0).point, end = measure.point(atDistance: measure.length).point
            return (.point(point), .point(CGPoint(x: end.x - start.x, y: end.y - start.y)))
        }
        let values = prepared.values, times = prepared.keyTimes
        let step = isCumulative && phase.iteration > 0
            ? AnimatedValue.subtract(values[values.count - 1], values[0]) : nil
        guard values.count > 1 else { return (values[0], step) }
        switch calculationMode {
        case .discrete:
            // Value k from keyTimes[k]; the last from its key time to the end (and at p = 1).
            var k = 0
            while k + 1 < values.count, k + 1 < times.count, times[k + 1] <= p { k += 1 }
            return (values[k], step)
        case .linear, .paced, .cubic, .cubicPaced:
            let (index, raw) = KeyframeMath.segment(for: min(max(p, 0), 1), keyTimes: times)
            let k = min(max(index, 0), values.count - 2)
            var local = min(max(raw, 0), 1)
            if calculationMode != .paced, calculationMode != .cubicPaced, let functions = timingFunctions,
                k < functions.count
            {
                local = functions[k].evaluate(local)
            }
            if calculationMode == .cubic || calculationMode == .cubicPaced, case .vector(let v1, let count) = values[k],
                case .vector(let v2, _) = values[k + 1]
            {
                let v0 = values[max(k - 1, 0)].components, v3 = values[min(k + 2, values.count - 1)].components
                return (.vector(KeyframeMath.catmullRom(v0, v1, v2, v3, local), count: count), step)
            }
            return (AnimatedValue.interpolate(values[k], values[k + 1], local), step)
        }
    }

    override func apply(to state: inout PresentedState, model: borrowing LayerState, time: Double) -> Bool {
        guard super.apply(to: &state, model: model, time: time) else { return false }
        // Along a path, the layer also turns to the tangent.
        if let rotationMode, let measure = prepared?.measure, let phase = timing.phase(parent: time) {
            let eased = timingFunction?.evaluate(phase.progress) ?? phase.progress
            var angle = measure.point(
                atDistance: pathDistance(eased: eased, measure: measure, keyTimes: prepared?.keyTimes ?? [])).angle
            if rotationMode == .rotateAutoReverse { angle += .pi }
            state.state.transform = Transform3D(rotationAngle: CGFloat(angle)).concatenating(state.state.transform)
            state.contentChanged = true
        }
        return true
    }
}

/// Core Animation's CASpringAnimation: from one value to another as a damped spring moves (docs/animation.md,
/// "Springs"). The value is from + (to - from) · (1 - x(t)), with x the spring's displacement (x(0) = 1) at t
/// seconds into the current iteration; no timing function. `duration` still decides when it ends:
/// `settlingDuration` is a good one.
open class SpringAnimation: BasicAnimation, @unchecked Sendable {
    public var mass: Double = 1
    public var stiffness: Double = 100
    public var damping: Double = 10
    public var initialVelocity: Double = 0

    /// The time after which the spring stays within 0.001 of its rest (infinity when damping is 0).
    public var settlingDuration: Double { solution.settlingDuration }

    private var solution: SpringSolution {
        SpringSolution(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
    }

    open override func copy() -> Animation {
        let copy = SpringAnimation(keyPath: keyPath)
        copy.copyBasicAnimation(from: self)
        (copy.mass, copy.stiffness, copy.damping, copy.initialVelocity) = (mass, stiffness, damping, initialVelocity)
        return copy
    }

    override var usesTimingFunction: Bool { false }

    override func value(at phase: MediaTiming.Phase, eased: Double, property: AnimatableProperty,
                        base: AnimatedValue, model: borrowing LayerState) -> (value: AnimatedValue, cycleStep: AnimatedValue?)? {
        let (from, to) = endpoints(property: property, base: base, model: model)
        let x = solution.displacement(at: phase.time)
        let step = isCumulative && phase.iteration > 0 ? AnimatedValue.subtract(to, from) : nil
        return (AnimatedValue.interpolate(from, to, 1 - x), step)
    }
}

extension KeyframeAnimation {
    /// The distance along the path at eased progress `p`: with key times (one per path element), element k's
    /// end at keyTimes[k] and constant speed within each element (eased by timingFunctions[k]); without, constant
    /// speed over the whole path.
    fileprivate func pathDistance(eased p: Double, measure: PathMeasure, keyTimes times: [Double]) -> Double {
        let p = min(max(p, 0), 1)
        guard times.count > 1, times.count == measure.elementEnds.count else { return p * measure.length }
        let (index, raw) = KeyframeMath.segment(for: p, keyTimes: times)
        let k = min(max(index, 0), times.count - 2)
        var local = min(max(raw, 0), 1)
        if let functions = timingFunctions, k < functions.count { local = functions[k].evaluate(local) }
        let ends = measure.elementEnds
        return ends[k] + (ends[k + 1] - ends[k]) * local
    }
}
