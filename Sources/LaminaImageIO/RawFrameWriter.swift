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
            let red = format == .rgba ? 0 : 2, blue = 2 - red
            var data = Data(count: image.width * image.height * 4)
            data.withUnsafeMutableBytes { buffer in
                let out = buffer.bindMemory(to: UInt8.self).baseAddress!
                for row in 0..<image.height {
                    let words = (UnsafeRawPointer(image.baseAddress) + row * image.bytesPerRow)
                        .assumingMemoryBound(to: UInt32.self)
                    let line = out + row * image.width * 4
                    for x in 0..<image.width {
                        let word = words[x]
                        let pixel = word >> 24 == 255
                            ? RGBA8(r: UInt8(truncatingIfNeeded: word >> 16), g: UInt8(truncatingIfNeeded: word >> 8),
                                    b: UInt8(truncatingIfNeeded: word), a: 255)
                            : Image.straight(word)
                        line[4 * x + red] = pixel.r
                        line[4 * x + 1] = pixel.g
                        line[4 * x + blue] = pixel.b
                        line[4 * x + 3] = pixel.a
                    }
                }
            }
            return data
        }
    }
}
