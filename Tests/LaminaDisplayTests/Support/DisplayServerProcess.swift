import Foundation

/// A process started by a display test (Xvfb, weston, `lamina play`): the process, its log, and a stop that leaves
/// nothing running.
///
/// Started with posix_spawn and an empty signal mask rather than Foundation's Process: a child of a test thread
/// inherits that thread's mask, in which swift-testing's threads block SIGTERM, SIGINT and SIGHUP (Xvfb would
/// then ignore SIGTERM).
final class DisplayServerProcess: @unchecked Sendable {
    let name: String
    let log: URL
    let pid: pid_t
    private var exited = false
    /// The wait status once the process has exited (see `exitStatus`).
    private var waitStatus: Int32 = 0

    /// Starts `executable` with `arguments` and `environment` (added to this process's, less the variables named in
    /// `unsetting`), stdout and stderr into `log`, or stdout into `stdout` when given.
    init(name: String, executable: String, arguments: [String], environment: [String: String] = [:],
         unsetting: [String] = [], log: URL, stdout: Pipe? = nil) throws {
        self.name = name
        self.log = log
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout.fileHandleForWriting.fileDescriptor, 1)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var inherited = ProcessInfo.processInfo.environment
        for name in unsetting { inherited[name] = nil }
        let environment = inherited.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw WestonServerError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        // The child has its copy of the pipe's write end; closing ours lets a read see its end.
        try stdout?.fileHandleForWriting.close()
    }

    /// Whether the process has not exited (reaping it when it has).
    var isRunning: Bool {
        guard !exited else { return false }
        if waitpid(pid, &waitStatus, WNOHANG) == pid { exited = true }
        return !exited
    }

    /// The end of the log, for failure messages.
    var logTail: String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; waits for the exit. Safe to call twice.
    func stop(grace: Double = 3) {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while isRunning, Date() < deadline { usleep(5_000) }
        if isRunning {
            kill(pid, SIGKILL)
            waitpid(pid, &waitStatus, 0)
            exited = true
        }
    }

    /// Sends `signal` and waits at most `timeout` seconds for the exit (then SIGKILL); the exit status, or 128 + the
    /// signal that ended the process (as a shell says).
    func stop(signal: Int32, timeout: Double = 10) -> Int32 {
        if isRunning { kill(pid, signal) }
        stop(grace: timeout)
        return exitStatus ?? -1
    }

    /// The exit status once exited: the code, or 128 + the signal that ended it; nil while running.
    var exitStatus: Int32? {
        guard !isRunning else { return nil }
        let signal = waitStatus & 0x7F
        return signal == 0 ? (waitStatus >> 8) & 0xFF : 128 + signal
    }

    /// The whole log (stdout and stderr).
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    deinit { stop() }
}

/// Where display tests stand: the servers they need can run, are required (CI: LAMINA_REQUIRE_DISPLAYS=1, a
/// missing one fails), or are missing (the tests are skipped, the reason printed).
enum DisplayTestRequirement {
    static var required: Bool { ProcessInfo.processInfo.environment["LAMINA_REQUIRE_DISPLAYS"] == "1" }

    /// Nil when every file exists, else what is missing.
    static func missing(_ paths: [String]) -> String? {
        let absent = paths.filter { !FileManager.default.fileExists(atPath: $0) }
        return absent.isEmpty ? nil : "missing \(absent.joined(separator: ", "))"
    }

    /// Whether tests needing `paths` run: when all exist, or when they are required (then they fail). Prints why
    /// they are skipped otherwise.
    static func shouldRun(_ what: String, needing paths: [String]) -> Bool {
        guard let reason = missing(paths) else { return true }
        if required { return true }
        FileHandle.standardError.write(Data("lamina tests: skipping \(what): \(reason)\n".utf8))
        return false
    }
}

extension Process {
    /// Waits up to `seconds` for a short helper (a screenshot tool, a compositor's control command) to exit; past
    /// that, stops it and returns false, so that a stuck helper fails its test instead of hanging the run.
    func finishes(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { usleep(10_000) }
        guard isRunning else { return true }
        terminate()
        waitUntilExit()
        return false
    }
}
