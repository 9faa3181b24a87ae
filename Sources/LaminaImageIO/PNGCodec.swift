import CPNG
import Foundation
import LaminaCore

/// PNG decoding and encoding through libpng's simplified API (png_image_*), which reports errors in
/// `png_image.message` instead of longjmp-ing, the one way of using libpng that is safe from Swift.
enum PNGCodec {
    // png.h's constants, spelled out because its composite macros do not all import into Swift.
    static let imageVersion: UInt32 = 1  // PNG_IMAGE_VERSION
    static let formatFlagAlpha: UInt32 = 0x01  // PNG_FORMAT_FLAG_ALPHA
    static let formatFlagColor: UInt32 = 0x02  // PNG_FORMAT_FLAG_COLOR
    static let formatFlagLinear: UInt32 = 0x04  // PNG_FORMAT_FLAG_LINEAR: the file has 16-bit samples
    static let formatFlagBGR: UInt32 = 0x10  // PNG_FORMAT_FLAG_BGR
    static let formatBGRA = formatFlagColor | formatFlagBGR | formatFlagAlpha  // PNG_FORMAT_BGRA
    static let flagFast: UInt32 = 0x02  // PNG_IMAGE_FLAG_FAST: no row filters, zlib level 3
    static let flag16BitSRGB: UInt32 = 0x04  // PNG_IMAGE_FLAG_16BIT_sRGB
    static let failedMask: UInt32 = 0x03  // PNG_IMAGE_FAILED: warning_or_error & 3 > 1

    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= signature.count && zip(bytes, signature).allSatisfy { $0 == $1 }
    }

    /// The size from the IHDR chunk, read straight from the bytes: nil when the file is too short or IHDR is
    /// not where PNG requires it (libpng then explains). Read by hand so that the size can be checked against
    /// `PixelLimits` before libpng applies limits and wording of its own.
    static func headerSize(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        // Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4).
        guard hasSignature(bytes), bytes.count >= 24,
              bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52 else { return nil }
        func uint32(at offset: Int) -> Int {
            (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
        }
        return (uint32(at: 16), uint32(at: 20))
    }

    /// The size of a PNG from its header, without decoding pixels.
    static func size(_ bytes: UnsafeRawBufferPointer, name: String) throws -> (width: Int, height: Int) {
        if let size = headerSize(bytes) {
            if size.width == 0 || size.height == 0 {
                throw ImageDecodingError.noPixels(name: name, width: size.width, height: size.height)
            }
            return size
        }
        // Let libpng say what is wrong with the header.
        var image = png_image()
        image.version = imageVersion
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw ImageDecodingError.corrupt(name: name, reason: message(of: image))
        }
        return (Int(image.width), Int(image.height))
    }

    /// A decoder holding the parsed header; `decode(into:)` fills an image of its size. A class so that
    /// libpng's state is freed however the decoder goes away.
    final class Decoder: PixelDecoder {
        let width: Int
        let height: Int
        /// On the heap because libpng keeps its address (its error handler writes `message` through it)
        /// from png_image_begin_read_from_memory to png_image_finish_read: it must not move in between.
        private let image: UnsafeMutablePointer<png_image>
        private let name: String
        /// Held because libpng reads from it until png_image_finish_read.
        private let source: ByteBuffer

        /// Reads the header: throws `noPixels` or `tooLarge` before libpng looks further, and `corrupt` for
        /// a damaged header.
        init(_ original: ByteBuffer, name: String, limits: PixelLimits) throws {
            if let size = PNGCodec.headerSize(original.bytes) {
                try checkSize(width: size.width, height: size.height, name: name, limits: limits)
            }
            if let reason = PNGCodec.oversizedChunk(original.bytes) {
                throw ImageDecodingError.corrupt(name: name, reason: reason)
            }
            // Bombs refused, and chunks that cannot change a pixel dropped (PNGCodec+Bombs.swift).
            try PNGCodec.defuse(original, name: name)
            let source = original
            let bytes = source.bytes
            image = .allocate(capacity: 1)
            image.initialize(to: png_image())
            image.pointee.version = PNGCodec.imageVersion
            self.name = name
            self.source = source
            let ok = png_image_begin_read_from_memory(image, bytes.baseAddress, bytes.count)
            width = Int(image.pointee.width)
            height = Int(image.pointee.height)
            // deinit frees libpng's state and the png_image from here on.
            guard ok != 0 else {
                throw ImageDecodingError.corrupt(name: name, reason: PNGCodec.message(of: image.pointee))
            }
            // Normally the size headerSize found; checked again in case that could not parse the header.
            try checkSize(width: width, height: height, name: name, limits: limits)
        }

        deinit {
            png_image_free(image)
            image.deallocate()
        }

        /// Decodes every pixel into `target` (which must be `width` x `height`) and premultiplies them.
        /// Call once.
        func decode(into target: Image) throws {
            precondition(target.width == width && target.height == height, "PNG decoded into a wrong-sized image")
            if image.pointee.format & PNGCodec.formatFlagLinear != 0 {
                // libpng assumes 16-bit samples without gAMA are linear and would brighten them; every other
                // reader (browsers, cairo, image editors) treats them as sRGB like 8-bit ones.
                image.pointee.flags |= PNGCodec.flag16BitSRGB
            }
            // 8-bit output from the simplified API is straight (not premultiplied) sRGB: it expands palette,
            // grey and low bit depths, applies tRNS, reduces 16-bit samples and converts gAMA-tagged ones.
            image.pointee.format = PNGCodec.formatBGRA
            // Cannot fail for files libpng accepted (it refuses widths over a million), but must not trap.
            guard target.bytesPerRow <= Int(Int32.max) else {
                throw ImageDecodingError.corrupt(name: name, reason: "rows of \(width) pixels are too long for libpng")
            }
            let ok = png_image_finish_read(image, nil, target.baseAddress, Int32(target.bytesPerRow), nil)
            if ok == 0 || image.pointee.warning_or_error & PNGCodec.failedMask > 1 {
                throw ImageDecodingError.corrupt(name: name, reason: PNGCodec.message(of: image.pointee))
            }
            // Every alpha was read on the way: an opaque picture is known to be one (RenderPlan+Occlusion.swift).
            if PNGCodec.premultiply(target) { target.markOpaque() }
        }
    }

    /// Turns libpng's straight BGRA into Lamina's premultiplied BGRA in place; true when every alpha was 255.
    @discardableResult
    static func premultiply(_ image: Image) -> Bool {
        let count = image.width * image.height
        let words = image.baseAddress.bindMemory(to: UInt32.self, capacity: count)
        var opaque = true
        for i in 0..<count {
            let word = words[i]
            let alpha = word >> 24
            if alpha == 255 { continue }
            opaque = false
            if alpha == 0 {
                words[i] = 0
                continue
            }
            let straight = RGBA8(
                r: UInt8(truncatingIfNeeded: word >> 16), g: UInt8(truncatingIfNeeded: word >> 8),
                b: UInt8(truncatingIfNeeded: word), a: UInt8(alpha))
            words[i] = Image.premultipliedWord(straight)
        }
        image.markModified()
        return opaque
    }

    /// PNG bytes of `image`: 8-bit RGBA (colour type 6), straight alpha, not interlaced.
    static func encode(_ image: Image, compression: PNGCompression) throws -> Data {
        guard image.width > 0, image.height > 0 else {
            throw ImageEncodingError.noPixels(width: image.width, height: image.height)
        }
        // libpng takes the row length as a png_int_32 and refuses rows of more than 2^31 - 1 pixels anyway.
        guard image.bytesPerRow <= Int(Int32.max) else {
            throw ImageEncodingError.encoderFailed(reason: "rows of \(image.width) pixels are too long for libpng")
        }
        let count = image.width * image.height
        guard let straight = malloc(count * 4) else {
            throw ImageEncodingError.encoderFailed(reason: "out of memory for \(count * 4) bytes")
        }
        defer { free(straight) }
        unpremultiply(image, into: straight.bindMemory(to: UInt32.self, capacity: count))

        var png = png_image()
        png.version = imageVersion
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        // Straight BGRA in memory: the same byte order as Lamina's pixels, so opaque pixels copy unchanged.
        png.format = formatBGRA
        png.flags = compression == .fast ? flagFast : 0

        // One pass into a buffer big enough for the worst case (PNG_IMAGE_PNG_SIZE_MAX), so that the image is
        // compressed once; png_image_write_get_memory_size would compress it twice.
        var capacity = worstCaseSize(width: image.width, height: image.height)
        for _ in 0..<2 {
            guard let output = malloc(capacity) else {
                throw ImageEncodingError.encoderFailed(reason: "out of memory for \(capacity) bytes")
            }
            var size = capacity
            let ok = png_image_write_to_memory(&png, output, &size, 0, straight, Int32(image.bytesPerRow), nil)
            png_image_free(&png)
            if ok != 0 {
                // Give back the unused tail of the worst-case buffer, then hand the memory to Data uncopied.
                let trimmed = realloc(output, max(size, 1)) ?? output
                return Data(bytesNoCopy: trimmed, count: size, deallocator: .free)
            }
            free(output)
            // On a too-small buffer libpng reports the size it needs; anything else is a real failure.
            guard size > capacity else {
                throw ImageEncodingError.encoderFailed(reason: message(of: png))
            }
            capacity = size
            png.warning_or_error = 0
        }
        throw ImageEncodingError.encoderFailed(reason: "the output kept outgrowing its buffer")
    }

    /// Straight (unpremultiplied) BGRA words from the image's premultiplied ones.
    static func unpremultiply(_ image: Image, into output: UnsafeMutablePointer<UInt32>) {
        let count = image.width * image.height
        let words = image.baseAddress.bindMemory(to: UInt32.self, capacity: count)
        for i in 0..<count {
            let word = words[i]
            let alpha = word >> 24
            if alpha == 255 || alpha == 0 {
                // Opaque pixels are already straight; transparent ones are all zero in premultiplied form.
                output[i] = alpha == 0 ? 0 : word
                continue
            }
            let p = Image.straight(word)
            output[i] = UInt32(p.a) << 24 | UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b)
        }
    }

    /// An upper bound on the PNG size, after png.h's PNG_IMAGE_PNG_SIZE_MAX, with room for the sRGB chunk.
    static func worstCaseSize(width: Int, height: Int) -> Int {
        let data = (width * 4 + 1) * height  // PNG_IMAGE_DATA_SIZE: a filter byte per row
        let zlib = data + (data + 7) >> 3 + (data + 63) >> 6 + 11  // PNG_ZLIB_MAX_SIZE
        let chunks = 8 + 25 + 16 + 44 + 13 + 12 + 12 + 12 * (zlib / 8192 + 1)  // signature, chunks, IDAT headers
        return zlib + chunks + 1024
    }

    /// The message libpng left in the png_image (never empty).
    static func message(of image: png_image) -> String {
        var message = image.message
        let text = withUnsafeBytes(of: &message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "libpng failed without saying why" : text
    }
}

/// Throws `noPixels` for a zero side and `tooLarge` when `limits` refuse the size.
func checkSize(width: Int, height: Int, name: String, limits: PixelLimits) throws {
    if width == 0 || height == 0 {
        throw ImageDecodingError.noPixels(name: name, width: width, height: height)
    }
    if let reason = limits.violation(width: width, height: height) {
        throw ImageDecodingError.tooLarge(name: name, width: width, height: height, reason: reason)
    }
}
