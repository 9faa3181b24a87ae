import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// A layer's `draw` steps (docs/scene-format.md, "Drawing steps") and `needsDisplayOnBoundsChange`.
///
/// Every step is checked now, images included, so that a scene whose drawing cannot run is rejected before
/// anything is rendered; what is left for drawing time is only `"bounds"`, the layer's bounds then.
extension SceneLoader {
    /// The operations in the order of docs/scene-format.md, "Drawing steps" (suggestions prefer the earlier of two
    /// equally close names).
    static let drawingOperations = [
        "save", "restore", "translate", "scale", "rotate", "lineWidth", "lineCap", "lineJoin", "dash",
        "fillColor", "strokeColor", "moveTo", "lineTo", "curveTo", "quadTo", "arc", "closePath", "rect",
        "ellipse", "roundedRect", "fill", "stroke", "clip", "fillRect", "strokeRect", "fillEllipse",
        "strokeEllipse", "image", "text",
    ]

    /// The other keys a step may carry, by operation. ("rect" is an operation too; beside "image" it is the
    /// image's rectangle.)
    private static let drawingArguments = ["arc": ["clockwise"], "image": ["rect"], "text": ["at", "size", "font"]]

    private static let shapeOfRect = "4 numbers [x, y, width, height] or \"bounds\""

    /// `draw` and `needsDisplayOnBoundsChange` of the layer at `path`.
    func readDrawing(_ layer: Layer, keys: [String: JSONMember], path: String) {
        if let member = keys["needsDisplayOnBoundsChange"],
            let flag = bool(member.value, ScenePath.key(path, "needsDisplayOnBoundsChange"))
        {
            layer.needsDisplayOnBoundsChange = flag
        }
        guard let member = keys["draw"] else { return }
        let drawPath = ScenePath.key(path, "draw")
        if keys["contents"] != nil {
            report(
                drawPath, at: member.keyPosition,
                "may not be combined with \"contents\" (the drawing steps make the layer's contents)")
        }
        guard let steps = drawingSteps(member.value, drawPath) else { return }
        layer.ownedDelegate = SceneDrawing(steps: steps)
        layer.setNeedsDisplay()
    }

    /// The steps of a `draw` array; nil when any is wrong (each problem reported).
    func drawingSteps(_ value: JSONValue, _ path: String) -> [SceneDrawing.Step]? {
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: "an array of drawing steps such as [{\"fillRect\": \"bounds\"}]")
            return nil
        }
        var steps: [SceneDrawing.Step] = []
        var isValid = true
        for (index, item) in items.enumerated() {
            if let step = drawingStep(item, ScenePath.index(path, index)) {
                steps.append(step)
            } else {
                isValid = false
            }
        }
        return isValid ? steps : nil
    }

    /// One step object: one operation key, plus the arguments that operation takes.
    private func drawingStep(_ value: JSONValue, _ path: String) -> SceneDrawing.Step? {
        let expected = "a drawing step such as {\"fillRect\": \"bounds\"}"
        guard let allMembers = members(value, path, expected: expected) else { return nil }
        // The parser has reported duplicate keys; the first of each is the one read.
        var seen = Set<String>()
        let members = allMembers.filter { seen.insert($0.key).inserted }
        guard !members.isEmpty else {
            report(path, at: value.position, "expected \(expected), got an empty object")
            return nil
        }
        let operations = SceneLoader.drawingOperations
        let arguments = Set(SceneLoader.drawingArguments.values.joined())
        var named = members.filter { operations.contains($0.key) }
        if named.contains(where: { $0.key == "image" }) { named.removeAll { $0.key == "rect" } }

        guard named.count == 1, let operation = named.first else {
            if named.count > 1 {
                let names = named.map { "\"\($0.key)\"" }.joined(separator: " and ")
                report(path, at: value.position, "a step has one operation, got \(names)")
            }
            var reportedUnknown = false
            for member in members where !operations.contains(member.key) && !arguments.contains(member.key) {
                reportedUnknown = true
                if named.isEmpty {
                    var message = "unknown drawing operation \(ScenePath.quoted(member.key))"
                    if let suggestion = SceneLoader.suggestedOperation(for: member.key) {
                        message += " (did you mean \"\(suggestion)\"?)"
                    }
                    report(path, at: member.keyPosition, message)
                } else {
                    report(ScenePath.key(path, member.key), at: member.keyPosition, "unknown key")
                }
            }
            if named.isEmpty, !reportedUnknown, let argument = members.first {
                let owner = SceneLoader.drawingArguments.first { $0.value.contains(argument.key) }?.key ?? ""
                report(
                    path, at: value.position,
                    "no drawing operation (\"\(argument.key)\" goes with \"\(owner)\")")
            }
            return nil
        }

        let allowed = SceneLoader.drawingArguments[operation.key] ?? []
        var given: [String: JSONMember] = [:]
        for member in members where member.key != operation.key {
            let memberPath = ScenePath.key(path, member.key)
            if allowed.contains(member.key) {
                given[member.key] = member
            } else if let owner = SceneLoader.drawingArguments.first(where: { $0.value.contains(member.key) })?.key {
                report(memberPath, at: member.keyPosition, "only allowed with \"\(owner)\"")
            } else if let suggestion = Suggestion.closest(to: member.key, in: allowed + operations) {
                report(memberPath, at: member.keyPosition, "unknown key (did you mean \"\(suggestion)\"?)")
            } else if allowed.isEmpty {
                report(memberPath, at: member.keyPosition, "unknown key (\"\(operation.key)\" takes no other keys)")
            } else {
                let list = allowed.map { "\"\($0)\"" }
                report(
                    memberPath, at: member.keyPosition,
                    "unknown key (\"\(operation.key)\" takes \(SceneLoader.listing(list, conjunction: "and")))")
            }
        }
        return drawingOperation(operation, arguments: given, stepValue: value, stepPath: path)
    }

    /// The step of `operation`, whose allowed `arguments` have been picked out.
    private func drawingOperation(
        _ operation: JSONMember, arguments: [String: JSONMember], stepValue: JSONValue, stepPath: String
    ) -> SceneDrawing.Step? {
        let value = operation.value
        let path = ScenePath.key(stepPath, operation.key)
        switch operation.key {
        case "save": return isTrue(value, path) ? .save : nil
        case "restore": return isTrue(value, path) ? .restore : nil
        case "closePath": return isTrue(value, path) ? .closePath : nil
        case "stroke": return isTrue(value, path) ? .stroke : nil
        case "translate":
            return numbers(value, path, counts: [2], shape: "[x, y]").map { .translate(x: $0[0], y: $0[1]) }
        case "scale":
            guard let factors = numbers(value, path, counts: [2], shape: "[sx, sy]") else { return nil }
            var isValid = true
            for (factor, name) in zip(factors, ["sx", "sy"]) where factor == 0 {
                report(path, at: value.position, "\(name) must not be 0 (nothing could be drawn after it)")
                isValid = false
            }
            return isValid ? .scale(x: factors[0], y: factors[1]) : nil
        case "rotate": return number(value, path).map { .rotate(degrees: $0) }
        case "lineWidth": return nonNegativeNumber(value, path).map { .lineWidth($0) }
        case "lineCap":
            return choice(value, path, "line cap", LineCap.allCases.map { ($0.rawValue, $0) }).map { .lineCap($0) }
        case "lineJoin":
            return choice(value, path, "line join", LineJoin.allCases.map { ($0.rawValue, $0) }).map { .lineJoin($0) }
        case "dash": return dashLengths(value, path).map { .dash($0) }
        case "fillColor": return color(value, path).map { .fillColor($0) }
        case "strokeColor": return color(value, path).map { .strokeColor($0) }
        case "moveTo": return point(value, path).map { .moveTo($0) }
        case "lineTo": return point(value, path).map { .lineTo($0) }
        case "curveTo":
            guard let n = numbers(value, path, counts: [6], shape: "[c1x, c1y, c2x, c2y, x, y]") else { return nil }
            return .curveTo(
                control1: CGPoint(x: n[0], y: n[1]), control2: CGPoint(x: n[2], y: n[3]),
                end: CGPoint(x: n[4], y: n[5]))
        case "quadTo":
            guard let n = numbers(value, path, counts: [4], shape: "[cx, cy, x, y]") else { return nil }
            return .quadTo(control: CGPoint(x: n[0], y: n[1]), end: CGPoint(x: n[2], y: n[3]))
        case "arc": return arc(value, path, arguments: arguments, stepPath: stepPath)
        case "rect": return drawingRect(value, path).map { .rect($0) }
        case "ellipse": return drawingRect(value, path).map { .ellipse($0) }
        case "roundedRect":
            guard let n = numbers(value, path, counts: [5], shape: "[x, y, width, height, radius]") else { return nil }
            var isValid = true
            for (number, name) in zip(n[2...], ["width", "height", "radius"]) where number < 0 {
                report(path, at: value.position, "\(name) must not be negative")
                isValid = false
            }
            return isValid ? .roundedRect(CGRect(x: n[0], y: n[1], width: n[2], height: n[3]), radius: n[4]) : nil
        case "fill": return fillRule(value, path).map { .fill($0) }
        case "clip": return fillRule(value, path).map { .clip($0) }
        case "fillRect": return drawingRect(value, path).map { .fillRect($0) }
        case "strokeRect": return drawingRect(value, path).map { .strokeRect($0) }
        case "fillEllipse": return drawingRect(value, path).map { .fillEllipse($0) }
        case "strokeEllipse": return drawingRect(value, path).map { .strokeEllipse($0) }
        case "image":
            return drawnImage(value, path, arguments: arguments, stepValue: stepValue, stepPath: stepPath)
        default:
            return text(value, path, arguments: arguments, stepValue: stepValue, stepPath: stepPath)
        }
    }

    // MARK: Operations with arguments

    private func arc(
        _ value: JSONValue, _ path: String, arguments: [String: JSONMember], stepPath: String
    ) -> SceneDrawing.Step? {
        var clockwise: Bool? = false
        if let member = arguments["clockwise"] { clockwise = bool(member.value, ScenePath.key(stepPath, "clockwise")) }
        guard let n = numbers(value, path, counts: [5], shape: "[cx, cy, r, startDeg, endDeg]") else { return nil }
        guard n[2] >= 0 else {
            report(path, at: value.position, "r must not be negative")
            return nil
        }
        guard let clockwise else { return nil }
        return .arc(
            center: CGPoint(x: n[0], y: n[1]), radius: n[2], startDegrees: n[3], endDegrees: n[4],
            clockwise: clockwise)
    }

    private func drawnImage(
        _ value: JSONValue, _ path: String, arguments: [String: JSONMember], stepValue: JSONValue,
        stepPath: String
    ) -> SceneDrawing.Step? {
        var rect: SceneDrawing.Rect?
        if let member = arguments["rect"] {
            rect = drawingRect(member.value, ScenePath.key(stepPath, "rect"))
        } else {
            report(stepPath, at: stepValue.position, "\"image\" needs \"rect\" (\(SceneLoader.shapeOfRect))")
        }
        guard let name = string(value, path) else { return nil }
        var hint = ""
        if let slash = name.firstIndex(of: "/"), spriteSheets[String(name[..<slash])] != nil {
            hint = "; a drawing step draws a whole image, not a sprite frame"
        }
        guard let source = imageByNameOrPath(name, value, path, sheetHint: hint), let rect else { return nil }
        return .image(SceneDrawing.DrawnImage(name: name, image: source.image), in: rect)
    }

    private func text(
        _ value: JSONValue, _ path: String, arguments: [String: JSONMember], stepValue: JSONValue,
        stepPath: String
    ) -> SceneDrawing.Step? {
        let content = string(value, path)
        var start: CGPoint?
        if let member = arguments["at"] {
            start = point(member.value, ScenePath.key(stepPath, "at"))
        } else {
            report(stepPath, at: stepValue.position, "\"text\" needs \"at\" ([x, y], where the baseline starts)")
        }
        var size: Double?
        if let member = arguments["size"] {
            size = positiveNumber(member.value, ScenePath.key(stepPath, "size"))
        } else {
            report(stepPath, at: stepValue.position, "\"text\" needs \"size\" (the font size in points)")
        }
        var font: String? = "sans-serif"
        if let member = arguments["font"] {
            let fontPath = ScenePath.key(stepPath, "font")
            font = string(member.value, fontPath)
            if font?.isEmpty == true {
                report(fontPath, at: member.value.position, "expected a font family such as \"serif\", got \"\"")
                font = nil
            }
        }
        guard let content, let start, let size, let font else { return nil }
        return .text(content, at: start, size: size, font: font)
    }

    /// The operation `word` most likely means: a close spelling, else the longest operation it starts with
    /// ("fillRectangle": "fillRect") or that starts with it ("close": "closePath").
    static func suggestedOperation(for word: String) -> String? {
        let operations = SceneLoader.drawingOperations
        if let close = Suggestion.closest(to: word, in: operations) { return close }
        let lowercased = word.lowercased()
        guard lowercased.count >= 4 else { return nil }
        let prefixes = operations.filter { $0.count >= 4 && lowercased.hasPrefix($0.lowercased()) }
        if let longest = prefixes.max(by: { $0.count < $1.count }) { return longest }
        return operations.first { $0.lowercased().hasPrefix(lowercased) }
    }

    // MARK: Values

    /// `true`, for the operations that take no value ({"save": true}).
    private func isTrue(_ value: JSONValue, _ path: String) -> Bool {
        if case .bool(true) = value.kind { return true }
        if case .bool(false) = value.kind {
            report(path, at: value.position, "expected true, got false (leave the step out instead)")
        } else {
            typeMismatch(value, path, expected: "true")
        }
        return false
    }

    func nonNegativeNumber(_ value: JSONValue, _ path: String) -> Double? {
        guard let number = number(value, path) else { return nil }
        guard number >= 0 else {
            report(path, at: value.position, "must not be negative")
            return nil
        }
        return number
    }

    /// `[on, off, ...]`: any number of lengths, none negative and not all 0; [] is a solid line.
    func dashLengths(_ value: JSONValue, _ path: String) -> [CGFloat]? {
        let expected = "an array of dash lengths [on, off, ...]"
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: expected)
            return nil
        }
        var lengths: [CGFloat] = []
        for (index, item) in items.enumerated() {
            if let length = nonNegativeNumber(item, ScenePath.index(path, index)) { lengths.append(length) }
        }
        guard lengths.count == items.count else { return nil }
        if !lengths.isEmpty, lengths.allSatisfy({ $0 == 0 }) {
            report(path, at: value.position, "the lengths must not all be 0 (use [] for a solid line)")
            return nil
        }
        return lengths
    }

    /// `[x, y, width, height]` or `"bounds"`.
    private func drawingRect(_ value: JSONValue, _ path: String) -> SceneDrawing.Rect? {
        switch value.kind {
        case .string("bounds"):
            return .bounds
        case .string(let text):
            report(path, at: value.position, "expected \(SceneLoader.shapeOfRect), got \(ScenePath.quoted(text))")
            return nil
        case .array:
            return rect(value, path).map { .rect($0) }
        default:
            typeMismatch(value, path, expected: SceneLoader.shapeOfRect)
            return nil
        }
    }

    /// "nonzero" or "evenodd", the fill rules of SVG and canvas.
    private func fillRule(_ value: JSONValue, _ path: String) -> FillRule? {
        choice(value, path, "fill rule", [("nonzero", FillRule.winding), ("evenodd", .evenOdd)])
    }

    /// One of the names of `options`; `unknown line cap "flat" (expected "butt", "round" or "square")`, or a
    /// suggestion when the name is close to one.
    private func choice<T>(_ value: JSONValue, _ path: String, _ what: String, _ options: [(String, T)]) -> T? {
        let names = options.map(\.0)
        let listed = SceneLoader.listing(names.map { "\"\($0)\"" })
        guard case .string(let name) = value.kind else {
            typeMismatch(value, path, expected: listed)
            return nil
        }
        if let match = options.first(where: { $0.0 == name }) { return match.1 }
        let hint = Suggestion.closest(to: name, in: names).map { "did you mean \"\($0)\"?" } ?? "expected \(listed)"
        report(path, at: value.position, "unknown \(what) \(ScenePath.quoted(name)) (\(hint))")
        return nil
    }

    /// `a`, `a or b`, `a, b or c` (or with "and").
    static func listing(_ items: [String], conjunction: String = "or") -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
