import Foundation
import Lamina
import Testing

/// The control socket locked down (docs/kiosk.md, "The control channel"): its permissions whatever the umask, no
/// symlink followed or file clobbered, a socket in use refused and a stale one replaced, long lines answered and
/// discarded with the connection kept, at most 16 clients, and a flooding client unable to hold the loop.
@Suite(.serialized) struct ControlChannelTests {
    private func temporaryPath(_ name: String = "control.sock") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o777
    }

    /// A connected client socket (blocking, with a 5 s receive timeout).
    private func connectClient(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in Array(path.utf8).enumerated() { raw[i] = b }
        }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(ok == 0, "connect: \(String(cString: strerror(errno)))")
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    private static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads answer lines from `fd` while servicing `channel`, until `count` lines came or 5 s passed.
    private func answers(_ fd: Int32, _ count: Int, channel: ControlChannel, handle: (String, Int) -> String) -> [String] {
        var lines: [String] = []
        var pending = Data()
        let deadline = Date().addingTimeInterval(5)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while lines.count < count, Date() < deadline {
            channel.service(handle)
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n > 0 { pending.append(contentsOf: buffer.prefix(n)) } else if n == 0 { break } else { usleep(2000) }
            while let newline = pending.firstIndex(of: 0x0A) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        return lines
    }

    private let ok: (String, Int) -> String = { line, number in "{\"ok\":\"\(number):\(line.count)\"}" }

    @Test func theSocketIsTheOwnersOnlyWhateverTheUmask() throws {
        let previous = umask(0)
        defer { umask(previous) }
        let path = try temporaryPath()
        var channel: ControlChannel? = try ControlChannel(path)
        #expect(mode(path) == 0o600)
        channel = nil
        #expect(!FileManager.default.fileExists(atPath: path), "removed when the channel goes")
        channel = try ControlChannel(path, mode: 0o660)
        #expect(mode(path) == 0o660)
        _ = channel
    }

    @Test func symlinksAndOtherFilesAreNeverReplaced() throws {
        let path = try temporaryPath()
        let target = path + ".target"
        try "keep".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(throws: DisplayError("--control \(path): is a symbolic link; refusing to follow it (remove it, or give another path)")) {
            _ = try ControlChannel(path)
        }
        try FileManager.default.removeItem(atPath: path)
        try "mine".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: DisplayError("--control \(path): exists and is not a socket; refusing to replace it")) {
            _ = try ControlChannel(path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    @Test func aSocketInUseIsRefusedAndAStaleOneReplaced() throws {
        let path = try temporaryPath()
        let first = try ControlChannel(path)
        #expect(throws: DisplayError("--control \(path): the socket is in use (another process listens on it)")) {
            _ = try ControlChannel(path)
        }
        _ = first
        // A stale socket: bound, then its process gone without removing it.
        let stalePath = try temporaryPath()
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in Array(stalePath.utf8).enumerated() { raw[i] = b }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        let replaced = try ControlChannel(stalePath)
        let client = connectClient(stalePath)
        defer { close(client) }
        Self.send(client, "hello\n")
        #expect(answers(client, 1, channel: replaced, handle: ok) == [#"{"ok":"1:5"}"#])
    }

    @Test func aLineOver64KiBIsAnsweredAndDiscardedAndTheConnectionStays() throws {
        let path = try temporaryPath()
        let channel = try ControlChannel(path)
        let client = connectClient(path)
        defer { close(client) }
        // 65,535 bytes and the newline: the longest line that passes. Then 70,000 bytes, then a short line.
        Self.send(client, String(repeating: "a", count: 65_535) + "\n")
        let writer = Thread { [self] in
            Self.send(client, String(repeating: "b", count: 70_000) + "\n" + "short\n")
        }
        writer.start()
        let lines = answers(client, 3, channel: channel, handle: ok)
        #expect(lines.count == 3)
        #expect(lines.first == #"{"ok":"1:65535"}"#)
        #expect(lines.dropFirst().first == #"{"error":"<control>:2: a control line is longer than 65536 bytes (its newline included): discarded"}"#)
        #expect(lines.last == #"{"ok":"3:5"}"#)
    }

    @Test func atMost16ClientsAtOnce() throws {
        let path = try temporaryPath()
        let channel = try ControlChannel(path)
        var clients: [Int32] = []
        defer { for fd in clients { close(fd) } }
        for _ in 0..<16 {
            clients.append(connectClient(path))
            channel.service(ok)
        }
        let extra = connectClient(path)
        clients.append(extra)
        let lines = answers(extra, 1, channel: channel, handle: ok)
        #expect(lines == [#"{"error":"too many control clients (at most 16 at once)"}"#])
        // Closed after the answer: the next read is the end.
        var byte: UInt8 = 0
        #expect(Glibc.read(extra, &byte, 1) == 0)
        // The sixteen still work.
        Self.send(clients[15], "x\n")
        #expect(answers(clients[15], 1, channel: channel, handle: ok) == [#"{"ok":"1:1"}"#])
    }

    @Test func aFloodingClientCannotHoldTheLoop() throws {
        let path = try temporaryPath()
        let channel = try ControlChannel(path)
        let flooder = connectClient(path)
        let quiet = connectClient(path)
        defer { close(flooder); close(quiet) }
        channel.service(ok)  // Accepts both.
        // The flooder's writes fail once it is shut down below: an error, not the end of the test process.
        signal(SIGPIPE, SIG_IGN)
        let stop = StopFlag()
        let writer = Thread {
            let lines = String(repeating: "{bad}\n", count: 10_000)
            while !stop.isSet { Self.send(flooder, lines) }
        }
        writer.start()
        // Another client's line is answered within a few services while the flood goes on, and one service call
        // reads a bounded amount from the flooder.
        usleep(100_000)
        var handled = 0
        channel.service { _, _ in handled += 1; return "{}" }
        #expect(handled > 0 && handled <= 256 * 1024 / 6 + 1, "\(handled) lines in one service")
        Self.send(quiet, "ping\n")
        let lines = answers(quiet, 1, channel: channel) { line, _ in line == "ping" ? "pong" : "{}" }
        stop.set()
        shutdown(flooder, Int32(SHUT_RDWR))
        #expect(lines == ["pong"])
    }

    final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}
