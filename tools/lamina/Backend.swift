import ArgumentParser
import Foundation
import Lamina

/// `--backend`: which renderer draws.
enum BackendChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, cpu, gles

    /// The renderer for this choice, and why it was chosen (printed on stderr).
    func makeRenderer() throws -> (Renderer, String) {
        switch self {
        case .cpu:
            return (CPURenderer(), "cpu renderer (requested)")
        case .auto:
            if let requested = ProcessInfo.processInfo.environment["LAMINA_RENDERER"], requested != "auto" {
                guard let choice = BackendChoice(rawValue: requested) else {
                    throw CLIFailure.badInput("LAMINA_RENDERER=\(requested): expected auto, cpu or gles")
                }
                return try choice.makeRenderer()
            }
            return (CPURenderer(), "cpu renderer (auto: the GLES renderer is not part of this build yet)")
        case .gles:
            throw CLIFailure.failed(
                "--backend gles: the GLES renderer is not part of this build yet; use --backend cpu")
        }
    }
}
