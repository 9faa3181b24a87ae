import Foundation
import Lamina

// Everything that ties `lamina export` to a scene and to time is in this file: what the export's time range is
// (`ExportTimeline`) and how one frame at one time is drawn (`ExportJob.render(time:)`). The rest of the
// command (Export.swift, ExportPipeline.swift, the encoders in LaminaImageIO) only sees frame numbers, times
// and images.

/// The bytes of the scene file, read once: every job loads its own `Scene` from them (so standard input can
/// be exported in parallel too), and the sidecar's hash is theirs.
struct ExportSceneSource: @unchecked Sendable {
    var data: Data
    /// Where the scene's relative image paths start.
    var baseDirectory: URL
    /// The name problems are reported under (`<stdin>` for `-`).
    var fileName: String
    var options: SceneOptions
    /// `--background`: each job's scene is flattened over it.
    var background: Color? = nil
    /// `lamina batch`'s `"set"`: control lines applied to each copy as edits of the file, with where they are
    /// written in the manifest.
    var edits: [SceneEditLine] = []

    /// Reads `argument` (a path, or `-` for standard input). Throws `CLIFailure.badInput`.
    static func read(_ argument: String, options: SceneOptions) throws -> ExportSceneSource {
        let workingFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if argument == "-" {
            do {
                let data = try FileInput.readStandardInput(limit: options.maxSceneFileBytes, what: "a scene file")
                return ExportSceneSource(data: data, baseDirectory: workingFolder, fileName: "<stdin>", options: options)
            } catch {
                throw CLIFailure.badInput("<stdin>: the scene \(error.problem)")
            }
        }
        let data: Data
        do {
            data = try FileInput.read(argument, limit: options.maxSceneFileBytes, what: "a scene file", allowStreams: true)
        } catch {
            throw CLIFailure.badInput("\(argument): the scene \(error.problem)")
        }
        // As Scene.load(contentsOf:) decides: a regular file's images are beside it; a pipe's (/dev/stdin,
        // <(cat scene.json)) are in the working folder.
        let url = URL(fileURLWithPath: argument)
        let parent = url.deletingLastPathComponent().standardizedFileURL.path
        let throughDescriptor = parent == "/dev" || parent == "/dev/fd"
            || (parent.hasPrefix("/proc/") && parent.hasSuffix("/fd"))
        let folder = Render.isRegularFile(argument) && !throughDescriptor ? url.deletingLastPathComponent() : workingFolder
        return ExportSceneSource(data: data, baseDirectory: folder, fileName: argument, options: options)
    }

    /// A fresh copy of the scene: its own layers, which no other job touches. Throws `CLIFailure.badInput`.
    func load() throws -> Scene {
        do {
            var scene = try Scene.load(data: data, baseDirectory: baseDirectory, fileName: fileName, options: options)
            for edit in edits {
                try scene.edit(controlLine: Data(edit.text.utf8), file: edit.file, line: edit.line, path: edit.path)
            }
            if let background { scene.flatten(over: background) }
            return scene
        } catch let error as SceneError {
            throw CLIFailure.badInput(error.description)
        } catch {
            throw CLIFailure.badInput("\(fileName): \(error)")
        }
    }
}

/// A control line applied to a scene as an edit of its file (`Scene.edit(controlLine:file:line:path:)`).
struct SceneEditLine: Sendable {
    var text: String
    /// Where it is written: the manifest, its line, and its JSON path there (`set[0]`).
    var file: String
    var line: Int
    var path: String
}

/// The span of time an export covers and its frame rate. Frame n is drawn at `start + Double(n) / fps`,
/// computed from n each time (never by adding 1/fps up), so that frame n is the same in every job and shard.
struct ExportTimeline {
    /// Seconds the export lasts.
    var duration: Double
    /// Frames a second, as the y4m header states it.
    var rate: FrameRate
    var fps: Double { rate.value }

    /// The timeline of `scene` with the command's options over it: `--duration`, else the scene's `duration`
    /// (its own, or the end of its last finite animation or timeline entry; 0 still needs --duration), and
    /// `--fps`, else the scene's `fps` (60 unless the file gives one).
    init(scene: Scene, duration: Double?, rate: FrameRate?) throws {
        guard let duration = duration ?? (scene.duration > 0 ? scene.duration : nil) else {
            throw CLIFailure.badInput(
                "a duration is needed: give --duration SECONDS (the scene gives no \"duration\" and nothing in it "
                    + "ends)")
        }
        guard duration.isFinite, duration > 0 else {
            throw CLIFailure.badInput("--duration must be a positive number of seconds, got \(duration)")
        }
        guard let rate = rate ?? FrameRate(scene.fps) else {
            throw CLIFailure.badInput("the scene's fps \(scene.fps) cannot be a frame rate: give --fps")
        }
        self.duration = duration
        self.rate = rate
    }

    /// The time of frame `number`.
    func time(ofFrame number: Int, start: Double) -> Double { start + Double(number) / fps }
}

/// One job of an export: its own scene and its own renderer, created and used on one thread (a GLES context
/// is current on the thread that made it). A frame depends only on the scene file and the time, so jobs can
/// draw any frames in any order and give the same bytes.
///
/// A GLES job reads its frames back through the renderer's readback ring (`begin(_:time:)`,
/// GLESRenderer+Readback.swift): frame n + 1 is drawn and its copy queued before frame n is collected and encoded,
/// so that the GPU draws while the CPU encodes. The bytes are those of `render(time:)`.
final class ExportJob {
    /// Frames a GLES job keeps in flight (the renderer's `readbackRingSize`): two, so that the GPU draws frame
    /// n + 1 while the CPU copies out and encodes frame n. More would only hold more frames in memory: the CPU
    /// collects one frame for each it begins.
    static let readbackDepth = 2
    private let scene: Scene
    private let scale: CGFloat
    private let backend: BackendChoice
    private let budget: MemoryBudget
    private let verbose: Bool
    private let cpuThreads: Int
    private let device: String?
    private let readback: ExportReadback
    private var renderer: Renderer?
    /// Called with why the renderer was chosen when it is made (the command prints the first job's).
    private let announce: (String) -> Void
    /// GLES frames begun and not yet collected, oldest first.
    private var inFlight: [(number: Int, time: Double, frame: GLESPendingFrame)] = []

    /// A job for `scene` (a copy no other job uses). `scale` overrides the scene's. The renderer is made on
    /// the first `render(time:)`, on the thread that renders; a CPU renderer composites on `cpuThreads`
    /// threads (the cores divided among the jobs: the jobs are the parallelism, and more threads than cores
    /// only make them wait for each other).
    init(scene: Scene, scale: CGFloat?, backend: BackendChoice, budget: MemoryBudget, verbose: Bool,
         cpuThreads: Int, device: String? = nil, readback: ExportReadback = .auto,
         announce: @escaping (String) -> Void) {
        self.scene = scene
        self.readback = readback
        self.cpuThreads = cpuThreads
        self.device = device
        self.scale = scale ?? scene.scale
        self.backend = backend
        self.budget = budget
        self.verbose = verbose
        self.announce = announce
    }

    /// The output size in pixels, as the renderer rounds it.
    var pixelSize: (width: Int, height: Int) {
        (Int((scene.size.width * scale).rounded()), Int((scene.size.height * scale).rounded()))
    }

    /// The frame at `time` seconds. Throws `CLIFailure` (2 for a problem of the scene, 1 for a failure).
    ///
    /// Within one job the times only increase (a job always takes the lowest frame no job has taken), but they
    /// skip the frames other jobs draw, and a job starts at any frame (a shard's first, `--start`).
    ///
    /// The scene's timeline entries up to `time` are applied first, in order (times only increase within a job, so
    /// the timeline never has to go back), so the model is what it is at `time` whatever frames came before.
    func render(time: Double) throws -> Image {
        let renderer = try self.renderer ?? makeRenderer()
        scene.advance(to: time)
        return try reporting(time: time) { try renderer.render(scene.root, scale: scale, at: time) }
    }

    /// Frames begun and not yet returned by `begin(_:time:)` (a GLES job's).
    var framesInFlight: Int { inFlight.count }

    /// Starts frame `number`, drawn at `time`, and returns the frames finished meanwhile, oldest first, with their
    /// numbers: with a CPU renderer that frame, drawn now (`render(time:)`); with a GLES renderer the frame begun
    /// `readbackDepth - 1` frames before, once that many are in flight (`finish()` returns the rest). A frame that
    /// fails comes back as its error, after the frames begun before it. Times only increase, as for `render(time:)`.
    func begin(_ number: Int, time: Double) -> [(Int, Result<Image, Error>)] {
        let renderer: Renderer
        do {
            renderer = try self.renderer ?? makeRenderer()
        } catch {
            return finish() + [(number, .failure(error))]
        }
        guard let gles = renderer as? GLESRenderer, readback.usesRing(gles) else {
            return [(number, Result { try render(time: time) })]
        }
        do {
            scene.advance(to: time)
            let frame = try reporting(time: time) {
                try gles.beginReadback(gles.plan(scene.root, scale: scale, at: time))
            }
            inFlight.append((number, time, frame))
        } catch {
            return finish() + [(number, .failure(error))]
        }
        var done: [(Int, Result<Image, Error>)] = []
        while inFlight.count >= Self.readbackDepth { done.append(collectOldest(gles)) }
        return done
    }

    /// The frames still in flight, oldest first.
    func finish() -> [(Int, Result<Image, Error>)] {
        guard let gles = renderer as? GLESRenderer else { return [] }
        var done: [(Int, Result<Image, Error>)] = []
        while !inFlight.isEmpty { done.append(collectOldest(gles)) }
        return done
    }

    private func collectOldest(_ renderer: GLESRenderer) -> (Int, Result<Image, Error>) {
        let oldest = inFlight.removeFirst()
        return (oldest.number, Result { try reporting(time: oldest.time) { try renderer.collect(oldest.frame) } })
    }

    /// Runs `body`, its errors as the command reports them.
    private func reporting<T>(time: Double, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PlanError {
            throw CLIFailure.badInput(error.description)
        } catch let error as MemoryLimitError {
            throw CLIFailure.badInput(error.description)
        } catch let error as CLIFailure {
            throw error
        } catch {
            throw CLIFailure.failed("frame at \(time) s: \(error)")
        }
    }

    private func makeRenderer() throws -> Renderer {
        let (renderer, why) = try backend.makeRenderer(verbose: verbose, cpuThreads: cpuThreads, device: device)
        renderer.memoryBudget = budget
        (renderer as? GLESRenderer)?.readbackRingSize = Self.readbackDepth
        self.renderer = renderer
        announce(why)
        return renderer
    }
}

/// An export job's frames for `ExportPipeline`: frame n begun at its time on the timeline, each encoded as it
/// comes back.
final class ExportJobFrames: ExportFrameSource {
    private let job: ExportJob
    private let time: (Int) -> Double
    private let encode: (Image) throws -> Data

    init(_ job: ExportJob, time: @escaping (Int) -> Double, encode: @escaping (Image) throws -> Data) {
        self.job = job
        self.time = time
        self.encode = encode
    }

    func begin(_ number: Int) -> [(Int, Result<Data, Error>)] { encoded(job.begin(number, time: time(number))) }
    func finish() -> [(Int, Result<Data, Error>)] { encoded(job.finish()) }
    var framesInFlight: Int { job.framesInFlight }

    private func encoded(_ frames: [(Int, Result<Image, Error>)]) -> [(Int, Result<Data, Error>)] {
        frames.map { number, image in (number, image.flatMap { image in Result { try encode(image) } }) }
    }
}

/// `lamina export --readback`: how a GLES job reads its frames back.
enum ExportReadback: String, CaseIterable, Sendable {
    /// The ring on a GPU, direct reads on a software rasteriser (llvmpipe), where the ring's whole-frame copies
    /// cost more than they overlap (docs/benchmarks.md, "Export through the readback ring (2026-11-27)").
    case auto
    /// Through the renderer's readback ring (`ExportJob.begin(_:time:)`), frame n + 1 drawn before frame n is
    /// collected.
    case ring
    /// Each frame read back when drawn, only its damage (`Renderer.render(_:scale:at:)`, retained frames).
    case direct

    func usesRing(_ renderer: GLESRenderer) -> Bool {
        switch self {
        case .auto: return !renderer.info.isSoftware
        case .ring: return true
        case .direct: return false
        }
    }
}
