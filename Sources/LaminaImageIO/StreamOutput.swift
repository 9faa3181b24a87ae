import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A stream of bytes written piece by piece, for outputs too long to hold in memory (a y4m or raw export):
/// standard output, or a file that appears only when it is complete.
///
/// A file is written as `FileOutput` writes one: into a hidden temporary file in the destination's folder,
/// flushed and renamed into place by `finish()`; `abandon()` (or a failed write) removes the temporary file
/// and leaves any old file as it was. A destination that is not a regular file (`/dev/stdout`, a FIFO) is
/// written in place.
///
/// Write errors are `FileOutputError`s. On standard output a reader that went away (ffmpeg quitting) is
/// EPIPE: `cannot write "<stdout>": broken pipe (the program reading the output stopped)`. The process must
/// ignore SIGPIPE for that error to be seen at all instead of the signal killing it silently.
public final class StreamOutput {
    /// The destination as given ("-" for standard output).
    public let path: String
    private let fd: Int32
    /// The temporary file to rename over `destination` in `finish()`; nil when writing in place.
    private let temporary: String?
    private let destination: String
    private var closed = false
    /// Bytes written so far.
    public private(set) var bytesWritten = 0

    /// Standard output.
    public static func standardOutput() -> StreamOutput {
        StreamOutput(path: "-", fd: STDOUT_FILENO, temporary: nil, destination: "-")
    }

    private init(path: String, fd: Int32, temporary: String?, destination: String) {
        self.path = path
        self.fd = fd
        self.temporary = temporary
        self.destination = destination
    }

    /// Opens `path` for writing ("-" for standard output). Throws `FileOutputError` (no such folder, a folder,
    /// permission denied).
    public convenience init(path: String) throws(FileOutputError) {
        if path == "-" {
            self.init(path: "-", fd: STDOUT_FILENO, temporary: nil, destination: "-")
            return
        }
        var destination = path
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let real = realpath(path, nil) {
            destination = String(cString: real)
            free(real)
        }
        if stat(destination, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw FileOutputError(path: path, reason: "it is a folder")
            default:
                let fd = open(destination, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw FileOutputError(path: path, reason: FileOutput.reason(errno)) }
                self.init(path: path, fd: fd, temporary: nil, destination: destination)
                return
            }
        }
        let slash = destination.lastIndex(of: "/")
        let folder = slash.map { destination[..<$0].isEmpty ? "/" : String(destination[..<$0]) } ?? "."
        let base = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        var template = Array("\(folder)/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            let code = errno
            throw FileOutputError(path: path, reason: code == ENOENT ? "no such folder \(folder)" : FileOutput.reason(code))
        }
        fchmod(fd, 0o644)
        self.init(path: path, fd: fd, temporary: String(cString: template), destination: destination)
    }

    deinit {
        if !closed { abandon() }
    }

    private var name: String { path == "-" ? "<stdout>" : path }

    /// Writes all of `data`, retrying short writes and EINTR.
    public func write(_ data: Data) throws(FileOutputError) {
        precondition(!closed, "write after finish or abandon")
        var written = 0
        while written < data.count {
            let result = data.withUnsafeBytes { buffer in
                streamWrite(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                let reason = code == EPIPE
                    ? "broken pipe (the program reading the output stopped)" : FileOutput.reason(code)
                throw FileOutputError(path: name, reason: reason)
            }
            written += result
        }
        bytesWritten += data.count
    }

    /// Completes the output: a file is flushed, closed and renamed into place.
    public func finish() throws(FileOutputError) {
        precondition(!closed, "finish twice")
        closed = true
        guard let temporary else {
            if fd != STDOUT_FILENO, close(fd) != 0 { throw FileOutputError(path: name, reason: FileOutput.reason(errno)) }
            return
        }
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            unlink(temporary)
            throw FileOutputError(path: name, reason: FileOutput.reason(code))
        }
        if close(fd) != 0 || rename(temporary, destination) != 0 {
            let code = errno
            unlink(temporary)
            throw FileOutputError(path: name, reason: FileOutput.reason(code))
        }
    }

    /// Gives up: the temporary file is removed and any old file stays as it was.
    public func abandon() {
        guard !closed else { return }
        closed = true
        if fd != STDOUT_FILENO { close(fd) }
        if let temporary { unlink(temporary) }
    }
}

/// write(2), named apart from `StreamOutput.write`.
private func streamWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
