import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes output files atomically: the bytes go to a temporary file in the destination's folder, which is
/// flushed to the disk (fsync) and then renamed over the destination. A reader sees the old file or the whole
/// new one, never a part; on any failure (disk full, permission, a missing folder) the old file is untouched
/// and the temporary file is removed.
///
/// Destinations that are not regular files (`/dev/stdout`, `/dev/null`, a FIFO) cannot be replaced by a
/// rename and are written in place. A symbolic link is followed: the file it points to is replaced.
public enum FileOutput {
    /// Writes `data` to `path` as described above. Throws `FileOutputError`.
    ///
    /// `flush` false leaves out the two fsync calls (the file's and its folder's): the rename is still atomic, so
    /// a reader still sees the old file or the whole new one, but a power cut may lose a recent file. For many
    /// files written in a row (`lamina export`'s frames), flushed together at the end with `flushFileSystem(of:)`
    /// instead of twice a file.
    public static func write(_ data: Data, to path: String, flush: Bool = true) throws(FileOutputError) {
        var destination = path
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let real = realpath(path, nil) {
            destination = String(cString: real)
            free(real)
        }
        let exists = stat(destination, &info) == 0
        if exists {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw FileOutputError(path: path, reason: "it is a folder")
            default: return try writeInPlace(data, to: destination, named: path)
            }
        }
        let (folder, base) = split(destination)
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0 else {
            let code = errno
            throw FileOutputError(path: path, reason: code == ENOENT ? "no such folder \(folder)" : reason(code))
        }
        guard folderInfo.st_mode & S_IFMT == S_IFDIR else {
            throw FileOutputError(path: path, reason: "\(folder) is not a folder")
        }

        // A dot name, so that the temporary file stays out of sight in listings and globs such as *.png.
        var template = Array("\(folder)/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FileOutputError(path: path, reason: reason(errno)) }
        let temporary = String(cString: template)
        var open = true
        do throws(FileOutputError) {
            // mkstemp makes the file 0600; keep the replaced file's mode and owner, else the usual 0644.
            if exists {
                fchmod(fd, info.st_mode & 0o7777)
                _ = fchown(fd, info.st_uid, info.st_gid)  // Only root may give a file away; others keep theirs.
            } else {
                fchmod(fd, 0o644)
            }
            try writeAll(data, to: fd, named: path, destination: destination)
            if flush { try perform(.sync, destination, path) { fsync(fd) } }
            open = false
            // close() is where some file systems (NFS, full disks) finally report a failed write.
            try perform(.close, destination, path) { close(fd) }
            try perform(.rename, destination, path) { rename(temporary, destination) }
        } catch {
            if open { close(fd) }
            unlink(temporary)
            throw error
        }
        // The rename itself is made durable by flushing the folder; a failure here loses nothing already written.
        guard flush else { return }
        let folderFD = systemOpen(folder, O_RDONLY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// Flushes everything written to the file system that holds `path` (a file or folder) to the disk: after files
    /// written with `flush: false`. Throws `FileOutputError` when the disk reports a failed write.
    public static func flushFileSystem(of path: String) throws(FileOutputError) {
        let fd = systemOpen(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileOutputError(path: path, reason: reason(errno)) }
        defer { close(fd) }
        // syncfs(2) flushes one file system; Glibc's Swift module leaves it out (it is a GNU extension), so it is
        // looked up at run time, and sync(2), which flushes them all, stands in where it is missing.
        if let syncfs = FileOutput.syncfs {
            if syncfs(fd) != 0 { throw FileOutputError(path: path, reason: reason(errno)) }
        } else {
            sync()
        }
    }

    private static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    /// A device or FIFO: written directly, as nothing can be renamed over it.
    private static func writeInPlace(_ data: Data, to destination: String, named path: String) throws(FileOutputError) {
        let fd = systemOpen(destination, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileOutputError(path: path, reason: reason(errno)) }
        do throws(FileOutputError) {
            try writeAll(data, to: fd, named: path, destination: destination)
        } catch {
            close(fd)
            throw error
        }
        if close(fd) != 0 { throw FileOutputError(path: path, reason: reason(errno)) }
    }

    private static func writeAll(
        _ data: Data, to fd: Int32, named path: String, destination: String
    ) throws(FileOutputError) {
        var written = 0
        while written < data.count {
            if let code = Faults.failure(at: .write, destination) { throw FileOutputError(path: path, reason: reason(code)) }
            let result = data.withUnsafeBytes { buffer in
                systemWrite(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw FileOutputError(path: path, reason: reason(errno))
            }
            written += result
        }
    }

    /// Runs one step's system call (0 for success, else errno is set), or fails it as a test asked, before
    /// the call is made (so an injected rename failure leaves the old file in place, as a real one does).
    private static func perform(
        _ step: Step, _ destination: String, _ path: String, _ call: () -> Int32
    ) throws(FileOutputError) {
        if let code = Faults.failure(at: step, destination) {
            if step == .close { _ = call() }  // The descriptor is still closed, as a failing close(2) does.
            throw FileOutputError(path: path, reason: reason(code))
        }
        guard call() == 0 else { throw FileOutputError(path: path, reason: reason(errno)) }
    }

    /// The folder ("." for a bare name) and the last component.
    private static func split(_ path: String) -> (folder: String, base: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    static func reason(_ code: Int32) -> String {
        code == ENOENT || code == ENOTDIR ? "no such folder" : FileInputError.reason(code)
    }

    // MARK: Test seam

    /// The steps of a write where a test can make the system call fail.
    enum Step: Sendable { case write, sync, close, rename }

    /// Failures injected by tests, by destination path, each used once: the real system calls run, and the
    /// given step then reports `errno` as though the disk had failed there. Only for paths a test names, so
    /// parallel tests do not see each other's failures.
    enum Faults {
        nonisolated(unsafe) private static var pending: [String: (Step, Int32)] = [:]
        private static let lock = NSLock()

        static func inject(_ code: Int32, at step: Step, for path: String) {
            lock.lock()
            pending[path] = (step, code)
            lock.unlock()
        }

        static func failure(at step: Step, _ path: String) -> Int32? {
            lock.lock()
            defer { lock.unlock() }
            guard let (wanted, code) = pending[path], wanted == step else { return nil }
            pending[path] = nil
            return code
        }
    }
}

/// open(2) and write(2), named apart from `FileOutput.write`.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }

/// An output file that could not be written: `cannot write "PATH": REASON`, REASON being `no space left on
/// device`, `permission denied`, `read-only file system`, `no such folder FOLDER`, `it is a folder`, or the
/// system's words. The old file, if any, is untouched.
public struct FileOutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path as given.
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write \"\(path)\": \(reason)" }
}

extension FileOutputError: LocalizedError {
    public var errorDescription: String? { description }
}
