import ArgumentParser
import Foundation
import Lamina
import LaminaBench

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a scene file (or the built-in demo) to a PNG.",
        discussion: """
            Without SCENE, renders the built-in demo. The output defaults to the scene's name with .png \
            (lamina-demo.png for the demo), in the current folder; `-o -` writes the PNG to stdout. \
            SCENE `-` reads the scene from standard input, its images relative to the current folder; a scene \
            from standard input or a pipe (/dev/stdin, <(cat scene.json)) has no name to give the output, so \
            it needs -o. The PNG is written to a temporary file and renamed into place, so a failed write \
            leaves any old file untouched.
            """)

    @Argument(help: "A scene file (JSON, see docs/scene-format.md), or - for standard input. Omit it for the built-in demo.")
    var scene: String?

    @Option(name: [.customShort("o"), .long], help: "Output PNG path, or - for stdout.")
    var output: String?

    @Option(help: "Renderer: auto, cpu or gles.")
    var backend: BackendChoice = .auto

    @Option(help: "Output pixels per point (overrides the scene's scale).")
    var scale: Double?

    @Option(help: ArgumentHelp(
        "The time to draw, in seconds from the scene's start (default 0): timeline entries up to it are applied "
            + "and animations are drawn as they are then.", valueName: "seconds"))
    var time: Double = 0

    @Option(help: ArgumentHelp(
        "Lottie files: the frame to draw (fractional frames interpolate), in place of --time.", valueName: "frame"))
    var frame: Double?

    @OptionGroup var input: SceneInputOptions

    mutating func run() throws {
        if let scale, !(scale.isFinite && scale > 0) {
            throw CLIFailure.badInput("--scale must be a positive number, got \(scale)")
        }
        guard time.isFinite, time >= 0 else {
            throw CLIFailure.badInput("--time must be a number of seconds, 0 or more, got \(time)")
        }
        let (budget, options) = try input.sceneOptions(wholeFrames: true)
        let background = try input.backgroundColor()
        var time = self.time
        if let frame, !frame.isFinite {
            throw CLIFailure.badInput("--frame must be a number, got \(frame)")
        }
        let root: Layer
        var sceneScale: CGFloat = 1
        var defaultOutput: String?
        if let scene {
            let url = URL(fileURLWithPath: scene)
            do {
                var loaded = scene == "-"
                    ? try Scene.loadStandardInput(options: options) : try Scene.load(contentsOf: url, options: options)
                SceneInputOptions.warn(loaded)
                if let frame {
                    guard let lottie = loaded.lottie else {
                        throw CLIFailure.badInput("--frame is for Lottie files; \(scene) is a scene file: use --time")
                    }
                    time = max(0, (frame - lottie.inFrame) / lottie.frameRate)
                }
                if let background { loaded.flatten(over: background) }
                // The timeline's changes up to the time, each at its own time, so the frame is the same as in
                // an export that drew every frame before it.
                loaded.advance(to: time)
                root = loaded.root
                sceneScale = loaded.scale
            } catch let error as SceneError {
                throw CLIFailure.badInput(error.description)
            } catch let error as CLIFailure {
                throw error
            } catch {
                throw CLIFailure.badInput("\(scene): \(error)")
            }
            if scene != "-", Self.isRegularFile(scene) {
                defaultOutput = url.deletingPathExtension().lastPathComponent + ".png"
            }
        } else {
            if frame != nil { throw CLIFailure.badInput("--frame needs a Lottie file") }
            do {
                root = try Demo.makeRoot()
            } catch {
                throw CLIFailure.failed("could not build the demo: \(error)")
            }
            defaultOutput = "lamina-demo.png"
        }
        guard let destination = output ?? defaultOutput else {
            throw CLIFailure.badInput("a scene read from standard input or a pipe needs -o (a PNG path, or - for stdout)")
        }
        let (renderer, why) = try backend.makeRenderer(verbose: input.verbose)
        renderer.memoryBudget = budget
        note("lamina: using the \(why)")
        let image: Image
        do {
            image = try renderer.render(root, scale: scale.map { CGFloat($0) } ?? sceneScale, at: time)
        } catch let error as PlanError {
            // Named after the scene it came from: a layer's drawing or an effect the scene asks for.
            let source = scene.map { $0 == "-" ? "<stdin>" : $0 }
            let message = error.description
            throw CLIFailure.badInput(source.map { message.contains($0) ? message : "\($0): \(message)" } ?? message)
        } catch let error as MemoryLimitError {
            throw CLIFailure.badInput(error.description)
        } catch {
            throw CLIFailure.failed("\(error)")
        }
        // PNG encoding makes a straight-alpha copy of the output first: the same size again.
        let encoding: MemoryReservation
        do {
            encoding = try budget.reserve(
                image.byteCount, for: "encoding the \(image.width)x\(image.height) output as PNG")
        } catch {
            throw CLIFailure.badInput(error.description)
        }
        defer { encoding.release() }
        do {
            if destination == "-" {
                FileHandle.standardOutput.write(try image.pngData())
            } else {
                try image.writePNG(to: URL(fileURLWithPath: destination))
                note("lamina: wrote \(destination) (\(image.width)x\(image.height) pixels)")
            }
        } catch let error as ImageEncodingError {
            throw CLIFailure.failed(error.description)
        } catch {
            throw CLIFailure.failed("cannot write \(destination): \(error)")
        }
    }

    /// The bytes of `--memory-limit` (the default 2 GiB without it); a usage error for anything else.
    static func memoryLimit(_ text: String?) throws -> Int {
        guard let text else { return MemoryBudget.defaultLimit }
        guard let bytes = MemorySize.parse(text), bytes > 0 else {
            throw CLIFailure.badInput(
                "--memory-limit: expected a size such as 512M, 2G, 1.5GiB or a number of bytes, got \"\(text)\"")
        }
        return bytes
    }

    /// Whether `path` is a regular file (not a pipe or device such as /dev/stdin).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
