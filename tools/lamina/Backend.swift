import ArgumentParser
import Foundation
import Lamina

/// `--backend`: which renderer draws.
enum BackendChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, cpu, gles

    /// `LAMINA_RENDERER` (auto, cpu or gles); nil when unset. A usage error for anything else. Read and parsed once
    /// per process, here (`fromEnvironment`), whatever the number of renderers made (an export's jobs, a batch's
    /// workers): no other place reads the variable.
    static func environment() throws -> BackendChoice? {
        try fromEnvironment.get()
    }

    /// The parse of `LAMINA_RENDERER`, done on first use.
    private static let fromEnvironment: Result<BackendChoice?, CLIFailure> =
        parse(environment: ProcessInfo.processInfo.environment["LAMINA_RENDERER"])

    /// The choice a value of `LAMINA_RENDERER` names (nil: unset).
    static func parse(environment requested: String?) -> Result<BackendChoice?, CLIFailure> {
        guard let requested else { return .success(nil) }
        guard let choice = BackendChoice(rawValue: requested) else {
            return .failure(CLIFailure.badInput("LAMINA_RENDERER=\(requested): expected auto, cpu or gles"))
        }
        return .success(choice)
    }

    /// The renderer for this choice, and why it was chosen (the CLI prints it on stderr).
    /// `auto` takes GLES on a hardware GPU and the CPU renderer otherwise: on a software rasteriser such as
    /// llvmpipe, pixman composites faster than the GL path. `LAMINA_RENDERER` (auto, cpu, gles) stands in for
    /// `--backend auto` when set. A CPU renderer composites on `cpuThreads` threads (`lamina export` gives each
    /// of its jobs a share of the cores).
    /// `device`: the EGL device a GLES renderer draws on (`lamina batch --gpus`); nil: the default choice.
    func makeRenderer(
        verbose: Bool = false, cpuThreads: Int = ProcessInfo.processInfo.activeProcessorCount, device: String? = nil
    ) throws -> (Renderer, String) {
        let log: @Sendable (String) -> Void = { line in if verbose { note("lamina: \(line)") } }
        switch self {
        case .cpu:
            return (CPURenderer(threads: cpuThreads), "cpu renderer (requested)")
        case .gles:
            do {
                var options = GLESRenderer.Options(log: log)
                options.device = device
                let renderer = try GLESRenderer(options: options)
                let note = renderer.info.gpuNote.map { " (software: \($0))" } ?? ""
                return (renderer, "gles renderer (requested): \(renderer.info.renderer) via EGL \(renderer.info.platform)\(note)")
            } catch {
                throw CLIFailure.failed("--backend gles: \(error)")
            }
        case .auto:
            if let choice = try Self.environment(), choice != .auto {
                let (renderer, why) = try choice.makeRenderer(verbose: verbose, cpuThreads: cpuThreads, device: device)
                return (renderer, why.replacingOccurrences(of: "(requested)", with: "(LAMINA_RENDERER)"))
            }
            do {
                var options = GLESRenderer.Options(log: log)
                options.device = device
                let renderer = try GLESRenderer(options: options)
                if !renderer.info.isSoftware {
                    return (renderer, "gles renderer (auto: hardware GPU \(renderer.info.renderer))")
                }
                let note = renderer.info.gpuNote.map { "; \($0)" } ?? ""
                return (CPURenderer(threads: cpuThreads),
                        "cpu renderer (auto: the only GL driver is the software rasteriser \(renderer.info.renderer), which is slower than pixman\(note))")
            } catch {
                return (CPURenderer(threads: cpuThreads), "cpu renderer (auto: no EGL display: \(error))")
            }
        }
    }
}
