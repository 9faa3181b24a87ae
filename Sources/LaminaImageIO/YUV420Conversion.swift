import Foundation
import LaminaCore

/// Planar 4:2:0 YUV from Lamina's premultiplied pixels, for y4m and raw `yuv420p` output.
///
/// - Composited over black: a premultiplied pixel's colour channels are already that pixel drawn over black,
///   so transparent areas come out black and the alpha channel is dropped (YUV has none).
/// - BT.601 coefficients, full range (0-255 for Y, Cb and Cr, the JPEG/JFIF convention):
///   Y = 0.299 R + 0.587 G + 0.114 B; Cb = 128 + 0.5 (B - Y) / (1 - 0.114); Cr = 128 + 0.5 (R - Y) / (1 - 0.299).
///   A y4m stream says so with `XCOLORRANGE=FULL` (`Y4MWriter`): ffmpeg 5.1 takes `C420jpeg` alone for
///   limited range. ffmpeg assumes BT.601 for a stream that names no matrix.
/// - Chroma is the mean of each 2x2 block of pixels (centred siting, as `C420jpeg` says); for an odd width
///   or height the last column or row of blocks averages the pixels that exist, so the chroma planes are
///   ceil(w/2) x ceil(h/2).
/// - Integer arithmetic (16-bit fixed-point coefficients, rounded to nearest), so every machine gives the
///   same bytes.
public enum YUV420Conversion {
    /// Fixed-point BT.601 coefficients, x 65536; each chroma row sums to 0, so grey has Cb = Cr = 128.
    static let yR = 19595, yG = 38470, yB = 7471
    static let cbR = -11059, cbG = -21709, cbB = 32768
    static let crR = 32768, crG = -27439, crB = -5329

    /// The sizes of the planes of a `width` x `height` frame.
    public static func planeSizes(width: Int, height: Int) -> (luma: Int, chroma: Int) {
        (width * height, ((width + 1) / 2) * ((height + 1) / 2))
    }

    /// The bytes of one frame: the Y plane (width x height), then Cb, then Cr (each ceil(w/2) x ceil(h/2)),
    /// rows top to bottom, no padding. This is a y4m frame's payload and ffmpeg's `yuv420p`/`yuvj420p` layout.
    public static func planes(of image: Image) -> Data {
        let (luma, chroma) = planeSizes(width: image.width, height: image.height)
        var data = Data(count: luma + 2 * chroma)
        data.withUnsafeMutableBytes { buffer in
            let out = buffer.bindMemory(to: UInt8.self).baseAddress!
            convert(image, y: out, cb: out + luma, cr: out + luma + chroma)
        }
        return data
    }

    /// Writes the three planes of `image` to `y`, `cb` and `cr`.
    public static func convert(
        _ image: Image, y: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>
    ) {
        let width = image.width, height = image.height
        let chromaWidth = (width + 1) / 2
        let pixels = UnsafeRawPointer(image.baseAddress)
        // Bytes of a premultiplied pixel in memory: B, G, R, A (the word 0xAARRGGBB, little-endian).
        for row in 0..<height {
            let line = pixels + row * image.bytesPerRow
            let out = y + row * width
            for x in 0..<width {
                let b = Int(line.load(fromByteOffset: 4 * x, as: UInt8.self))
                let g = Int(line.load(fromByteOffset: 4 * x + 1, as: UInt8.self))
                let r = Int(line.load(fromByteOffset: 4 * x + 2, as: UInt8.self))
                out[x] = UInt8((yR * r + yG * g + yB * b + 32768) >> 16)
            }
        }
        for blockRow in 0..<((height + 1) / 2) {
            let top = 2 * blockRow
            let rows = top + 1 < height ? 2 : 1
            for blockColumn in 0..<chromaWidth {
                let left = 2 * blockColumn
                let columns = left + 1 < width ? 2 : 1
                var r = 0, g = 0, b = 0
                for dy in 0..<rows {
                    let line = pixels + (top + dy) * image.bytesPerRow
                    for dx in 0..<columns {
                        let offset = 4 * (left + dx)
                        b += Int(line.load(fromByteOffset: offset, as: UInt8.self))
                        g += Int(line.load(fromByteOffset: offset + 1, as: UInt8.self))
                        r += Int(line.load(fromByteOffset: offset + 2, as: UInt8.self))
                    }
                }
                let count = rows * columns
                let index = blockRow * chromaWidth + blockColumn
                cb[index] = chromaByte(cbR * r + cbG * g + cbB * b, count: count)
                cr[index] = chromaByte(crR * r + crG * g + crB * b, count: count)
            }
        }
    }

    /// 128 + sum / (65536 x count), rounded to nearest (half up), in 0...255. The offset keeps the dividend
    /// positive (the coefficients of a chroma row are at least -32768 x 255 per pixel) so that integer division
    /// floors.
    @inline(__always)
    static func chromaByte(_ sum: Int, count: Int) -> UInt8 {
        let unit = 65536 * count
        let value = (sum + 128 * unit + unit / 2) / unit
        return UInt8(min(255, max(0, value)))
    }
}
