import Foundation
import LaminaCore
import LaminaLayers

/// The keys of a tiled layer (docs/scene-format.md, "Layer types"): Core Animation's CATiledLayer properties, with
/// the limits Lamina draws within.
extension SceneLoader {
    /// The most levels of detail, and of magnified levels, a scene may ask for (more could never be shown).
    static let mostLevelsOfDetail = 30
    static let mostLevelsOfDetailBias = 16

    func readTiled(_ layer: TiledLayer, keys: [String: JSONMember], path: String) {
        func read<T>(_ key: String, _ reader: (JSONValue, String) -> T?) -> T? {
            keys[key].flatMap { reader($0.value, ScenePath.key(path, key)) }
        }
        if let size = read("tileSize", { self.tileSize($0, $1) }) { layer.tileSize = size }
        if let levels = read("levelsOfDetail", { self.wholeNumber($0, $1, in: 1...SceneLoader.mostLevelsOfDetail) }) {
            layer.levelsOfDetail = levels
        }
        if let bias = read("levelsOfDetailBias", {
            self.wholeNumber($0, $1, in: 0...SceneLoader.mostLevelsOfDetailBias)
        }) {
            layer.levelsOfDetailBias = bias
        }
        if let seconds = read("fadeDuration", { self.nonNegativeNumber($0, $1) }) { layer.fadeDuration = seconds }
    }

    /// `[width, height]` in pixels, each above 0 and at most 2048 (drawn rounded, and at least 16).
    private func tileSize(_ value: JSONValue, _ path: String) -> CGSize? {
        guard let numbers = numbers(value, path, counts: [2], shape: "[width, height]") else { return nil }
        let most = Double(TiledLayer.tileSides.upperBound)
        for (number, name) in zip(numbers, ["width", "height"]) where !(number > 0 && number <= most) {
            report(path, at: value.position,
                   "\(name) must be a positive number of pixels up to \(Int(most)), got \(format(number))")
            return nil
        }
        return CGSize(width: numbers[0], height: numbers[1])
    }

    /// A whole number in `range`.
    private func wholeNumber(_ value: JSONValue, _ path: String, in range: ClosedRange<Int>) -> Int? {
        guard let number = number(value, path) else { return nil }
        guard number == number.rounded(), let whole = Int(exactly: number), range.contains(whole) else {
            report(path, at: value.position,
                   "must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(format(number))")
            return nil
        }
        return whole
    }

    /// A tiled layer's key `key` copied from `source` to `target` (a timeline's `set`).
    static func copyTiled(_ key: String, from source: TiledLayer, to target: TiledLayer) {
        switch key {
        case "tileSize": target.tileSize = source.tileSize
        case "levelsOfDetail": target.levelsOfDetail = source.levelsOfDetail
        case "levelsOfDetailBias": target.levelsOfDetailBias = source.levelsOfDetailBias
        case "fadeDuration": target.fadeDuration = source.fadeDuration
        default: break
        }
    }
}
