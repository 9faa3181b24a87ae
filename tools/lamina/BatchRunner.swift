import ArgumentParser
import Foundation
import Lamina

/// Runs a batch's jobs on `workers` threads. Each worker keeps one renderer per backend for all the jobs it takes
/// (a GLES context is made once a worker, not once a job); the jobs are taken in manifest order, the next free
/// job by the next free worker. A failed job is recorded (and printed with its line) and the others go on.
final class BatchRunner: @unchecked Sendable {
    private let jobs: [Result<BatchJob, SceneProblem>]
    private let workers: Int
    private let cpuThreads: Int
    /// `--gpus`: worker i draws GLES on devices[i % count]; empty: the default device.
    private let devices: [String]
    private let context: BatchContext
    private let lock = NSLock()
    private var next = 0
    private var done = 0
    private var records: [BatchRecord?]
    private let progress: ExportProgress

    init(jobs: [Result<BatchJob, SceneProblem>], workers: Int, cpuThreads: Int, devices: [String] = [],
         context: BatchContext) {
        self.jobs = jobs
        self.workers = workers
        self.cpuThreads = cpuThreads
        self.devices = devices
        self.context = context
        records = Array(repeating: nil, count: jobs.count)
        progress = ExportProgress(total: jobs.count, unit: "jobs")
    }

    /// The records of every job, in manifest order.
    func run() throws -> [BatchRecord] {
        var threads: [pthread_t] = []
        for worker in 0..<workers {
            let device = devices.isEmpty ? nil : devices[worker % devices.count]
            threads.append(try JoinableThread.start { [self] in work(device: device) })
        }
        for thread in threads { pthread_join(thread, nil) }
        progress.finish()
        var records = records.map { $0! }
        flushStills(&records)
        return records
    }

    /// Stills are renamed into place atomically but not flushed one by one (two fsyncs a picture would cost more
    /// than drawing a small one, and would keep `--jobs 2` from doubling the throughput): each file system they
    /// went to is flushed once here, before the summary and the exit status report them done, as export does
    /// with its frames. A still whose file system cannot be flushed fails. A machine that dies before this may
    /// leave a renamed file with a part missing; `--resume` draws a still again unless its PNG is whole
    /// (`BatchRunner.isWholePNG(at:)`).
    private func flushStills(_ records: inout [BatchRecord]) {
        var flushed: [String: String?] = [:]
        var devices: [UInt: String?] = [:]
        for index in records.indices where records[index].status == .ok {
            guard let job = try? jobs[index].get(), job.export == nil, let output = records[index].outputs.first else {
                continue
            }
            let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
            if flushed[folder] == nil {
                var info = stat()
                let device = stat(folder, &info) == 0 ? UInt(info.st_dev) : nil
                if let device, let outcome = devices[device] {
                    flushed[folder] = outcome
                } else {
                    var outcome: String?
                    do { try FileOutput.flushFileSystem(of: folder) } catch { outcome = "\(error)" }
                    flushed[folder] = outcome
                    if let device { devices[device] = outcome }
                }
            }
            if let failure = flushed[folder] ?? nil {
                let message = "\(context.manifest):\(job.line): \(failure)"
                note("lamina: \(message)")
                records[index].status = .failed
                records[index].error = message
            }
        }
    }

    /// True when `path` holds a whole PNG: the signature first and the IEND chunk last (what the encoder writes),
    /// so that a file cut short by a machine that died before the flush is drawn again by `--resume`.
    static func isWholePNG(at path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        guard let head = try? file.read(upToCount: 8), [UInt8](head) == signature,
              let size = try? file.seekToEnd(), size >= 20 else { return false }
        guard (try? file.seek(toOffset: size - 12)) != nil, let tail = try? file.read(upToCount: 12) else {
            return false
        }
        return [UInt8](tail) == end
    }

    private func work(device: String?) {
        var renderers: [BackendChoice: Renderer] = [:]
        while true {
            let index: Int? = lock.withLock {
                guard next < jobs.count else { return nil }
                defer { next += 1 }
                return next
            }
            guard let index else { return }
            let started = Date()
            var record: BatchRecord
            switch jobs[index] {
            case .failure(let problem):
                record = BatchRecord(line: problem.line ?? 0, status: .failed, seconds: 0, outputs: [],
                                     error: problem.description, badInput: true)
            case .success(let job):
                record = BatchRecord(line: job.line, status: .ok, seconds: 0, outputs: [])
                do {
                    record.outputs = try run(job, device: device, renderers: &renderers)
                    if record.outputs.isEmpty {
                        record.status = .skipped
                        record.outputs = [job.output]
                    }
                } catch let failure as CLIFailure {
                    record.status = .failed
                    let message = failure.message
                    record.error = message.hasPrefix(context.manifest + ":") ? message
                        : "\(context.manifest):\(job.line): \(message)"
                    record.badInput = failure.code == 2
                    record.outputs = []
                } catch {
                    record.status = .failed
                    record.error = "\(context.manifest):\(job.line): \(error)"
                    record.outputs = []
                }
            }
            record.seconds = Date().timeIntervalSince(started)
            lock.withLock {
                records[index] = record
                done += 1
                if let error = record.error { note("lamina: \(error)") }
                progress.update(done: done)
            }
        }
    }

    /// Runs `job`; its outputs, or none when `--resume` found them done.
    private func run(_ job: BatchJob, device: String?, renderers: inout [BackendChoice: Renderer]) throws -> [String] {
        let backend = try job.backend.map { name -> BackendChoice in
            guard let choice = BackendChoice(rawValue: name) else { throw CLIFailure.badInput("backend: \(name)") }
            return choice
        } ?? context.backend
        if let export = job.export { return try runExport(job, export, backend: backend, device: device) }
        if context.resume, Self.isWholePNG(at: job.output) { return [] }
        let source = try context.source(for: job)
        let scene = try source.load()
        let time = job.time ?? 0
        scene.advance(to: time)
        let renderer: Renderer
        if let made = renderers[backend] {
            renderer = made
        } else {
            let (made, why) = try backend.makeRenderer(verbose: context.input.verbose, cpuThreads: cpuThreads,
                                                       device: device)
            made.memoryBudget = context.budget
            if context.input.verbose { note("lamina: using the \(why)\(device.map { " on \($0)" } ?? "")") }
            renderers[backend] = made
            renderer = made
        }
        let image: Image
        do {
            image = try renderer.render(scene.root, scale: job.scale.map { CGFloat($0) } ?? scene.scale, at: time)
        } catch let error as PlanError {
            throw CLIFailure.badInput("\(BatchContext.displayPath(job.scene)): \(error)")
        } catch let error as MemoryLimitError {
            throw CLIFailure.badInput(error.description)
        } catch {
            throw CLIFailure.failed("rendering \(BatchContext.displayPath(job.scene)): \(error)")
        }
        do {
            let folder = URL(fileURLWithPath: job.output).deletingLastPathComponent().path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileOutput.write(try image.pngData(), to: job.output, flush: false)
        } catch {
            throw CLIFailure.failed("\(error)")
        }
        return [job.output]
    }

    /// An export job: `lamina export` with the job's options on one thread (the workers are the parallelism),
    /// from the job's edited scene. Resumed when its sidecar, or its video file, exists.
    private func runExport(_ job: BatchJob, _ export: BatchExport, backend: BackendChoice,
                           device: String?) throws -> [String] {
        var arguments = [job.scene, "-o", job.output, "--backend", backend.rawValue, "--jobs", "1",
                         "--start", "\(export.start)"]
        if let fps = export.fps { arguments += ["--fps", fps] }
        if let duration = export.duration { arguments += ["--duration", "\(duration)"] }
        if let format = export.format { arguments += ["--format", format] }
        if let scale = job.scale { arguments += ["--scale", "\(scale)"] }
        let command: Export
        do {
            command = try Export.parse(arguments)
        } catch {
            throw CLIFailure.badInput("export: \(Export.message(for: error))")
        }
        let plan = try ExportPlan(command)
        let folder = URL(fileURLWithPath: plan.pattern?.folder ?? job.output).deletingLastPathComponent().path
        if context.resume {
            if let sidecar = plan.sidecarPath, FileManager.default.fileExists(atPath: sidecar) { return [] }
            if plan.pattern == nil, FileManager.default.fileExists(atPath: job.output) { return [] }
        }
        if plan.pattern == nil {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try command.export(try context.source(for: job), plan: plan, budget: context.budget, quiet: true,
                           device: device)
        return [job.output] + (plan.sidecarPath.map { [$0] } ?? [])
    }
}
