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
        let wordsPerRow = image.bytesPerRow / 4
        let pixels = UnsafePointer(image.baseAddress.assumingMemoryBound(to: UInt32.self))
        // One 2x2 block at a time: its four luma samples and its chroma pair from the same loads. A block cut by
        // the right or bottom edge (odd sizes) averages the pixels that exist.
        for blockRow in 0..<((height + 1) / 2) {
            let top = 2 * blockRow
            let rows = top + 1 < height ? 2 : 1
            let line0 = pixels + top * wordsPerRow
            let line1 = pixels + (top + rows - 1) * wordsPerRow
            let luma0 = y + top * width
            let luma1 = y + (top + rows - 1) * width
            let chromaRow = blockRow * chromaWidth
            for blockColumn in 0..<chromaWidth {
                let left = 2 * blockColumn
                let columns = left + 1 < width ? 2 : 1
                var r = 0, g = 0, b = 0
                for dx in 0..<columns {
                    let x = left + dx
                    let (r0, g0, b0) = channels(line0[x])
                    luma0[x] = luma(r0, g0, b0)
                    r += r0; g += g0; b += b0
                    if rows == 2 {
                        let (r1, g1, b1) = channels(line1[x])
                        luma1[x] = luma(r1, g1, b1)
                        r += r1; g += g1; b += b1
                    }
                }
                let count = rows * columns
                cb[chromaRow + blockColumn] = chromaByte(cbR * r + cbG * g + cbB * b, count: count)
                cr[chromaRow + blockColumn] = chromaByte(crR * r + crG * g + crB * b, count: count)
            }
        }
    }

    /// The colour channels of a premultiplied word 0xAARRGGBB: the pixel over black.
    @inline(__always)
    static func channels(_ word: UInt32) -> (Int, Int, Int) {
        (Int((word >> 16) & 0xFF), Int((word >> 8) & 0xFF), Int(word & 0xFF))
    }

    @inline(__always)
    static func luma(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (yR * r + yG * g + yB * b + 32768) >> 16)
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
