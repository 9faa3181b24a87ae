import Foundation
import LaminaCore

/// `transform` and `sublayerTransform`: 16 numbers, or a list of steps (docs/scene-format.md, "A layer").
extension SceneLoader {
    private static let stepOperations = ["translate", "scale", "rotate", "perspective"]

    /// An empty array is the identity. An array that starts with a number is a matrix: 16 numbers, m11 m12
    /// ... m44 (CATransform3D's row-vector order, translation in m41 m42 m43). Otherwise each element is a
    /// step, composed in order as CATransform3DConcat(current, step): the first step applies first.
    func transform(_ value: JSONValue, _ path: String) -> Transform3D? {
        let expected = "16 numbers (m11 ... m44) or a list of steps such as [{\"rotate\": 45}]"
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: expected)
            return nil
        }
        guard let first = items.first else { return .identity }
        switch first.kind {
        case .number, .invalid:
            if items.count != 16 {
                var message = "expected \(expected), got \(items.count) numbers"
                if items.count == 6 { message += " (use \"affineTransform\" for [a, b, c, d, tx, ty])" }
                report(path, at: value.position, message)
                return nil
            }
            return numbers(value, path, counts: [16], shape: "(m11 ... m44)").flatMap { entries in
                Transform3D(entries.map { CGFloat($0) })
            }
        default:
            var result = Transform3D.identity
            var isValid = true
            for (index, item) in items.enumerated() {
                if let step = step(item, ScenePath.index(path, index)) {
                    result = result.concatenating(step)
                } else {
                    isValid = false
                }
            }
            return isValid ? result : nil
        }
    }

    /// One step object: exactly one operation, plus `axis` with `rotate`.
    private func step(_ value: JSONValue, _ path: String) -> Transform3D? {
        guard let members = members(value, path, expected: "a step such as {\"rotate\": 45}") else { return nil }
        let problemCount = problems.count
        let keys = knownMembers(members, path, known: SceneLoader.stepOperations + ["axis"])
        let operations = members.filter { SceneLoader.stepOperations.contains($0.key) && keys[$0.key] != nil }
        guard operations.count == 1, let operation = operations.first else {
            if operations.count > 1 {
                let names = operations.map { "\"\($0.key)\"" }.joined(separator: " and ")
                report(path, at: value.position, "a step has one operation, got \(names)")
            } else if problems.count == problemCount {
                // Only when the keys were not already reported as unknown (a misspelt operation).
                report(
                    path, at: value.position, "expected one of \"translate\", \"scale\", \"rotate\" or \"perspective\"")
            }
            return nil
        }
        let operationPath = ScenePath.key(path, operation.key)
        if let axis = keys["axis"], operation.key != "rotate" {
            report(ScenePath.key(path, "axis"), at: axis.keyPosition, "only allowed with \"rotate\"")
            return nil
        }
        switch operation.key {
        case "translate":
            guard let t = numbers(operation.value, operationPath, counts: [2, 3], shape: "[x, y] or [x, y, z]") else {
                return nil
            }
            return Transform3D(translationX: t[0], y: t[1], z: t.count == 3 ? t[2] : 0)
        case "scale":
            guard let s = numbers(operation.value, operationPath, counts: [2, 3], shape: "[sx, sy] or [sx, sy, sz]")
            else { return nil }
            return Transform3D(scaleX: s[0], y: s[1], z: s.count == 3 ? s[2] : 1)
        case "rotate":
            guard let degrees = number(operation.value, operationPath) else { return nil }
            var axis: [Double] = [0, 0, 1]
            if let member = keys["axis"] {
                let axisPath = ScenePath.key(path, "axis")
                guard let numbers = numbers(member.value, axisPath, counts: [3], shape: "[x, y, z]") else { return nil }
                guard numbers.contains(where: { $0 != 0 }) else {
                    report(axisPath, at: member.value.position, "must not be [0, 0, 0]")
                    return nil
                }
                axis = numbers
            }
            // Transform3D(rotationAngle:) already turns clockwise on the y-down screen for positive angles.
            // Reduced to one turn first (exactly), so that no angle overflows on its way to radians.
            let turn = degrees.truncatingRemainder(dividingBy: 360)
            return Transform3D(rotationAngle: turn * .pi / 180, x: axis[0], y: axis[1], z: axis[2])
        default:
            guard let distance = positiveNumber(operation.value, operationPath, note: " (the eye's distance in points)")
            else { return nil }
            return Transform3D(perspectiveDistance: distance)
        }
    }
}
