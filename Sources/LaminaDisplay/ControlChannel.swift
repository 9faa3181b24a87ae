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
    private var clients: [Int32: Data] = [:]
    private var standardInput: Data?
    /// The number of lines read so far (for error messages).
    private(set) var lineCount = 0
    /// The longest line kept waiting for its newline: a client cannot make the kiosk hold unbounded memory.
    static let maxLineBytes = 1 << 20

    /// `-`: standard input; anything else: a Unix socket made at that path (an old socket file there is replaced).
    public init(_ spec: String) throws {
        descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { throw DisplayError("epoll_create1 failed: \(String(cString: strerror(errno)))") }
        if spec == "-" {
            listener = nil
            socketPath = nil
            standardInput = Data()
            _ = fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK)
            watch(0)
            return
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw DisplayError("--control \(spec): socket failed: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(spec.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw DisplayError("--control \(spec): the socket path is too long (\(bytes.count) bytes, at most 107)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        var info = stat()
        if lstat(spec, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { unlink(spec) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let error = String(cString: strerror(errno))
            close(fd)
            throw DisplayError("--control \(spec): cannot listen there: \(error)")
        }
        listener = fd
        socketPath = spec
        watch(fd)
    }

    private func watch(_ fd: Int32) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        epoll_ctl(descriptor, EPOLL_CTL_ADD, fd, &event)
    }

    /// Reads what is ready; `handle` gets each complete line (without its newline) and returns the answer line.
    public func service(_ handle: (String, Int) -> String) {
        var events = [epoll_event](repeating: epoll_event(), count: 16)
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
                    clients[client] = Data()
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

    /// Reads `fd` until it would block; false at its end or on an error.
    private func read(_ fd: Int32, into pending: inout Data, answer: (String) -> Void,
                      handle: (String, Int) -> String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n > 0 {
                pending.append(contentsOf: buffer.prefix(n))
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lineCount += 1
                    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !trimmed.isEmpty { answer(handle(trimmed, lineCount)) }
                }
                if pending.count > Self.maxLineBytes {
                    pending.removeAll()
                    answer(Self.errorLine("a control line is longer than \(Self.maxLineBytes) bytes"))
                }
            } else if n < 0, errno == EAGAIN || errno == EINTR {
                return true
            } else {
                return false
            }
        }
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
