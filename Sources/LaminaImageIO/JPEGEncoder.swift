import CJPEG
import Foundation
import LaminaCore

extension Image {
    /// JPEG bytes (baseline, 8-bit YCbCr, 4:2:0 chroma subsampling below quality 0.9 and 4:4:4 from there up),
    /// encoded with TurboJPEG's `tjCompress2`. `quality` runs from 0 (smallest file) to 1 (best picture), as in
    /// Apple's `kCGImageDestinationLossyCompressionQuality`; it is clamped to that range (NaN counts as the default,
    /// 0.8) and mapped to libjpeg's 1...100. JPEG has no alpha: the premultiplied colours are encoded, which is the
    /// picture composited over black. Throws `ImageEncodingError.jpegEncoderFailed` when libjpeg-turbo fails.
    public func jpegData(quality: Double = 0.8) throws -> Data {
        let q = quality.isNaN ? 0.8 : min(max(quality, 0), 1)
        let level = Int32(max(1, min(100, (q * 100).rounded())))
        guard let handle = tjInitCompress() else {
            throw ImageEncodingError.jpegEncoderFailed(reason: "libjpeg-turbo could not start a compressor")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let output { tjFree(output) } }
        let subsampling = q >= 0.9 ? TJSAMP_444 : TJSAMP_420
        let status = tjCompress2(
            handle, baseAddress.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(bytesPerRow),
            Int32(height), Int32(TJPF_BGRA.rawValue), &output, &size, Int32(subsampling.rawValue), level,
            TJFLAG_ACCURATEDCT)
        guard status == 0, let output else {
            let text = tjGetErrorStr2(handle).map { String(cString: $0) } ?? ""
            throw ImageEncodingError.jpegEncoderFailed(reason: text.isEmpty ? "libjpeg-turbo failed without saying why" : text)
        }
        return Data(bytes: output, count: Int(size))
    }
}

/// What the first bytes of encoded image data say, without decoding pixels (ImageIO's CGImageSource asks this).
public enum ImageDataInfo {
    /// The uniform type identifier of `data`'s format: "public.png" or "public.jpeg"; nil for anything else.
    public static func typeIdentifier(of data: Data) -> String? {
        data.withUnsafeBytes { bytes -> String? in
            switch try? ImageFormat.detect(bytes, name: "<data>") {
            case .png: return "public.png"
            case .jpeg: return "public.jpeg"
            case nil: return nil
            }
        }
    }

    /// The pixel size in `data`'s header (PNG or JPEG); nil when there is none or it cannot be read. Limits are not
    /// applied (decoding applies them).
    public static func size(of data: Data) -> (width: Int, height: Int)? {
        try? ImageFormat.size(of: ByteBuffer(data), name: "<data>")
    }
}
