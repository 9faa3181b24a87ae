import ArgumentParser
import Foundation
import Lamina
import LaminaBench

/// `lamina soak`: renders many frames of a changing tree and checks that resident memory stops growing.
struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render many frames of a changing layer tree and report resident memory (a leak check).",
        discussion: """
            Each frame changes the tree (SoakScene: images replaced and rewritten, layers added and removed, \
            custom drawing, rounded corners, shadows, masks, groups, 3D turns), plans it and renders it into one \
            320x240 image (with --live: draws a live frame, renderer.render(root), redrawing the damage into the \
            frames the renderer keeps). Resident memory (VmRSS) is printed every --interval frames; the growth from the end \
            of --warm-up to the last frame must stay within --max-growth, else the exit status is 1. \
            See docs/benchmarks.md, "Soak".
            """)

    @Option(help: "Renderer: cpu or gles.") var backend: String = "cpu"
    @Option(help: "Frames to render.") var frames: Int = 30_000
    @Option(help: "Frames before the memory baseline is taken.") var warmUp: Int = 1_000
    @Option(help: "Print memory every this many frames.") var interval: Int = 1_000
    @Option(help: ArgumentHelp("Largest allowed growth after warm-up, e.g. 2MB, 512KB.", valueName: "SIZE"))
    var maxGrowth: String = "2MB"
    @Option(help: "Seed of the tree's changes.") var seed: UInt64 = 0x50A4
    @Flag(help: "Live frames: renderer.render(root) each frame (damage, redraw into kept images), each image let go.")
    var live = false

    mutating func run() throws {
        guard backend == "cpu" || backend == "gles" else {
            throw CLIFailure.badInput("--backend \(backend): expected cpu or gles")
        }
        guard frames >= 1, warmUp >= 0, warmUp < frames, interval >= 1 else {
            throw CLIFailure.badInput("--frames must be at least 1, --warm-up below --frames, --interval at least 1")
        }
        guard let limit = Self.kilobytes(maxGrowth) else {
            throw CLIFailure.badInput("--max-growth \(maxGrowth): expected a size such as 2MB, 512KB or 1048576")
        }
        let renderer: Renderer
        switch backend {
        case "cpu": renderer = CPURenderer()
        case "gles":
            do { renderer = try GLESRenderer() } catch { throw CLIFailure.failed("--backend gles: \(error)") }
        default: throw CLIFailure.badInput("--backend \(backend): expected cpu or gles")
        }
        let scene = try SoakScene(seed: seed)
        let target = try Image(width: Int(SoakScene.size.width), height: Int(SoakScene.size.height))
        let start = ProcessMemory.residentKilobytes
        emit("soak: \(backend), \(frames) frames, baseline after frame \(warmUp)\(live ? ", live frames" : "")")
        emit(String(format: "%8@ %10@ %8@ %8@ %8@", "frame", "rss_kb", "layers", "textures", "shadows"))
        var warm = start
        var began = Date()
        for frame in 1...frames {
            try scene.advance()
            do {
                if live {
                    _ = try renderer.render(scene.root)
                } else {
                    try renderer.render(renderer.plan(scene.root), into: target)
                }
            } catch {
                throw CLIFailure.failed("frame \(frame): \(error)")
            }
            if frame == warmUp || (warmUp == 0 && frame == 1) {
                warm = ProcessMemory.residentKilobytes
                began = Date()
            }
            if frame % interval == 0 || frame == frames {
                let gles = renderer as? GLESRenderer
                let shadows = gles?.cachedShadowCount ?? (renderer as? CPURenderer)?.cachedShadowCount ?? 0
                emit(String(format: "%8d %10d %8d %8@ %8d", frame, ProcessMemory.residentKilobytes, scene.layerCount,
                             gles.map { "\($0.cachedTextureCount)" } ?? "-", shadows))
            }
        }
        let seconds = Date().timeIntervalSince(began)
        let end = ProcessMemory.residentKilobytes
        let counted = frames - max(warmUp, 1)
        emit("rss start: \(start) kB; after warm-up (frame \(warmUp)): \(warm) kB; end: \(end) kB")
        emit(String(format: "growth after warm-up: %d kB (limit %d kB); %.1f frames/s after warm-up",
                     end - warm, limit, counted > 0 ? Double(counted) / seconds : 0))
        if end - warm > limit {
            throw CLIFailure.failed("resident memory grew by \(end - warm) kB after warm-up, over --max-growth \(maxGrowth)")
        }
    }

    /// "2MB", "512KB", "1GB" (powers of 1024) or plain bytes, in kB; nil when malformed.
    static func kilobytes(_ text: String) -> Int? {
        let upper = text.uppercased().trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("GB", 1_048_576), ("MB", 1024), ("KB", 1), ("B", 1.0 / 1024)]
        for (suffix, factor) in units where upper.hasSuffix(suffix) {
            guard let value = Double(upper.dropLast(suffix.count)), value >= 0, value < 1e12 else { return nil }
            return Int(value * factor)
        }
        guard let bytes = Double(upper), bytes >= 0, bytes < 1e15 else { return nil }
        return Int(bytes / 1024)
    }

    /// Writes a line unbuffered, so progress shows at once when the output goes to a file.
    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
