import Foundation
import LaminaCore
import LaminaLayers

/// How scenes are loaded.
public struct SceneOptions: Sendable {
    /// The largest output and images a scene may ask for, checked before anything is decoded or allocated;
    /// `.default`: 16384 pixels per side and 268 million pixels in all.
    public var limits: PixelLimits = .default
    /// false (the default): a scene may read only files inside its own folder, so that an untrusted scene
    /// cannot read `../secret.png`, an absolute path or a symlink out of it.
    public var allowFilesOutsideSceneFolder = false

    /// Options with the given values; the defaults are the safe ones.
    public init(limits: PixelLimits = .default, allowFilesOutsideSceneFolder: Bool = false) {
        self.limits = limits
        self.allowFilesOutsideSceneFolder = allowFilesOutsideSceneFolder
    }
}

/// A loaded scene file (the format: SCENE-FORMAT.md in the design notes): a layer tree ready to render.
///
/// Loading checks everything before returning: a bad scene throws a `SceneError` listing every problem,
/// each with its line, column and JSON path, and nothing half-built is returned.
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

    /// A scene of the given parts, for building one in code.
    public init(root: Layer, size: CGSize, scale: CGFloat = 1, images: [String: Image] = [:]) {
        self.root = root
        self.size = size
        self.scale = scale
        self.images = images
    }

    /// Loads the scene file at `url`; relative paths in it are relative to its folder, and problems name
    /// the file by the URL's relative path, as the caller wrote it. Throws `SceneError`.
    public static func load(contentsOf url: URL, options: SceneOptions = .init()) throws -> Scene {
        let fileName = url.isFileURL ? url.relativePath : url.absoluteString
        guard url.isFileURL else {
            // Data(contentsOf:) would fetch a web URL; a scene and its images are local files only.
            throw SceneError(problems: [SceneProblem(file: fileName, path: "", message: "not a file URL")])
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SceneError(problems: [
                SceneProblem(file: fileName, path: "", message: "cannot read the file: \(readFailure(url, error))")
            ])
        }
        return try load(
            data: data, baseDirectory: url.deletingLastPathComponent(), fileName: fileName, options: options)
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

    /// Short words for the usual failures (Foundation's own messages differ between platforms).
    private static func readFailure(_ url: URL, _ error: Error) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "it is a directory" }
        if !FileManager.default.isReadableFile(atPath: url.path) { return "permission denied" }
        return error.localizedDescription
    }
}
