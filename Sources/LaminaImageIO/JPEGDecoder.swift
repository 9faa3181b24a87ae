import CJPEG
import Foundation
import LaminaCore

/// JPEG decoding through libjpeg-turbo's TurboJPEG API (version 2.1: tjDecompressHeader3 / tjDecompress2),
/// which returns error codes where libjpeg's classic API would longjmp, something Swift cannot survive.
///
/// Colour and greyscale JPEGs decode to opaque BGRA, so premultiplied and straight are the same.
/// CMYK and YCCK JPEGs are refused: converting them properly needs their colour profile.
/// EXIF orientation is not applied: pixels come back in stored order, as CGImageSource gives them.
final class JPEGDecoder: PixelDecoder {
    /// Smooth, accurate IDCT (costs little next to entropy decoding); stop at the first warning, since a
    /// warning means libjpeg is about to invent pixels; refuse files with absurd numbers of progressive scans.
    static let flags = TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS

    /// Every JPEG starts with the SOI marker followed by the next marker's 0xFF.
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    let width: Int
    let height: Int
    private let handle: tjhandle
    private let source: ByteBuffer
    private let name: String

    /// Reads the header. Throws `corrupt` for a damaged header, `unsupported` for CMYK, and, unless
    /// `limits` is nil (size queries), `noPixels` or `tooLarge`.
    init(_ source: ByteBuffer, name: String, limits: PixelLimits?) throws {
        let bytes = source.bytes
        guard let handle = tjInitDecompress() else {
            throw ImageDecodingError.corrupt(name: name, reason: JPEGDecoder.message(nil))
        }
        self.handle = handle
        self.source = source
        self.name = name
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = tjDecompressHeader3(
            handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), &width, &height,
            &subsampling, &colorspace)
        self.width = Int(width)
        self.height = Int(height)
        if status != 0 {
            throw ImageDecodingError.corrupt(name: name, reason: JPEGDecoder.message(handle))
        }
        if width == 0 || height == 0 {
            // TurboJPEG 2.1 returns success and no size for a stream that ends before its frame header (it
            // takes it for a tables-only stream), with libjpeg's "Premature end of JPEG file" warning stored.
            // A real zero-height frame is a libjpeg error instead, so this is always a damaged file.
            let warning = JPEGDecoder.message(handle)
            let reason = warning == "No error" ? "the JPEG data holds no image" : warning
            throw ImageDecodingError.corrupt(name: name, reason: reason)
        }
        if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
            throw ImageDecodingError.unsupported(name: name, feature: "CMYK JPEG")
        }
        if let limits {
            try checkSize(width: self.width, height: self.height, name: name, limits: limits)
            try JPEGDecoder.checkCoefficientMemory(bytes, name: name, width: self.width, height: self.height)
        }
    }

    deinit { tjDestroy(handle) }

    /// Decodes every pixel into `target`, which must be `width` x `height`.
    func decode(into target: Image) throws {
        precondition(target.width == width && target.height == height, "JPEG decoded into a wrong-sized image")
        let bytes = source.bytes
        let status = tjDecompress2(
            handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(bytes.count),
            target.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(target.bytesPerRow),
            Int32(height), Int32(TJPF_BGRA.rawValue), JPEGDecoder.flags)
        // tjDecompress2 also returns -1 for warnings (TJERR_WARNING), such as "Premature end of JPEG file"
        // for a truncated file, after filling the rest with grey: both are errors here.
        if status != 0 {
            throw ImageDecodingError.corrupt(name: name, reason: JPEGDecoder.message(handle))
        }
        target.markModified()
        // TJPF_BGRA's alpha byte is 0xFF after decompression (turbojpeg.h): a JPEG is opaque.
        target.markOpaque()
    }

    /// TurboJPEG's message for the last failure on `handle` (or on no handle, for tjInitDecompress).
    private static func message(_ handle: tjhandle?) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "libjpeg-turbo failed without saying why" }
        let message = String(cString: text)
        return message.isEmpty ? "libjpeg-turbo failed without saying why" : message
    }
}
