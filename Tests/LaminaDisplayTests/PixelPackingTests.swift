import LaminaCore
@testable import LaminaDisplay
import Testing

/// The one pixel copy every output uses: premultiplied BGRA frames into XRGB8888, RGB565 and other fbdev layouts,
/// only the pixels of the damaged rectangles.
struct PixelPackingTests {
    /// A frame whose pixel (x, y) is the opaque word 0xFF_XX_YY_(x+y).
    func frame(width: Int, height: Int, words: (Int, Int) -> UInt32) throws -> Image {
        let image = try Image(width: width, height: height)
        for y in 0..<height { for x in 0..<width { image.setWord(words(x, y), x: x, y: y) } }
        return image
    }

    @Test func packsOpaqueWordsIntoEachLayout() {
        #expect(PixelPacking.xrgb8888.pack(0xFF12_3456) == 0x0012_3456)
        #expect(PixelPacking.rgb565.pack(0xFFFF_0000) == 0xF800)
        #expect(PixelPacking.rgb565.pack(0xFF00_FF00) == 0x07E0)
        #expect(PixelPacking.rgb565.pack(0xFF00_00FF) == 0x001F)
        #expect(PixelPacking.rgb565.pack(0xFFFF_FFFF) == 0xFFFF)
        // 128 of 255 rounds to 16 of 31 and 32 of 63: the classic 565 grey.
        #expect(PixelPacking.rgb565.pack(0xFF80_8080) == 0x8410)
        // A BGR framebuffer (red at bit 0, blue at bit 16).
        let bgr = PixelPacking(bytesPerPixel: 4, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8),
                               blue: .init(offset: 16, length: 8))
        #expect(bgr.pack(0xFF11_2233) == 0x0033_2211)
        #expect(bgr.description == "32 bpp R8@0 G8@8 B8@16")
        #expect(PixelPacking.rgb565.description == "RGB565")
    }

    @Test func copiesOnlyTheBoxIntoXRGB8888() throws {
        let image = try frame(width: 4, height: 3) { x, y in 0xFF00_0000 | UInt32(y) << 16 | UInt32(x) << 8 | 0x7F }
        // A pitch wider than the frame, as scanout buffers have; the sentinel shows what was not written.
        let pitch = 6 * 4
        var buffer = [UInt32](repeating: 0xDEAD_BEEF, count: 6 * 3)
        buffer.withUnsafeMutableBytes { bytes in
            PixelPacking.xrgb8888.copyRows(of: image, box: PixelBox(x0: 1, y0: 1, x1: 3, y1: 2),
                                           into: bytes.baseAddress!, bytesPerRow: pitch)
        }
        for y in 0..<3 {
            for x in 0..<6 {
                let word = buffer[y * 6 + x]
                if y == 1, x == 1 || x == 2 {
                    #expect(word & 0x00FF_FFFF == UInt32(y) << 16 | UInt32(x) << 8 | 0x7F, "(\(x), \(y))")
                } else {
                    #expect(word == 0xDEAD_BEEF, "(\(x), \(y)) was written")
                }
            }
        }
    }

    @Test func copiesDamageIntoRGB565() throws {
        let colours: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFF80_8080]
        let image = try frame(width: 2, height: 2) { x, y in colours[y * 2 + x] }
        var buffer = [UInt16](repeating: 0xAAAA, count: 3 * 2)
        var damage = DamageRegion(PixelBox(x0: 0, y0: 0, x1: 1, y1: 1))
        damage.add(PixelBox(x0: 1, y0: 1, x1: 5, y1: 9))  // cut to the frame
        buffer.withUnsafeMutableBytes { bytes in
            PixelPacking.rgb565.copy(damage, of: image, into: bytes.baseAddress!, bytesPerRow: 3 * 2)
        }
        #expect(buffer == [0xF800, 0xAAAA, 0xAAAA, 0xAAAA, 0x8410, 0xAAAA])
    }

    @Test func theBackBufferGetsThisAndThePreviousFramesDamage() {
        let size = PixelSize(width: 10, height: 10)
        let full = DamageRegion.full(width: 10, height: 10)
        var tracker = AlternatingBufferDamage()
        let a = DamageRegion(PixelBox(x0: 0, y0: 0, x1: 2, y1: 2))
        let b = DamageRegion(PixelBox(x0: 5, y0: 5, x1: 6, y1: 6))
        let c = DamageRegion(PixelBox(x0: 8, y0: 0, x1: 9, y1: 1))
        // Each buffer is filled whole the first time it is used.
        #expect(tracker.region(for: 0, damage: full, size: size) == full)
        #expect(tracker.region(for: 1, damage: a, size: size) == full)
        // Buffer 0 last got frame 1: it lacks frame 2's damage (a) and frame 3's (b).
        // (Regions compare their rectangles in order: this frame's first, then the previous frame's.)
        var ba = b
        ba.formUnion(a)
        #expect(tracker.region(for: 0, damage: b, size: size) == ba)
        var cb = c
        cb.formUnion(b)
        #expect(tracker.region(for: 1, damage: c, size: size) == cb)
        // Nothing changed: the back buffer still lacks the previous frame's damage.
        #expect(tracker.region(for: 0, damage: DamageRegion(), size: size) == c)
        #expect(tracker.region(for: 1, damage: DamageRegion(), size: size).isEmpty)
    }
}
