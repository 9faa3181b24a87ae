import FuzzSupport
import Foundation
import LaminaCore
import LaminaImageIO

/// PNG decoding (libpng behind PNGCodec) on arbitrary bytes: an image or an error, never a trap or an
/// out-of-bounds access. A decoded image is encoded and decoded again and must come back pixel for pixel,
/// which checks the encoder on every image the decoder can produce.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    // Small limits keep a mutated header from asking for gigabytes and tripping libFuzzer's memory limit.
    let limits = PixelLimits(maxDimension: 2048, maxPixels: 1 << 20)
    guard let image = try? Image(data: FuzzDriver.data(bytes, count), name: "fuzz.png", limits: limits) else {
        return 0
    }
    do {
        let again = try Image(data: try image.pngData(), name: "again.png", limits: limits)
        guard again.width == image.width, again.height == image.height else {
            FuzzDriver.fail("a \(image.width)x\(image.height) image comes back \(again.width)x\(again.height)")
        }
        for y in 0..<image.height {
            for x in 0..<image.width where again.word(x: x, y: y) != image.word(x: x, y: y) {
                FuzzDriver.fail("pixel (\(x), \(y)) of a \(image.width)x\(image.height) image changes in a round trip")
            }
        }
    } catch {
        FuzzDriver.fail("a decoded \(image.width)x\(image.height) image does not encode and decode: \(error)")
    }
    return 0
}

@main enum FuzzPNGMain {
    static func main() { FuzzDriver.run(fuzzPNG) }
}
