import Foundation
import LaminaTestSupport
import Testing

/// tools/batch-bench.py (docs/scale.md, "Measured"), run small so that it cannot rot: it makes its corpus, runs
/// `lamina render` processes and `lamina batch` on both renderers, and exits non-zero when a batch's picture
/// differs from its process's. The figures themselves are measured by hand on a release build.
@Suite struct BatchBenchScriptTests {
    @Test func theBenchmarkRunsBothRenderersAndReportsEveryFigure() throws {
        let folder = try CLI.temporaryFolder()
        let script = FailureArtifacts.packageRoot.appendingPathComponent("tools/batch-bench.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "--lamina", CLI.binary.path, "--count", "3", "--repeat", "1",
                             "--json", folder.appendingPathComponent("figures.json").path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stdout.hasPrefix("| 3 jobs, "))
        for row in ["cpu: 3 `lamina render` processes", "gles: one `lamina batch --jobs", "cpu: `--jobs 2`",
                    "3 variants (`set` of the title)"] {
            #expect(stdout.contains(row), "no row \(row) in\n\(stdout)")
        }
        let figures = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("figures.json")))
                as? [String: Any])
        #expect(figures["count"] as? Int == 3)
        for key in ["cpu_processes", "cpu_batch", "gles_processes", "gles_batch", "cpu_jobs1", "cpu_jobs2",
                    "identical", "variants"] {
            let wall = try #require(figures[key + "_s"] as? Double, "no \(key)_s")
            #expect(wall > 0 && wall < 600, "\(key)_s = \(wall)")
        }
        for key in ["cpu_batch_ratio", "gles_batch_ratio", "cpu_jobs2_ratio", "variants_ratio"] {
            let ratio = try #require(figures[key] as? Double, "no \(key)")
            #expect(ratio.isFinite && ratio > 0, "\(key) = \(ratio)")
        }
    }
}
