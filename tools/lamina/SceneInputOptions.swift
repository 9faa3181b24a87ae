import ArgumentParser
import Foundation
import Lamina

/// The options every command that loads a scene and renders it takes (`render`, `export`): the memory limit, files
/// outside the scene's folder, and EGL logging.
struct SceneInputOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Most memory for decoded images, offscreen buffers and outputs together (default 2G).",
        valueName: "size such as 512M, 2G, 1.5GiB or bytes"))
    var memoryLimit: String?

    @Flag(help: "Allow the scene to read images outside its own folder.")
    var allowOutsideFiles = false

    @Flag(name: .shortAndLong, help: "Log each EGL display tried.")
    var verbose = false

    /// The memory budget of `--memory-limit`, and the scene options with it.
    func sceneOptions() throws -> (budget: MemoryBudget, options: SceneOptions) {
        let budget = MemoryBudget(limit: try Render.memoryLimit(memoryLimit))
        return (budget, SceneOptions(allowFilesOutsideSceneFolder: allowOutsideFiles, memoryBudget: budget))
    }
}
