import Foundation
import LaminaCore

extension Image {
    /// Decodes a PNG or JPEG file; the format comes from the bytes, not the extension.
    ///
    /// The size in the file's header is checked against `limits` before any pixel memory is allocated.
    /// PNG: every colour type, bit depth and interlacing; palette transparency (tRNS) applies; 16-bit
    /// samples are rounded to 8 bits (and taken as sRGB, as browsers take them); a gAMA chunk converts the
    /// samples to sRGB. JPEG: colour and greyscale, opaque; EXIF orientation is not applied.
    ///
    /// Only a regular file is read (a folder, FIFO or device is `notAFile` before it is opened for reading),
    /// and only when it is at most `maxFileBytes` long (`fileTooLarge`, checked before reading).
    ///
    /// Throws `ImageDecodingError` (see there for every message), or `ImageError.outOfMemory`.
    /// Errors name the file by `path` as given.
    public convenience init(
        contentsOfFile path: String, limits: PixelLimits = .default,
        maxFileBytes: Int = FileInput.defaultImageFileLimit
    ) throws {
        // Look at the start first, so that a large file that is not an image is refused without reading it all.
        let head = try FileBytes.load(path, upTo: 65536, maxFileBytes: maxFileBytes)
        let bytes: ByteBuffer
        if head.isComplete {
            bytes = ByteBuffer(head.data)
        } else {
            _ = try head.data.withUnsafeBytes { try ImageFormat.detect($0, name: path) }
            // Read straight into the buffer the decoder reads: one copy of the file in memory, not two
            // (docs/reliability.md, "Hostile images").
            bytes = try FileBytes.loadBuffer(path, maxFileBytes: maxFileBytes)
        }
        try self.init(bytes: bytes, name: path, limits: limits)
    }

    /// Decodes PNG or JPEG bytes, as `init(contentsOfFile:limits:)` decodes a file; `name` stands for the
    /// data in error messages.
    public convenience init(data: Data, name: String = "<data>", limits: PixelLimits = .default) throws {
        // The header is read before self.init so that nothing is allocated for a refused size; the bytes are
        // copied because Data.withUnsafeBytes cannot span self.init and libpng keeps its pointer in between.
        try self.init(bytes: ByteBuffer(data), name: name, limits: limits)
    }

    /// Decodes `bytes`, which the decoder may change (a PNG's droppable chunks are cut out in place).
    convenience init(bytes: ByteBuffer, name: String, limits: PixelLimits) throws {
        let decoder = try ImageFormat.decoder(for: bytes, name: name, limits: limits)
        try self.init(width: decoder.width, height: decoder.height, limits: limits)
        try decoder.decode(into: self)
    }

    /// PNG bytes: 8-bit RGBA (colour type 6) with straight alpha, unpremultiplied with `Image.straight`,
    /// so decoding them gives back exactly these pixels. Throws `ImageEncodingError`.
    public func pngData(compression: PNGCompression = .fast) throws -> Data {
        try PNGCodec.encode(self, compression: compression)
    }

    /// Writes `pngData(compression:)` to a file, replacing any file there atomically (`FileOutput`: a temporary
    /// file in the same folder, flushed, then renamed; on failure the old file is untouched). Throws
    /// `ImageEncodingError` (`cannot write "PATH": REASON`, such as `no space left on device`).
    public func writePNG(to url: URL, compression: PNGCompression = .fast) throws {
        guard url.isFileURL else {
            throw ImageEncodingError.unwritable(path: url.absoluteString, reason: "not a file URL")
        }
        let data = try pngData(compression: compression)
        // Named as the caller wrote it (a relative path stays relative); written at the absolute path.
        try FileBytes.store(data, to: url.path, named: url.relativePath)
    }
}

/// How hard the PNG encoder works. libpng's simplified API, the only one usable without setjmp, offers
/// these two settings and no others.
public enum PNGCompression: Sendable {
    /// zlib level 3 without row filters: about 25 ms for a 1920x1080 frame in a release build, for files
    /// two to three times the size of `.small` ones. For test artifacts and frames written as they render.
    case fast
    /// zlib's default level 6 with adaptive row filters: about four times slower than `.fast`.
    /// For images that are kept, such as reference images committed to a repository.
    case small
}

/// Questions about image files that need only their headers.
public enum ImageFile {
    /// The pixel size of a PNG or JPEG file, from its header, without decoding pixels. Reads the first 64 KiB
    /// of the file, and the rest only for a JPEG whose metadata pushes its frame header further.
    /// Does not apply `PixelLimits`: a header claiming 100000x100000 gives that size, and damage after the
    /// header goes unnoticed. Throws `ImageDecodingError` as `Image(contentsOfFile:)` does, `noPixels` and
    /// `unsupported` (CMYK JPEG) included, and `notAFile` and `fileTooLarge` as there.
    public static func size(
        ofFile path: String, maxFileBytes: Int = FileInput.defaultImageFileLimit
    ) throws -> (width: Int, height: Int) {
        let head = try FileBytes.load(path, upTo: 65536, maxFileBytes: maxFileBytes)
        do {
            return try ImageFormat.size(of: ByteBuffer(head.data), name: path)
        } catch let error as ImageDecodingError {
            // A JPEG's size comes after its APPn segments (EXIF, ICC profile), which can exceed the first
            // 64 KiB; only then is the whole file worth reading.
            guard case .corrupt = error, !head.isComplete else { throw error }
            let whole = try FileBytes.load(path, maxFileBytes: maxFileBytes).data
            return try ImageFormat.size(of: ByteBuffer(whole), name: path)
        }
    }
}
