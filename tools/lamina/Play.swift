import ArgumentParser
import Foundation
import Lamina

extension DisplayOutputKind: ExpressibleByArgument {}
extension DisplayFit: ExpressibleByArgument {}

/// `lamina play`: a scene full-screen on a display, for kiosks (docs/kiosk.md).
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a scene full-screen on a display (DRM/KMS, fbdev, X11 or Wayland), animated, for kiosks.",
        discussion: """
            The scene's animations and timeline run from the start of play; the file is loaded again when it or a \
            file it uses changes, or on SIGHUP (a bad edit keeps the last good scene on screen). SIGTERM and SIGINT \
            end play cleanly. Exit status: 0 on a clean stop, 1 when the output or rendering fails, 2 for a bad \
            scene or bad usage.
            """)

    @Argument(help: "The scene file (JSON).") var scene: String
    @Option(help: "auto, drm, fbdev, x11 or wayland.") var output: DisplayOutputKind = .auto
    @Option(help: "auto (GLES on a hardware GPU, else the CPU renderer), cpu or gles.") var backend: BackendChoice = .auto
    @Option(help: "The DRM card (/dev/dri/card0), framebuffer (/dev/fb0), X11 display (:0) or Wayland socket (name or path).")
    var device: String?
    @Option(help: "The DRM connector by name (HDMI-A-1, Virtual-1).") var connector: String?
    @Option(help: ArgumentHelp("The display mode (default: the preferred one; X11: the window's size).",
                               valueName: "WxH[@HZ]")) var mode: String?
    @Option(help: "Turn the picture clockwise for displays mounted sideways: 0, 90, 180 or 270.") var rotate: Int = 0
    @Option(help: "contain (default), cover, stretch or none.") var fit: DisplayFit = .contain
    @Option(help: "At most this many frames a second (default: the display's refresh rate).") var maxFps: Double?
    @Flag(help: "Print a line a second on stderr: frames, skipped, frame times, damage, CPU.") var stats = false
    @Option(help: ArgumentHelp("Take JSON control lines from standard input (-) or a Unix socket at PATH.",
                               valueName: "-|PATH")) var control: String?
    @Option(help: ArgumentHelp("The control socket's permissions, in octal (default 600: its owner only).",
                               valueName: "mode")) var controlMode: String?
    @OptionGroup var input: SceneInputOptions

    mutating func run() throws {
        guard let rotation = DisplayRotation(rawValue: rotate) else {
            throw CLIFailure.badInput("--rotate \(rotate): expected 0, 90, 180 or 270")
        }
        var parsedMode: DisplayMode?
        if let mode {
            guard let parsed = DisplayMode(parsing: mode) else {
                throw CLIFailure.badInput("--mode \(mode): expected WxH or WxH@HZ, e.g. 1920x1080 or 1280x800@60")
            }
            parsedMode = parsed
        }
        if let maxFps, !(maxFps.isFinite && maxFps > 0) {
            throw CLIFailure.badInput("--max-fps must be a positive number, got \(maxFps)")
        }
        let verbose = input.verbose
        let log: @Sendable (String) -> Void = { line in if verbose { note("lamina: \(line)") } }
        let (_, sceneOptions) = try input.sceneOptions()
        // The scene first: a bad scene is exit status 2 before any display is touched.
        var loaded: Scene
        do {
            loaded = try Scene.load(contentsOf: URL(fileURLWithPath: scene), options: sceneOptions)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
        SceneInputOptions.warn(loaded)
        if let background = try input.backgroundColor() { loaded.flatten(over: background) }
        let backendChoice: Display.Backend
        switch backend {
        case .cpu: backendChoice = .cpu
        case .gles: backendChoice = .gles
        case .auto:
            switch try BackendChoice.environment() ?? .auto {
            case .auto: backendChoice = .auto
            case .cpu: backendChoice = .cpu
            case .gles: backendChoice = .gles
            }
        }
        var statistics: (@Sendable (DisplayStatistics) -> Void)?
        if stats { statistics = { figures in note("lamina: \(figures)") } }
        let options = Display.Options(
            fit: fit, rotation: rotation, maxFramesPerSecond: maxFps,
            output: DisplayOutputOptions(device: device, connector: connector, mode: parsedMode, log: log),
            statistics: statistics)
        let started = currentMediaTime()
        let display: Display
        do {
            display = try Display(output: output, backend: backendChoice, options: options)
        } catch {
            throw CLIFailure.failed("\(error)")
        }
        note("lamina: playing \(scene) on \(display.output.summary) with the \(display.backendName) renderer")
        let channel: ControlChannel?
        do {
            var mode = ControlChannel.defaultSocketMode
            if let controlMode {
                guard let parsed = mode_t(controlMode, radix: 8), parsed <= 0o777 else {
                    throw CLIFailure.badInput("--control-mode: expected permissions in octal such as 600 or 660, got \"\(controlMode)\"")
                }
                mode = parsed
            }
            channel = try control.map { try ControlChannel($0, mode: mode) }
        } catch let error as CLIFailure {
            throw error
        } catch {
            throw CLIFailure.failed("\(error)")
        }
        let player: ScenePlayer
        do {
            player = try ScenePlayer(path: scene, loaded: loaded, sceneOptions: sceneOptions, display: display,
                                     control: channel,
                                     report: { note($0) })
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
        var first = true
        let stats = self.stats
        display.didPresent = {
            guard first else { return }
            first = false
            if stats {
                note(String(format: "lamina: first frame %.0f ms after start", (currentMediaTime() - started) * 1000))
            }
        }
        do {
            try player.run()
        } catch {
            throw CLIFailure.failed("\(error)")
        }
        note("lamina: stopped")
    }
}
