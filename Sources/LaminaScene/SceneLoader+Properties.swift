import Foundation
import LaminaCore
import LaminaLayers

/// The plain layer keys: every property of the table (LayerProperties.swift) with a scene key of a standard form is
/// read here by its form, and copied by the timeline through the table (docs/scene-format.md, "A layer").
extension SceneLoader {
    /// The table's properties this file reads (the others with a scene key are `.custom`: read by code of their own).
    static let plainProperties: [LayerProperty] = LayerProperty.all.filter {
        $0.sceneForm != nil && $0.sceneForm != .custom
    }

    /// Reads every plain key present, in the table's order, and sets it on `layer`.
    func readPlainProperties(_ layer: Layer, keys: [String: JSONMember], path: String) {
        for property in SceneLoader.plainProperties {
            guard let key = property.sceneKey, let form = property.sceneForm, let member = keys[key] else { continue }
            if let value = sceneValue(member.value, ScenePath.key(path, key), form: form) {
                _ = layer.setProperty(property, sceneValue: value)
            }
        }
    }

    /// Copies a plain key's property from `source` to `target`; false for a key of another kind.
    static func copyPlain(_ key: String, from source: Layer, to target: Layer) -> Bool {
        guard let property = LayerProperty.byKey[key], property.sceneForm != nil, property.sceneForm != .custom else {
            return false
        }
        target.copyProperty(property, from: source)
        return true
    }

    /// `value` read in `form`; nil (with the problem reported) when it is not one.
    private func sceneValue(_ value: JSONValue, _ path: String, form: SceneForm) -> SceneValue? {
        switch form {
        case .flag: return bool(value, path).map(SceneValue.flag)
        case .number: return number(value, path).map(SceneValue.number)
        case .nonNegativeNumber: return nonNegativeNumber(value, path).map(SceneValue.number)
        case .positiveNumber: return positiveNumber(value, path).map(SceneValue.number)
        case .floatNumber: return floatNumber(value, path).map { SceneValue.number(Double($0)) }
        case .unitNumber:
            guard let number = number(value, path) else { return nil }
            guard (0...1).contains(number) else {
                report(path, at: value.position, "must be between 0 and 1")
                return nil
            }
            return .number(number)
        case .point: return point(value, path).map(SceneValue.point)
        case .size:
            return numbers(value, path, counts: [2], shape: "[dx, dy]").map {
                SceneValue.size(CGSize(width: $0[0], height: $0[1]))
            }
        case .rect: return rect(value, path).map(SceneValue.rect)
        case .color: return color(value, path).map(SceneValue.color)
        case .transform: return transform(value, path).map(SceneValue.transform)
        case .string: return string(value, path).map(SceneValue.string)
        case .choice(let names): return choice(value, path, names: names).map(SceneValue.string)
        case .options(let names): return options(value, path, names: names).map(SceneValue.options)
        case .standard, .custom: return nil
        }
    }

    /// One of `names`.
    private func choice(_ value: JSONValue, _ path: String, names: [String]) -> String? {
        guard let name = string(value, path) else { return nil }
        if names.contains(name) { return name }
        reportUnknown(name, value: value, path: path, names: names)
        return nil
    }

    /// A list of `names` (each at most once is not required): bit i for names[i].
    private func options(_ value: JSONValue, _ path: String, names: [String]) -> UInt? {
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: "an array of names such as [\"\(names.first ?? "")\"]")
            return nil
        }
        var bits: UInt = 0
        var isValid = true
        for (index, item) in items.enumerated() {
            let itemPath = ScenePath.index(path, index)
            guard let name = string(item, itemPath) else {
                isValid = false
                continue
            }
            if let bit = names.firstIndex(of: name) {
                bits |= 1 << UInt(bit)
            } else {
                isValid = false
                reportUnknown(name, value: item, path: itemPath, names: names)
            }
        }
        return isValid ? bits : nil
    }

    private func reportUnknown(_ name: String, value: JSONValue, path: String, names: [String]) {
        if let suggestion = Suggestion.closest(to: name, in: names) {
            report(path, at: value.position, "unknown value \(ScenePath.quoted(name)) (did you mean \"\(suggestion)\"?)")
        } else {
            report(path, at: value.position, "unknown value \(ScenePath.quoted(name)) (expected "
                + SceneLoader.listing(names.map { "\"\($0)\"" }) + ")")
        }
    }
}
