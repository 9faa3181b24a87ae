import Foundation

/// Runs `body` on a thread of its own and waits at most `seconds` for it: nil when it has not finished by then
/// (a hang, which the caller reports; the thread is left behind, blocked). A guard so that a regression to a
/// blocking read fails the test instead of stalling the suite; not a timing assertion (10 s is generous for
/// work that takes milliseconds).
public func finishing<T>(within seconds: Double = 10, _ body: @escaping () throws -> T) -> Result<T, Error>? {
    let box = HangGuardBox(body)
    let thread = Thread {
        box.result = Result { try box.body() }
        box.done.signal()
    }
    thread.start()
    guard box.done.wait(timeout: .now() + seconds) == .success else { return nil }
    return box.result
}

/// The result of a guarded call, handed from its thread to the waiting one.
private final class HangGuardBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
    let body: () throws -> T
    let done = DispatchSemaphore(value: 0)
    init(_ body: @escaping () throws -> T) { self.body = body }
}

/// Mounts (Linux, as root) a tmpfs of `bytes` at a new folder for a test; nil where mounting is not allowed
/// (not root, no CAP_SYS_ADMIN in a container, not Linux), so that tests of a really full disk run where they
/// can and say they were skipped elsewhere. `unmount()` removes it.
public struct TemporaryMount {
    public let url: URL

    public static func tmpfs(bytes: Int) -> TemporaryMount? {
        mount(["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs"])
    }

    /// `folder` bind-mounted read-only at a new folder (writes fail with EROFS even for root, which permission
    /// bits do not stop).
    public static func readOnlyBind(of folder: URL) -> TemporaryMount? {
        guard let mount = mount(["--bind", folder.path]) else { return nil }
        guard run("/bin/mount", ["-o", "remount,ro,bind", mount.url.path]) else {
            mount.unmount()
            return nil
        }
        return mount
    }

    public func unmount() {
        _ = Self.run("/bin/umount", [url.path])
        try? FileManager.default.removeItem(at: url)
    }

    private static func mount(_ arguments: [String]) -> TemporaryMount? {
        #if os(Linux)
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else { return nil }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-mount-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)) != nil else {
            return nil
        }
        guard run("/bin/mount", arguments + [url.path]) else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return TemporaryMount(url: url)
        #else
        return nil
        #endif
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
