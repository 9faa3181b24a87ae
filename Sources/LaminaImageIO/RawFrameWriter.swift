import Foundation
import LaminaCore

/// The pixel layouts of raw frames (`lamina export --format raw --pixel-format ...`), each named as ffmpeg's
/// `-pix_fmt` names it (docs/export.md, "Raw frames").
public enum RawPixelFormat: String, CaseIterable, Sendable {
    /// 4 bytes a pixel, R G B A, straight (not premultiplied) alpha: the pixels of the PNG frames.
    case rgba
    /// 4 bytes a pixel, B G R A, straight alpha.
    case bgra
    /// Planar 4:2:0, BT.601 full range, composited over black (`YUV420Conversion`): ffmpeg's `yuv420p`
    /// read with `-color_range pc` (its older name `yuvj420p` says the same).
    case yuv420p

    /// The bytes of one `width` x `height` frame.
    public func frameSize(width: Int, height: Int) -> Int {
        switch self {
        case .rgba, .bgra: return width * height * 4
        case .yuv420p:
            let (luma, chroma) = YUV420Conversion.planeSizes(width: width, height: height)
            return luma + 2 * chroma
        }
    }
}

/// Raw frames: every frame's pixels back to back, no header, no padding, rows top to bottom. A reader needs
/// the size, pixel format and rate from elsewhere (the export's sidecar JSON, or ffmpeg's `-s`, `-pix_fmt`
/// and `-r`).
public enum RawFrameWriter {
    /// The bytes of `image` in `format`.
    ///
    /// rgba and bgra undo Lamina's premultiplication with `Image.straight` (the rounding of the PNG
    /// encoder), so a raw frame holds exactly the pixels of the PNG frame; fully transparent pixels are
    /// 0, 0, 0, 0. yuv420p composites over black.
    public static func frame(_ image: Image, format: RawPixelFormat) -> Data {
        switch format {
        case .yuv420p:
            return YUV420Conversion.planes(of: image)
        case .rgba, .bgra:
            let red = format == .rgba ? 0 : 2
            var data = Data(count: image.width * image.height * 4)
            data.withUnsafeMutableBytes { buffer in
                // Data(count:) is zeroed: a clear pixel (most of a Lottie frame) is skipped; an opaque one needs no
                // division; each pixel is one 32-bit store.
                let out = buffer.bindMemory(to: UInt32.self).baseAddress!
                for row in 0..<image.height {
                    let words = (UnsafeRawPointer(image.baseAddress) + row * image.bytesPerRow)
                        .assumingMemoryBound(to: UInt32.self)
                    let line = out + row * image.width
                    for x in 0..<image.width {
                        let word = words[x]
                        if word == 0 { continue }
                        let r: UInt32, g: UInt32, b: UInt32, a = word >> 24
                        if a == 255 {
                            (r, g, b) = ((word >> 16) & 0xFF, (word >> 8) & 0xFF, word & 0xFF)
                        } else {
                            let pixel = Image.straight(word)
                            (r, g, b) = (UInt32(pixel.r), UInt32(pixel.g), UInt32(pixel.b))
                        }
                        let (first, third) = red == 0 ? (r, b) : (b, r)
                        line[x] = (first | g << 8 | third << 16 | a << 24).littleEndian
                    }
                }
            }
            return data
        }
    }
}
