import Foundation
import LaminaCore
import LaminaDrawing
import LaminaImageIO
import LaminaLayers

/// How Lottie files are read (`SceneOptions.lottie`, `LottieAnimation.init`).
public struct LottieOptions: Sendable {
    /// false (the default): a file using a feature Lamina cannot draw fails to load, with one problem per
    /// feature naming its JSON path; true: the rest is drawn and those problems are `warnings`.
    public var allowUnsupported = false
    /// The animation of a dotLottie archive to play; nil: its default (the manifest's active or first one).
    public var animationID: String?
    /// Evaluate After Effects expressions (`x`) with the sandboxed engine (docs/expressions.md); false: the
    /// keyframed values show, as in lottie-ios and rlottie.
    public var evaluatesExpressions = true
    /// Text shown in place of a text layer's own, by layer name (lottie-ios's text provider).
    public var texts: [String: String] = [:]
    /// Images shown in place of image assets, by asset id (lottie-ios's image provider).
    public var images: [String: Image] = [:]
    /// true (the default): the animation loops past its out point; false: it holds its last frame.
    public var loops = true
    /// false (the default): a layer per Lottie layer, so live frames redraw only the layers that changed (what
    /// `play` wants). true: the whole composition is one drawing layer, drawn as one picture a frame: faster for
    /// `render` and `export`, where every frame is drawn whole anyway (docs/lottie.md, "The layer tree").
    public var drawsAsOneLayer = false

    public init(allowUnsupported: Bool = false, animationID: String? = nil) {
        self.allowUnsupported = allowUnsupported
        self.animationID = animationID
    }
}

/// A named time of a Lottie animation (its `markers`): `frame` and `duration` in frames.
public struct LottieMarkerInfo: Sendable, Equatable {
    public var name: String
    public var frame: Double
    public var duration: Double
}

/// A Lottie (Bodymovin JSON) animation, played as a layer tree with animations (docs/lottie.md).
///
/// ```swift
/// let animation = try LottieAnimation(contentsOf: URL(fileURLWithPath: "loader.json"))
/// let layer = animation.makeLayer()       // place it in any tree; its beginTime/speed/timeOffset time it
/// let frame = try renderer.render(layer, size: animation.size, at: 0.5)
/// ```
public final class LottieAnimation: @unchecked Sendable {
    /// The composition's size (`w`, `h`), points.
    public let size: CGSize
    /// Frames per second (`fr`).
    public let frameRate: Double
    /// The first frame (`ip`) and the frame after the last (`op`).
    public let inFrame: Double
    public let outFrame: Double
    /// Seconds: (op - ip) / fr.
    public var duration: Double { (outFrame - inFrame) / frameRate }
    /// The file's markers.
    public let markers: [LottieMarkerInfo]
    /// The Lottie version that wrote the file (`v`).
    public let version: String
    /// The features the file uses, with how often (for `lamina info`).
    public let features: [String: Int]
    /// The features Lamina cannot draw, when `allowUnsupported` let the file load.
    public let warnings: [SceneProblem]
    /// The file name problems name.
    public let fileName: String

    let document: LottieDocument
    let options: LottieOptions
    private let baseDirectory: URL?
    private let decodedImages: [String: Image]
    private let expressions: LottieExpressionRunner?

    /// Reads the Lottie JSON file or dotLottie archive at `url`. Throws `SceneError`.
    public convenience init(contentsOf url: URL, options: LottieOptions = LottieOptions()) throws {
        var sceneOptions = SceneOptions()
        sceneOptions.lottie = options
        let scene = try Scene.load(contentsOf: url, options: sceneOptions)
        guard let animation = scene.lottie else {
            throw SceneError(problems: [SceneProblem(file: url.relativePath, path: "",
                                                     message: "not a Lottie file (it has no \"v\", \"fr\", \"ip\", \"op\", \"w\", \"h\" and \"layers\")")])
        }
        self.init(copying: animation)
    }

    /// Reads a Lottie JSON document (or dotLottie archive) from `data`; external images are looked up in
    /// `baseDirectory` (nil: the working folder). Throws `SceneError`.
    public convenience init(data: Data, fileName: String = "<data>", baseDirectory: URL? = nil,
                            options: LottieOptions = LottieOptions()) throws {
        var sceneOptions = SceneOptions()
        sceneOptions.lottie = options
        let folder = baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let scene = try Scene.load(data: data, baseDirectory: folder, fileName: fileName, options: sceneOptions)
        guard let animation = scene.lottie else {
            throw SceneError(problems: [SceneProblem(file: fileName, path: "", message: "not a Lottie file")])
        }
        self.init(copying: animation)
    }

    private init(copying other: LottieAnimation) {
        size = other.size
        frameRate = other.frameRate
        inFrame = other.inFrame
        outFrame = other.outFrame
        markers = other.markers
        version = other.version
        features = other.features
        warnings = other.warnings
        fileName = other.fileName
        document = other.document
        options = other.options
        baseDirectory = other.baseDirectory
        decodedImages = other.decodedImages
        expressions = other.expressions
        texts = other.texts
        images = other.images
    }

    /// Reads a parsed document (SceneLoader calls this for a JSON file with Lottie's top-level keys).
    init(root: JSONValue, issues: [SceneProblem], fileName: String, baseDirectory: URL, options: SceneOptions,
         imageData: ((String) throws -> Data?)? = nil) throws(SceneError) {
        let diagnostics = LottieDiagnostics(fileName: fileName)
        diagnostics.problems = issues
        let reader = LottieReader(diagnostics: diagnostics)
        let parser = LottieParser(reader: reader)
        let document = parser.document(LottieNode(value: root, path: ""))
        let lottie = options.lottie
        self.fileName = fileName
        self.document = document
        self.options = lottie
        self.baseDirectory = baseDirectory
        size = CGSize(width: document.width, height: document.height)
        frameRate = document.frameRate
        inFrame = document.inPoint
        outFrame = document.outPoint
        markers = document.markers.map { LottieMarkerInfo(name: $0.name, frame: $0.frame, duration: $0.duration) }
        version = document.version
        var images: [String: Image] = [:]
        for (id, asset) in document.images where lottie.images[id] == nil {
            if let image = Self.decode(asset, baseDirectory: baseDirectory, options: options, imageData: imageData,
                                       diagnostics: diagnostics) {
                images[id] = image
            }
        }
        decodedImages = images
        texts = lottie.texts
        self.images = lottie.images
        if diagnostics.features["expressions"] != nil && lottie.evaluatesExpressions {
            expressions = LottieExpressions.make(diagnostics: diagnostics)
        } else {
            expressions = nil
        }
        // A tree built once checks parents, precomps and mattes, whose problems are the file's.
        let evaluator = LottieEvaluator(document: document, images: images, texts: [:], expressions: expressions)
        // Each expression runs once at the in point: a syntax error or a limit is the file's problem, named.
        if let expressions {
            for property in diagnostics.expressionProperties {
                if let failure = expressions.failure(property.expression ?? "", property: property,
                                                      frame: document.inPoint, evaluator: evaluator) {
                    diagnostics.problem(nil, path: property.path, "its expression fails: \(failure)")
                }
            }
        }
        // In a transaction of its own, committed: an implicit one would keep the throwaway layers until the
        // thread's next commit.
        Transaction.begin()
        Transaction.setDisableActions(true)
        _ = LottieTreeBuilder(evaluator: evaluator, diagnostics: diagnostics, rootFrame: { _ in document.inPoint })
            .root()
        Transaction.commit()
        features = diagnostics.features
        if !diagnostics.problems.isEmpty || (!lottie.allowUnsupported && !diagnostics.unsupported.isEmpty) {
            throw SceneError(problems: Self.sorted(diagnostics.problems + (lottie.allowUnsupported ? [] : diagnostics.unsupported)))
        }
        warnings = Self.sorted(diagnostics.unsupported)
    }

    private static func sorted(_ problems: [SceneProblem]) -> [SceneProblem] {
        problems.enumerated().sorted { a, b in
            let ka = (a.element.line ?? .max, a.element.column ?? .max), kb = (b.element.line ?? .max, b.element.column ?? .max)
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    /// Text shown in place of a text layer's own, by layer name; changes apply to layers made afterwards.
    public var texts: [String: String]
    /// Images shown in place of image assets, by asset id; changes apply to layers made afterwards.
    public var images: [String: Image]

    /// A new layer tree playing the animation: the composition's bounds at the origin (anchor point (0, 0)), its
    /// layers as sublayers with their animations. Its local time 0 is the in point; time it with the layer's
    /// `beginTime`, `speed` and `timeOffset` as any layer.
    public func makeLayer() -> Layer {
        var all = decodedImages
        for (id, image) in images { all[id] = image }
        let evaluator = LottieEvaluator(document: document, images: all, texts: texts, expressions: expressions)
        let (ip, op, fr, loops) = (inFrame, outFrame, frameRate, options.loops)
        let span = op - ip
        let frame: @Sendable (Double) -> Double = { t in
            guard t.isFinite, t > 0 else { return ip }
            let f = t * fr
            if loops, span > 0 { return ip + f.truncatingRemainder(dividingBy: span) }
            return min(ip + f, op - 1e-6)
        }
        let diagnostics = LottieDiagnostics(fileName: fileName)
        var builder = LottieTreeBuilder(evaluator: evaluator, diagnostics: diagnostics, rootFrame: frame)
        builder.oneLayer = options.drawsAsOneLayer
        return builder.root()
    }

    /// A scene playing the animation: its size and frame rate, the duration (op - ip) / fr.
    public func scene() -> Scene {
        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        Transaction.setDisableActions(true)
        let root = makeLayer()
        Transaction.commit()
        _ = root.presentationSnapshot(at: 0)
        var scene = Scene(root: root, size: size, duration: duration, fps: frameRate)
        scene.warnings = warnings
        scene.lottie = self
        return scene
    }

    /// An image asset: a data URL, or a file `u` + `p` beside the Lottie file (inside a dotLottie archive:
    /// `imageData`).
    private static func decode(_ asset: LottieImageAsset, baseDirectory: URL, options: SceneOptions,
                               imageData: ((String) throws -> Data?)?, diagnostics: LottieDiagnostics) -> Image? {
        let path = asset.path + ".p"
        do {
            let data: Data
            if asset.file.hasPrefix("data:") {
                guard let comma = asset.file.firstIndex(of: ","), asset.file[..<comma].hasSuffix(";base64"),
                      let bytes = Data(base64Encoded: String(asset.file[asset.file.index(after: comma)...]),
                                       options: .ignoreUnknownCharacters) else {
                    diagnostics.problem(nil, path: path, "the image's data URL is not base64 data")
                    return nil
                }
                data = bytes
            } else if let archived = try imageData?(asset.folder + asset.file) {
                data = archived
            } else {
                let relative = asset.folder + asset.file
                guard !relative.isEmpty else { return nil }
                let url = relative.hasPrefix("/") ? URL(fileURLWithPath: relative)
                    : baseDirectory.appendingPathComponent(relative)
                if !options.allowFilesOutsideSceneFolder {
                    let base = baseDirectory.standardizedFileURL.path
                    guard url.standardizedFileURL.path.hasPrefix(base.hasSuffix("/") ? base : base + "/") else {
                        diagnostics.problem(nil, path: path, "the image \"\(relative)\" is outside the file's folder")
                        return nil
                    }
                }
                data = try FileInput.read(url.path, limit: options.maxImageFileBytes, what: "an image file")
            }
            return try Image(data: data, name: asset.file.hasPrefix("data:") ? asset.id : asset.file,
                             limits: options.limits)
        } catch {
            diagnostics.problem(nil, path: path, "cannot load the image \"\(asset.id)\": \(error)")
            return nil
        }
    }
}
