import Foundation
import Lamina
import LaminaBench

/// `lamina bench --tiled-pan`: a tiled layer of 1,000,000 x 1,000,000 points panned across `frames` frames
/// (TiledPan), live (`livePlan`, tiles drawn on background threads, as `lamina play` shows it) and offline
/// (`render(_:scale:)`, every visible tile drawn before the frame), with the frame times' median and maximum and the
/// resident memory before and after (docs/benchmarks.md, "Tiled layers").
struct TiledPanBench {
    var frames: Int
    var size: CGSize
    /// Frames drawn first, uncounted: enough for the pan to fill the tile cache to its budget.
    static let warmup = 80
    /// The tile cache's budget for the run: above one frame's tiles, so the pan runs into it and evicts.
    static let tileBudget = 24 << 20

    struct Run {
        var mode: String
        var times: [Double]
        var residentStartKB: Int
        var residentEndKB: Int
        var tilesDrawn: Int
        var tileBytes: Int

        var median: Double { FrameStats.percentile(times, 0.5) }
        var max: Double { times.max() ?? 0 }

        var json: String {
            #"{"mode": "\#(mode)", "frames": \#(times.count), "medianMs": \#(median), "maxMs": \#(max), "#
                + #""maxOverMedian": \#(max / median), "residentStartKB": \#(residentStartKB), "#
                + #""residentEndKB": \#(residentEndKB), "tilesDrawn": \#(tilesDrawn), "tileBytes": \#(tileBytes)}"#
        }

        func printSummary() {
            print(String(format: "  %-8@ median %7.2f ms, max %7.2f ms (%.2fx the median), resident %d -> %d MB, %d tiles drawn, %d MB of tiles kept",
                         mode as NSString, median, max, max / median, residentStartKB / 1024, residentEndKB / 1024,
                         tilesDrawn, tileBytes >> 20))
        }
    }

    func measure(_ choice: BackendChoice) throws -> (backend: String, runs: [Run]) {
        var runs: [Run] = []
        var name = ""
        for mode in ["live", "offline"] {
            let (renderer, _) = try choice.makeRenderer()
            name = renderer.name
            let pan = TiledPan(size: size)
            let tiles = renderer.planCache(for: pan.root).tiles
            tiles.budget = Self.tileBudget
            let retained = renderer.retainedFrames(for: pan.root)
            var clock = 0.0
            func frame(_ number: Int) throws -> Double {
                pan.move(toFrame: number)
                let start = DispatchTime.now().uptimeNanoseconds
                if mode == "live" {
                    clock += 1.0 / 60
                    let (plan, _) = try renderer.livePlan(pan.root, scale: 1, at: clock)
                    _ = try retained.render(plan, with: renderer)
                } else {
                    _ = try renderer.render(pan.root, scale: 1)
                }
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            }
            // Warm-up: the first frames fill the view and the cache; the pan then runs into the budget.
            for number in 0..<Self.warmup {
                _ = try frame(number)
                if mode == "live" { tiles.waitUntilIdle(timeout: 5) }
            }
            let drawnBefore = tiles.totalTilesDrawn
            let residentStart = ProcessMemory.residentKilobytes
            var times: [Double] = []
            for number in Self.warmup..<(Self.warmup + frames) {
                times.append(try frame(number))
                // A display shows a frame every 1/60 s: the background threads have that long before the next.
                if mode == "live" { usleep(16_000) }
            }
            runs.append(Run(mode: mode, times: times, residentStartKB: residentStart,
                            residentEndKB: ProcessMemory.residentKilobytes,
                            tilesDrawn: tiles.totalTilesDrawn - drawnBefore, tileBytes: tiles.byteCount))
        }
        return (name, runs)
    }
}
