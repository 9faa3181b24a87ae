import Foundation
import LaminaTestSupport
import Testing

/// tools/gpu-check.sh's arguments (docs/gpu.md, "The GPU check"): its usage text and the refusals that come before
/// anything runs. The check itself takes minutes and is run by hand on a GPU machine (or `--quick` on llvmpipe).
@Suite struct GPUCheckScriptTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let script = FailureArtifacts.packageRoot.appendingPathComponent("tools/gpu-check.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self),
                String(decoding: stderr, as: UTF8.self))
    }

    @Test func helpNamesWhatItRunsAndItsOptions() throws {
        for flag in ["--help", "-h"] {
            let result = try Self.run([flag])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("usage: tools/gpu-check.sh [options] [FOLDER]"))
            for phrase in ["lamina info", "LAMINA_REQUIRE_GLES=1", "3840x2160", "sprites-100k", "animated-10k",
                           "rounded-sprites-10k", "cards-500", "instanced GL baseline", "report.md", "report.json",
                           "$OUT", "./gpu-report", "--quick", "--size WxH", "--frames N", "--test-filter RE",
                           "--skip-tests", "--skip-bench", "--no-build", "--egl-device D"] {
                #expect(result.stdout.contains(phrase), "\(flag): no \(phrase)")
            }
        }
    }

    @Test func badArgumentsExitTwoBeforeAnythingRuns() throws {
        let cases: [([String], String)] = [
            (["--bogus"], "unknown option --bogus"),
            (["--size"], "--size needs a value"),
            (["--size", "4k"], "--size must be WxH, got 4k"),
            (["--frames", "0"], "--frames must be a whole number of at least 1, got 0"),
            (["--egl-device"], "--egl-device needs a value"),
            (["one", "two"], "one output folder only, got one and two"),
        ]
        for (arguments, message) in cases {
            let result = try Self.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): nothing ran")
        }
    }
}
