import Foundation
import Lamina
import LaminaBench

/// The random-tree tests' generator: SplitMix64 (LaminaBench), whose one-word state lets a seed printed by a failing
/// test rebuild the same scene anywhere, with the draws the generator needs.
public struct TreeRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64
    public var state: UInt64 { generator.state }

    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { generator.next() }

    /// A number in 0..<1 with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// An integer in 0..<n (n > 0).
    public mutating func below(_ n: Int) -> Int { generator.below(n) }

    /// A number in lo..<hi.
    public mutating func between(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }

    /// True with probability p.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// A JSON value built by the generator; `text` writes it in the scene format's syntax.
public indirect enum SceneJSON: Sendable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case array([SceneJSON])
    case object([(String, SceneJSON)])
    case null

    /// JSON text, one layer object per line so that a reproducer can be read and cut down by hand.
    public var text: String {
        var out = ""
        write(into: &out, indent: "")
        return out
    }

    private func write(into out: inout String, indent: String) {
        switch self {
        case .number(let value): out += SceneJSON.format(value)
        case .string(let value): out += SceneJSON.quote(value)
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            let nested = items.contains { if case .object = $0 { return true } else { return false } }
            if !nested {
                out += "[" + items.map(\.text).joined(separator: ", ") + "]"
                return
            }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += indent + "  "
                item.write(into: &out, indent: indent + "  ")
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let members):
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += indent + "  " + SceneJSON.quote(key) + ": "
                value.write(into: &out, indent: indent + "  ")
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        }
    }

    /// A number as JSON: integers without a fraction, others in Swift's shortest round-trip form
    /// (`1e-300`, `5e-324`, `-0.0`), which JSON accepts. A value the generator computed from an extreme and
    /// overflowed (-1 / 5e-324) is written as the largest finite number of its sign, itself an extreme; NaN as 0.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "0" }
        if value.isInfinite { return value < 0 ? "-1.7976931348623157e+308" : "1.7976931348623157e+308" }
        if value == value.rounded(), abs(value) < 1e15, !(value == 0 && value.sign == .minus) {
            return String(Int64(value))
        }
        return "\(value)"
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}

/// One generated scene: the JSON text and the files it names, written together by `write(to:)`.
public struct RandomScene {
    /// The seed that rebuilds this scene (with the same `extreme`).
    public var seed: UInt64
    /// Whether numbers were drawn from the extremes (`RandomScenes.extreme(seed:)`).
    public var extreme: Bool
    public var json: SceneJSON
    /// Images by file name (PNG files next to the scene).
    public var images: [String: Image]
    /// Other files by name (sprite sheet property lists).
    public var texts: [String: String]

    /// Writes NAME (scene.json) and its files into `folder` (created if needed); returns the scene file's URL.
    @discardableResult
    public func write(to folder: URL, name: String = "scene.json") throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, image) in images { try image.writePNG(to: folder.appendingPathComponent(name)) }
        for (name, text) in texts { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let url = folder.appendingPathComponent(name)
        try Data((json.text + "\n").utf8).write(to: url)
        return url
    }
}

extension RandomScene {
    /// This scene without the layers that paint nothing (`SceneJSON.removingInvisibleLayers`), or nil when
    /// it has none.
    public var withoutInvisibleLayers: RandomScene? {
        let pruned = json.removingInvisibleLayers()
        guard pruned.text != json.text else { return nil }
        var copy = self
        copy.json = pruned
        return copy
    }
}

/// Random layer trees as scene files, for property-based tests (issue 13): every layer property of
/// docs/scene-format.md, nested at any depth, with small generated images and a sprite sheet.
public enum RandomScenes {
    /// A valid scene: every value is in its documented range, so loading succeeds and both renderers must
    /// draw it alike.
    public static func valid(seed: UInt64) -> RandomScene {
        RandomSceneBuilder(seed: seed, extreme: false).scene()
    }

    /// The same shapes of tree with numbers drawn, often, from the extremes (0, negatives, 1e-300,
    /// subnormals, 1e19, 1e300, -1e308 ...): only "a picture or a named error" is required of them.
    public static func extreme(seed: UInt64) -> RandomScene {
        RandomSceneBuilder(seed: seed, extreme: true).scene()
    }

    /// The base seed of a test run: $LAMINA_RANDOM_SEED, else `fallback`.
    public static func baseSeed(fallback: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["LAMINA_RANDOM_SEED"].flatMap { UInt64($0) } ?? fallback
    }

    /// The number of trees of a test run: $LAMINA_RANDOM_TREES, else `fallback`.
    public static func count(fallback: Int) -> Int {
        ProcessInfo.processInfo.environment["LAMINA_RANDOM_TREES"].flatMap { Int($0) } ?? fallback
    }

    /// Where reproducers go: $TMPDIR/lamina-repro/ (or /tmp/lamina-repro/).
    public static var reproRoot: URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("lamina-repro")
    }
}
