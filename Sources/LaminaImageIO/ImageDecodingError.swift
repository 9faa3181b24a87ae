import Foundation

/// Why an image file or buffer could not be turned into an `Image`.
///
/// Every case names the file (or the `name` given to `Image(data:name:limits:)`) and says why, in one line
/// meant for people. The exact formats, where `NAME` is the path or name as given and `W`x`H` are the sizes
/// from the file's header:
///
/// - `unreadable`: `cannot read "NAME": REASON`, REASON being `no such file`, `permission denied`,
///   `it is a directory` or the system's own words for other failures.
/// - `notAFile`: `cannot read "NAME": it is KIND, not a regular file`, KIND being `a folder`,
///   `a FIFO (named pipe)`, `a character device`, ...; refused before the file is opened for reading.
/// - `fileTooLarge`: `"NAME" is SIZE, over the limit of LIMIT for an image file`; refused before reading.
/// - `empty`: `"NAME" is empty`
/// - `notAnImage`: `"NAME" is not a PNG or JPEG file`
/// - `noPixels`: `"NAME" is WxH pixels: an image needs at least one pixel`
/// - `tooLarge`: `"NAME" is too large: REASON`, REASON from `PixelLimits.violation`, for example
///   `100000x100000 pixels exceeds the limit of 16384 pixels per side`.
/// - `unsupported`: `cannot decode "NAME": FEATURE is not supported`, for example `CMYK JPEG`.
/// - `corrupt`: `cannot decode "NAME": REASON`, REASON being the decoder's (libpng's or libjpeg's) own
///   message, such as `IDAT: CRC error` or `Premature end of JPEG file`.
public enum ImageDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(name: String, reason: String)
    /// The path names a folder, FIFO, device or socket: only regular files are read (a FIFO would block).
    case notAFile(name: String, kind: String)
    /// The file is larger than the limit for image files (`FileInput.defaultImageFileLimit` unless set);
    /// `size` is nil when it is not known.
    case fileTooLarge(name: String, size: Int?, limit: Int)
    /// The file or buffer holds no bytes at all.
    case empty(name: String)
    /// The bytes start with neither the PNG signature nor a JPEG start-of-image marker.
    case notAnImage(name: String)
    /// The header gives a width or height of zero.
    case noPixels(name: String, width: Int, height: Int)
    /// The header gives a size beyond the `PixelLimits`; refused before any pixel memory is allocated.
    case tooLarge(name: String, width: Int, height: Int, reason: String)
    /// A well-formed file that uses something Lamina does not decode (CMYK JPEG).
    case unsupported(name: String, feature: String)
    /// Truncated or damaged data, as the decoder reported it. Warnings count: a decoder that would
    /// finish a damaged image with made-up pixels gives this error instead.
    case corrupt(name: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let name, let reason): return "cannot read \(quoted(name)): \(reason)"
        case .notAFile(let name, let kind): return "cannot read \(quoted(name)): it is \(kind), not a regular file"
        case .fileTooLarge(let name, let size, let limit):
            return FileInputError.tooLarge(path: name, size: size, limit: limit, what: "an image file").description
        case .empty(let name): return "\(quoted(name)) is empty"
        case .notAnImage(let name): return "\(quoted(name)) is not a PNG or JPEG file"
        case .noPixels(let name, let width, let height):
            return "\(quoted(name)) is \(width)x\(height) pixels: an image needs at least one pixel"
        case .tooLarge(let name, _, _, let reason): return "\(quoted(name)) is too large: \(reason)"
        case .unsupported(let name, let feature): return "cannot decode \(quoted(name)): \(feature) is not supported"
        case .corrupt(let name, let reason): return "cannot decode \(quoted(name)): \(reason)"
        }
    }
}

/// Why an `Image` could not be encoded or written as PNG.
///
/// The exact formats:
/// - `noPixels`: `cannot encode a WxH image as PNG: PNG needs at least one pixel`
/// - `encoderFailed`: `cannot encode PNG: REASON`, REASON being libpng's message.
/// - `jpegEncoderFailed`: `cannot encode JPEG: REASON`, REASON being libjpeg-turbo's message.
/// - `unwritable`: `cannot write "PATH": REASON`, REASON as for `ImageDecodingError.unreadable`
///   (`no such file` when the folder does not exist, `permission denied`, `it is a directory`, ...).
public enum ImageEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The image has a width or height of zero, which PNG cannot store.
    case noPixels(width: Int, height: Int)
    /// libpng refused the image or ran out of memory.
    case encoderFailed(reason: String)
    /// libjpeg-turbo refused the image (`Image.jpegData(quality:)`).
    case jpegEncoderFailed(reason: String)
    /// The file could not be created or written.
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .noPixels(let width, let height):
            return "cannot encode a \(width)x\(height) image as PNG: PNG needs at least one pixel"
        case .encoderFailed(let reason): return "cannot encode PNG: \(reason)"
        case .jpegEncoderFailed(let reason): return "cannot encode JPEG: \(reason)"
        case .unwritable(let path, let reason): return "cannot write \(quoted(path)): \(reason)"
        }
    }
}

// `localizedDescription` is what most callers print; make it the same one line.
extension ImageDecodingError: LocalizedError {
    public var errorDescription: String? { description }
}

extension ImageEncodingError: LocalizedError {
    public var errorDescription: String? { description }
}

/// The name in double quotes, so that names with spaces or colons still read unambiguously.
private func quoted(_ name: String) -> String { "\"\(name)\"" }
