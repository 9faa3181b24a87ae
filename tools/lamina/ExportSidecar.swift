import Foundation
import Lamina

/// The JSON file written beside an export's frames (docs/export.md, "The sidecar"): what a later step needs
/// to read the frames (size, rate, pixel format) and to know where they came from (the scene's SHA-256,
/// Lamina's version). Written last, once every frame is out, so its presence says the export (or shard)
/// completed. Keys are in a fixed order and numbers in their shortest form, so the same export gives the
/// same bytes.
struct ExportSidecar {
    var format: ExportFormat
    var pixelFormat: RawPixelFormat?
    /// The `-o` pattern or path as given.
    var output: String
    var scene: String
    var sceneSHA256: String
    var frames: Range<Int>
    var totalFrames: Int
    var shard: FrameShard
    var rate: FrameRate
    var duration: Double
    var start: Double
    var width: Int
    var height: Int
    var scale: Double

    /// The pixel format's name in the file: `rgba` (straight alpha) for PNG frames.
    private var pixelFormatName: String { pixelFormat?.rawValue ?? "rgba" }

    var json: String {
        var fields: [(String, String)] = [
            ("format", format.rawValue.jsonQuoted),
            ("pixelFormat", pixelFormatName.jsonQuoted),
        ]
        if pixelFormatName == "yuv420p" {
            fields += [("colorMatrix", "bt601".jsonQuoted), ("colorRange", "full".jsonQuoted),
                       ("background", "black".jsonQuoted)]
        } else {
            fields.append(("alpha", "straight".jsonQuoted))
        }
        fields += [
            ("output", output.jsonQuoted),
            ("width", "\(width)"),
            ("height", "\(height)"),
            ("scale", number(scale)),
            ("fps", number(rate.value)),
            ("frameRate", "\(rate.numerator)/\(rate.denominator)".jsonQuoted),
            ("start", number(start)),
            ("duration", number(duration)),
            ("frameCount", "\(frames.count)"),
            ("firstFrame", frames.isEmpty ? "null" : "\(frames.lowerBound)"),
            ("lastFrame", frames.isEmpty ? "null" : "\(frames.upperBound - 1)"),
            ("totalFrames", "\(totalFrames)"),
            ("shard", "{\"index\": \(shard.index), \"count\": \(shard.count)}"),
            ("scene", scene.jsonQuoted),
            ("sceneSHA256", sceneSHA256.jsonQuoted),
            ("laminaVersion", LaminaVersion.string.jsonQuoted),
        ]
        return "{\n" + fields.map { "  \($0.0.jsonQuoted): \($0.1)" }.joined(separator: ",\n") + "\n}\n"
    }

    /// The shortest decimal that reads back as `value` (`60`, `29.97002997002997`, `0.5`).
    private func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    /// Where the sidecar goes when `--sidecar` does not say: `export.json` in the frames' folder for PNG
    /// frames (`export.shard-K-of-N.json` for a shard, so that shards writing to one folder keep theirs),
    /// `OUTPUT.json` beside a y4m or raw file, and none for standard output.
    static func defaultPath(format: ExportFormat, output: String, pattern: FramePattern?, shard: FrameShard) -> String? {
        if output == "-" { return nil }
        guard let pattern else { return output + ".json" }
        let name = shard == .whole ? "export.json" : "export.shard-\(shard.index)-of-\(shard.count).json"
        let folder = pattern.folder
        return folder == "." ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
