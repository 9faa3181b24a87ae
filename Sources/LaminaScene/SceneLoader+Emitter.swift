import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// Emitter layers in scene files (docs/scene-format.md, "Layer types"): the layer's keys and its `emitterCells`,
/// each an object with CAEmitterCell's property names.
extension SceneLoader {
    /// The keys of an emitter layer (besides a plain layer's).
    static let emitterLayerKeys = [
        "emitterCells", "birthRate", "lifetime", "emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth",
        "emitterShape", "emitterMode", "renderMode", "preservesDepth", "velocity", "scale", "spin", "seed",
    ]

    /// The keys of an emitter cell object.
    static let emitterCellKeys = [
        "name", "isEnabled", "birthRate", "lifetime", "lifetimeRange", "emissionLatitude", "emissionLongitude",
        "emissionRange", "velocity", "velocityRange", "xAcceleration", "yAcceleration", "zAcceleration", "scale",
        "scaleRange", "scaleSpeed", "spin", "spinRange", "color", "redRange", "greenRange", "blueRange", "alphaRange",
        "redSpeed", "greenSpeed", "blueSpeed", "alphaSpeed", "contents", "contentsRect", "contentsScale",
        "minificationFilter", "magnificationFilter", "minificationFilterBias", "emitterCells", "beginTime", "duration",
        "speed", "timeOffset", "repeatCount", "repeatDuration", "autoreverses", "fillMode",
    ]

    func readEmitter(_ layer: EmitterLayer, keys: [String: JSONMember], path: String) {
        func read<T>(_ key: String, _ reader: (JSONValue, String) -> T?) -> T? {
            keys[key].flatMap { reader($0.value, ScenePath.key(path, key)) }
        }
        var style = layer.emitterStyle
        if let rate = read("birthRate", { self.emitterFloat($0, $1, nonNegative: true) }) { style.birthRate = rate }
        if let life = read("lifetime", { self.emitterFloat($0, $1, nonNegative: true) }) { style.lifetime = life }
        if let point = read("emitterPosition", { self.point($0, $1) }) { style.emitterPosition = point }
        if let z = read("emitterZPosition", { self.number($0, $1) }) { style.emitterZPosition = CGFloat(z) }
        if let size = read("emitterSize", { self.emitterSize($0, $1) }) { style.emitterSize = size }
        if let depth = read("emitterDepth", { self.nonNegativeNumber($0, $1) }) { style.emitterDepth = CGFloat(depth) }
        if let shape = read("emitterShape", { value, path in
            self.choice(value, path, what: "emitter shape", options: EmitterShape.allCases.map { ($0.rawValue, $0) })
        }) {
            style.emitterShape = shape
        }
        if let mode = read("emitterMode", { value, path in
            self.choice(value, path, what: "emitter mode", options: EmitterMode.allCases.map { ($0.rawValue, $0) })
        }) {
            style.emitterMode = mode
        }
        if let mode = read("renderMode", { value, path in
            self.choice(value, path, what: "render mode", options: EmitterRenderMode.allCases.map { ($0.rawValue, $0) })
        }) {
            style.renderMode = mode
        }
        if let depth = read("preservesDepth", { self.bool($0, $1) }) { style.preservesDepth = depth }
        if let velocity = read("velocity", { self.emitterFloat($0, $1, nonNegative: false) }) { style.velocity = velocity }
        if let scale = read("scale", { self.emitterFloat($0, $1, nonNegative: false) }) { style.scale = scale }
        if let spin = read("spin", { self.emitterFloat($0, $1, nonNegative: false) }) { style.spin = spin }
        if let seed = read("seed", { self.seed($0, $1) }) { style.seed = seed }
        if let member = keys["emitterCells"] {
            let cellsPath = ScenePath.key(path, "emitterCells")
            var count = 0
            if let cells = emitterCells(member.value, cellsPath, depth: 0, count: &count) {
                style.emitterCells = cells
                let estimate = style.estimatedParticles
                if estimate > Double(EmitterStyle.mostParticles) {
                    report(cellsPath, at: member.value.position, "keep about \(format(estimate.rounded())) particles "
                           + "alive (birthRate x lifetime, times the layer's, with sub-cells), over the limit of "
                           + "\(EmitterStyle.mostParticles) per emitter layer")
                }
            }
        }
        layer.emitterStyle = style
    }

    /// An array of emitter cell objects (`depth`: how deep in the nesting; `count`: the cells read so far).
    private func emitterCells(_ value: JSONValue, _ path: String, depth: Int, count: inout Int) -> [EmitterCellStyle]? {
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: "an array of emitter cells")
            return nil
        }
        guard depth < EmitterStyle.mostCellDepth else {
            report(path, at: value.position, "cells nest \(depth + 1) deep, over the limit of "
                   + "\(EmitterStyle.mostCellDepth) (deeper cells would make no particles)")
            return nil
        }
        var cells: [EmitterCellStyle] = []
        for (index, item) in items.enumerated() {
            count += 1
            if count == EmitterStyle.mostCells + 1 {
                report(ScenePath.index(path, index), at: item.position, "more than \(EmitterStyle.mostCells) "
                       + "emitter cells in one layer (later ones would make no particles)")
            }
            if let cell = emitterCell(item, ScenePath.index(path, index), depth: depth, count: &count) {
                cells.append(cell)
            }
        }
        return cells
    }

    /// One emitter cell object.
    private func emitterCell(_ value: JSONValue, _ path: String, depth: Int, count: inout Int) -> EmitterCellStyle? {
        guard let members = members(value, path, expected: "an emitter cell (an object)") else { return nil }
        let keys = knownMembers(members, path, known: SceneLoader.emitterCellKeys)
        func read<T>(_ key: String, _ reader: (JSONValue, String) -> T?) -> T? {
            keys[key].flatMap { reader($0.value, ScenePath.key(path, key)) }
        }
        func float(_ key: String, nonNegative: Bool = false) -> Float? {
            read(key) { self.emitterFloat($0, $1, nonNegative: nonNegative) }
        }
        func cgFloat(_ key: String) -> CGFloat? { read(key) { self.number($0, $1) }.map { CGFloat($0) } }
        var cell = EmitterCellStyle()
        if let name = read("name", { self.string($0, $1) }) { cell.name = name }
        if let enabled = read("isEnabled", { self.bool($0, $1) }) { cell.isEnabled = enabled }
        if let x = float("birthRate", nonNegative: true) { cell.birthRate = x }
        if let x = float("lifetime", nonNegative: true) { cell.lifetime = x }
        if let x = float("lifetimeRange") { cell.lifetimeRange = x }
        if let x = cgFloat("emissionLatitude") { cell.emissionLatitude = x }
        if let x = cgFloat("emissionLongitude") { cell.emissionLongitude = x }
        if let x = cgFloat("emissionRange") { cell.emissionRange = x }
        if let x = cgFloat("velocity") { cell.velocity = x }
        if let x = cgFloat("velocityRange") { cell.velocityRange = x }
        if let x = cgFloat("xAcceleration") { cell.xAcceleration = x }
        if let x = cgFloat("yAcceleration") { cell.yAcceleration = x }
        if let x = cgFloat("zAcceleration") { cell.zAcceleration = x }
        if let x = cgFloat("scale") { cell.scale = x }
        if let x = cgFloat("scaleRange") { cell.scaleRange = x }
        if let x = cgFloat("scaleSpeed") { cell.scaleSpeed = x }
        if let x = cgFloat("spin") { cell.spin = x }
        if let x = cgFloat("spinRange") { cell.spinRange = x }
        if let color = read("color", { self.color($0, $1) }) { cell.color = color }
        if let x = float("redRange") { cell.redRange = x }
        if let x = float("greenRange") { cell.greenRange = x }
        if let x = float("blueRange") { cell.blueRange = x }
        if let x = float("alphaRange") { cell.alphaRange = x }
        if let x = float("redSpeed") { cell.redSpeed = x }
        if let x = float("greenSpeed") { cell.greenSpeed = x }
        if let x = float("blueSpeed") { cell.blueSpeed = x }
        if let x = float("alphaSpeed") { cell.alphaSpeed = x }
        if let member = keys["contents"], let source = contents(member.value, ScenePath.key(path, "contents")) {
            cell.contents = source.image
            cell.contentsScale = CGFloat(source.scale)
            if let frame = source.frame {
                if frame.rotated {
                    report(ScenePath.key(path, "contents"), at: member.value.position,
                           "is a rotated sprite frame, which an emitter cell cannot show (store the frame unrotated)")
                }
                cell.contentsRect = frame.unitRect
            }
        }
        if let rect = read("contentsRect", { self.rect($0, $1) }) { cell.contentsRect = rect }
        if let scale = read("contentsScale", { self.positiveNumber($0, $1) }) { cell.contentsScale = CGFloat(scale) }
        let filters = Filter.allCases.map { ($0.rawValue, $0) }
        if let filter = read("minificationFilter", { self.choice($0, $1, what: "filter", options: filters) }) {
            cell.minificationFilter = filter
        }
        if let filter = read("magnificationFilter", { self.choice($0, $1, what: "filter", options: filters) }) {
            cell.magnificationFilter = filter
        }
        if let x = float("minificationFilterBias") { cell.minificationFilterBias = x }
        if let member = keys["emitterCells"],
            let cells = emitterCells(member.value, ScenePath.key(path, "emitterCells"), depth: depth + 1, count: &count)
        {
            cell.emitterCells = cells
        }
        // The cell's own timing (CAMediaTiming).
        if let x = read("beginTime", { self.number($0, $1) }) { cell.timing.beginTime = x }
        if let x = read("duration", { self.nonNegativeNumber($0, $1) }) { cell.timing.duration = x }
        if let x = float("speed") { cell.timing.speed = x }
        if let x = read("timeOffset", { self.number($0, $1) }) { cell.timing.timeOffset = x }
        if let x = float("repeatCount", nonNegative: true) { cell.timing.repeatCount = x }
        if let x = read("repeatDuration", { self.nonNegativeNumber($0, $1) }) { cell.timing.repeatDuration = x }
        if let x = read("autoreverses", { self.bool($0, $1) }) { cell.timing.autoreverses = x }
        if let mode = read("fillMode", { value, path in
            self.choice(value, path, what: "fill mode", options: FillMode.allCases.map { ($0.rawValue, $0) })
        }) {
            cell.timing.fillMode = mode
        }
        return cell
    }

    /// A number that fits a Float; with `nonNegative`, 0 or more (`must not be negative`).
    private func emitterFloat(_ value: JSONValue, _ path: String, nonNegative: Bool) -> Float? {
        guard let x = floatNumber(value, path) else { return nil }
        if nonNegative, x < 0 {
            report(path, at: value.position, "must not be negative")
            return nil
        }
        return x
    }

    /// `[width, height]`, neither negative.
    private func emitterSize(_ value: JSONValue, _ path: String) -> CGSize? {
        guard let numbers = numbers(value, path, counts: [2], shape: "[width, height]") else { return nil }
        guard numbers.allSatisfy({ $0 >= 0 }) else {
            report(path, at: value.position, "width and height must not be negative")
            return nil
        }
        return CGSize(width: numbers[0], height: numbers[1])
    }

    /// A whole number in 0 ... 4294967295.
    private func seed(_ value: JSONValue, _ path: String) -> UInt32? {
        guard let x = number(value, path) else { return nil }
        guard x >= 0, x <= Double(UInt32.max), x == x.rounded() else {
            report(path, at: value.position, "must be a whole number from 0 to 4294967295")
            return nil
        }
        return UInt32(x)
    }
}
