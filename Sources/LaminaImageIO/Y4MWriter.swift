import Foundation
import LaminaCore

/// YUV4MPEG2 (y4m), the uncompressed stream that ffmpeg, x264 and most video tools read from a pipe
/// (`lamina export SCENE -o - | ffmpeg -i - out.mp4`).
///
/// The stream is one header line, then for every frame `FRAME\n` and its planes (`YUV420Conversion`):
///
///     YUV4MPEG2 W640 H360 F60:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\n
///     FRAME\n <Y plane> <Cb plane> <Cr plane>
///     FRAME\n ...
///
/// W and H are the frame size in pixels, F the frame rate as a ratio (`FrameRate`), Ip progressive,
/// A1:1 square pixels, C420jpeg 4:2:0 with chroma centred between the four luma samples it covers (the tag
/// names the chroma siting only), and `XCOLORRANGE=FULL` says the samples are full range (0-255): without
/// it ffmpeg (5.1, checked) reads them as limited range (16-235) and the picture loses contrast. Readers
/// that do not know an X parameter skip it. The colour matrix is BT.601 (y4m has no field for it; ffmpeg
/// assumes BT.601). docs/export.md, "y4m". Any number of these streams, each with its header, can be joined by keeping the
/// first header and dropping the others (tools/join-y4m.sh), as every header of one export is the same.
public struct Y4MWriter: Sendable {
    public let width: Int
    public let height: Int
    public let rate: FrameRate

    public init(width: Int, height: Int, rate: FrameRate) {
        self.width = width
        self.height = height
        self.rate = rate
    }

    /// The header line, newline included.
    public var header: Data {
        Data("YUV4MPEG2 W\(width) H\(height) F\(rate.numerator):\(rate.denominator) Ip A1:1 C420jpeg XCOLORRANGE=FULL\n".utf8)
    }

    /// The marker before each frame's planes.
    public static let frameMarker = Data("FRAME\n".utf8)

    /// The bytes of one frame: `FRAME\n` and the planes of `image`, which must be width x height.
    public func frame(_ image: Image) -> Data {
        precondition(image.width == width && image.height == height,
                     "a \(image.width)x\(image.height) frame in a \(width)x\(height) stream")
        let (luma, chroma) = YUV420Conversion.planeSizes(width: width, height: height)
        let marker = Y4MWriter.frameMarker.count
        var data = Data(count: marker + luma + 2 * chroma)
        data.withUnsafeMutableBytes { buffer in
            let out = buffer.bindMemory(to: UInt8.self).baseAddress!
            Y4MWriter.frameMarker.copyBytes(to: out, count: marker)
            YUV420Conversion.convert(image, y: out + marker, cb: out + marker + luma, cr: out + marker + luma + chroma)
        }
        return data
    }
}
