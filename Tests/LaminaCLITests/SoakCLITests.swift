import Foundation
import LaminaTestSupport
import Testing

/// `lamina soak` (a short run: the figures of the long one are in docs/benchmarks.md) and what `lamina info`
/// says about the EGL context.
struct SoakCLITests {
    @Test func aShortSoakPrintsMemoryAndGrowth() throws {
        // Forty frames check the report, not the figure: resident memory after ten frames still moves by a
        // megabyte or two as malloc settles, so the limit here is wide (the long soak's is 2 MB).
        let result = try CLI.run(["soak", "--backend", "cpu", "--frames", "40", "--warm-up", "10", "--interval", "20",
                                  "--max-growth", "64MB"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "soak: cpu, 40 frames, baseline after frame 10")
        // One line per interval: frame, resident kB (a real figure), layers, textures ("-" on the CPU), shadows.
        let rows = lines.filter { $0.hasPrefix("      20 ") || $0.hasPrefix("      40 ") }
        #expect(rows.count == 2, "\(lines)")
        for row in rows {
            let fields = row.split(separator: " ")
            #expect(fields.count == 5 && Int(fields[1]).map { $0 > 1000 } == true && fields[3] == "-", "\(row)")
        }
        #expect(lines.contains { $0.hasPrefix("rss start: ") && $0.contains("after warm-up (frame 10)") })
        #expect(lines.contains { $0.hasPrefix("growth after warm-up: ") && $0.contains("(limit 65536 kB)") })
    }

    @Test func aLiveSoakDrawsLiveFrames() throws {
        let result = try CLI.run(["soak", "--backend", "cpu", "--live", "--frames", "30", "--warm-up", "10",
                                  "--interval", "10", "--max-growth", "64MB"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "soak: cpu, 30 frames, baseline after frame 10, live frames")
        #expect(lines.contains { $0.hasPrefix("      30 ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("growth after warm-up: ") })
    }

    @Test func badSoakArgumentsAreNamed() throws {
        let backend = try CLI.run(["soak", "--backend", "metal", "--frames", "2"])
        #expect(backend.status == 2 && backend.stderr.contains("--backend metal: expected cpu or gles"))
        let growth = try CLI.run(["soak", "--frames", "2", "--warm-up", "1", "--max-growth", "lots"])
        #expect(growth.status == 2 && growth.stderr.contains("--max-growth lots: expected a size such as 2MB"))
        let frames = try CLI.run(["soak", "--frames", "10", "--warm-up", "10"])
        #expect(frames.status == 2 && frames.stderr.contains("--warm-up below --frames"))
    }

    @Test func aNegativeGrowthLimitIsRejected() throws {
        let result = try CLI.run(["soak", "--frames", "30", "--warm-up", "0", "--max-growth=-1MB"])
        #expect(result.status == 2 && result.stderr.contains("--max-growth -1MB: expected a size"), "\(result.stderr)")
    }

    @Test(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display"))
    func infoDescribesTheContextAndResetRecovery() throws {
        let info = try CLI.run(["info"])
        #expect(info.status == 0)
        let lines = info.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("egl version: 1.") })
        #expect(lines.contains { $0.hasPrefix("egl context: GLES 3.0, ") })
        #expect(lines.contains { $0.hasPrefix("gpu reset recovery: ") })
    }
}
