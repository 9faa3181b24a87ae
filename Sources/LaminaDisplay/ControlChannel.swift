import CLinux
import Foundation

/// `lamina play --control`: JSON lines from standard input (answers on standard output) or from clients of a Unix
/// socket (answers on the same connection). Every line gets one answer line: `{"ok":true}` or
/// `{"error":"..."}`. The channel is one descriptor for the frame loop to poll (an epoll set of the input, the
/// listening socket and its clients), handled on the loop's thread.
public final class ControlChannel {
    /// What the loop polls.
    public let descriptor: Int32
    private let listener: Int32?
    private let socketPath: String?
    private var clients: [Int32: Connection] = [:]
    private var standardInput: Connection?
    /// The number of lines read so far (for error messages).
    private(set) var lineCount = 0
    /// The longest line, its newline included: a longer one is answered with an error and discarded up to its
    /// newline, the connection staying open (docs/kiosk.md, "The control channel").
    public static let maxLineBytes = 64 << 10
    /// Clients connected at once; one more is answered with an error and closed.
    public static let maxClients = 16
    /// Bytes read from one client in one `service` call: a client that floods lines cannot hold the frame loop
    /// (the rest is read at the next frame).
    static let readBudget = 256 << 10
    /// The socket's permissions: the owner only, whatever the umask.
    public static let defaultSocketMode: mode_t = 0o600

    /// What is read from one source and not yet a whole line.
    private struct Connection {
        var pending = Data()
        /// Inside a line that was too long: everything up to its newline is dropped.
        var discarding = false
    }

    /// `-`: standard input; anything else: a Unix socket made at that path with `mode` (0600 by default, whatever
    /// the umask). A stale socket there (no process listens on it) is replaced; a socket another process listens on
    /// is refused ("in use"), and so is anything that is not a socket, a symbolic link included.
    public init(_ spec: String, mode: mode_t = ControlChannel.defaultSocketMode) throws {
        descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { throw DisplayError("epoll_create1 failed: \(String(cString: strerror(errno)))") }
        if spec == "-" {
            listener = nil
            socketPath = nil
            standardInput = Connection()
            _ = fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK)
            watch(0)
            return
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(spec.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw DisplayError("--control \(spec): the socket path is too long (\(bytes.count) bytes, at most 107)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        do {
            try Self.clearPath(spec, address: address)
        } catch {
            close(descriptor)
            throw error
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else {
            close(descriptor)
            throw DisplayError("--control \(spec): socket failed: \(String(cString: strerror(errno)))")
        }
        // The file is made with no permission beyond `mode` (a umask of its complement while binding), set exactly
        // before anyone can connect (listen comes after the chmod).
        let previousMask = umask(~mode & 0o777)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previousMask)
        guard bound == 0, chmod(spec, mode) == 0, listen(fd, 32) == 0 else {
            let error = String(cString: strerror(errno))
            if bound == 0 { unlink(spec) }
            close(fd)
            close(descriptor)
            throw DisplayError("--control \(spec): cannot listen there: \(error)")
        }
        listener = fd
        socketPath = spec
        watch(fd)
    }

    /// Makes `path` free for a new socket: nothing there, or a stale socket (removed). Throws for a socket another
    /// process listens on, a symbolic link, or any other file.
    private static func clearPath(_ path: String, address: sockaddr_un) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFSOCK:
            let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard probe >= 0 else { return }
            defer { close(probe) }
            var address = address
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if connected == 0 {
                throw DisplayError("--control \(path): the socket is in use (another process listens on it)")
            }
            // ECONNREFUSED: nobody listens; the file is what a stopped player left.
            unlink(path)
        case S_IFLNK:
            throw DisplayError("--control \(path): is a symbolic link; refusing to follow it (remove it, or give "
                + "another path)")
        default:
            throw DisplayError("--control \(path): exists and is not a socket; refusing to replace it")
        }
    }

    private func watch(_ fd: Int32) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        epoll_ctl(descriptor, EPOLL_CTL_ADD, fd, &event)
    }

    /// Reads what is ready; `handle` gets each complete line (without its newline) and returns the answer line.
    public func service(_ handle: (String, Int) -> String) {
        var events = [epoll_event](repeating: epoll_event(), count: 32)
        let count = epoll_wait(descriptor, &events, Int32(events.count), 0)
        guard count > 0 else { return }
        for event in events.prefix(Int(count)) {
            let fd = event.data.fd
            if fd == listener {
                while true {
                    let client = accept(fd, nil, nil)
                    guard client >= 0 else { break }
                    _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                    guard clients.count < Self.maxClients else {
                        Self.write(client, Self.errorLine("too many control clients (at most \(Self.maxClients) at once)"))
                        close(client)
                        continue
                    }
                    clients[client] = Connection()
                    watch(client)
                }
            } else if fd == 0, standardInput != nil {
                if !read(0, into: &standardInput!, answer: { Self.write(1, $0) }, handle: handle) {
                    epoll_ctl(descriptor, EPOLL_CTL_DEL, 0, nil)  // End of input: the kiosk goes on.
                }
            } else if clients[fd] != nil {
                if !read(fd, into: &clients[fd]!, answer: { Self.write(fd, $0) }, handle: handle) {
                    epoll_ctl(descriptor, EPOLL_CTL_DEL, fd, nil)
                    close(fd)
                    clients[fd] = nil
                }
            }
        }
    }

    /// The clients connected now (for tests).
    var clientCount: Int { clients.count }

    /// Reads `fd` until it would block or `readBudget` bytes came; false at its end or on an error.
    private func read(_ fd: Int32, into connection: inout Connection, answer: (String) -> Void,
                      handle: (String, Int) -> String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var budget = Self.readBudget
        while budget > 0 {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n > 0 {
                budget -= n
                var chunk = buffer[0..<n]
                while !chunk.isEmpty {
                    let newline = chunk.firstIndex(of: 0x0A)
                    let piece = chunk[chunk.startIndex..<(newline ?? chunk.endIndex)]
                    chunk = newline.map { chunk[($0 + 1)...] } ?? chunk[chunk.endIndex...]
                    if connection.discarding {
                        if newline != nil { connection.discarding = false }
                        continue
                    }
                    connection.pending.append(contentsOf: piece)
                    // The newline counts: a line of exactly maxLineBytes with its newline passes.
                    if connection.pending.count + 1 > Self.maxLineBytes {
                        connection.pending.removeAll()
                        connection.discarding = newline == nil
                        lineCount += 1
                        answer(Self.errorLine("<control>:\(lineCount): a control line is longer than "
                                              + "\(Self.maxLineBytes) bytes (its newline included): discarded"))
                        continue
                    }
                    guard newline != nil else { continue }
                    let line = String(decoding: connection.pending, as: UTF8.self)
                    connection.pending.removeAll(keepingCapacity: true)
                    lineCount += 1
                    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !trimmed.isEmpty { answer(handle(trimmed, lineCount)) }
                }
            } else if n < 0, errno == EAGAIN || errno == EINTR {
                return true
            } else {
                return false
            }
        }
        return true
    }

    private static func write(_ fd: Int32, _ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }  // A client gone or not reading: its answer is dropped.
            offset += n
        }
    }

    /// `{"error":"..."}` with the message escaped for JSON.
    public static func errorLine(_ message: String) -> String {
        var escaped = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "{\"error\":\"\(escaped)\"}"
    }

    deinit {
        for fd in clients.keys { close(fd) }
        if let listener { close(listener) }
        if let socketPath { unlink(socketPath) }
        close(descriptor)
    }
}
