import Foundation
import LaminaCore
import LaminaLayers

/// Turns one scene file into a `Scene`, collecting every problem on the way (docs/scene-format.md, "Errors").
///
/// The loader never stops at a problem: it reports it, skips the offending value (the property keeps its
/// default) and goes on, so that `SceneError` lists everything at once. The result is returned only when
/// there was no problem at all.
///
/// The work is split by topic: values (numbers, rectangles, colours) in `SceneLoader+Values.swift`,
/// layers in `+Layer`, transforms in `+Transform`, files and images in `+Files`, sprite sheets in
/// `+SpriteSheets`.
final class SceneLoader {
    /// The bounds of the layer whose animations are being read: path steps in an animation's values (a shape's
    /// `path`) are relative to them, as the layer's own are.
    var animatedPathBounds: CGRect = .zero
    static let topLevelKeys = [
        "size", "scale", "backgroundColor", "images", "spriteSheets", "layers", "duration", "fps", "timeline",
    ]

    let fileName: String
    /// Absolute, with `.` and `..` removed; relative paths in the scene start here.
    let baseDirectory: String
    let options: SceneOptions
    var problems: [SceneProblem] = []

    /// Decoded files by their real path (symlinks resolved), so each file is decoded once and shared, and
    /// by the absolute path they were asked for, to skip realpath(3) next time; a failure is kept too, so a
    /// bad file is not read again for every layer that names it.
    var imageCache: [String: Result<Image, FileProblem>] = [:]
    /// `resolveFile` results by folder, path as written and hint.
    var resolvedFiles: [String: Result<String, FileProblem>] = [:]
    /// The top-level `images` by name: the image (nil when it could not be loaded, already reported) and
    /// its own scale.
    var namedImages: [String: (image: Image?, scale: Double)] = [:]
    /// The top-level `spriteSheets` by name; nil for a sheet that could not be loaded (already reported).
    var spriteSheets: [String: LoadedSpriteSheet?] = [:]
    /// The layers by `name`, for the timeline (which needs a name to be unique).
    var layersByName: [String: [Layer]] = [:]
    /// The animations of each layer's `animations`, for the scene's default duration.
    var layerAnimations: [(Layer, [Animation])] = []

    init(fileName: String, baseDirectory: URL, options: SceneOptions) {
        self.fileName = fileName
        self.baseDirectory = FilePaths.normalized(baseDirectory.absoluteURL.path)
        self.options = options
    }

    /// Parses and checks the whole scene. Throws `SceneError`.
    func load(_ data: Data) throws(SceneError) -> Scene {
        if Self.isZipArchive(data) { return try loadDotLottie(data) }
        let root: JSONValue
        do throws(JSONSyntaxError) {
            let parsed = try JSONParser.parse(data)
            root = parsed.root
            for issue in parsed.issues { report(issue.path, at: issue.position, issue.message) }
        } catch {
            // A syntax error leaves nothing reliable to check further.
            throw SceneError(problems: [problem("", at: error.position, error.message)])
        }
        if LottieParser.looksLikeLottie(root) {
            let animation = try LottieAnimation(root: root, issues: problems, fileName: fileName,
                                                baseDirectory: URL(fileURLWithPath: baseDirectory), options: options)
            return animation.scene()
        }
        // One transaction with actions off: a scene's start is its model, not a change to animate.
        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        Transaction.setDisableActions(true)
        let scene = loadTopLevel(root)
        Transaction.commit()
        guard problems.isEmpty else { throw SceneError(problems: sortedProblems()) }
        // A snapshot marks every layer as drawn, so that the timeline's changes animate implicitly from time 0.
        _ = scene.root.presentationSnapshot(at: 0)
        // What going back in time restores, taken before anything changes the layers (SceneTimeline.swift).
        scene.timeline.recordBaselines(under: scene.root)
        var kept = scene
        kept.loader = self
        return kept
    }

    // MARK: Problems

    func problem(_ path: String, at position: JSONPosition?, _ message: String) -> SceneProblem {
        SceneProblem(file: fileName, line: position?.line, column: position?.column, path: path, message: message)
    }

    func report(_ path: String, at position: JSONPosition?, _ message: String) {
        problems.append(problem(path, at: position, message))
    }

    /// By position; the sort is stable, so problems at one place keep the order they were found in.
    func sortedProblems() -> [SceneProblem] {
        func key(_ problem: SceneProblem) -> (Int, Int) { (problem.line ?? .max, problem.column ?? .max) }
        return problems.enumerated().sorted { a, b in
            key(a.element) != key(b.element) ? key(a.element) < key(b.element) : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: Top level

    private func loadTopLevel(_ value: JSONValue) -> Scene {
        let root = Layer()
        var scene = Scene(root: root, size: .zero)
        guard let members = members(value, "", expected: "a JSON object at the top level") else { return scene }
        let keys = knownMembers(members, "", known: SceneLoader.topLevelKeys) { key in
            SceneLoader.allLayerKeys.contains(key)
                ? "unknown key at the top level (layer properties go inside \"layers\")" : nil
        }

        var size: CGSize?
        if let member = keys["size"] {
            size = sceneSize(member.value)
        } else {
            report("size", at: value.position, "required key is missing (the scene's [width, height] in points)")
        }
        var scale: Double? = 1
        if let member = keys["scale"] { scale = positiveNumber(member.value, "scale") }
        if let size, let scale, let member = keys["size"] {
            checkOutputSize(size, scale: scale, at: member.value.position)
        }
        if let size { scene.size = size }
        if let scale { scene.scale = CGFloat(scale) }
        root.bounds = CGRect(origin: .zero, size: scene.size)
        // The root's frame is its bounds, as for a view's layer, whatever a planner makes of position.
        root.position = CGPoint(x: scene.size.width / 2, y: scene.size.height / 2)
        if let member = keys["backgroundColor"] { root.backgroundColor = color(member.value, "backgroundColor") }

        if let member = keys["images"] { loadNamedImages(member.value) }
        if let member = keys["spriteSheets"] { loadSpriteSheets(member.value) }
        if let member = keys["layers"] { buildLayers(member.value, path: "layers", parent: root) }
        var entries: [SceneTimeline.Entry] = []
        if let member = keys["timeline"] { entries = loadTimeline(member.value) }
        scene.timeline = SceneTimeline(entries: entries)
        if let member = keys["fps"], let fps = positiveNumber(member.value, "fps") { scene.fps = fps }
        if let member = keys["duration"] {
            if let duration = nonNegativeNumber(member.value, "duration") { scene.duration = duration }
        } else {
            scene.duration = defaultDuration(timeline: entries)
        }

        scene.images = namedImages.compactMapValues(\.image)
        return scene
    }

    /// `size`: two positive numbers.
    private func sceneSize(_ value: JSONValue) -> CGSize? {
        guard let numbers = numbers(value, "size", counts: [2], shape: "[width, height]") else { return nil }
        var isValid = true
        for (number, name) in zip(numbers, ["width", "height"]) where number <= 0 {
            report("size", at: value.position, "\(name) must be positive")
            isValid = false
        }
        return isValid ? CGSize(width: numbers[0], height: numbers[1]) : nil
    }

    /// The output, round(size x scale) pixels, must fit `options.limits` and hold at least one pixel.
    private func checkOutputSize(_ size: CGSize, scale: Double, at position: JSONPosition) {
        let width = (size.width * scale).rounded()
        let height = (size.height * scale).rounded()
        var text = "\(format(size.width))x\(format(size.height)) points"
        if scale != 1 { text += " at scale \(format(scale))" }
        if width < 1 || height < 1 {
            report("size", at: position, "\(text) is less than one pixel (\(format(width))x\(format(height)))")
            return
        }
        let reason: String?
        // Beyond this, Int(width) could trap; such a size is over any limit anyway.
        if max(width, height) > 1e15 {
            // A product past the range of doubles is named as such, not as "inf".
            func pixels(_ value: Double) -> String { value.isFinite ? format(value) : "more than 1.8e308" }
            reason =
                "\(pixels(width))x\(pixels(height)) pixels exceeds the limit of "
                + "\(options.limits.maxDimension) pixels per side"
        } else {
            reason = options.limits.violation(width: Int(width), height: Int(height))
        }
        if let reason { report("size", at: position, "\(text) is too large: \(reason)") }
    }

    // MARK: Objects

    /// The members of an object; nil (reported) when `value` is something else.
    func members(_ value: JSONValue, _ path: String, expected: String = "an object") -> [JSONMember]? {
        if case .object(let members) = value.kind { return members }
        typeMismatch(value, path, expected: expected)
        return nil
    }

    /// The first member of each key of `known`, by key. Reports every other key as unknown, with a suggestion
    /// when one is close (or `hint`'s message).
    func knownMembers(
        _ members: [JSONMember], _ path: String, known: [String], hint: ((String) -> String?)? = nil
    ) -> [String: JSONMember] {
        var result: [String: JSONMember] = [:]
        for member in members {
            if known.contains(member.key) {
                if result[member.key] == nil { result[member.key] = member }
            } else {
                let memberPath = ScenePath.key(path, member.key)
                if let suggestion = Suggestion.closest(to: member.key, in: known) {
                    report(memberPath, at: member.keyPosition, "unknown key (did you mean \"\(suggestion)\"?)")
                } else {
                    report(memberPath, at: member.keyPosition, hint?(member.key) ?? "unknown key")
                }
            }
        }
        return result
    }

    /// Reports `expected X, got Y`, unless the value was already reported by the parser.
    func typeMismatch(_ value: JSONValue, _ path: String, expected: String) {
        guard !value.isInvalid else { return }
        report(path, at: value.position, "expected \(expected), got \(value.typeDescription)")
    }
}
