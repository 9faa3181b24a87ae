import CPixman
import Foundation
import LaminaCore

extension CPUBandJob {
    /// Multiplies every pixel of a group's buffer, channel by channel, by `tint` (x / 255, premultiplied: a
    /// replicator's instance colour, `PlanGroup.tintBytes`), rounding to nearest as the GLES renderer's shader does.
    static func multiply(_ image: OpaquePointer, by tint: (blue: UInt8, green: UInt8, red: UInt8, alpha: UInt8)) {
        guard let data = pixman_image_get_data(image) else { return }
        let width = Int(pixman_image_get_width(image)), height = Int(pixman_image_get_height(image))
        let stride = Int(pixman_image_get_stride(image)) / 4
        // Little-endian a8r8g8b8 words: blue in the low byte.
        let factors = (UInt32(tint.blue), UInt32(tint.green), UInt32(tint.red), UInt32(tint.alpha))
        @inline(__always) func scale(_ channel: UInt32, _ factor: UInt32) -> UInt32 {
            let t = channel * factor + 128
            return (t + (t >> 8)) >> 8
        }
        for y in 0..<height {
            let row = data + y * stride
            for x in 0..<width {
                let p = row[x]
                guard p != 0 else { continue }
                row[x] = scale(p & 0xFF, factors.0) | scale((p >> 8) & 0xFF, factors.1) << 8
                    | scale((p >> 16) & 0xFF, factors.2) << 16 | scale(p >> 24, factors.3) << 24
            }
        }
    }
}
