import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// `valueFunction` on basic, spring and keyframe animations, and the cubic modes' `tensionValues`,
/// `continuityValues` and `biasValues` (docs/scene-format.md, "Animations").
extension SceneLoader {
    static let splineParameterKeys = ["tensionValues", "continuityValues", "biasValues"]

    /// `valueFunction`: nil when absent; .some(nil) after reporting a problem (an unknown name, or a key path
    /// whose values are not transforms).
    func valueFunction(_ keys: [String: JSONMember], _ path: String, keyPath: String, form: AnimatedValueForm)
        -> ValueFunction??
    {
        guard let member = keys["valueFunction"] else { return nil }
        let functionPath = ScenePath.key(path, "valueFunction")
        guard let name = choice(member.value, functionPath, what: "value function",
                                options: ValueFunction.Name.allCases.map { ($0.rawValue, $0) })
        else { return .some(nil) }
        guard form == .transform else {
            report(functionPath, at: member.keyPosition, "a value function makes a transform: the keyPath must be "
                   + "\"transform\", \"sublayerTransform\" or \"instanceTransform\", not \(ScenePath.quoted(keyPath))")
            return .some(nil)
        }
        return .some(ValueFunction(name: name))
    }

    /// One value of an animation with a value function, as the function takes it: rotations a number of radians
    /// (as Core Animation's value functions take them; positive turns clockwise on screen), the single-axis scales and
    /// translations a number, `scale` and `translate` [x, y, z] or one number for all three.
    func valueFunctionInput(_ value: JSONValue, _ path: String, function: ValueFunction) -> Any? {
        let name = function.name
        switch name {
        case .rotateX, .rotateY, .rotateZ:
            // Radians, as Core Animation's value functions take them (unlike the `rotate` step and the
            // `transform.rotation` sub-paths, whose file values are degrees).
            guard case .number(let radians) = value.kind else {
                typeMismatch(value, path, expected: "a number of radians (\(name.rawValue) turns by it)")
                return nil
            }
            return radians
        case .scaleX, .scaleY, .scaleZ, .translateX, .translateY, .translateZ:
            guard case .number(let number) = value.kind else {
                typeMismatch(value, path, expected: "a number (\(name.rawValue) takes one)")
                return nil
            }
            return number
        case .scale, .translate:
            if case .number(let number) = value.kind { return number }
            guard case .array = value.kind else {
                typeMismatch(value, path, expected: "[x, y, z] or one number for all three (\(name.rawValue) takes "
                             + "three)")
                return nil
            }
            return numbers(value, path, counts: [3], shape: "[x, y, z]")
        }
    }

    /// An animation's value: with a value function, its input; else as the key path's form.
    func animationValue(_ value: JSONValue, _ path: String, form: AnimatedValueForm, function: ValueFunction?) -> Any? {
        if let function { return valueFunctionInput(value, path, function: function) }
        return animatedValue(value, path, form: form)
    }

    /// `tensionValues`, `continuityValues` and `biasValues`: numbers, at most one per value, only in the cubic
    /// calculation modes and not with `path` (a path follows its own curves). `count`: the number of values (nil:
    /// not checked).
    func readSplineParameters(_ animation: KeyframeAnimation, _ keys: [String: JSONMember], _ path: String,
                              count: Int?)
    {
        // A calculationMode that was itself wrong (already reported) says nothing about these keys.
        var modeIsKnown = true
        if let member = keys["calculationMode"] {
            if case .string(let text) = member.value.kind {
                modeIsKnown = KeyframeAnimation.CalculationMode(rawValue: text) != nil
            } else {
                modeIsKnown = false
            }
        }
        for name in SceneLoader.splineParameterKeys {
            guard let member = keys[name] else { continue }
            let listPath = ScenePath.key(path, name)
            guard case .array(let items) = member.value.kind else {
                typeMismatch(member.value, listPath, expected: "an array of numbers (one per value)")
                continue
            }
            let list = items.enumerated().compactMap { number($1, ScenePath.index(listPath, $0)) }
            guard list.count == items.count else { continue }
            if keys["path"] != nil {
                report(listPath, at: member.keyPosition,
                       "a path follows its own curves: \(name) shape the spline through \"values\"")
            } else if modeIsKnown, animation.calculationMode != .cubic, animation.calculationMode != .cubicPaced {
                report(listPath, at: member.keyPosition, "only used by the cubic calculation modes (\"cubic\", "
                       + "\"cubicPaced\"); calculationMode is \"\(animation.calculationMode.rawValue)\"")
            } else if let count, items.count > count {
                report(listPath, at: member.value.position,
                       "expected at most \(count) number\(count == 1 ? "" : "s") (one per value), got \(items.count)")
            } else {
                let numbers = list.map { NSNumber(value: $0) }
                switch name {
                case "tensionValues": animation.tensionValues = numbers
                case "continuityValues": animation.continuityValues = numbers
                default: animation.biasValues = numbers
                }
            }
        }
    }
}
