import Foundation
import LaminaCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads input files with POSIX calls and the checks a renderer of untrusted files needs: only regular files
/// (a FIFO would block forever, a device never end), and a size limit checked before anything is read.
///
/// Scene files may also come from a pipe (`lamina render -`, `/dev/stdin`, `<(cat scene.json)`): callers
/// say so with `allowStreams`, and such input is read up to its limit and refused beyond it.
public enum FileInput {
    /// 256 MiB: the largest image file read by default (a 16384 x 16384 PNG of noise is about 1 GiB decoded
    /// but rarely over 200 MiB compressed).
    public static let defaultImageFileLimit = 256 << 20
    /// 64 MiB: the largest scene or sprite-sheet file read by default.
    public static let defaultSceneFileLimit = 64 << 20

    /// The whole file at `path`, at most `limit` bytes. `what` names the kind of file in a size error ("an
    /// image file"). With `allowStreams`, a pipe, socket or character device (a terminal) is read too.
    /// Throws `FileInputError`.
    public static func read(
        _ path: String, limit: Int, what: String, allowStreams: Bool = false
    ) throws(FileInputError) -> Data {
        try read(path, upTo: .max, limit: limit, what: what, allowStreams: allowStreams).data
    }

    /// Standard input to its end, at most `limit` bytes (named `<stdin>` in errors). Throws `FileInputError`.
    public static func readStandardInput(limit: Int, what: String) throws(FileInputError) -> Data {
        try readToEnd(fd: 0, path: "<stdin>", upTo: .max, limit: limit, what: what, knownSize: nil).data
    }

    /// The first `prefix` bytes of the file (all of it when shorter) and whether that is all of it, after the
    /// same checks as `read`: the size limit applies to the whole file even when only a prefix is read.
    static func read(
        _ path: String, upTo prefix: Int, limit: Int, what: String, allowStreams: Bool
    ) throws(FileInputError) -> (data: Data, isComplete: Bool) {
        let (fd, size) = try openChecked(path, limit: limit, what: what, allowStreams: allowStreams)
        defer { close(fd) }
        return try readToEnd(fd: fd, path: path, upTo: prefix, limit: limit, what: what, knownSize: size)
    }

    /// Opens `path` for reading after the checks of `read`: a regular file (or, with `allowStreams`, a stream) of
    /// at most `limit` bytes. Returns the descriptor, which the caller closes, and the size of a regular file.
    static func openChecked(
        _ path: String, limit: Int, what: String, allowStreams: Bool
    ) throws(FileInputError) -> (fd: Int32, size: Int?) {
        // stat before open: opening a FIFO for reading blocks until a writer comes, which may be never.
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unreadable(path: path, reason: FileInputError.reason(errno)) }
        let regular = info.st_mode & S_IFMT == S_IFREG
        if !regular, !(allowStreams && isStream(info.st_mode)) {
            throw .notAFile(path: path, kind: kindName(info.st_mode))
        }
        // O_NONBLOCK: should the file have been swapped for a FIFO since stat, open returns at once; fstat
        // then sees what was really opened.
        let fd = open(path, O_RDONLY | O_CLOEXEC | (regular ? O_NONBLOCK : 0))
        guard fd >= 0 else { throw .unreadable(path: path, reason: FileInputError.reason(errno)) }
        var opened = false
        defer { if !opened { close(fd) } }
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: FileInputError.reason(errno)) }
        if info.st_mode & S_IFMT != S_IFREG, regular || !isStream(info.st_mode) {
            throw .notAFile(path: path, kind: kindName(info.st_mode))
        }
        let size = info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : nil
        if let size, size > limit { throw .tooLarge(path: path, size: size, limit: limit, what: what) }
        opened = true
        return (fd, size)
    }

    /// Reads `fd` until its end, `prefix` bytes or past `limit` (an error), whichever comes first.
    private static func readToEnd(
        fd: Int32, path: String, upTo prefix: Int, limit: Int, what: String, knownSize: Int?
    ) throws(FileInputError) -> (data: Data, isComplete: Bool) {
        // One byte past the limit tells a stream that is too long from one that is exactly the limit.
        let (limitPlusOne, overflow) = limit.addingReportingOverflow(1)
        let cap = min(prefix, overflow ? .max : limitPlusOne)
        // st_size is a hint only (the file may grow or shrink): read until end of file.
        var data = Data(count: min(cap, max(knownSize ?? 65536, 0) + 1))
        var count = 0
        while count < cap {
            if count == data.count { data.count = min(cap, max(data.count * 2, 65536)) }
            let wanted = data.count - count
            let got = data.withUnsafeMutableBytes { buffer in
                readBytes(fd, buffer.baseAddress! + count, wanted)
            }
            if got < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // Only a stream opened without O_NONBLOCK gets here (stdin left non-blocking by a parent).
                    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&poller, 1, -1)
                    continue
                }
                throw .unreadable(path: path, reason: FileInputError.reason(errno))
            }
            if got == 0 { break }
            count += got
        }
        if count > limit { throw .tooLarge(path: path, size: nil, limit: limit, what: what) }
        data.count = count
        // Reaching the prefix exactly leaves it unknown whether more follows, which callers treat as "maybe".
        return (data, count < prefix)
    }

    private static func isStream(_ mode: mode_t) -> Bool {
        let kind = mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK || kind == S_IFCHR
    }

    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}

/// read(2), named apart from `FileInput.read`.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// Why an input file was not read. The formats, PATH being the path as given:
/// - `unreadable`: `cannot read "PATH": REASON` (`no such file`, `permission denied`, the system's words)
/// - `notAFile`: `cannot read "PATH": it is KIND, not a regular file` (a folder, a FIFO (named pipe), ...)
/// - `tooLarge`: `"PATH" is SIZE, over the limit of LIMIT for WHAT`, or `is over` when the size of a stream
///   is not known, sizes as `MemorySize.describe` writes them (`2 GiB`, `256 MiB`).
public enum FileInputError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notAFile(path: String, kind: String)
    case tooLarge(path: String, size: Int?, limit: Int, what: String)

    public var description: String {
        "\"\(path)\" " + problem
    }

    /// The path as given.
    public var path: String {
        switch self {
        case .unreadable(let path, _), .notAFile(let path, _), .tooLarge(let path, _, _, _): return path
        }
    }

    /// The description without the path: `cannot be read: no such file`, `is a FIFO (named pipe), not a
    /// regular file`, `is 2 GiB, over the limit of 256 MiB for an image file`.
    public var problem: String {
        switch self {
        case .unreadable(_, let reason): return "cannot be read: \(reason)"
        case .notAFile(_, let kind): return "is \(kind), not a regular file"
        case .tooLarge(_, let size, let limit, let what):
            let amount = size.map { "is \(sizeText($0)), over" } ?? "is over"
            return "\(amount) the limit of \(sizeText(limit)) for \(what)"
        }
    }

    private func sizeText(_ bytes: Int) -> String {
        bytes < 1024 ? "\(bytes) bytes" : "\(MemorySize.describe(bytes)) (\(bytes) bytes)"
    }

    /// Short lowercase words for the common failures, else the C library's message.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "it is a directory"
        case ENOSPC: return "no space left on device"
        case EDQUOT: return "disk quota exceeded"
        case EROFS: return "read-only file system"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}

extension FileInputError: LocalizedError {
    public var errorDescription: String? { description }
}
