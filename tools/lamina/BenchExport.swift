import Foundation
import Lamina
import LaminaBench

/// `lamina bench --export`: the frames per second of an export, through `lamina export`'s own pipeline
/// (ExportPipeline, one ExportJob with its own tree and renderer per job), frames encoded as raw RGBA and dropped
/// (no disk in the figure): one job on one core, one job whose CPU renderer draws its bands on every core (what
/// `--jobs 1` does), and one job per core, one renderer thread each (the default). The ratio of the last to the
/// first is what the jobs make of the cores.
struct ExportBench {
    var frames: Int
    var size: CGSize?

    struct Figures {
        var scene: String
        var backend: String
        var width: Int, height: Int
        var frames: Int
        /// Frames per second: one job on one thread; one job with a renderer on every core; a job per core.
        var oneJob: Double
        var oneJobAllCores: Double
        var jobs: Int
        var everyCore: Double
        var ratio: Double { oneJob > 0 ? everyCore / oneJob : 0 }
    }

    /// Exports `frames` frames of `source` at 60 fps (frame n at n / 60 s) with one job, then two.
    func measure(_ source: BenchSceneSource, backend: BackendChoice) throws -> Figures {
        let budget = MemoryBudget(limit: 8 << 30)
        let makeScene: @Sendable () throws -> Scene = { [size] in
            let (root, scale) = try source.make(size: size)
            if let file = source.file { return try Scene.load(contentsOf: file) }
            return Scene(root: root, size: root.bounds.size, scale: scale)
        }
        func run(jobs: Int, threads: Int) throws -> Double {
            let pipeline = ExportPipeline(frames: 0..<frames, jobs: jobs)
            let start = DispatchTime.now().uptimeNanoseconds
            try pipeline.run(makeSource: { _ in
                let job = ExportJob(scene: try makeScene(), scale: nil, backend: backend, budget: budget,
                                    verbose: false, cpuThreads: threads, announce: { _ in })
                return ExportJobFrames(job, time: { Double($0) / 60 }, encode: { RawFrameWriter.frame($0, format: .rgba) })
            }, consume: { _, _ in })
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return Double(frames) / seconds
        }
        let probe = try makeScene()
        let cores = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let one = try run(jobs: 1, threads: 1)
        let oneAllCores = try run(jobs: 1, threads: cores)
        let every = try run(jobs: cores, threads: 1)
        return Figures(scene: source.name, backend: backend.rawValue,
                       width: Int((probe.size.width * probe.scale).rounded()),
                       height: Int((probe.size.height * probe.scale).rounded()), frames: frames,
                       oneJob: one, oneJobAllCores: oneAllCores, jobs: cores, everyCore: every)
    }
}

extension ExportBench.Figures {
    func printSummary() {
        print("export \(scene) on \(backend): \(width)x\(height), \(frames) frames at 60 fps: "
              + "\(f(oneJob)) frames/s with 1 job on 1 thread, \(f(oneJobAllCores)) with 1 job on \(jobs) threads, "
              + "\(f(everyCore)) with \(jobs) jobs (\(f(ratio))x the first)")
    }
}
