import Foundation
import Lamina
import Testing

/// The fixture folder (Package.swift copies `Fixtures` into the test bundle).
enum Fixtures {
    static let folder: URL = url("basic.json").deletingLastPathComponent()

    static func url(_ name: String) -> URL {
        let url = URL(fileURLWithPath: name)
        guard
            let found = Bundle.module.url(
                forResource: url.deletingPathExtension().lastPathComponent, withExtension: url.pathExtension,
                subdirectory: "Fixtures")
        else { fatalError("missing fixture \(name)") }
        return found
    }

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}

/// Loads `json` as a scene named "scene.json" in `folder` (the fixtures by default).
func loadScene(_ json: String, in folder: URL = Fixtures.folder, options: SceneOptions = .init()) throws -> Scene {
    try Scene.load(data: Data(json.utf8), baseDirectory: folder, fileName: "scene.json", options: options)
}

/// The first layer of the scene `json`.
func loadLayer(_ json: String) throws -> Layer {
    let scene = try loadScene(json)
    return try #require(scene.root.sublayers?.first)
}

/// The scene of one layer with the given members, e.g. `"opacity": 0.5`.
func sceneWithLayer(_ members: String) -> String {
    #"{"size": [100, 100], "layers": [{\#(members)}]}"#
}

/// The problems loading `json` reports, as description lines; a marker line when it loads fine.
func problems(_ json: String, in folder: URL = Fixtures.folder, options: SceneOptions = .init()) -> [String] {
    do {
        _ = try loadScene(json, in: folder, options: options)
        return ["(the scene loaded without problems)"]
    } catch let error as SceneError {
        return error.problems.map(\.description)
    } catch {
        return ["(not a SceneError: \(error))"]
    }
}

/// A fresh empty folder under the temporary directory, for tests that make files or links.
func makeTemporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-scene-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
