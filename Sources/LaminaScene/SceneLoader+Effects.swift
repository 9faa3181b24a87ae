import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// maskedCorners and shadowPath (docs/scene-format.md, "A layer"); the other corner and shadow keys are plain.
extension SceneLoader {
    /// The names `maskedCorners` takes: Lamina's short names and Core Animation's constants.
    static let cornerNames: [(String, String, CornerMask)] = [
        ("topLeft", "layerMinXMinYCorner", .layerMinXMinYCorner),
        ("topRight", "layerMaxXMinYCorner", .layerMaxXMinYCorner),
        ("bottomLeft", "layerMinXMaxYCorner", .layerMinXMaxYCorner),
        ("bottomRight", "layerMaxXMaxYCorner", .layerMaxXMaxYCorner),
    ]

    /// Path steps allowed in `shadowPath`.
    static let pathOperations = [
        "moveTo", "lineTo", "curveTo", "quadTo", "arc", "closePath", "rect", "ellipse", "roundedRect",
    ]

    func readEffects(_ layer: Layer, keys: [String: JSONMember], path: String) {
        if let member = keys["maskedCorners"] {
            layer.maskedCorners = corners(member.value, ScenePath.key(path, "maskedCorners")) ?? layer.maskedCorners
        }
        if let member = keys["shadowPath"] {
            let shadowPath = ScenePath.key(path, "shadowPath")
            if let steps = drawingSteps(member.value, shadowPath) {
                layer.shadowPath = self.path(steps, value: member.value, path: shadowPath, bounds: layer.bounds)?.cgPath
            }
        }
    }

    private func corners(_ value: JSONValue, _ path: String) -> CornerMask? {
        let names = SceneLoader.cornerNames.map(\.0)
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: "an array of corner names such as [\"topLeft\", \"topRight\"]")
            return nil
        }
        var mask: CornerMask = []
        var isValid = true
        for (index, item) in items.enumerated() {
            let itemPath = ScenePath.index(path, index)
            guard let name = string(item, itemPath) else {
                isValid = false
                continue
            }
            if let corner = SceneLoader.cornerNames.first(where: { $0.0 == name || $0.1 == name }) {
                mask.insert(corner.2)
            } else {
                isValid = false
                let all = names + SceneLoader.cornerNames.map(\.1)
                if let suggestion = Suggestion.closest(to: name, in: all) {
                    report(itemPath, at: item.position,
                           "unknown corner \(ScenePath.quoted(name)) (did you mean \"\(suggestion)\"?)")
                } else {
                    report(itemPath, at: item.position, "unknown corner \(ScenePath.quoted(name)) (expected "
                        + SceneLoader.listing(names.map { "\"\($0)\"" }) + ")")
                }
            }
        }
        return isValid ? mask : nil
    }

    /// The path the steps describe; painting and state steps are errors here.
    func path(_ steps: [SceneDrawing.Step], value: JSONValue, path: String, bounds: CGRect) -> Path? {
        guard case .array(let items) = value.kind else { return nil }
        var elements: [Path.Element] = []
        var isValid = true
        for (index, step) in steps.enumerated() {
            if let element = step.pathElement(in: bounds) {
                elements.append(element)
                continue
            }
            isValid = false
            let item = items[index]
            let name: String
            if case .object(let members) = item.kind, let first = members.first(where: {
                SceneLoader.drawingOperations.contains($0.key)
            }) { name = first.key } else { name = "step" }
            report(ScenePath.index(path, index), at: item.position,
                   "\"\(name)\" is not a path step (a shadowPath takes "
                    + SceneLoader.listing(SceneLoader.pathOperations.map { "\"\($0)\"" }) + ")")
        }
        guard isValid else { return nil }
        if elements.isEmpty { report(path, at: value.position, "is empty (give at least one path step)") }
        return elements.isEmpty ? nil : Path(elements)
    }
}
