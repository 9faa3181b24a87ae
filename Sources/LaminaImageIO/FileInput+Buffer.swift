import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileInput {
    /// The whole regular file at `path` (at most `limit` bytes), read straight into a `ByteBuffer` of its size: the
    /// decoders' input without a second copy of the file (docs/reliability.md, "Hostile images"). Checks as `read`.
    /// Throws `FileInputError`.
    static func readBuffer(_ path: String, limit: Int, what: String) throws(FileInputError) -> ByteBuffer {
        let (fd, size) = try openChecked(path, limit: limit, what: what, allowStreams: false)
        defer { close(fd) }
        guard let size else { throw .notAFile(path: path, kind: "not a regular file") }
        var failure: Int32?
        // One byte more than its size tells a file that grew since fstat from one that did not.
        let buffer = ByteBuffer(count: size + 1) { storage in
            var count = 0
            while count < storage.count {
                let got = systemRead(fd, storage.baseAddress! + count, storage.count - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return 0
                }
                if got == 0 { break }
                count += got
            }
            return count
        }
        if let failure { throw .unreadable(path: path, reason: FileInputError.reason(failure)) }
        guard buffer.bytes.count > size else { return buffer }
        // The file grew while it was read: read it again the ordinary way (the limit still holds).
        let data = try read(path, limit: limit, what: what)
        return ByteBuffer(data)
    }
}

/// read(2), named apart from `FileInput.read`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
