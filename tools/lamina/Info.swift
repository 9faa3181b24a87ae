import ArgumentParser
import Foundation
import Lamina

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show which renderers and display outputs this machine has, and the GPU the GLES side would use.",
        discussion: "Pass --verbose to see every EGL display that was tried.")

    @Flag(name: .shortAndLong, help: "Print each EGL attempt.")
    var verbose = false

    mutating func run() throws {
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
}
