import ArgumentParser
import Foundation
import Lamina

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure how fast a renderer composites the built-in benchmark scenes.",
        discussion: """
            Scenes: \(BenchScene.allCases.map(\.rawValue).joined(separator: ", ")). Each frame is planned from \
            the layer tree and rendered into the same target; the figures are over the counted frames after \
            warm-up. Placement uses SplitMix64 with a fixed seed, so every run draws the same frames.
            """)

    @Option(help: "Renderer: cpu (gles comes with the GLES renderer).")
    var backend: BackendChoice = .cpu

    @Option(name: .customLong("scene"), help: "Scene to run; repeat for several. Default: sprites-10k.")
    var scenes: [String] = []

    @Option(help: "Frames to count.") var frames: Int = 20
    @Option(help: "Frames to draw first, uncounted.") var warmup: Int = 3
    @Option(help: "Output size in pixels, WxH.") var size: String = "1920x1080"

    mutating func run() throws {
        guard frames >= 1, warmup >= 0 else { throw CLIFailure.badInput("--frames must be at least 1, --warmup 0 or more") }
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 64, parts[1] >= 64, parts[0] <= 16384, parts[1] <= 16384 else {
            throw CLIFailure.badInput("--size must be WxH with sides 64...16384, got \(size)")
        }
        let names = scenes.isEmpty ? [BenchScene.sprites10k.rawValue] : scenes
        let chosen = try names.map { name -> BenchScene in
            guard let scene = BenchScene(rawValue: name) else {
                throw CLIFailure.badInput(
                    "unknown scene \"\(name)\" (expected \(BenchScene.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return scene
        }
        let (renderer, why) = try backend.makeRenderer()
        print("lamina \(LaminaVersion.string) bench: \(why), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
              + "\(parts[0])x\(parts[1]), \(frames) frames after \(warmup) warm-up")
        for scene in chosen {
            let root = try scene.makeRoot(size: CGSize(width: parts[0], height: parts[1]))
            let target = try Image(width: parts[0], height: parts[1])
            var planTimes: [Double] = [], renderTimes: [Double] = []
            for frame in 0..<(warmup + frames) {
                let start = DispatchTime.now().uptimeNanoseconds
                let plan = try Planner().plan(root)
                let planned = DispatchTime.now().uptimeNanoseconds
                try renderer.render(plan, into: target)
                let done = DispatchTime.now().uptimeNanoseconds
                if frame >= warmup {
                    planTimes.append(Double(planned - start) / 1e6)
                    renderTimes.append(Double(done - planned) / 1e6)
                }
            }
            let totals = zip(planTimes, renderTimes).map { $0 + $1 }
            let stats = renderer.statistics
            print("""
                \(scene.rawValue): \(format(median(totals))) ms/frame median \
                (min \(format(totals.min()!)), max \(format(totals.max()!)), p95 \(format(percentile(totals, 0.95)))), \
                \(format(1000 / median(totals))) fps
                  plan \(format(median(planTimes))) ms (\(format(100 * median(planTimes) / median(totals)))% of the frame), \
                raster \(format(median(renderTimes))) ms, \(stats.quads) quads, \(stats.drawCalls) draw calls
                """)
        }
    }

    private func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    private func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * p).rounded())))
        return sorted[index]
    }

    private func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
