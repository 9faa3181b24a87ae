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

    @Option(help: ArgumentHelp("A dotLottie archive's animation to play (default: its active or first one).",
                               valueName: "id"))
    var animation: String?

    @Flag(help: "Draw a Lottie file even where it uses features Lamina cannot draw (each is printed as a warning).")
    var allowUnsupported = false

    @Flag(help: "Ignore a Lottie file's expressions: draw the keyframed values (as lottie-ios and rlottie do).")
    var noExpressions = false

    @Flag(help: "Lottie files: a layer per Lottie layer (as play draws them) rather than one drawing a frame.")
    var lottieLayers = false

    @Option(help: ArgumentHelp("Flatten the output over this colour (the scene is transparent where nothing is drawn).",
                               valueName: "#rrggbb, #rrggbbaa or a name such as white"))
    var background: String?

    /// The colour of `--background`; nil without it. Throws a usage error for a colour it cannot read.
    func backgroundColor() throws -> Color? {
        guard let background else { return nil }
        guard let color = Color(hex: background) ?? Self.namedColors[background.lowercased()] else {
            throw CLIFailure.badInput("--background: expected a colour such as #ffffff or white, got \"\(background)\"")
        }
        return color
    }

    static let namedColors: [String: Color] = [
        "white": .white, "black": .black, "clear": .clear, "transparent": .clear,
        "red": Color(red: 1, green: 0, blue: 0), "green": Color(red: 0, green: 1, blue: 0),
        "blue": Color(red: 0, green: 0, blue: 1), "gray": Color(white: 0.5), "grey": Color(white: 0.5),
    ]

    /// Prints what loading allowed but cannot draw (`--allow-unsupported`), one warning a line.
    static func warn(_ scene: Scene) {
        for warning in scene.warnings { note("lamina: warning: \(warning)") }
    }

    /// The memory budget of `--memory-limit`, and the scene options with it.
    /// `wholeFrames`: every frame is drawn whole (render, export), so a Lottie file is one drawing layer unless
    /// --lottie-layers.
    func sceneOptions(wholeFrames: Bool = false) throws -> (budget: MemoryBudget, options: SceneOptions) {
        let budget = MemoryBudget(limit: try Render.memoryLimit(memoryLimit))
        var options = SceneOptions(allowFilesOutsideSceneFolder: allowOutsideFiles, memoryBudget: budget)
        options.lottie.animationID = animation
        options.lottie.allowUnsupported = allowUnsupported
        options.lottie.evaluatesExpressions = !noExpressions
        options.lottie.drawsAsOneLayer = wholeFrames && !lottieLayers
        return (budget, options)
    }
}
