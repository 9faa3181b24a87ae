import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// The keys of the specialised layers (docs/scene-format.md, "Layer types"): each type's own keys, read after the
/// geometry (a shape's path steps are placed in the bounds).
extension SceneLoader {
    /// The most instances a replicator may have in a scene file: the planner draws no more (Planner.mostInstances),
    /// so a larger count would silently draw fewer.
    static let mostInstances = 10_000

    func readSpecialKeys(_ layer: Layer, keys: [String: JSONMember], path: String) {
        switch layer {
        case let gradient as GradientLayer: readGradient(gradient, keys: keys, path: path)
        case let shape as ShapeLayer: readShape(shape, keys: keys, path: path)
        case let text as TextLayer: readText(text, keys: keys, path: path)
        case let replicator as ReplicatorLayer: readReplicator(replicator, keys: keys, path: path)
        case let tiled as TiledLayer: readTiled(tiled, keys: keys, path: path)
        case let emitter as EmitterLayer: readEmitter(emitter, keys: keys, path: path)
        case let scroll as ScrollLayer: readScroll(scroll, keys: keys, path: path)
        default: break
        }
    }

    private func readGradient(
        _ layer: GradientLayer, keys: [String: JSONMember], path: String
    ) {
        func read<T>(_ key: String, _ reader: (JSONValue, String) -> T?) -> T? {
            keys[key].flatMap { reader($0.value, ScenePath.key(path, key)) }
        }
        if let colors = read("colors", { self.colors($0, $1) }) { layer.colors = colors }
        if let member = keys["locations"] {
            let locationsPath = ScenePath.key(path, "locations")
            if case .null = member.value.kind {
                layer.locations = nil
            } else if let locations = locations(member.value, locationsPath, colorCount: layer.gradientStyle.colors.count) {
                layer.locations = locations.map { NSNumber(value: $0) }
            }
        }
        if let start = read("startPoint", { self.point($0, $1) }) { layer.startPoint = start }
        if let end = read("endPoint", { self.point($0, $1) }) { layer.endPoint = end }
        if let type = read("gradientType", { value, path in
            self.choice(value, path, what: "gradient type",
                        options: GradientLayerType.allCases.map { ($0.rawValue, $0) })
        }) {
            layer.type = type
        }
    }

    private func readShape(
        _ layer: ShapeLayer, keys: [String: JSONMember], path: String
    ) {
        func read<T>(_ key: String, _ reader: (JSONValue, String) -> T?) -> T? {
            keys[key].flatMap { reader($0.value, ScenePath.key(path, key)) }
        }
        if let member = keys["path"] {
            let shapePath = ScenePath.key(path, "path")
            // Steps are placed in the bounds as shadowPath's are ("bounds", fractions).
            if let steps = drawingSteps(member.value, shapePath) {
                layer.path = self.path(steps, value: member.value, path: shapePath, bounds: layer.bounds)?.cgPath
            }
        }
        if let member = keys["fillColor"] {
            if let color = optionalColor(member.value, ScenePath.key(path, "fillColor")) { layer.fillColor = color }
        }
        if let rule = read("fillRule", { value, path in
            self.choice(value, path, what: "fill rule", options: [("nonZero", ShapeLayerFillRule.nonZero), ("evenOdd", .evenOdd)]
                            + ShapeLayerFillRule.allCases.map { ($0.rawValue, $0) })
        }) {
            layer.fillRule = rule
        }
        if let member = keys["strokeColor"] {
            if let color = optionalColor(member.value, ScenePath.key(path, "strokeColor")) { layer.strokeColor = color }
        }
        if let width = read("lineWidth", { self.nonNegativeNumber($0, $1) }) {
            layer.lineWidth = CGFloat(width)
        }
        if let cap = read("lineCap", { value, path in
            self.choice(value, path, what: "line cap", options: [("butt", LineCap.butt), ("round", .round),
                                                                 ("square", .square)])
        }) {
            layer.lineCap = cap
        }
        if let join = read("lineJoin", { value, path in
            self.choice(value, path, what: "line join", options: [("miter", LineJoin.miter), ("round", .round),
                                                                  ("bevel", .bevel)])
        }) {
            layer.lineJoin = join
        }
        if let limit = read("miterLimit", { self.nonNegativeNumber($0, $1) }) {
            layer.miterLimit = CGFloat(limit)
        }
        if let member = keys["lineDashPattern"] {
            if case .null = member.value.kind {
                layer.lineDashPattern = nil
            } else if let lengths = dashLengths(member.value, ScenePath.key(path, "lineDashPattern")) {
                layer.lineDashPattern = lengths.map { NSNumber(value: Double($0)) }
            }
        }
        if let phase = read("lineDashPhase", { self.number($0, $1) }) { layer.lineDashPhase = CGFloat(phase) }
        if let start = read("strokeStart", { self.fraction($0, $1) }) { layer.strokeStart = CGFloat(start) }
        if let end = read("strokeEnd", { self.fraction($0, $1) }) { layer.strokeEnd = CGFloat(end) }
    }

    private func readText(
        _ layer: TextLayer, keys: [String: JSONMember], path: String
    ) {
        func read<T>(_ key: String, _ reader: (JSONValue, String) -> T?) -> T? {
            keys[key].flatMap { reader($0.value, ScenePath.key(path, key)) }
        }
        if let string = read("string", { self.string($0, $1) }) { layer.string = string }
        if let font = read("font", { value, path -> String? in
            guard let name = self.string(value, path) else { return nil }
            if name.isEmpty { self.report(path, at: value.position, "is empty (give a font family name)") }
            return name.isEmpty ? nil : name
        }) {
            layer.font = font
        }
        if let size = read("fontSize", { self.positiveNumber($0, $1) }) { layer.fontSize = CGFloat(size) }
        if let color = read("foregroundColor", { self.color($0, $1) }) { layer.foregroundColor = color }
        if let mode = read("alignmentMode", { value, path in
            self.choice(value, path, what: "alignment mode",
                        options: TextLayerAlignmentMode.allCases.map { ($0.rawValue, $0) })
        }) {
            layer.alignmentMode = mode
        }
        if let wrapped = read("isWrapped", { self.bool($0, $1) }) { layer.isWrapped = wrapped }
        if let mode = read("truncationMode", { value, path in
            self.choice(value, path, what: "truncation mode",
                        options: TextLayerTruncationMode.allCases.map { ($0.rawValue, $0) })
        }) {
            layer.truncationMode = mode
        }
    }

    private func readReplicator(_ layer: ReplicatorLayer, keys: [String: JSONMember], path: String) {
        func read<T>(_ key: String, _ reader: (JSONValue, String) -> T?) -> T? {
            keys[key].flatMap { reader($0.value, ScenePath.key(path, key)) }
        }
        if let count = read("instanceCount", { self.instanceCount($0, $1) }) { layer.instanceCount = count }
        if let transform = read("instanceTransform", { self.transform($0, $1) }) {
            layer.instanceTransform = transform
        }
        if let color = read("instanceColor", { self.color($0, $1) }) { layer.instanceColor = color }
        if let offset = read("instanceRedOffset", { self.floatNumber($0, $1) }) {
            layer.instanceRedOffset = offset
        }
        if let offset = read("instanceGreenOffset", { self.floatNumber($0, $1) }) {
            layer.instanceGreenOffset = offset
        }
        if let offset = read("instanceBlueOffset", { self.floatNumber($0, $1) }) {
            layer.instanceBlueOffset = offset
        }
        if let offset = read("instanceAlphaOffset", { self.floatNumber($0, $1) }) {
            layer.instanceAlphaOffset = offset
        }
        if let delay = read("instanceDelay", { self.number($0, $1) }) { layer.instanceDelay = delay }
    }

    // MARK: Values

    /// An array of colours.
    func colors(_ value: JSONValue, _ path: String) -> [Color]? {
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: "an array of colours")
            return nil
        }
        let colors = items.enumerated().compactMap { color($1, ScenePath.index(path, $0)) }
        return colors.count == items.count ? colors : nil
    }

    /// A colour or null; `.some(nil)` for null.
    private func optionalColor(_ value: JSONValue, _ path: String) -> Color?? {
        if case .null = value.kind { return .some(nil) }
        return color(value, path).map { .some($0) }
    }

    /// A number in 0...1.
    private func fraction(_ value: JSONValue, _ path: String) -> Double? {
        guard let number = number(value, path) else { return nil }
        guard (0...1).contains(number) else {
            report(path, at: value.position, "must be between 0 and 1")
            return nil
        }
        return number
    }

    /// A gradient's locations: as many as its colours, each in 0...1, none below the one before.
    private func locations(_ value: JSONValue, _ path: String, colorCount: Int) -> [Double]? {
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: "an array of numbers or null")
            return nil
        }
        var list: [Double] = []
        for (index, item) in items.enumerated() {
            guard let location = fraction(item, ScenePath.index(path, index)) else { continue }
            if let previous = list.last, location < previous, list.count == index {
                report(ScenePath.index(path, index), at: item.position,
                       "locations must not decrease (\(format(location)) after \(format(previous)))")
                return nil
            }
            list.append(location)
        }
        guard list.count == items.count else { return nil }
        guard list.count == colorCount else {
            report(path, at: value.position,
                   "has \(list.count) location\(list.count == 1 ? "" : "s") for \(colorCount) "
                    + "colour\(colorCount == 1 ? "" : "s") (give one per colour, or leave it out)")
            return nil
        }
        return list
    }

    /// A whole number from 0 to `mostInstances`.
    private func instanceCount(_ value: JSONValue, _ path: String) -> Int? {
        guard let number = number(value, path) else { return nil }
        guard number >= 0, number == number.rounded() else {
            report(path, at: value.position, "must be a whole number, 0 or more")
            return nil
        }
        guard number <= Double(SceneLoader.mostInstances) else {
            report(path, at: value.position, "must be at most \(SceneLoader.mostInstances) (the most instances drawn)")
            return nil
        }
        return Int(number)
    }
}
