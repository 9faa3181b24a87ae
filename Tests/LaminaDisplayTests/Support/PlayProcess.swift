import Foundation
import LaminaTestSupport

/// `lamina play` running in the background, as a kiosk runs it: its stderr and stdout gathered, its stdin open for
/// control lines, stopped with a signal.
final class PlayProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let gathered = Gathered()

    final class Gathered: @unchecked Sendable {
        let lock = NSLock()
        var stdout = Data()
        var stderr = Data()
    }

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
        let gathered = self.gathered
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            gathered.lock.withLock { gathered.stdout.append(data) }
        }
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            gathered.lock.withLock { gathered.stderr.append(data) }
        }
        try process.run()
    }

    var stdout: String { gathered.lock.withLock { String(decoding: gathered.stdout, as: UTF8.self) } }
    var stderr: String { gathered.lock.withLock { String(decoding: gathered.stderr, as: UTF8.self) } }

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
        usleep(50_000)  // The last output.
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
    }
}
