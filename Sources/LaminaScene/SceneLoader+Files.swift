import Foundation
import LaminaCore
import LaminaImageIO

/// Why a file named by the scene cannot be used; `message` is the whole problem text.
struct FileProblem: Error {
    var message: String
}

/// What `contents` resolved to.
struct ContentsSource {
    var image: Image
    /// The layer's contentsScale unless it sets one: the image's own scale from `images`, the sprite sheet's
    /// scale, else 1.
    var scale: Double
    /// Set for "SHEET/FRAME".
    var frame: SpriteFrame?
}

/// Files and images: `images`, `contents`, path resolution and the decoded-image cache.
extension SceneLoader {
    /// The absolute path of `written` (a path as the scene or a sprite sheet wrote it) relative to `folder`,
    /// after checking that it stays in the scene's folder and exists. `notFoundHint` is added to a
    /// not-found message.
    func resolveFile(
        _ written: String, relativeTo folder: String, notFoundHint: String = ""
    ) -> Result<String, FileProblem> {
        // Thousands of layers often name the same few files; look each up once.
        let key = folder + "\u{0}" + written + "\u{0}" + notFoundHint
        if let known = resolvedFiles[key] { return known }
        let result = uncachedResolveFile(written, relativeTo: folder, notFoundHint: notFoundHint)
        resolvedFiles[key] = result
        return result
    }

    private func uncachedResolveFile(
        _ written: String, relativeTo folder: String, notFoundHint: String
    ) -> Result<String, FileProblem> {
        let quoted = ScenePath.quoted(written)
        guard !written.isEmpty else { return .failure(FileProblem(message: "expected a file path, got \"\"")) }
        let absolute = FilePaths.normalized(written.hasPrefix("/") ? written : folder + "/" + written)
        let outside = FileProblem(message: "\(quoted) is outside the scene's folder")
        let confined = !options.allowFilesOutsideSceneFolder
        if confined, !FilePaths.isInside(absolute, folder: baseDirectory) { return .failure(outside) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
            return .failure(FileProblem(message: "\(quoted) not found (looked for \(absolute)\(notFoundHint))"))
        }
        if isDirectory.boolValue {
            return .failure(FileProblem(message: "\(quoted) is a folder, not a file (\(absolute))"))
        }
        if confined, let real = FilePaths.realPath(absolute),
            !FilePaths.isInside(real, folder: FilePaths.realPath(baseDirectory) ?? baseDirectory)
        {
            return .failure(
                FileProblem(message: "\(quoted) is outside the scene's folder (a symbolic link to \(real))"))
        }
        return .success(absolute)
    }

    /// The decoded image at `absolute`, decoded once per real file and then shared.
    ///
    /// The file must be a regular file of at most `options.maxImageFileBytes` (a FIFO or device is refused
    /// before it is opened for reading). The size in the header is checked against the limits and the memory
    /// budget first, so a hostile file costs no memory.
    func image(atPath absolute: String) -> Result<Image, FileProblem> {
        if let cached = imageCache[absolute] { return cached }
        let key = FilePaths.realPath(absolute) ?? absolute
        if let cached = imageCache[key] {
            imageCache[absolute] = cached
            return cached
        }
        if let shared = options.sharedImages {
            let result = shared.image(atPath: key) { decode(absolute) }
            imageCache[key] = result
            imageCache[absolute] = result
            return result
        }
        let result = decode(absolute)
        imageCache[key] = result
        imageCache[absolute] = result
        return result
    }

    /// Reads and decodes the image file at `absolute`, checked against the limits and the budget.
    private func decode(_ absolute: String) -> Result<Image, FileProblem> {
        let result: Result<Image, FileProblem>
        do {
            let size = try ImageFile.size(ofFile: absolute, maxFileBytes: options.maxImageFileBytes)
            if let reason = options.limits.violation(width: size.width, height: size.height) {
                let error = ImageDecodingError.tooLarge(
                    name: absolute, width: size.width, height: size.height, reason: reason)
                result = .failure(FileProblem(message: error.description))
            } else {
                // The pixels are paid for before they are decoded; the image gives them back when it is freed.
                let reservation = try options.memoryBudget.reserve(
                    size.width * size.height * 4,
                    for: "image \(ScenePath.quoted(displayName(absolute))) (\(size.width)x\(size.height))")
                let image = try Image(
                    contentsOfFile: absolute, limits: options.limits, maxFileBytes: options.maxImageFileBytes)
                image.memoryReservation = reservation
                result = .success(image)
            }
        } catch let error as MemoryLimitError {
            result = .failure(FileProblem(message: error.description))
        } catch let error as ImageDecodingError {
            // Its description names the file and the decoder's reason.
            result = .failure(FileProblem(message: error.description))
        } catch {
            result = .failure(FileProblem(message: "cannot decode \(ScenePath.quoted(absolute)): \(error)"))
        }
        return result
    }

    /// The file to read for `written` (an image name or path as the scene writes it): its replacement
    /// (`SceneOptions.imageReplacements`), else `written` resolved in the scene's folder.
    func resolveImageFile(_ written: String, name: String? = nil, notFoundHint: String = "") -> Result<String, FileProblem> {
        if let replacement = name.flatMap({ options.imageReplacements[$0] }) ?? options.imageReplacements[written] {
            guard FileManager.default.fileExists(atPath: replacement) else {
                return .failure(FileProblem(message: "the replacement image \(ScenePath.quoted(replacement)) for "
                                                + "\(ScenePath.quoted(name ?? written)) was not found"))
            }
            return .success(replacement)
        }
        return resolveFile(written, relativeTo: baseDirectory, notFoundHint: notFoundHint)
    }

    /// `absolute` relative to the scene's folder when inside it (as scenes usually name their images), else
    /// as it is.
    func displayName(_ absolute: String) -> String {
        let prefix = baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// The top-level `images`: {name: path or {"path": p, "scale": s}}, all decoded now.
    func loadNamedImages(_ value: JSONValue) {
        let expected = "an object of named images such as {\"hero\": \"hero.png\"}"
        guard let members = members(value, "images", expected: expected) else { return }
        for member in members where namedImages[member.key] == nil {
            let path = ScenePath.key("images", member.key)
            var file: (text: String, value: JSONValue, path: String)?
            var scale = 1.0
            switch member.value.kind {
            case .string(let text):
                file = (text, member.value, path)
            case .object(let fields):
                let keys = knownMembers(fields, path, known: ["path", "scale"])
                if let field = keys["path"] {
                    let fieldPath = ScenePath.key(path, "path")
                    file = string(field.value, fieldPath).map { ($0, field.value, fieldPath) }
                } else {
                    report(path, at: member.value.position, "required key \"path\" is missing")
                }
                if let field = keys["scale"] {
                    scale = positiveNumber(field.value, ScenePath.key(path, "scale")) ?? 1
                }
            default:
                typeMismatch(member.value, path, expected: "a file path or {\"path\": file, \"scale\": number}")
            }
            // The name is registered even when the file fails, so layers that use it add no second problem.
            var image: Image?
            if let file {
                let loaded = resolveImageFile(file.text, name: member.key).flatMap { self.image(atPath: $0) }
                switch loaded {
                case .success(let decoded): image = decoded
                case .failure(let problem): report(file.path, at: file.value.position, problem.message)
                }
            }
            namedImages[member.key] = (image, scale)
        }
    }

    /// A layer's `contents`: "SHEET/FRAME" when SHEET is a declared sprite sheet, else an image name, else a
    /// path relative to the scene.
    func contents(_ value: JSONValue, _ path: String) -> ContentsSource? {
        guard let text = string(value, path) else { return nil }
        if let slash = text.firstIndex(of: "/"), let entry = spriteSheets[String(text[..<slash])] {
            guard let sheet = entry else { return nil }
            let frameName = String(text[text.index(after: slash)...])
            guard let frame = sheet.frames[frameName] else {
                report(path, at: value.position, sheet.missingFrameMessage(frameName))
                return nil
            }
            return ContentsSource(image: sheet.image, scale: sheet.scale, frame: frame)
        }
        var sheetHint = ""
        if spriteSheets[text] != nil {
            sheetHint = "; \(ScenePath.quoted(text)) is a sprite sheet: name a frame as \"\(text)/FRAME\""
        }
        return imageByNameOrPath(text, value, path, sheetHint: sheetHint)
    }

    /// An image name of `images`, else a path relative to the scene (the `contents` of a layer, the `image`
    /// of a drawing step); nil after reporting a problem. `sheetHint` is added to a not-found message in place
    /// of a suggested image name.
    func imageByNameOrPath(_ text: String, _ value: JSONValue, _ path: String, sheetHint: String) -> ContentsSource? {
        if let named = namedImages[text] {
            return named.image.map { ContentsSource(image: $0, scale: named.scale) }
        }
        var hint = sheetHint
        if hint.isEmpty, let name = Suggestion.closest(to: text, in: namedImages.keys.sorted()) {
            hint = "; did you mean the image \(ScenePath.quoted(name))?"
        }
        switch resolveImageFile(text, notFoundHint: hint).flatMap({ image(atPath: $0) }) {
        case .success(let image):
            return ContentsSource(image: image, scale: 1)
        case .failure(let problem):
            report(path, at: value.position, problem.message)
            return nil
        }
    }
}
