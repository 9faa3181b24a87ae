import Foundation

/// Reads image files and writes PNGs through `FileInput` and `FileOutput`, worded as image errors.
enum FileBytes {
    /// The first `prefix` bytes of the file (all of it when it is shorter), and whether that is all of it.
    /// Only a regular file of at most `maxFileBytes` is read. Throws `ImageDecodingError`.
    static func load(
        _ path: String, upTo prefix: Int = .max, maxFileBytes: Int = FileInput.defaultImageFileLimit
    ) throws -> (data: Data, isComplete: Bool) {
        do {
            return try FileInput.read(path, upTo: prefix, limit: maxFileBytes, what: "an image file",
                                      allowStreams: false)
        } catch {
            throw imageError(error, path: path)
        }
    }

    /// The whole file in a `ByteBuffer`, read straight into it (the only copy of the file in memory while it is
    /// decoded), after the checks of `load`. Throws `ImageDecodingError`.
    static func loadBuffer(_ path: String, maxFileBytes: Int = FileInput.defaultImageFileLimit) throws -> ByteBuffer {
        do {
            return try FileInput.readBuffer(path, limit: maxFileBytes, what: "an image file")
        } catch {
            throw imageError(error, path: path)
        }
    }

    private static func imageError(_ error: FileInputError, path: String) -> ImageDecodingError {
        switch error {
        case .unreadable(_, let reason): return .unreadable(name: path, reason: reason)
        case .notAFile(_, let kind): return .notAFile(name: path, kind: kind)
        case .tooLarge(_, let size, let limit, _): return .fileTooLarge(name: path, size: size, limit: limit)
        }
    }

    /// Replaces the file atomically with `data` (`FileOutput.write`). Throws `ImageEncodingError.unwritable`.
    static func store(_ data: Data, to path: String, named name: String) throws {
        do {
            try FileOutput.write(data, to: path)
        } catch {
            throw ImageEncodingError.unwritable(path: name, reason: error.reason)
        }
    }
}
