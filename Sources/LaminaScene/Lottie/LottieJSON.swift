import Foundation
import LaminaCore
import LaminaDrawing

/// A JSON value of a Lottie file with its JSON path, and the reader's problem lists: what reading needs to
/// report a named error at the right place.
struct LottieNode {
    let value: JSONValue
    let path: String

    var position: JSONPosition { value.position }

    /// The members of an object (the first of duplicate keys wins); nil for anything else.
    var members: [String: JSONValue]? {
        guard case .object(let list) = value.kind else { return nil }
        var out: [String: JSONValue] = [:]
        for member in list where out[member.key] == nil { out[member.key] = member.value }
        return out
    }

    subscript(key: String) -> LottieNode? {
        guard let value = members?[key] else { return nil }
        return LottieNode(value: value, path: path.isEmpty ? key : "\(path).\(key)")
    }

    var elements: [LottieNode]? {
        guard case .array(let list) = value.kind else { return nil }
        return list.enumerated().map { LottieNode(value: $1, path: "\(path)[\($0)]") }
    }

    var number: Double? {
        switch value.kind {
        case .number(let x): x
        case .bool(let b): b ? 1 : 0
        default: nil
        }
    }

    var string: String? {
        if case .string(let s) = value.kind { s } else { nil }
    }

    var bool: Bool? {
        switch value.kind {
        case .bool(let b): b
        case .number(let x): x != 0
        default: nil
        }
    }

    /// Numbers of an array (a lone number is one); nil when any element is not a number.
    var numbers: [Double]? {
        if let x = number { return [x] }
        guard case .array(let list) = value.kind else { return nil }
        var out: [Double] = []
        out.reserveCapacity(list.count)
        for item in list {
            guard case .number(let x) = item.kind else { return nil }
            out.append(x)
        }
        return out
    }

    var isObject: Bool { if case .object = value.kind { true } else { false } }
}

/// What reading a Lottie file found wrong: problems (malformed, always an error) and features it cannot draw
/// (an error unless unsupported features are allowed, then warnings).
final class LottieDiagnostics {
    let fileName: String
    var problems: [SceneProblem] = []
    var unsupported: [SceneProblem] = []
    /// Feature names used, for `lamina info`.
    var features: [String: Int] = [:]
    /// The properties with an expression, checked once when the file loads.
    var expressionProperties: [LottieNumbers] = []

    init(fileName: String) { self.fileName = fileName }

    func problem(_ node: LottieNode?, path: String? = nil, _ message: String) {
        problems.append(SceneProblem(file: fileName, line: node?.position.line, column: node?.position.column,
                                     path: path ?? node?.path ?? "", message: message))
    }

    func unsupported(_ node: LottieNode, _ message: String) {
        unsupported.append(SceneProblem(file: fileName, line: node.position.line, column: node.position.column,
                                        path: node.path, message: message))
    }

    func use(_ feature: String) { features[feature, default: 0] += 1 }
}

/// Reading properties (`{"a": 0|1, "k": ...}`) and plain values, reporting what is malformed.
struct LottieReader {
    let diagnostics: LottieDiagnostics
    /// Frame rate, for expressions' time.
    var frameRate: Double = 30

    func number(_ node: LottieNode?, _ fallback: Double) -> Double {
        guard let node else { return fallback }
        if let x = node.number, x.isFinite { return x }
        if let list = node.numbers, let x = list.first { return x }
        diagnostics.problem(node, "expected a number, got \(node.value.typeDescription)")
        return fallback
    }

    func int(_ node: LottieNode?, _ fallback: Int) -> Int {
        let x = number(node, Double(fallback))
        return x.isFinite && abs(x) < 1e9 ? Int(x.rounded()) : fallback
    }

    func string(_ node: LottieNode?) -> String? {
        guard let node else { return nil }
        if let s = node.string { return s }
        if case .null = node.value.kind { return nil }
        diagnostics.problem(node, "expected a string, got \(node.value.typeDescription)")
        return nil
    }

    /// A property of numbers: `{"a":0,"k":[1,2]}`, `{"k":5}`, keyframes, or a bare number/array.
    func numbers(_ node: LottieNode?, _ fallback: [Double]) -> LottieProperty<[Double]> {
        guard let node else { return LottieProperty(fallback) }
        var property = read(node, fallback: fallback, expected: "a number or an array of numbers") { value in
            if let list = value.numbers { return list }
            // Older files wrap keyframe values in arrays of arrays; a colour may be an object in broken files.
            if let inner = value.elements?.first, let list = inner.numbers { return list }
            return nil
        }
        property.path = node.path
        return property
    }

    func scalar(_ node: LottieNode?, _ fallback: Double) -> LottieProperty<[Double]> {
        numbers(node, [fallback])
    }

    func bezier(_ node: LottieNode?) -> LottieProperty<LottieBezier> {
        let empty = LottieBezier(closed: false, vertices: [], inTangents: [], outTangents: [])
        guard let node else { return LottieProperty(empty) }
        return read(node, fallback: empty, expected: "a shape {\"c\", \"v\", \"i\", \"o\"}") { value in
            if value.isObject { return bezierValue(value) }
            if let first = value.elements?.first, first.isObject { return bezierValue(first) }
            return nil
        }
    }

    private func bezierValue(_ node: LottieNode) -> LottieBezier? {
        func points(_ key: String) -> [CGPoint]? {
            guard let child = node[key] else { return [] }
            guard let list = child.elements else {
                diagnostics.problem(child, "expected an array of points, got \(child.value.typeDescription)")
                return nil
            }
            var out: [CGPoint] = []
            for item in list {
                guard let xy = item.numbers, xy.count >= 2, xy[0].isFinite, xy[1].isFinite else {
                    diagnostics.problem(item, "expected a point [x, y], got \(item.value.typeDescription)")
                    return nil
                }
                out.append(CGPoint(x: xy[0], y: xy[1]))
            }
            return out
        }
        guard let v = points("v"), let i = points("i"), let o = points("o") else { return nil }
        let closed = node["c"]?.bool ?? false
        return LottieBezier(closed: closed, vertices: v, inTangents: i, outTangents: o)
    }

    /// The common shape of every property: fixed (`a` 0) or keyframes (`a` 1, or `k` an array of objects with `t`).
    private func read<V: LottieInterpolatable>(_ node: LottieNode, fallback: V, expected: String,
                                               value: (LottieNode) -> V?)
        -> LottieProperty<V>
    {
        // A bare value (no "k"): a few writers put numbers directly.
        guard node.isObject else {
            if let v = value(node) { return LottieProperty(v) }
            diagnostics.problem(node, "expected \(expected) or a property object {\"k\": ...}, got \(node.value.typeDescription)")
            return LottieProperty(fallback)
        }
        let expression = node["x"]?.string
        guard let k = node["k"] else {
            diagnostics.problem(node, path: node.path + ".k", "missing key \"k\" (the property's value)")
            return LottieProperty(fallback)
        }
        let animatedFlag = node["a"]?.bool
        let list = k.elements
        let looksKeyframed = list.map { !$0.isEmpty && $0.allSatisfy { $0.isObject && $0["t"] != nil } } ?? false
        var property: LottieProperty<V>
        if animatedFlag == true || (animatedFlag == nil && looksKeyframed), looksKeyframed, let list {
            property = LottieProperty(keyframes: keyframes(list, value: value, expected: expected), path: node.path)
            if property.keyframes.isEmpty { property.fixed = fallback }
        } else if animatedFlag == true, !looksKeyframed {
            diagnostics.problem(k, "an animated property (\"a\": 1) needs an array of keyframes with \"t\", got \(k.value.typeDescription)")
            property = LottieProperty(fallback)
        } else if let v = value(k) {
            property = LottieProperty(v)
        } else {
            diagnostics.problem(k, "expected \(expected), got \(k.value.typeDescription)")
            property = LottieProperty(fallback)
        }
        property.path = node.path
        if let expression, !expression.isEmpty {
            property.expression = expression
            diagnostics.use("expressions")
            if let numbers = property as? LottieNumbers { diagnostics.expressionProperties.append(numbers) }
        }
        return property
    }

    private func keyframes<V: LottieInterpolatable>(_ list: [LottieNode], value: (LottieNode) -> V?, expected: String)
        -> [LottieKeyframe<V>]
    {
        var out: [LottieKeyframe<V>] = []
        out.reserveCapacity(list.count)
        var lastTime = -Double.infinity
        for item in list {
            let time = number(item["t"], lastTime.isFinite ? lastTime : 0)
            if time < lastTime {
                diagnostics.problem(item["t"], "keyframe times must not decrease (\(time) after \(lastTime))")
            }
            lastTime = max(time, lastTime)
            let start = item["s"].flatMap { node -> V? in
                if let v = value(node) { return v }
                diagnostics.problem(node, "expected a keyframe value (\(expected)), got \(node.value.typeDescription)")
                return nil
            }
            let end = item["e"].flatMap(value)
            let hold = item["h"]?.bool ?? false
            if hold { diagnostics.use("hold keyframes") }
            let easing = LottieEasing(outX: tangent(item["o"], "x", 0), outY: tangent(item["o"], "y", 0),
                                      inX: tangent(item["i"], "x", 1), inY: tangent(item["i"], "y", 1))
            let to = item["to"]?.numbers, ti = item["ti"]?.numbers
            if let to, to.contains(where: { $0 != 0 }) { diagnostics.use("spatial keyframes") }
            out.append(LottieKeyframe(time: lastTime, start: start, end: end, hold: hold, easing: easing,
                                      spatialOut: to, spatialIn: ti))
        }
        return out
    }

    private func tangent(_ node: LottieNode?, _ key: String, _ fallback: Double) -> [Double] {
        guard let value = node?[key]?.numbers, !value.isEmpty, value.allSatisfy(\.isFinite) else { return [fallback] }
        return value
    }
}

extension Color {
    /// A Lottie colour: [r, g, b] 0...1 (older files 0...255, taken as such when any exceeds 1). A fourth
    /// component is ignored, as lottie-web ignores it: opacity comes from the fill's or stroke's own `o`.
    static func lottie(_ c: [Double], opacity: Double = 1) -> Color {
        guard c.count >= 3 else { return Color(red: 0, green: 0, blue: 0, alpha: 0) }
        let scale = c.prefix(3).contains(where: { $0 > 1 }) ? 255.0 : 1.0
        return Color(red: c[0] / scale, green: c[1] / scale, blue: c[2] / scale, alpha: opacity)
    }

    /// A solid layer's `sc`: "#rrggbb" (or "#rgb", "#rrggbbaa").
    static func lottieHex(_ text: String) -> Color? {
        var hex = text.trimmingCharacters(in: .whitespaces)
        if hex.hasPrefix("#") { hex.removeFirst() }
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6 || hex.count == 8, let v = UInt64(hex, radix: 16) else { return nil }
        let bytes = hex.count == 8 ? [v >> 24, v >> 16, v >> 8, v] : [v >> 16, v >> 8, v, 255]
        let c = bytes.map { Double($0 & 255) / 255 }
        return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
}
