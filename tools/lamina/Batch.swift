import ArgumentParser
import Foundation
import Lamina

/// `lamina batch JOBS.jsonl`: many stills and exports in one process (docs/scale.md).
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the jobs of a JSON Lines manifest: stills and exports, with edits and replaced images.",
        discussion: """
            Each line is a job: {"scene": .., "output": ..} and optionally "time", "scale", "backend", "set" \
            (control lines applied as edits of the scene file), "images" (images replaced) and "export" \
            ({"fps", "duration", "start", "format"}: the job is an export). Paths are relative to the manifest's \
            folder. Jobs run on --jobs workers, each with its own renderers; scene files and decoded images are \
            shared between jobs. A bad job is reported with its line and the others go on; the exit status is 2 \
            when a job was bad, 1 when one failed to render or write, else 0. Outputs are written atomically. \
            See docs/scale.md.
            """)

    @Argument(help: "The manifest: one JSON object a line (blank lines and lines starting with # are skipped).")
    var manifest: String

    @Option(help: ArgumentHelp("Jobs rendered at once, each worker with its own renderers (default: every core).",
                               valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp(
        "Render only the K-th (0-based) of N contiguous blocks of jobs; auto: K and N from SLURM_ARRAY_TASK_ID and "
            + "SLURM_ARRAY_TASK_COUNT.", valueName: "K/N or auto"))
    var shard: String?

    @Flag(help: "Skip a still whose PNG exists, and an export whose sidecar or video file exists.")
    var resume = false

    @Option(help: ArgumentHelp("Write a JSON record of every job of the shard here.", valueName: "path"))
    var summary: String?

    @Option(help: "Renderer for jobs that do not name one: auto, cpu or gles.")
    var backend: BackendChoice = .auto

    @Option(help: ArgumentHelp(
        "One worker per GPU: all (every hardware EGL device), or EGL devices by index, name or render node, "
            + "comma-separated; jobs that name no backend draw with GLES there. Without a GPU: the CPU renderer.",
        valueName: "all or list"))
    var gpus: String?

    @OptionGroup var input: SceneInputOptions

    mutating func run() throws {
        signal(SIGPIPE, SIG_IGN)
        if let jobs, jobs < 1 { throw CLIFailure.badInput("--jobs must be at least 1, got \(jobs)") }
        let shard = try BatchShard.resolve(shard, environment: ProcessInfo.processInfo.environment)
        let manifestURL = URL(fileURLWithPath: manifest)
        let data: Data
        do {
            data = try FileInput.read(manifest, limit: 1 << 30, what: "a manifest", allowStreams: true)
        } catch {
            throw CLIFailure.badInput("\(manifest): the manifest \(error.problem)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIFailure.badInput("\(manifest): the manifest is not UTF-8 text")
        }
        let folder = manifestURL.deletingLastPathComponent().standardizedFileURL
        let name = manifest
        // Every job line of the file (blank and comment lines are not jobs), then the shard's block of them.
        var lines: [(number: Int, text: Substring)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            lines.append((index + 1, line))
        }
        let mine = Array(lines[shard.range(ofFrames: lines.count)])
        let parsed: [Result<BatchJob, SceneProblem>] = mine.map { line in
            do throws(SceneProblem) {
                guard let job = try BatchManifest.job(line.text, line: line.number, file: name, folder: folder) else {
                    throw SceneProblem(file: name, line: line.number, path: "", message: "not a job")
                }
                return .success(job)
            } catch {
                return .failure(error)
            }
        }
        let (budget, options) = try input.sceneOptions(wholeFrames: true)
        let devices = try BatchDevices.resolve(gpus, available: EGLDisplayConnection.devices())
        let context = BatchContext(
            manifest: name, options: options, budget: budget, background: try input.backgroundColor(),
            backend: devices.isEmpty ? backend : .gles, resume: resume, input: input)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workers = max(1, min(jobs ?? (devices.isEmpty ? cores : devices.count), parsed.count))
        if !devices.isEmpty {
            note("lamina: \(workers) worker\(workers == 1 ? "" : "s") on \(devices.count) GPU\(devices.count == 1 ? "" : "s"): "
                 + devices.joined(separator: ", "))
        } else if gpus != nil {
            note("lamina: --gpus \(gpus!): no GPU here (EGL devices: "
                 + "\(EGLDisplayConnection.devices().map(\.description).joined(separator: ", "))): the \(backend) renderer")
        }
        let runner = BatchRunner(jobs: parsed, workers: workers, cpuThreads: max(1, cores / workers), devices: devices,
                                 context: context)
        let started = Date()
        let records = try runner.run()
        if let summary {
            let json = BatchRecord.summaryJSON(records, manifest: name, shard: shard,
                                               seconds: Date().timeIntervalSince(started))
            do { try FileOutput.write(Data(json.utf8), to: summary) } catch {
                throw CLIFailure.failed("\(error)")
            }
        }
        let ok = records.filter { $0.status == .ok }.count
        let skipped = records.filter { $0.status == .skipped }.count
        let failed = records.filter { $0.status == .failed }
        let shardNote = shard == .whole ? "" : " (shard \(shard) of \(lines.count) jobs)"
        note("lamina: \(records.count) jobs\(shardNote): \(ok) ok, \(skipped) skipped, \(failed.count) failed, in "
             + String(format: "%.2f", Date().timeIntervalSince(started)) + " s")
        if !failed.isEmpty {
            throw CLIFailure(message: "\(failed.count) of \(records.count) jobs failed",
                             code: failed.contains { $0.badInput } ? 2 : 1)
        }
    }
}

/// `--shard`: K/N, or auto from a Slurm job array's environment.
enum BatchShard {
    static func resolve(_ text: String?, environment: [String: String]) throws -> FrameShard {
        guard let text else { return .whole }
        if text == "auto" {
            guard let id = environment["SLURM_ARRAY_TASK_ID"], let count = environment["SLURM_ARRAY_TASK_COUNT"] else {
                throw CLIFailure.badInput("--shard auto needs SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm "
                    + "job array); elsewhere write --shard K/N (Kubernetes: --shard \"$JOB_COMPLETION_INDEX/N\")")
            }
            let minimum = Int(environment["SLURM_ARRAY_TASK_MIN"] ?? "0") ?? 0
            do {
                guard let index = Int(id), let total = Int(count) else {
                    throw CLIFailure.badInput("--shard auto: SLURM_ARRAY_TASK_ID=\(id) and SLURM_ARRAY_TASK_COUNT=\(count) "
                        + "must be whole numbers")
                }
                // An array 1-N counts its tasks from SLURM_ARRAY_TASK_MIN.
                return try FrameShard(index: index - minimum, count: total)
            } catch let error as FrameShardError {
                throw CLIFailure.badInput("--shard auto (SLURM_ARRAY_TASK_ID=\(id), SLURM_ARRAY_TASK_COUNT=\(count), "
                    + "SLURM_ARRAY_TASK_MIN=\(minimum)): \(error)")
            }
        }
        do { return try FrameShard(parsing: text) } catch { throw CLIFailure.badInput("--shard: \(error)") }
    }
}

/// `--gpus`: the EGL devices the workers draw on, in turn.
enum BatchDevices {
    /// `all`: the hardware devices (none on a machine without a GPU); else each comma-separated entry must be a
    /// device's index or name, or a render node.
    static func resolve(_ text: String?, available: [EGLDisplayConnection.Device]) throws -> [String] {
        guard let text else { return [] }
        if text == "all" { return available.filter { !$0.isSoftware }.map(\.name) }
        return try text.split(separator: ",").map { entry in
            let entry = String(entry).trimmingCharacters(in: .whitespaces)
            if let device = available.first(where: { String($0.index) == entry || $0.name == entry }) {
                return device.name
            }
            if entry.hasPrefix("/dev/dri/") { return entry }
            throw CLIFailure.badInput("--gpus: no EGL device \"\(entry)\" (there are: "
                + (available.isEmpty ? "none" : available.map { "\($0.index) \($0)" }.joined(separator: ", ")) + ")")
        }
    }
}

/// What every job shares: the options, the budget, and the caches of scene files and decoded images.
final class BatchContext: @unchecked Sendable {
    let manifest: String
    let options: SceneOptions
    let budget: MemoryBudget
    let background: Color?
    let backend: BackendChoice
    let resume: Bool
    let input: SceneInputOptions
    let images = SharedImageCache()
    private let lock = NSLock()
    private var sceneFiles: [String: Data] = [:]

    init(manifest: String, options: SceneOptions, budget: MemoryBudget, background: Color?, backend: BackendChoice,
         resume: Bool, input: SceneInputOptions) {
        self.manifest = manifest
        var options = options
        options.sharedImages = images
        self.options = options
        self.budget = budget
        self.background = background
        self.backend = backend
        self.resume = resume
        self.input = input
    }

    /// `path` relative to the working folder when inside it (as the same `lamina render` command would name the
    /// scene in its messages and sidecar), else as it is.
    static func displayPath(_ path: String) -> String {
        let folder = FileManager.default.currentDirectoryPath
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// The bytes of the scene file at `path`, read once.
    func sceneData(_ path: String) throws -> Data {
        if let data = lock.withLock({ sceneFiles[path] }) { return data }
        let data: Data
        do {
            data = try FileInput.read(path, limit: options.maxSceneFileBytes, what: "a scene file")
        } catch {
            throw CLIFailure.badInput("\(Self.displayPath(path)): the scene \(error.problem)")
        }
        lock.withLock { sceneFiles[path] = data }
        return data
    }

    /// The export source of `job`: the scene's bytes, its folder, its edits and replaced images.
    func source(for job: BatchJob) throws -> ExportSceneSource {
        var options = self.options
        options.imageReplacements = job.images
        var source = ExportSceneSource(data: try sceneData(job.scene),
                                       baseDirectory: URL(fileURLWithPath: job.scene).deletingLastPathComponent(),
                                       fileName: Self.displayPath(job.scene), options: options)
        source.background = background
        source.edits = job.edits.enumerated().map { index, text in
            SceneEditLine(text: text, file: manifest, line: job.line, path: "set[\(index)]")
        }
        return source
    }
}

/// The outcome of one job, as `--summary` writes it.
struct BatchRecord {
    enum Status: String { case ok, failed, skipped }

    var line: Int
    var status: Status
    var seconds: Double
    var outputs: [String]
    var error: String?
    /// The job was bad (status 2) rather than failing to render or write (1).
    var badInput = false

    static func summaryJSON(_ records: [BatchRecord], manifest: String, shard: FrameShard, seconds: Double) -> String {
        func quoted(_ text: String) -> String { text.jsonQuoted }
        var lines = ["{", "  \"manifest\": \(quoted(manifest)),", "  \"shard\": \(quoted(shard.description)),",
                     "  \"seconds\": \(String(format: "%.3f", seconds)),", "  \"jobs\": ["]
        for (index, record) in records.enumerated() {
            var fields = ["\"line\": \(record.line)", "\"status\": \(quoted(record.status.rawValue))",
                          "\"seconds\": \(String(format: "%.3f", record.seconds))",
                          "\"outputs\": [\(record.outputs.map(quoted).joined(separator: ", "))]"]
            if let error = record.error { fields.append("\"error\": \(quoted(error))") }
            lines.append("    {" + fields.joined(separator: ", ") + "}" + (index < records.count - 1 ? "," : ""))
        }
        lines += ["  ]", "}", ""]
        return lines.joined(separator: "\n")
    }
}
