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
        /// A Kochanek-Bartels spline through the values (`tensionValues`, `continuityValues`, `biasValues`; all 0:
        /// Catmull-Rom).
        case cubic
        /// The spline of `cubic`, travelled at constant speed along it (keyTimes and timingFunctions ignored, as
        /// for `paced`).
        case cubicPaced
    }

    /// Whether a layer moved along `path` also turns to follow it (CAAnimationRotationMode).
    public enum RotationMode: String, CaseIterable, Hashable, Sendable {
        /// Turned to the path's tangent (Core Animation's raw value "auto").
        case rotateAuto = "auto"
        /// Turned to the tangent, plus half a turn ("autoReverse").
        case rotateAutoReverse = "autoReverse"
    }

    /// The values, of the key path's type (as `BasicAnimation`'s; with a `valueFunction`, its numbers).
    public var values: [Any]?
    /// Where each value (or path keyframe) is reached, as fractions of the duration: non-decreasing, 0...1, one
    /// per value (discrete: one more, or one per value). nil or a list that breaks these rules: evenly spaced.
    /// Ignored by `paced` and `cubicPaced`.
    public var keyTimes: [NSNumber]?
    /// One per segment (values - 1), easing progress within it; nil: linear. Ignored by `paced` and `cubicPaced`.
    public var timingFunctions: [MediaTimingFunction]?
    public var calculationMode: CalculationMode = .linear
    /// For a point key path (`position`): the layer's point moves along this path; it overrides `values`. Its
    /// keyframes are its first point and the end of each line and curve (`PathMeasure.vertices`): `linear`,
    /// `cubic` and `discrete` reach them at the key times (evenly spaced without), `paced` and `cubicPaced` move
    /// at constant speed over the whole path.
    public var path: CGPath?
    /// With `path`, turns the layer to the path's tangent; nil: no turning.
    public var rotationMode: RotationMode?
    /// The tension at each value, for the cubic modes (Kochanek-Bartels): positive tightens the curve, negative
    /// rounds it. A value without an entry (or a non-finite one) has 0; extra entries are ignored.
    public var tensionValues: [NSNumber]?
    /// The continuity at each value, for the cubic modes: how the tangents on either side of a value differ
    /// (Kochanek-Bartels' c; -1 makes a corner). A value without an entry has 0.
    public var continuityValues: [NSNumber]?
    /// The bias at each value, for the cubic modes: which side's chord the tangent leans to (Kochanek-Bartels'
    /// b). A value without an entry has 0.
    public var biasValues: [NSNumber]?

    open override func copy() -> Animation {
        let copy = KeyframeAnimation(keyPath: keyPath)
        copy.copyKeyframeAnimation(from: self)
        return copy
    }

    /// Copies what every keyframe animation has (and what every property animation has).
    public func copyKeyframeAnimation(from other: KeyframeAnimation) {
        copyPropertyAnimation(from: other)
        values = other.values
        keyTimes = other.keyTimes
        timingFunctions = other.timingFunctions
        calculationMode = other.calculationMode
        path = other.path
        rotationMode = other.rotationMode
        tensionValues = other.tensionValues
        continuityValues = other.continuityValues
        biasValues = other.biasValues
        prepared = nil
    }

    /// Values converted to the key path's kind, key times made valid, the path measured, the spline paced: once,
    /// for the layer's copy.
    private var prepared: Prepared?

    /// A class, made once when the layer's copy is attached and only read by frames: each frame reads it, and a
    /// copy of a struct of arrays retained and released each array.
    private final class Prepared {
        let values: [AnimatedValue]
        let keyTimes: [Double]
        /// Cubic modes: the tension, continuity and bias at each value.
        var splineParameters: [KeyframeMath.TCB] = []
        /// cubicPaced: where along the spline each progress is.
        var pacing: KeyframeSplinePacing?
        let path: KeyframePath?
        /// The value function the values feed (a transform key path with `valueFunction`).
        let function: ValueFunction?

        init(values: [AnimatedValue], keyTimes: [Double], path: KeyframePath? = nil, function: ValueFunction? = nil) {
            self.values = values
            self.keyTimes = keyTimes
            self.path = path
            self.function = function
        }
    }

    func prepare() {
        prepared = makePrepared()
    }

    private func makePrepared() -> Prepared? {
        guard let property else { return nil }
        if let path, property.kind == .point {
            guard let along = KeyframePath(PathMeasure(path.path), mode: calculationMode,
                                           keyTimes: keyTimes?.map(\.doubleValue))
            else { return nil }
            return Prepared(values: [], keyTimes: [], path: along)
        }
        let function = transformFunction
        let given = values ?? []
        let converted = given.compactMap { value in function.map { $0.input(value) } ?? property.kind.convert(value) }
        guard !converted.isEmpty, converted.count == given.count else { return nil }
        let prepared = Prepared(values: converted, keyTimes: Self.keyTimes(
            keyTimes?.map(\.doubleValue), count: converted.count, mode: calculationMode, values: converted),
            function: function)
        if calculationMode == .cubic || calculationMode == .cubicPaced {
            prepared.splineParameters = KeyframeSpline.parameters(
                count: converted.count, tension: tensionValues, continuity: continuityValues, bias: biasValues)
            if calculationMode == .cubicPaced {
                prepared.pacing = KeyframeSplinePacing(values: converted, parameters: prepared.splineParameters)
            }
        }
        return prepared
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
        return validKeyTimes(given, counts: mode == .discrete ? [n, n + 1] : [n])
            ?? evenKeyTimes(count: n, discrete: mode == .discrete)
    }

    /// `given` when it has one of `counts` entries, each finite in 0...1, none smaller than the one before.
    static func validKeyTimes(_ given: [Double]?, counts: [Int]) -> [Double]? {
        guard let given, counts.contains(given.count),
            given.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }), zip(given, given.dropFirst()).allSatisfy({ $0 <= $1 })
        else { return nil }
        return given
    }

    /// Evenly spaced key times for n keyframes: k / (n - 1); discrete: the n + 1 times k / n.
    static func evenKeyTimes(count n: Int, discrete: Bool) -> [Double] {
        if discrete { return (0...n).map { Double($0) / Double(n) } }
        return (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
    }

    override func value(at phase: MediaTiming.Phase, eased p: Double, property: AnimatableProperty,
                        base: AnimatedValue, model: () -> AnimatedValue)
        -> (value: AnimatedValue, cycleStep: AnimatedValue?)? {
        guard let prepared = prepared ?? makePrepared() else { return nil }
        if let along = prepared.path {
            let point = along.position(at: p, timingFunctions: timingFunctions).point
            let start = along.vertices[0].point, end = along.vertices[along.vertices.count - 1].point
            return (.point(point), .point(CGPoint(x: end.x - start.x, y: end.y - start.y)))
        }
        let values = prepared.values
        let step = isCumulative && phase.iteration > 0
            ? AnimatedValue.subtract(values[values.count - 1], values[0]) : nil
        var value = interpolated(prepared, at: p)
        if let function = prepared.function {
            // Numbers are interpolated, then turned into the transform; a cumulative step is one in numbers too.
            if let step { value = AnimatedValue.add(value, step, times: phase.iteration) }
            return (.transform(function.transform(value)), nil)
        }
        return (value, step)
    }

    override func nodeTrack(model: NodePlacement, lists: inout NodeTrackLists) -> ResolvedNodeTrack? {
        // Numbers and points along linear, paced or discrete keyframes: `interpolated`'s arithmetic, in NodeTrack.
        guard type(of: self) == KeyframeAnimation.self, let property, property.get(model) != nil, !isAdditive,
            !isCumulative, path == nil, calculationMode == .linear || calculationMode == .paced
                || calculationMode == .discrete,
            let prepared = prepared ?? makePrepared(), prepared.path == nil, prepared.function == nil,
            case .vector(_, let count)? = prepared.values.first,
            let added = lists.add(values: prepared.values, keyTimes: prepared.keyTimes,
                                  functions: calculationMode == .paced ? nil : timingFunctions, count: count)
        else { return nil }
        return (property, count, .keyframes(NodeTrack.Keyframes(
            values: added.values, keyTimes: added.keyTimes, functions: added.functions,
            discrete: calculationMode == .discrete, function: timingFunction)))
    }

    /// The value at eased progress `p` from the prepared values.
    private func interpolated(_ prepared: Prepared, at p: Double) -> AnimatedValue {
        let values = prepared.values, times = prepared.keyTimes
        guard values.count > 1 else { return values[0] }
        switch calculationMode {
        case .discrete:
            // Value k from keyTimes[k]; the last from its key time to the end (and at p = 1).
            var k = 0
            while k + 1 < values.count, k + 1 < times.count, times[k + 1] <= p { k += 1 }
            return values[k]
        case .cubicPaced:
            let (k, local) = prepared.pacing?.segment(at: p) ?? KeyframeMath.segment(for: min(max(p, 0), 1), keyTimes: times)
            return KeyframeSpline.value(values, segment: min(max(k, 0), values.count - 2), local: local,
                                        parameters: prepared.splineParameters)
        case .linear, .paced, .cubic:
            let (index, raw) = KeyframeMath.segment(for: min(max(p, 0), 1), keyTimes: times)
            let k = min(max(index, 0), values.count - 2)
            var local = min(max(raw, 0), 1)
            if calculationMode != .paced, let functions = timingFunctions, k < functions.count {
                local = functions[k].evaluate(local)
            }
            if calculationMode == .cubic {
                return KeyframeSpline.value(values, segment: k, local: local, parameters: prepared.splineParameters)
            }
            return AnimatedValue.interpolate(values[k], values[k + 1], local)
        }
    }

    override func apply(to state: inout PresentedState, model: LayerState, time: Double) -> Bool {
        guard super.apply(to: &state, model: model, time: time) else { return false }
        if let turn = pathTurn(at: time) {
            state.state.transform = turn.concatenating(state.state.transform)
            state.contentChanged = true
        }
        return true
    }

    override func apply(to placement: inout NodePlacement, model: NodePlacement, time: Double) -> Bool {
        guard super.apply(to: &placement, model: model, time: time) else { return false }
        if let turn = pathTurn(at: time) { placement.transform = turn.concatenating(placement.transform) }
        return true
    }

    /// Along a path with a rotation mode, the turn to the path's tangent at `time`, put before the layer's
    /// transform; nil otherwise.
    private func pathTurn(at time: Double) -> Transform3D? {
        guard let rotationMode, let along = prepared?.path, let phase = timing.phase(parent: time) else { return nil }
        let eased = timingFunction?.evaluate(phase.progress) ?? phase.progress
        var angle = along.position(at: eased, timingFunctions: timingFunctions).angle
        if rotationMode == .rotateAutoReverse { angle += .pi }
        return Transform3D(rotationAngle: CGFloat(angle))
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

    override func nodeTrack(model: NodePlacement, lists: inout NodeTrackLists) -> ResolvedNodeTrack? {
        guard type(of: self) == SpringAnimation.self, let (property, from, to, count) = nodeEnds(model: model)
        else { return nil }
        return (property, count, .spring(from, to, solution))
    }

    override func value(at phase: MediaTiming.Phase, eased: Double, property: AnimatableProperty,
                        base: AnimatedValue, model: () -> AnimatedValue)
        -> (value: AnimatedValue, cycleStep: AnimatedValue?)? {
        let (from, to) = endpoints(property: property, base: base, model: model)
        let x = solution.displacement(at: phase.time)
        let step = isCumulative && phase.iteration > 0 ? AnimatedValue.subtract(to, from) : nil
        if let function = transformFunction {
            // The spring moves the value function's numbers, as BasicAnimation's interpolation does.
            var input = AnimatedValue.interpolate(from, to, 1 - x)
            if let step { input = AnimatedValue.add(input, step, times: phase.iteration) }
            return (.transform(function.transform(input)), nil)
        }
        return (AnimatedValue.interpolate(from, to, 1 - x), step)
    }
}
