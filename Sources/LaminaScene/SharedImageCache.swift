import Foundation
import LaminaCore

/// Decoded images shared by many scene loads in one process (`SceneOptions.sharedImages`; `lamina batch` keeps
/// one for all its jobs, docs/scale.md): a file is decoded once while it stays the same (its size and
/// modification time), and its image is shared by every scene that names it. Safe from any thread. Images are
/// kept, least recently used first out, while their pixels total at most `byteLimit`; one that is still in a
/// scene stays alive there (and keeps its memory reservation) until that scene goes.
public final class SharedImageCache: @unchecked Sendable {
    private struct Entry {
        var stamp: FileStamp
        var result: Result<Image, FileProblem>
        var bytes: Int
        var used: UInt64
    }

    private struct FileStamp: Equatable {
        var size: Int64
        var modified: Int64
        var inode: UInt64
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    private var bytes = 0
    /// The most pixel bytes kept (default 512 MiB).
    public let byteLimit: Int
    private var decodedCount = 0
    private var reusedCount = 0
    /// Files decoded, and loads served without decoding (for tests and statistics).
    public var decoded: Int { lock.withLock { decodedCount } }
    public var reused: Int { lock.withLock { reusedCount } }

    public init(byteLimit: Int = 512 << 20) {
        self.byteLimit = max(0, byteLimit)
    }

    /// The image at `path` (a real path), from the cache when the file is unchanged, else from `decode`.
    func image(atPath path: String, decode: () -> Result<Image, FileProblem>) -> Result<Image, FileProblem> {
        let stamp = Self.stamp(path)
        let cached: Result<Image, FileProblem>? = lock.withLock {
            clock += 1
            guard let stamp, var entry = entries[path], entry.stamp == stamp else { return nil }
            entry.used = clock
            entries[path] = entry
            reusedCount += 1
            return entry.result
        }
        if let cached { return cached }
        let result = decode()
        guard let stamp else { return result }
        lock.withLock {
            decodedCount += 1
            let size = (try? result.get()).map(\.byteCount) ?? 0
            if let old = entries[path] { bytes -= old.bytes }
            entries[path] = Entry(stamp: stamp, result: result, bytes: size, used: clock)
            bytes += size
            while bytes > byteLimit, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
                bytes -= oldest.value.bytes
                entries[oldest.key] = nil
            }
        }
        return result
    }

    /// Forgets every image.
    public func removeAll() {
        lock.withLock {
            entries.removeAll()
            bytes = 0
        }
    }

    private static func stamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(size: Int64(info.st_size),
                         modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                         inode: UInt64(info.st_ino))
    }
}
