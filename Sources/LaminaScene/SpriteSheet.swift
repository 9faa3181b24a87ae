import Foundation

/// What a Cocos2D / TexturePacker sprite sheet property list (.plist) says, before its texture is read.
///
/// Frame formats (the `metadata.format` number; the keys decide, so a missing format number is no problem):
/// - 0: `x`, `y`, `width`, `height` numbers;
/// - 1 and 2: `frame` "{{x,y},{w,h}}", and in 2 `rotated`;
/// - 3: `textureRect` "{{x,y},{w,h}}" and `textureRotated`.
/// A frame's {w,h} is the sprite's upright size; a rotated frame is stored turned 90 degrees clockwise, so
/// it occupies h x w pixels of the texture.
///
/// Trimming: a trimmed frame is used as it is stored, the trimmed rectangle only. Its trim offsets
/// (`offset`, `sourceColorRect`, `sourceSize`; `spriteOffset`, `spriteSourceSize`, ...) are read by
/// nobody: a layer shows the trimmed pixels filling its contents, not placed within the untrimmed size.
struct SpriteSheetDescription {
    struct Frame {
        /// The rectangle the frame occupies in the texture, in pixels (h x w for a rotated frame).
        var rectInTexture: CGRect
        var rotated: Bool
    }

    /// Texture file names to try, in order, relative to the plist: `metadata.realTextureFileName`,
    /// `metadata.textureFileName`, then the plist's own name with ".png".
    var textureFileNames: [String]
    /// `metadata.scale` when given: the texture's pixels per point.
    var scale: Double?
    var frames: [String: Frame]

    /// Reads the property list; `problems` are messages about single frames (the rest still loads).
    /// Throws a message for a file that is no sprite sheet at all.
    static func parse(_ data: Data, plistName: String) throws(FileProblem) -> (
        sheet: SpriteSheetDescription, problems: [String]
    ) {
        if let refusal = BinaryPropertyList.refusal(data) {
            throw FileProblem(message: "not a valid property list (\(refusal))")
        }
        let list: Any
        do {
            list = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            let detail = (error as NSError).userInfo["NSDebugDescription"] as? String
            throw FileProblem(message: "not a valid property list" + (detail.map { " (\($0))" } ?? ""))
        }
        guard let root = list as? [String: Any] else {
            throw FileProblem(message: "not a sprite sheet (the property list is not a dictionary)")
        }
        guard let framesList = root["frames"] as? [String: Any] else {
            throw FileProblem(message: "not a sprite sheet (no \"frames\" dictionary)")
        }
        let metadata = root["metadata"] as? [String: Any] ?? [:]

        var names: [String] = []
        for key in ["realTextureFileName", "textureFileName"] {
            if let name = metadata[key] as? String, !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        let base = (plistName as NSString).lastPathComponent
        names.append(((base as NSString).deletingPathExtension) + ".png")

        var problems: [String] = []
        var scale: Double?
        if let value = metadata["scale"] {
            if let number = double(value), number > 0, number.isFinite {
                scale = number
            } else {
                problems.append("metadata \"scale\" must be a positive number")
            }
        }

        var frames: [String: Frame] = [:]
        for (name, entry) in framesList {
            do throws(FileProblem) {
                frames[name] = try frame(entry)
            } catch {
                problems.append("frame \(ScenePath.quoted(name)): \(error.message)")
            }
        }
        return (SpriteSheetDescription(textureFileNames: names, scale: scale, frames: frames), problems.sorted())
    }

    private static func frame(_ entry: Any) throws(FileProblem) -> Frame {
        guard let fields = entry as? [String: Any] else { throw FileProblem(message: "not a dictionary") }
        let rect: CGRect
        var rotated = false
        if let key = ["textureRect", "frame"].first(where: { fields[$0] != nil }) {
            guard let text = fields[key] as? String, let parsed = rectangle(text) else {
                let shown = (fields[key] as? String).map(ScenePath.quoted) ?? "a non-string"
                throw FileProblem(message: "\"\(key)\" must be a rectangle \"{{x,y},{w,h}}\", got \(shown)")
            }
            rect = parsed
            let rotationKey = key == "textureRect" ? "textureRotated" : "rotated"
            if let value = fields[rotationKey] {
                guard let flag = bool(value) else {
                    throw FileProblem(message: "\"\(rotationKey)\" must be true or false")
                }
                rotated = flag
            }
        } else if let x = fields["x"].flatMap(double), let y = fields["y"].flatMap(double),
            let width = fields["width"].flatMap(double), let height = fields["height"].flatMap(double)
        {
            rect = CGRect(x: x, y: y, width: width, height: height)
        } else {
            throw FileProblem(message: "no \"frame\" or \"textureRect\" rectangle")
        }
        guard [rect.minX, rect.minY, rect.width, rect.height].allSatisfy(\.isFinite), rect.width >= 0,
            rect.height >= 0
        else {
            throw FileProblem(message: "the rectangle \(describe(rect)) is not a valid size")
        }
        let stored =
            rotated
            ? CGRect(x: rect.minX, y: rect.minY, width: rect.height, height: rect.width) : rect
        return Frame(rectInTexture: stored, rotated: rotated)
    }

    /// "{{x,y},{w,h}}" (spaces allowed), as Cocos2D's CCRectFromString reads it.
    static func rectangle(_ text: String) -> CGRect? {
        let compact = text.filter { !$0.isWhitespace }
        guard compact.hasPrefix("{{"), compact.hasSuffix("}}"), compact.contains("},{") else { return nil }
        let parts = compact.split(whereSeparator: { "{},".contains($0) })
        guard parts.count == 4 else { return nil }
        let numbers = parts.compactMap { Double($0) }
        guard numbers.count == 4 else { return nil }
        return CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    static func describe(_ rect: CGRect) -> String {
        func format(_ value: CGFloat) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
        }
        return "{{\(format(rect.minX)),\(format(rect.minY))},{\(format(rect.width)),\(format(rect.height))}}"
    }

    private static func double(_ value: Any) -> Double? {
        switch value {
        case let number as Double: return number
        case let number as Int: return Double(number)
        case let number as NSNumber: return number.doubleValue
        case let text as String: return Double(text.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    private static func bool(_ value: Any) -> Bool? {
        switch value {
        case let flag as Bool: return flag
        case let number as NSNumber: return number.boolValue
        default: return nil
        }
    }
}
