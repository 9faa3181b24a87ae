import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes whole files with POSIX calls, so that failures come back as an errno that can be
/// worded the same way on every platform (Foundation's errors differ between Linux and macOS).
enum FileBytes {
    /// The first `limit` bytes of the file (all of it when it is shorter), and whether that is all of it.
    /// Throws `ImageDecodingError.unreadable`.
    static func load(_ path: String, upTo limit: Int = .max) throws -> (data: Data, isComplete: Bool) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ImageDecodingError.unreadable(name: path, reason: reason(errno)) }
        defer { close(fd) }

        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ImageDecodingError.unreadable(name: path, reason: reason(errno)) }
        // Checked here because open() succeeds on a directory and only read() fails.
        if info.st_mode & S_IFMT == S_IFDIR {
            throw ImageDecodingError.unreadable(name: path, reason: reason(EISDIR))
        }

        // st_size is a hint only (the file may grow or shrink, or be a pipe): read until end of file.
        var data = Data(count: min(limit, max(Int(info.st_size), 0) + 1))
        var count = 0
        while count < limit {
            if count == data.count { data.count = min(limit, max(data.count * 2, 65536)) }
            let wanted = data.count - count
            let got = data.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress! + count, wanted)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw ImageDecodingError.unreadable(name: path, reason: reason(errno))
            }
            if got == 0 { break }
            count += got
        }
        data.count = count
        // Reaching the limit exactly leaves it unknown whether more follows, which callers treat as "maybe".
        return (data, count < limit)
    }

    /// Creates or truncates the file and writes `data` to it. Throws `ImageEncodingError.unwritable`.
    static func store(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ImageEncodingError.unwritable(path: path, reason: reason(errno)) }
        var written = 0
        while written < data.count {
            let result = data.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                let error = errno
                close(fd)
                throw ImageEncodingError.unwritable(path: path, reason: reason(error))
            }
            written += result
        }
        // close() is where some file systems (NFS, full disks) finally report a failed write.
        if close(fd) != 0 { throw ImageEncodingError.unwritable(path: path, reason: reason(errno)) }
    }

    /// Short lowercase words for the common failures, else the C library's message.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "it is a directory"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}
