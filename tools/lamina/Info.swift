import ArgumentParser
import Foundation
import Lamina

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show which renderers and display outputs this machine has, and the GPU the GLES side would use; "
            + "or, given a Lottie file, what it uses and what Lamina can draw of it.",
        discussion: "Pass --verbose to see every EGL display that was tried.")

    @Argument(help: "A Lottie JSON file or dotLottie archive to report on (features used, support, markers).")
    var file: String?

    @Option(help: ArgumentHelp("A dotLottie archive's animation (default: its active or first one).", valueName: "id"))
    var animation: String?

    @Flag(name: .shortAndLong, help: "Print each EGL attempt.")
    var verbose = false

    mutating func run() throws {
        if let file { return try report(file) }
        print("lamina \(LaminaVersion.string)")
        print("cpu: pixman \(CPURenderer.pixmanVersion), \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("cpu renderer: available")
        do {
            let info = try GLESInfo.probe(log: { if self.verbose { print("  \($0)") } })
            print("egl platform: \(info.platform)")
            print("egl device: \(info.device)")
            print("egl version: \(info.eglVersion)")
            print("egl context: GLES 3.0, \(info.context)")
            print("gpu reset recovery: \(info.resetNotification ? "yes (robust context, lose context on reset)" : "no (the driver offers no reset notification)")")
            print("GL_VENDOR: \(info.vendor)")
            print("GL_RENDERER: \(info.renderer)")
            print("GL_VERSION: \(info.version)")
            print("max texture size: \(info.maxTextureSize)")
            print("software rasteriser: \(info.isSoftware ? "yes" : "no")")
            if let note = info.gpuNote { print("gpu: not used: \(note)") }
            print("gles renderer: available\(info.isSoftware ? " (software: --backend auto prefers the cpu renderer)" : "")")
        } catch {
            print("egl: unavailable: \(error)")
            print("gles renderer: unavailable")
        }
        // The outputs of `lamina play`, in the order --output auto tries them.
        for probe in DisplayOutputs.probe() { print("output \(probe)") }
    }

    /// `lamina info FILE`: the Lottie file's size, timing, markers, the features it uses and which Lamina draws.
    /// Exit status 2 when it has problems, or features Lamina cannot draw.
    private func report(_ path: String) throws {
        var options = SceneOptions()
        options.lottie.allowUnsupported = true
        options.lottie.animationID = animation
        let scene: Scene
        do {
            scene = try Scene.load(contentsOf: URL(fileURLWithPath: path), options: options)
        } catch let error as SceneError {
            throw CLIFailure.badInput(error.description)
        }
        guard let lottie = scene.lottie else {
            throw CLIFailure.badInput("\(path): not a Lottie file (a scene file: see docs/scene-format.md)")
        }
        print("file: \(path)")
        print("lottie version: \(lottie.version.isEmpty ? "unknown" : lottie.version)")
        print("size: \(Self.number(Double(lottie.size.width)))x\(Self.number(Double(lottie.size.height))) points")
        print("frame rate: \(Self.number(lottie.frameRate)) fps")
        print("frames: \(Self.number(lottie.inFrame)) to \(Self.number(lottie.outFrame)) "
              + "(\(Self.number(lottie.duration)) s)")
        for marker in lottie.markers {
            print("marker: \"\(marker.name)\" at frame \(Self.number(marker.frame)), \(Self.number(marker.duration)) frames")
        }
        let unsupported = Set(lottie.warnings.map(\.message))
        print("features:")
        for (name, count) in lottie.features.sorted(by: { $0.key < $1.key }) {
            print("  \(name): \(count)")
        }
        if unsupported.isEmpty {
            print("support: everything in the file is drawn")
        } else {
            print("support: \(lottie.warnings.count) feature\(lottie.warnings.count == 1 ? "" : "s") cannot be drawn:")
            for warning in lottie.warnings { print("  \(warning)") }
            throw ExitCode(2)
        }
    }

    private static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(format: "%.3f", x)
    }
}
