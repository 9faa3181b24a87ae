import Foundation
import LaminaCore
import LaminaImageIO

/// One frame of a loaded sprite sheet, as a layer uses it.
struct SpriteFrame {
    /// The frame's stored rectangle in unit coordinates of the texture: the layer's contentsRect.
    var unitRect: CGRect
    /// The layer's contentsAreRotated: the frame is stored turned 90 degrees clockwise.
    var rotated: Bool
}

/// A sprite sheet whose texture is decoded and whose frames are checked against it.
struct LoadedSpriteSheet {
    var name: String
    var image: Image
    /// contentsScale for layers that show its frames and set none: `metadata.scale`, else 1.
    var scale: Double
    var frames: [String: SpriteFrame]

    /// `sheet "hero" has no frame "run-9.png" (it has 12 frames, e.g. "run-1.png")`, the example being the
    /// closest name when one is close.
    func missingFrameMessage(_ frameName: String) -> String {
        var text = "sheet \(ScenePath.quoted(name)) has no frame \(ScenePath.quoted(frameName))"
        let names = frames.keys.sorted()
        guard let first = names.first else { return text + " (it has no frames)" }
        let example = Suggestion.closest(to: frameName, in: names) ?? first
        text += " (it has \(names.count) frame\(names.count == 1 ? "" : "s"), e.g. \(ScenePath.quoted(example)))"
        return text
    }
}

/// The top-level `spriteSheets`: {name: "sheet.plist"}.
extension SceneLoader {
    func loadSpriteSheets(_ value: JSONValue) {
        let expected = "an object of sprite sheets such as {\"hero\": \"hero.plist\"}"
        guard let members = members(value, "spriteSheets", expected: expected) else { return }
        for member in members where !spriteSheets.keys.contains(member.key) {
            // Declared even when it fails, so layers that use it add no second problem.
            spriteSheets.updateValue(nil, forKey: member.key)
            let path = ScenePath.key("spriteSheets", member.key)
            guard let file = string(member.value, path) else { continue }
            let problemCount = problems.count
            let sheet = loadSpriteSheet(named: member.key, file: file) { message in
                report(path, at: member.value.position, message)
            }
            if let sheet, problems.count == problemCount { spriteSheets[member.key] = sheet }
        }
    }

    /// Reads the plist and its texture; every problem goes to `report`, worded with the plist's name.
    private func loadSpriteSheet(named name: String, file: String, report: (String) -> Void) -> LoadedSpriteSheet? {
        let plistPath: String
        switch resolveFile(file, relativeTo: baseDirectory) {
        case .success(let path): plistPath = path
        case .failure(let problem):
            report(problem.message)
            return nil
        }
        let quotedFile = ScenePath.quoted(file)
        let data: Data
        do {
            data = try FileInput.read(plistPath, limit: options.maxSceneFileBytes, what: "a sprite sheet")
        } catch {
            report("\(quotedFile) (\(plistPath)) \(error.problem)")
            return nil
        }
        let description: SpriteSheetDescription
        do throws(FileProblem) {
            let parsed = try SpriteSheetDescription.parse(data, plistName: plistPath)
            description = parsed.sheet
            for problem in parsed.problems { report("\(quotedFile): \(problem)") }
        } catch {
            report("\(quotedFile): \(error.message)")
            return nil
        }

        // The texture sits next to the plist: the first of its candidate names that exists.
        let plistFolder = FilePaths.folder(of: plistPath)
        let candidates = description.textureFileNames
        let existing = candidates.first { FileManager.default.fileExists(atPath: plistFolder + "/" + $0) }
        let textureName = existing ?? candidates[0]
        let image: Image
        switch resolveFile(textureName, relativeTo: plistFolder) {
        case .failure(let problem):
            report("\(quotedFile): texture \(problem.message)")
            return nil
        case .success(let texturePath):
            switch self.image(atPath: texturePath) {
            case .success(let decoded): image = decoded
            case .failure(let problem):
                report("\(quotedFile): \(problem.message)")
                return nil
            }
        }

        let textureRect = CGRect(x: 0, y: 0, width: image.width, height: image.height)
        var frames: [String: SpriteFrame] = [:]
        for (frameName, frame) in description.frames.sorted(by: { $0.key < $1.key }) {
            let rect = frame.rectInTexture
            guard rect.minX >= 0, rect.minY >= 0, rect.maxX <= textureRect.width, rect.maxY <= textureRect.height
            else {
                report(
                    "\(quotedFile): frame \(ScenePath.quoted(frameName)) \(SpriteSheetDescription.describe(rect)) "
                        + "reaches outside the \(image.width)x\(image.height) texture")
                continue
            }
            let unitRect = CGRect(
                x: rect.minX / textureRect.width, y: rect.minY / textureRect.height,
                width: rect.width / textureRect.width, height: rect.height / textureRect.height)
            frames[frameName] = SpriteFrame(unitRect: unitRect, rotated: frame.rotated)
        }
        return LoadedSpriteSheet(name: name, image: image, scale: description.scale ?? 1, frames: frames)
    }
}
