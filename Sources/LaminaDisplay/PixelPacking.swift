import Foundation
import LaminaCore

/// How a scanout buffer packs a pixel: its size and where red, green and blue sit in the little-endian word
/// (fbdev's var-info bitfields; DRM's XRGB8888). Every output copies frames through `copyRows(of:box:into:)`.
public struct PixelPacking: Hashable, Sendable, CustomStringConvertible {
    /// One colour channel: `length` bits starting at bit `offset` of the pixel word.
    public struct Channel: Hashable, Sendable {
        public var offset: Int
        public var length: Int

        public init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }
    }

    /// Bytes per pixel: 4 or 2.
    public var bytesPerPixel: Int
    public var red: Channel
    public var green: Channel
    public var blue: Channel

    public init(bytesPerPixel: Int, red: Channel, green: Channel, blue: Channel) {
        self.bytesPerPixel = bytesPerPixel
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// DRM_FORMAT_XRGB8888 (fbdev 32 bpp with offsets 16/8/0): Lamina's BGRA word with the alpha byte unused.
    public static let xrgb8888 = PixelPacking(bytesPerPixel: 4, red: Channel(offset: 16, length: 8),
                                              green: Channel(offset: 8, length: 8), blue: Channel(offset: 0, length: 8))
    /// RGB565: red in the top 5 bits, green 6, blue 5.
    public static let rgb565 = PixelPacking(bytesPerPixel: 2, red: Channel(offset: 11, length: 5),
                                            green: Channel(offset: 5, length: 6), blue: Channel(offset: 0, length: 5))

    /// Whether the frame's words can be copied as they are: the same channel places as Lamina's 0xAARRGGBB, the
    /// top byte being the X that scanout ignores.
    var isFrameLayout: Bool { self == .xrgb8888 }

    public var description: String {
        if self == .xrgb8888 { return "XRGB8888" }
        if self == .rgb565 { return "RGB565" }
        return "\(bytesPerPixel * 8) bpp R\(red.length)@\(red.offset) G\(green.length)@\(green.offset) "
            + "B\(blue.length)@\(blue.offset)"
    }

    /// The packed value of one opaque premultiplied BGRA word (0xAARRGGBB). Frames on a screen are opaque, and a
    /// premultiplied colour is already that colour over black, so alpha is not looked at.
    @inlinable
    public func pack(_ word: UInt32) -> UInt32 {
        Self.scale((word >> 16) & 0xFF, to: red) | Self.scale((word >> 8) & 0xFF, to: green)
            | Self.scale(word & 0xFF, to: blue)
    }

    /// An 8-bit channel rounded to `channel.length` bits, at its offset.
    @inlinable
    static func scale(_ value: UInt32, to channel: Channel) -> UInt32 {
        guard channel.length > 0 else { return 0 }
        let maximum = UInt32(1) << UInt32(min(channel.length, 16)) &- 1
        return ((value &* maximum &+ 127) / 255) << UInt32(channel.offset)
    }

    /// Copies the pixels of `box` (cut to the frame) from `frame` into a buffer of this packing whose row `y`
    /// starts at `destination + y * bytesPerRow`, pixel `x` at `x * bytesPerPixel` in the row. The buffer is only
    /// written, never read (dumb buffers and framebuffers are often write-combined, so reads are slow).
    public func copyRows(of frame: Image, box: PixelBox, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) {
        let x0 = max(0, box.x0), x1 = min(frame.width, box.x1)
        let y0 = max(0, box.y0), y1 = min(frame.height, box.y1)
        guard x0 < x1, y0 < y1 else { return }
        let count = x1 - x0
        for y in y0..<y1 {
            let source = frame.baseAddress.advanced(by: y * frame.bytesPerRow + x0 * 4)
            let target = destination.advanced(by: y * bytesPerRow + x0 * bytesPerPixel)
            if isFrameLayout {
                // The frame's own layout: one memcpy a row.
                memcpy(target, source, count * 4)
                continue
            }
            let words = source.assumingMemoryBound(to: UInt32.self)
            if bytesPerPixel == 2 {
                let out = target.assumingMemoryBound(to: UInt16.self)
                for i in 0..<count { out[i] = UInt16(truncatingIfNeeded: pack(words[i])) }
            } else {
                let out = target.assumingMemoryBound(to: UInt32.self)
                for i in 0..<count { out[i] = pack(words[i]) }
            }
        }
    }

    /// Copies every rectangle of `damage`.
    public func copy(_ damage: DamageRegion, of frame: Image, into destination: UnsafeMutableRawPointer,
                     bytesPerRow: Int) {
        for box in damage.rects { copyRows(of: frame, box: box, into: destination, bytesPerRow: bytesPerRow) }
    }
}
