import Foundation
import LaminaCore

/// Readers for the value types of docs/scene-format.md, "A layer". Each returns nil after reporting a problem (or
/// silently for a value the parser already reported), so callers only decide what to do with a good value.
extension SceneLoader {
    func number(_ value: JSONValue, _ path: String) -> Double? {
        if case .number(let number) = value.kind { return number }
        typeMismatch(value, path, expected: "a number")
        return nil
    }

    /// A number > 0; `must be a positive number` otherwise.
    func positiveNumber(_ value: JSONValue, _ path: String, note: String = "") -> Double? {
        guard let number = number(value, path) else { return nil }
        guard number > 0 else {
            report(path, at: value.position, "must be a positive number" + note)
            return nil
        }
        return number
    }

    func bool(_ value: JSONValue, _ path: String) -> Bool? {
        if case .bool(let bool) = value.kind { return bool }
        typeMismatch(value, path, expected: "true or false")
        return nil
    }

    func string(_ value: JSONValue, _ path: String) -> String? {
        if case .string(let string) = value.kind { return string }
        typeMismatch(value, path, expected: "a string")
        return nil
    }

    /// An array of numbers whose length is one of `counts`; `shape` names the elements for messages
    /// (`expected 2 numbers [width, height], got 3`). Every non-number element is reported at its own place.
    func numbers(_ value: JSONValue, _ path: String, counts: [Int], shape: String) -> [Double]? {
        let expected = counts.map(String.init).joined(separator: " or ") + " numbers " + shape
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: expected)
            return nil
        }
        guard counts.contains(items.count) else {
            report(path, at: value.position, "expected \(expected), got \(items.count)")
            return nil
        }
        var numbers: [Double] = []
        for (index, item) in items.enumerated() {
            if let number = number(item, ScenePath.index(path, index)) { numbers.append(number) }
        }
        return numbers.count == items.count ? numbers : nil
    }

    /// `[x, y]`.
    func point(_ value: JSONValue, _ path: String) -> CGPoint? {
        guard let numbers = numbers(value, path, counts: [2], shape: "[x, y]") else { return nil }
        return CGPoint(x: numbers[0], y: numbers[1])
    }

    /// `[x, y, width, height]`; a negative width or height is an error (a rectangle is never guessed to be
    /// standardized).
    func rect(_ value: JSONValue, _ path: String) -> CGRect? {
        guard let numbers = numbers(value, path, counts: [4], shape: "[x, y, width, height]") else { return nil }
        var isValid = true
        for (number, name) in zip(numbers[2...], ["width", "height"]) where number < 0 {
            report(path, at: value.position, "\(name) must not be negative")
            isValid = false
        }
        return isValid ? CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]) : nil
    }

    /// "#RRGGBB", "#RRGGBBAA" (straight alpha) or [r, g, b, a] with components in 0...1; nothing else, so
    /// that a typo is never read as some other colour.
    func color(_ value: JSONValue, _ path: String) -> Color? {
        let expected = "expected a colour: \"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a] with numbers in 0...1"
        switch value.kind {
        case .string(let text):
            let digits = text.dropFirst()
            if text.hasPrefix("#"), digits.count == 6 || digits.count == 8,
                digits.allSatisfy({ $0.isASCII && $0.isHexDigit }), let color = Color(hex: text)
            {
                return color
            }
            report(path, at: value.position, "\(expected), got \(ScenePath.quoted(text))")
        case .array(let items):
            let numbers = items.compactMap { item -> Double? in
                if case .number(let number) = item.kind { return number }
                return nil
            }
            if items.contains(where: \.isInvalid) { return nil }
            if numbers.count == 4, items.count == 4, numbers.allSatisfy({ (0...1).contains($0) }) {
                return Color(red: numbers[0], green: numbers[1], blue: numbers[2], alpha: numbers[3])
            }
            let got =
                numbers.count == items.count
                ? "[" + numbers.map(format).joined(separator: ", ") + "]" : "an array of \(items.count) items"
            report(path, at: value.position, "\(expected), got \(got)")
        case .invalid:
            break
        default:
            report(path, at: value.position, "\(expected), got \(value.typeDescription)")
        }
        return nil
    }

    /// A number as people write it: `1000000000`, `0.5`, `1e+20`.
    func format(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return "\(number)"
    }

    func format(_ number: CGFloat) -> String { format(Double(number)) }
}
