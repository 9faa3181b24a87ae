import FuzzSupport
import Foundation
import LaminaCore
import LaminaImageIO

/// JPEG decoding (libjpeg-turbo behind JPEGDecoder) on arbitrary bytes: an image or an error, never a trap
/// or an out-of-bounds access. JPEGs decode opaque, so every decoded pixel must have alpha 255.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let limits = PixelLimits(maxDimension: 2048, maxPixels: 1 << 20)
    guard let image = try? Image(data: FuzzDriver.data(bytes, count), name: "fuzz.jpg", limits: limits) else {
        return 0
    }
    for y in 0..<image.height {
        for x in 0..<image.width where image.rgba(x: x, y: y).a != 255 {
            FuzzDriver.fail("pixel (\(x), \(y)) of a decoded JPEG is not opaque")
        }
    }
    return 0
}

@main enum FuzzJPEGMain {
    static func main() { FuzzDriver.run(fuzzJPEG) }
}
