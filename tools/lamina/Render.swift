import ArgumentParser
import Foundation
import Lamina

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a scene file (or the built-in demo) to a PNG.",
        discussion: """
            Without SCENE, renders the built-in demo. The output defaults to the scene's name with .png \
            (lamina-demo.png for the demo), in the current folder; `-o -` writes the PNG to stdout.
            """)

    @Argument(help: "A scene file (JSON, see docs/scene-format.md). Omit it for the built-in demo.")
    var scene: String?

    @Option(name: [.customShort("o"), .long], help: "Output PNG path, or - for stdout.")
    var output: String?

    @Option(help: "Renderer: auto, cpu or gles.")
    var backend: BackendChoice = .auto

    @Option(help: "Output pixels per point (overrides the scene's scale).")
    var scale: Double?

    @Flag(help: "Allow the scene to read images outside its own folder.")
    var allowOutsideFiles = false

    @Flag(name: .shortAndLong, help: "Log each EGL display tried.")
    var verbose = false

    mutating func run() throws {
        if let scale, !(scale.isFinite && scale > 0) {
            throw CLIFailure.badInput("--scale must be a positive number, got \(scale)")
        }
        let root: Layer
        var sceneScale: CGFloat = 1
        let defaultOutput: String
        if let scene {
            let url = URL(fileURLWithPath: scene)
            do {
                let loaded = try Scene.load(
                    contentsOf: url, options: SceneOptions(allowFilesOutsideSceneFolder: allowOutsideFiles))
                root = loaded.root
                sceneScale = loaded.scale
            } catch let error as SceneError {
                throw CLIFailure.badInput(error.description)
            } catch {
                throw CLIFailure.badInput("\(scene): \(error)")
            }
            defaultOutput = url.deletingPathExtension().lastPathComponent + ".png"
        } else {
            do {
                root = try Demo.makeRoot()
            } catch {
                throw CLIFailure.failed("could not build the demo: \(error)")
            }
            defaultOutput = "lamina-demo.png"
        }
        let (renderer, why) = try backend.makeRenderer(verbose: verbose)
        note("lamina: using the \(why)")
        let image: Image
        do {
            image = try renderer.render(root, scale: scale.map { CGFloat($0) } ?? sceneScale)
        } catch let error as PlanError {
            throw CLIFailure.badInput(error.description)
        } catch {
            throw CLIFailure.failed("\(error)")
        }
        let destination = output ?? defaultOutput
        do {
            if destination == "-" {
                FileHandle.standardOutput.write(try image.pngData())
            } else {
                try image.writePNG(to: URL(fileURLWithPath: destination))
                note("lamina: wrote \(destination) (\(image.width)x\(image.height) pixels)")
            }
        } catch {
            throw CLIFailure.failed("cannot write \(destination): \(error)")
        }
    }
}
