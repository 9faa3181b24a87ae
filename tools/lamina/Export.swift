import ArgumentParser
import Foundation
import Lamina
import LaminaBench

/// `--format`: what the frames are written as.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case png, y4m, raw
}

extension RawPixelFormat: ExpressibleByArgument {}
extension ExportReadback: ExpressibleByArgument {}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a scene's frames over time: PNG files, or y4m or raw video on stdout or in a file.",
        discussion: """
            Frame n is drawn at START + n / FPS for n from 0 to ceil(DURATION x FPS) - 1. PNG frames are \
            named by a printf pattern with the global frame number (-o frames/f-%05d.png). `-o -` writes a \
            y4m stream to stdout (`| ffmpeg -i - out.mp4`), or raw frames with --format raw. Frames are \
            rendered on --jobs threads and written in order; --shard K/N renders the K-th of N contiguous \
            blocks of frames, so that N machines share a long export. The same scene gives the same bytes \
            whatever --jobs and --shard. A sidecar JSON with the size, rate, pixel format and scene hash \
            goes beside the frames. See docs/export.md.
            """)

    @Argument(help: "A scene file (JSON, see docs/scene-format.md), or - for standard input.")
    var scene: String

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
        "PNG frame pattern with one %d (frames/f-%05d.png), a .y4m or raw file, or - for stdout.",
        valueName: "pattern"))
    var output: String

    @Option(help: ArgumentHelp("Frames a second: a number or a ratio (default: the scene's fps, 60 unless it gives one).", valueName: "60, 29.97, 30000/1001"))
    var fps: String?

    @Option(help: ArgumentHelp("Seconds to export (default: the scene's duration; required when that is 0).", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("The time of frame 0, in seconds.", valueName: "seconds"))
    var start: Double = 0

    @Option(help: "png, y4m or raw (default: y4m for -o -, else from the extension: .y4m, .raw/.rgba/.bgra/.yuv, else png).")
    var format: ExportFormat?

    @Option(help: "Raw frames' pixels: rgba, bgra (straight alpha) or yuv420p (BT.601 full range over black).")
    var pixelFormat: RawPixelFormat?

    @Option(help: "Output pixels per point (overrides the scene's scale).")
    var scale: Double?

    @Option(help: "Renderer: auto, cpu or gles.")
    var backend: BackendChoice = .auto

    @Option(help: ArgumentHelp(
        "GLES readback: auto (pipelined through a ring of pixel-pack buffers on a GPU, direct on a software rasteriser), ring or direct.",
        valueName: "auto|ring|direct"))
    var readback: ExportReadback = .auto

    @Option(help: ArgumentHelp("Frames rendered at once, each job with its own scene and renderer (default: every core).",
                               valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Render only the K-th (0-based) of N contiguous blocks of frames.", valueName: "K/N"))
    var shard: String?

    @Option(help: ArgumentHelp(
        "Where the sidecar JSON goes (default: export.json beside PNG frames, OUTPUT.json beside a file, none for stdout).",
        valueName: "path"))
    var sidecar: String?

    @Flag(help: "Write no sidecar JSON.")
    var noSidecar = false

    @OptionGroup var input: SceneInputOptions

    mutating func run() throws {
        // A reader that quits (ffmpeg stopping early) must be an EPIPE error with a message, not a silent death.
        signal(SIGPIPE, SIG_IGN)
        let plan = try ExportPlan(self)
        if plan.output == "-", isatty(STDOUT_FILENO) == 1 {
            throw CLIFailure.badInput("-o - writes \(plan.format) video to stdout, which is a terminal: "
                + "pipe it into a program (| ffmpeg -i - out.mp4) or redirect it to a file")
        }
        let (budget, options) = try input.sceneOptions(wholeFrames: true)
        var read = try ExportSceneSource.read(scene, options: options)
        read.background = try input.backgroundColor()
        try export(read, plan: plan, budget: budget)
    }

    /// Exports `source` (the scene's bytes, with `lamina batch`'s edits) as `plan` says.
    /// `quiet` (`lamina batch`): no progress bar, no lines on standard error. `device`: the EGL device of a GLES
    /// renderer (`lamina batch --gpus`).
    func export(_ source: ExportSceneSource, plan: ExportPlan, budget: MemoryBudget, quiet: Bool = false,
                device: String? = nil) throws {
        let firstScene = try source.load()
        if !quiet { SceneInputOptions.warn(firstScene) }
        let timeline = try ExportTimeline(scene: firstScene, duration: duration, rate: plan.rate)
        guard let total = FrameShard.frameCount(duration: timeline.duration, fps: timeline.fps) else {
            throw CLIFailure.badInput("--duration \(timeline.duration) at \(timeline.rate) fps is too many frames")
        }
        let frames = plan.shard.range(ofFrames: total)
        let announced = Announcement()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let pipeline = ExportPipeline(frames: frames, jobs: jobs ?? cores)
        let cpuThreads = max(1, cores / pipeline.jobs)
        let verbose = input.verbose
        let makeJob: @Sendable (Scene) -> ExportJob = { [scale, backend, readback] scene in
            ExportJob(scene: scene, scale: scale.map { CGFloat($0) }, backend: backend, budget: budget,
                      verbose: verbose, cpuThreads: cpuThreads, device: device, readback: readback,
                      announce: { if !quiet { announced.once("lamina: using the \($0)") } })
        }
        let first = UncheckedBox(makeJob(firstScene))
        let (width, height) = first.value.pixelSize
        let encode = plan.encoder(width: width, height: height, rate: timeline.rate)
        let output = try ExportOutput(plan, width: width, height: height, rate: timeline.rate)
        let progress = ExportProgress(total: frames.count, enabled: quiet ? false : nil)
        var written = 0
        let start = self.start
        do {
            try pipeline.run(makeSource: { job in
                // Job 0 takes the scene already loaded to check the file; every other job loads its own copy.
                let exportJob = job == 0 ? first.take() : makeJob(try source.load())
                return ExportJobFrames(exportJob, time: { timeline.time(ofFrame: $0, start: start) }, encode: encode)
            }, consume: { number, data in
                try output.write(data, frame: number)
                written += 1
                progress.update(done: written)
            })
            try output.finish()
        } catch {
            progress.finish()
            output.abandon()
            throw error
        }
        progress.finish()
        if let path = plan.sidecarPath {
            let sidecar = ExportSidecar(
                format: plan.format, pixelFormat: plan.format == .png ? nil : plan.pixelFormat, output: output.name,
                scene: source.fileName, sceneSHA256: SHA256.hash(source.data).hex, frames: frames, totalFrames: total,
                shard: plan.shard, rate: timeline.rate, duration: timeline.duration, start: start,
                width: width, height: height, scale: Double(scale ?? Double(firstScene.scale)))
            do { try FileOutput.write(Data(sidecar.json.utf8), to: path) } catch {
                throw CLIFailure.failed("\(error)")
            }
        }
        let shardNote = plan.shard == .whole ? "" : " (shard \(plan.shard) of \(total) frames)"
        if !quiet { note("lamina: wrote \(frames.count) frames\(shardNote), \(width)x\(height) at \(timeline.rate) fps, to \(output.name)") }
    }
}

/// Prints a line once, from whichever job gets there first.
final class Announcement: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    func once(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        if !done { note(line) }
        done = true
    }
}

/// Hands a value made on one thread to the one other thread that uses it from then on.
final class UncheckedBox<Value>: @unchecked Sendable {
    private var stored: Value?
    init(_ value: Value) { stored = value }
    var value: Value { stored! }
    /// The value, given up: the box no longer holds it.
    func take() -> Value {
        defer { stored = nil }
        return stored!
    }
}
