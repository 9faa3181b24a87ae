import Foundation
import LaminaCore

/// Which decoder a file needs, told from its first bytes (never from its name).
enum ImageFormat {
    case png
    case jpeg

    /// The format of `bytes`; throws `empty` or `notAnImage`.
    static func detect(_ bytes: UnsafeRawBufferPointer, name: String) throws -> ImageFormat {
        if bytes.isEmpty { throw ImageDecodingError.empty(name: name) }
        if PNGCodec.hasSignature(bytes) { return .png }
        if JPEGDecoder.hasSignature(bytes) { return .jpeg }
        throw ImageDecodingError.notAnImage(name: name)
    }

    /// A decoder that has read and checked the header of `bytes` (size, limits, colour space).
    static func decoder(for bytes: ByteBuffer, name: String, limits: PixelLimits) throws -> any PixelDecoder {
        switch try detect(bytes.bytes, name: name) {
        case .png: return try PNGCodec.Decoder(bytes, name: name, limits: limits)
        case .jpeg: return try JPEGDecoder(bytes, name: name, limits: limits)
        }
    }

    /// The pixel size from the header of `bytes`, limits not applied.
    static func size(of bytes: ByteBuffer, name: String) throws -> (width: Int, height: Int) {
        switch try detect(bytes.bytes, name: name) {
        case .png: return try PNGCodec.size(bytes.bytes, name: name)
        case .jpeg:
            // A JPEG frame of zero size is an error in the header already, so none comes back here.
            let decoder = try JPEGDecoder(bytes, name: name, limits: nil)
            return (decoder.width, decoder.height)
        }
    }
}

/// A decoder between reading the header and decoding the pixels, which is when the `Image` is allocated.
protocol PixelDecoder: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Fills `target`, which is `width` x `height`, with premultiplied pixels; called once.
    func decode(into target: Image) throws
}

/// Encoded bytes at an address that stays put for as long as a decoder needs it: libpng keeps the pointer
/// given to png_image_begin_read_from_memory until png_image_finish_read, which a pointer lent by
/// `Data.withUnsafeBytes` may not outlive.
final class ByteBuffer {
    private(set) var bytes: UnsafeRawBufferPointer
    private let storage: UnsafeMutableRawBufferPointer

    init(_ data: Data) {
        storage = .allocate(byteCount: max(data.count, 1), alignment: 16)
        let count = data.copyBytes(to: storage)
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<count])
    }

    /// `count` bytes written by `fill` (which returns how many it wrote, at most `count`).
    init(count: Int, fill: (UnsafeMutableRawBufferPointer) -> Int) {
        storage = .allocate(byteCount: max(count, 1), alignment: 16)
        let written = fill(storage)
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<min(written, count)])
    }

    /// Cuts `ranges` (ascending, apart, inside `bytes`) out of the bytes in place, moving what follows each down.
    func remove(_ ranges: [Range<Int>]) {
        var written = ranges.first?.lowerBound ?? bytes.count
        for (index, range) in ranges.enumerated() {
            let next = index + 1 < ranges.count ? ranges[index + 1].lowerBound : bytes.count
            let kept = range.upperBound..<next
            if !kept.isEmpty {
                (storage.baseAddress! + written).copyMemory(from: storage.baseAddress! + kept.lowerBound,
                                                            byteCount: kept.count)
            }
            written += kept.count
        }
        bytes = UnsafeRawBufferPointer(rebasing: storage[0..<written])
    }

    deinit { storage.deallocate() }
}
