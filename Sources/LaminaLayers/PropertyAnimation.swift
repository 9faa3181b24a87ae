import Foundation
import LaminaCore

/// Core Animation's CAPropertyAnimation: an animation of one key path of a layer (`"position"`,
/// `"transform.rotation.z"`, ...; the list is in docs/animation.md, "Key paths").
open class PropertyAnimation: Animation, @unchecked Sendable {
    /// The animated key path; nil or one that is not animatable: the animation does nothing.
    public var keyPath: String?
    /// true: the animated value is added to the value below it (the model's, or what earlier animations made).
    public var isAdditive = false
    /// true: each repetition starts where the previous one ended.
    public var isCumulative = false
    /// Turns the interpolated numbers into the transform shown (CAValueFunction), for a transform key path; nil:
    /// the values are transforms.
    public var valueFunction: ValueFunction?

    /// Resolved once when the layer's copy is made, so frames do not look the key path up.
    var property: AnimatableProperty?

    public init(keyPath: String?) {
        self.keyPath = keyPath
        super.init()
    }

    public override init() {
        super.init()
    }

    open override func copy() -> Animation {
        let copy = PropertyAnimation(keyPath: keyPath)
        copy.copyPropertyAnimation(from: self)
        return copy
    }

    /// Copies what every property animation has; subclasses' `copy()` call it.
    public func copyPropertyAnimation(from other: PropertyAnimation) {
        copyAnimationProperties(from: other)
        keyPath = other.keyPath
        isAdditive = other.isAdditive
        isCumulative = other.isCumulative
        valueFunction = other.valueFunction
        property = other.keyPath.flatMap(AnimatableProperty.named)
    }

    /// The animation's value at `phase` (and the value a whole cycle moves by, for cumulative animations), with
    /// `base` the value of the key path without this animation. nil: no effect. Subclasses override it.
    /// `model` gives the property's model value (the committed one), read only where the ends need it.
    func value(at phase: MediaTiming.Phase, eased: Double, property: AnimatableProperty, base: AnimatedValue,
               model: () -> AnimatedValue) -> (value: AnimatedValue, cycleStep: AnimatedValue?)? {
        nil
    }

    /// The animation resolved for a node whose committed values are `model` (NodeTrack.swift), its keyframes added
    /// to `lists`; nil when it must apply itself. Only the exact classes that override this resolve: a subclass
    /// made elsewhere keeps its own evaluation.
    func nodeTrack(model: NodePlacement, lists: inout NodeTrackLists) -> ResolvedNodeTrack? { nil }

    /// The value function, when the key path is a transform one (it is ignored on others).
    var transformFunction: ValueFunction? {
        guard let valueFunction, property?.kind == .transform else { return nil }
        return valueFunction
    }

    /// Whether the timing function applies (springs run on time, not eased progress).
    var usesTimingFunction: Bool { true }

    override func apply(to state: inout PresentedState, model: LayerState, time: Double) -> Bool {
        guard let property,
            let value = presentedValue(property: property, base: property.get(state.state), time: time,
                                       model: { property.get(model) })
        else { return false }
        state.write(value, to: property)
        return true
    }

    override func apply(to placement: inout NodePlacement, model: NodePlacement, time: Double) -> Bool {
        guard let property, let base = property.get(placement),
            let value = presentedValue(property: property, base: base, time: time,
                                       model: { property.get(model) ?? base })
        else { return false }
        property.set(&placement, value)
        return true
    }

    /// The value shown at `time` over `base` (the value below): the value at the phase, with the cycles of a
    /// cumulative animation and the base of an additive one added; nil when the animation has no effect then.
    private func presentedValue(property: AnimatableProperty, base: AnimatedValue, time: Double,
                                model: () -> AnimatedValue) -> AnimatedValue? {
        guard let phase = timing.phase(parent: time) else { return nil }
        let eased = usesTimingFunction ? (timingFunction?.evaluate(phase.progress) ?? phase.progress) : phase.progress
        guard let result = value(at: phase, eased: eased, property: property, base: base, model: model)
        else { return nil }
        var value = result.value
        if isCumulative, phase.iteration > 0, let step = result.cycleStep {
            value = AnimatedValue.add(value, step, times: phase.iteration)
        }
        if isAdditive { value = AnimatedValue.add(base, value) }
        return value
    }
}

/// Core Animation's CABasicAnimation: from one value to another (docs/animation.md, "Values").
///
/// With `fromValue`, `toValue` and `byValue` (each `Any?`, of the key path's type: a number, `CGPoint`, `CGSize`,
/// `CGRect`, `Color`, `Transform3D`, `Image` or `Bool`): from+to; from+by (to = from + by); by+to (from = to - by);
/// from only (to = the model value); to only (from = the model value); by only (the model value to it + by); none
/// (the value below to the model value: what implicit animations use).
open class BasicAnimation: PropertyAnimation, @unchecked Sendable {
    public var fromValue: Any?
    public var toValue: Any?
    public var byValue: Any?

    open override func copy() -> Animation {
        let copy = BasicAnimation(keyPath: keyPath)
        copy.copyBasicAnimation(from: self)
        return copy
    }

    public func copyBasicAnimation(from other: BasicAnimation) {
        copyPropertyAnimation(from: other)
        fromValue = other.fromValue
        toValue = other.toValue
        byValue = other.byValue
        converted = nil
        decomposedEnds = nil
    }

    /// The values converted to the key path's kind (once, for the layer's copy).
    private var converted: ConvertedValues?

    /// A class, read by every frame and never changed: a tuple of three optional values copied each of them.
    private final class ConvertedValues {
        let from: AnimatedValue?
        let to: AnimatedValue?
        let by: AnimatedValue?

        init(_ from: AnimatedValue?, _ to: AnimatedValue?, _ by: AnimatedValue?) {
            (self.from, self.to, self.by) = (from, to, by)
        }
    }

    /// Converts the values once; called when the layer's copy is attached (frames then only read them).
    func prepare() {
        converted = convertedValues()
        // Two given transforms are decomposed once, not at every frame.
        if case .transform(let a)? = converted?.from, case .transform(let b)? = converted?.to, a != b,
            let da = DecomposedTransform3D(a), let db = DecomposedTransform3D(b)
        {
            decomposedEnds = (da, db)
        }
    }

    /// The decompositions of a given from and to transform (BasicAnimation interpolates between them).
    private var decomposedEnds: (DecomposedTransform3D, DecomposedTransform3D)?

    private func convertedValues() -> ConvertedValues {
        if let function = transformFunction {
            return ConvertedValues(fromValue.flatMap(function.input), toValue.flatMap(function.input),
                                   byValue.flatMap(function.input))
        }
        guard let kind = property?.kind else { return ConvertedValues(nil, nil, nil) }
        return ConvertedValues(fromValue.flatMap { kind.convert($0) }, toValue.flatMap { kind.convert($0) },
                               byValue.flatMap { kind.convert($0) })
    }

    /// With no value given, the animation runs from the value the layer shows when it is attached (its presentation,
    /// `presented`) to the model value: what implicit animations do.
    func fillPreviousValue(from presented: LayerState) {
        guard fromValue == nil, toValue == nil, byValue == nil, transformFunction == nil, let property else { return }
        converted = ConvertedValues(property.get(presented), nil, nil)
    }

    /// The two ends at this frame: `base` (the value below) and the model's value fill what is not given.
    func endpoints(property: AnimatableProperty, base: AnimatedValue, model: () -> AnimatedValue)
        -> (from: AnimatedValue, to: AnimatedValue)
    {
        let values = converted ?? convertedValues()
        // With a value function the ends are its inputs; a missing one is the function's identity input.
        var modelValue: AnimatedValue { transformFunction?.identityInput ?? model() }
        switch (values.from, values.to, values.by) {
        case (let from?, let to?, _): return (from, to)
        case (let from?, nil, let by?): return (from, AnimatedValue.add(from, by))
        case (nil, let to?, let by?): return (AnimatedValue.subtract(to, by), to)
        case (let from?, nil, nil): return (from, modelValue)
        case (nil, let to?, nil): return (modelValue, to)
        case (nil, nil, let by?):
            let modelValue = modelValue
            return (modelValue, AnimatedValue.add(modelValue, by))
        case (nil, nil, nil):
            if transformFunction == nil { return (base, modelValue) }
            let modelValue = modelValue
            return (modelValue, modelValue)
        }
    }

    override func nodeTrack(model: NodePlacement, lists: inout NodeTrackLists) -> ResolvedNodeTrack? {
        guard type(of: self) == BasicAnimation.self, let (property, from, to, count) = nodeEnds(model: model)
        else { return nil }
        return (property, count, .between(from, to, timingFunction))
    }

    /// The ends of an animation of a number or a point on a node whose committed values are `model`, as every frame
    /// would work them out; nil when they depend on the value below it (no value given), or the animation is
    /// additive, cumulative or of a transform.
    func nodeEnds(model: NodePlacement) -> (AnimatableProperty, SIMD4<Double>, SIMD4<Double>, Int)? {
        guard let property, !isAdditive, !isCumulative, transformFunction == nil, decomposedEnds == nil,
            let modelValue = property.get(model)
        else { return nil }
        let values = converted ?? convertedValues()
        guard values.from != nil || values.to != nil || values.by != nil else { return nil }
        // The value below is read only when no value is given.
        let (from, to) = endpoints(property: property, base: modelValue, model: { modelValue })
        guard case .vector(let a, let n) = from, case .vector(let b, let m) = to, n == m else { return nil }
        return (property, a, b, n)
    }

    override func value(at phase: MediaTiming.Phase, eased: Double, property: AnimatableProperty,
                        base: AnimatedValue, model: () -> AnimatedValue)
        -> (value: AnimatedValue, cycleStep: AnimatedValue?)? {
        let (from, to) = endpoints(property: property, base: base, model: model)
        // The step of a cycle only where a cumulative animation is past its first.
        let step = isCumulative && phase.iteration > 0 ? AnimatedValue.subtract(to, from) : nil
        if let function = transformFunction {
            // Numbers are interpolated, then turned into the transform; a cumulative step is one in numbers too.
            var input = AnimatedValue.interpolate(from, to, eased)
            if let step, phase.iteration > 0 { input = AnimatedValue.add(input, step, times: phase.iteration) }
            return (.transform(function.transform(input)), nil)
        }
        if let (a, b) = decomposedEnds, eased != 0, eased != 1, eased.isFinite {
            return (.transform(a.interpolated(to: b, eased).matrix), step)
        }
        return (AnimatedValue.interpolate(from, to, eased), step)
    }
}
