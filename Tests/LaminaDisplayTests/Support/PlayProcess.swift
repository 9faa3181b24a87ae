import Foundation
import LaminaTestSupport

/// `lamina play` running in the background, as a kiosk runs it: its stderr and stdout gathered, its stdin open for
/// control lines, stopped with a signal.
final class PlayProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    /// Read on threads of their own (PipeReader), from `init`.
    private var outputReader: PipeReader?
    private var errorReader: PipeReader?

    static var binary: URL { LaminaExecutable.url }

    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = Self.binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "LAMINA_RENDERER"] { env[key] = nil }
        env.merge(environment) { $1 }
        process.environment = env
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        outputReader = PipeReader(output)
        errorReader = PipeReader(errors)
    }

    var stdout: String { outputReader?.text ?? "" }
    var stderr: String { errorReader?.text ?? "" }

    /// Writes one control line.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits up to `seconds` for `text` on stdout or stderr.
    @discardableResult
    func waitFor(_ text: String, onStdout: Bool = false, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (onStdout ? stdout : stderr).contains(text) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Sends `signal` and waits up to `seconds` for the exit; the exit status, or nil when it did not exit (then
    /// it is killed).
    func stop(_ signal: Int32 = SIGTERM, seconds: Double = 20) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, signal) }
        return waitForExit(seconds: seconds)
    }

    func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        // The last output: the pipes end with the process (or with a child it left holding them).
        outputReader?.waitForEnd(seconds: 1)
        errorReader?.waitForEnd(seconds: 1)
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
