import Foundation
import LaminaCore
import LaminaImageIO
import LaminaLayers

/// How scenes are loaded.
public struct SceneOptions: Sendable {
    /// The largest output and images a scene may ask for, checked before anything is decoded or allocated;
    /// `.default`: 16384 pixels per side and 268 million pixels in all.
    public var limits: PixelLimits = .default
    /// false (the default): a scene may read only files inside its own folder, so that an untrusted scene
    /// cannot read `../secret.png`, an absolute path or a symlink out of it.
    public var allowFilesOutsideSceneFolder = false
    /// The largest image file read, in bytes (256 MiB by default), checked before the file is read.
    public var maxImageFileBytes = FileInput.defaultImageFileLimit
    /// The largest scene or sprite-sheet file read, in bytes (64 MiB by default).
    public var maxSceneFileBytes = FileInput.defaultSceneFileLimit
    /// Where decoded images reserve their pixel memory (4 bytes a pixel), before they are decoded; a scene
    /// whose images pass it fails with a `MemoryLimitError` message naming the image. Give the same budget to
    /// the renderer (`memoryBudget`) so that images and render buffers share one limit. Default: a budget of
    /// its own of `MemoryBudget.defaultLimit` (2 GiB).
    public var memoryBudget: MemoryBudget
    /// Lottie files (docs/lottie.md): which animation of a dotLottie archive (nil: its default), whether
    /// features Lamina cannot draw are warnings (`Scene.warnings`) rather than errors, whether expressions are
    /// evaluated, and replacement texts and images.
    public var lottie = LottieOptions()
    /// Images decoded once for many loads (`lamina batch`, docs/scale.md): a file already in it, unchanged since
    /// (the same size and modification time), is not read or decoded again. Nil: each load decodes its own.
    public var sharedImages: SharedImageCache?
    /// Images swapped for others (`lamina batch`'s `"images"`): a name of the top-level `images`, or a path as a
    /// layer's `contents` or a drawing's `image` writes it, to the absolute path of the file to use instead. The
    /// new files may be outside the scene's folder (whoever gives them is trusted as the scene's author is).
    public var imageReplacements: [String: String] = [:]

    /// Options with the given values; the defaults are the safe ones.
    public init(
        limits: PixelLimits = .default, allowFilesOutsideSceneFolder: Bool = false,
        memoryBudget: MemoryBudget = MemoryBudget()
    ) {
        self.limits = limits
        self.allowFilesOutsideSceneFolder = allowFilesOutsideSceneFolder
        self.memoryBudget = memoryBudget
    }
}

/// A loaded scene file (the format: docs/scene-format.md): a layer tree ready to render.
///
/// Loading checks everything before returning: a bad scene throws a `SceneError` listing every problem,
/// each with its line, column and JSON path, and nothing half-built is returned.
///
/// The layers are built in a transaction of their own with actions disabled, committed, and snapshotted at
/// time 0, so that every layer counts as drawn and later changes (the `timeline`'s, a program's) animate
/// implicitly. Load outside any open `Transaction`: inside one, the commit waits for the outermost, and until
/// then the layers have not been drawn.
public struct Scene {
    /// The root layer: bounds (0, 0, size), position at the centre of the size (so its frame equals its
    /// bounds), the top-level `backgroundColor`, and the top-level `layers` as sublayers.
    public var root: Layer
    /// The scene's size in points (the top-level `size`).
    public var size: CGSize
    /// Output pixels per point (the top-level `scale`); 1 when the file gives none.
    public var scale: CGFloat
    /// The decoded images of the top-level `images`, by name. Layers share these objects.
    public var images: [String: Image]
    /// How many seconds the scene lasts, for export (the top-level `duration`). Without one in the file: the
    /// latest end of a finite animation (through its layers' timing) or timeline entry (its time plus its
    /// implicit animations' or transition's duration), else 0.
    public var duration: Double
    /// Frames per second for export (the top-level `fps`); 60 when the file gives none.
    public var fps: Double
    /// The top-level `timeline`: changes to named layers at given times. `advance(to:)` applies them.
    public var timeline: SceneTimeline
    /// What loading allowed but could not draw (a Lottie file's unsupported features, with
    /// `SceneOptions.lottie.allowUnsupported`); empty for scene files.
    public var warnings: [SceneProblem] = []
    /// The Lottie animation the scene plays, when it was loaded from a Lottie file.
    public var lottie: LottieAnimation?
    /// The loader of a scene file, kept for its control lines (`apply(controlLine:lineNumber:at:)`): the layers by
    /// name and the images, against which a line is read.
    var loader: SceneLoader?

    /// A scene of the given parts, for building one in code.
    public init(
        root: Layer, size: CGSize, scale: CGFloat = 1, images: [String: Image] = [:], duration: Double = 0,
        fps: Double = 60, timeline: SceneTimeline = SceneTimeline()
    ) {
        self.root = root
        self.size = size
        self.scale = scale
        self.images = images
        self.duration = duration
        self.fps = fps
        self.timeline = timeline
    }

    /// Loads the scene file at `url`; relative paths in it are relative to its folder, and problems name
    /// the file by the URL's relative path, as the caller wrote it. A pipe is read too (`/dev/stdin`,
    /// `<(cat scene.json)`), its relative paths taken from the working folder (reading a pipe waits for its
    /// writer, as any program reading one does); a folder or block device is an error at once. At most
    /// `options.maxSceneFileBytes` are read. Throws `SceneError`.
    public static func load(contentsOf url: URL, options: SceneOptions = .init()) throws -> Scene {
        let fileName = url.isFileURL ? url.relativePath : url.absoluteString
        guard url.isFileURL else {
            // Data(contentsOf:) would fetch a web URL; a scene and its images are local files only.
            throw SceneError(problems: [SceneProblem(file: fileName, path: "", message: "not a file URL")])
        }
        let data: Data
        do {
            // A pipe is welcome here (/dev/stdin, <(cat scene.json)), unlike for images: the user named it.
            data = try FileInput.read(url.path, limit: options.maxSceneFileBytes, what: "a scene file",
                                      allowStreams: true)
        } catch {
            throw SceneError(problems: [SceneProblem(file: fileName, path: "", message: readFailure(error))])
        }
        // A pipe's folder (/dev, /dev/fd, /proc/self/fd) says nothing about where its images are: the working
        // folder stands in, as for `loadStandardInput`.
        // So is /dev/stdin redirected from a file (`< scene.json`), a regular file seen through /dev.
        var info = stat()
        let isFile = stat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        let parent = url.deletingLastPathComponent().standardizedFileURL.path
        let descriptorFolder = parent == "/dev" || parent == "/dev/fd"
            || (parent.hasPrefix("/proc/") && parent.hasSuffix("/fd"))
        let folder = isFile && !descriptorFolder
            ? url.deletingLastPathComponent() : URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return try load(data: data, baseDirectory: folder, fileName: fileName, options: options)
    }

    /// Loads a scene from `data`; relative paths in it are relative to `baseDirectory`, and problems name
    /// the file `fileName`. Throws `SceneError`.
    ///
    /// - Complexity: linear in the size of the file, plus decoding each distinct image once.
    public static func load(
        data: Data, baseDirectory: URL, fileName: String, options: SceneOptions = .init()
    ) throws -> Scene {
        let loader = SceneLoader(fileName: fileName, baseDirectory: baseDirectory, options: options)
        return try loader.load(data)
    }

    /// Loads a scene from standard input (`lamina render -`); relative paths in it are relative to
    /// `baseDirectory` (the working folder by default), and problems name the file `<stdin>`. At most
    /// `options.maxSceneFileBytes` are read. Throws `SceneError`.
    public static func loadStandardInput(
        baseDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        options: SceneOptions = .init()
    ) throws -> Scene {
        let data: Data
        do {
            data = try FileInput.readStandardInput(limit: options.maxSceneFileBytes, what: "a scene file")
        } catch {
            throw SceneError(problems: [SceneProblem(file: "<stdin>", path: "", message: readFailure(error))])
        }
        return try load(data: data, baseDirectory: baseDirectory, fileName: "<stdin>", options: options)
    }

    /// The problem without the path, which the SceneProblem already gives.
    private static func readFailure(_ error: FileInputError) -> String {
        switch error {
        case .unreadable(_, let reason): return "cannot read the file: \(reason)"
        case .notAFile(_, let kind): return "cannot read the file: it is \(kind), not a regular file or a pipe"
        case .tooLarge: return "the file " + error.problem
        }
    }
}
