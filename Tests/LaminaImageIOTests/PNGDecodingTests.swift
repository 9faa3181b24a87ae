import Foundation
import LaminaCore
import LaminaImageIO
import Testing

/// Every PNG colour type and bit depth decodes to exact premultiplied pixels (see tools/make-image-fixtures.py
/// for the source values).
@Suite struct PNGDecodingTests {
    @Test func rgba8() throws {
        let image = try Image(contentsOfFile: Fixture.path("rgba8.png"))
        #expect(image.width == 4 && image.height == 2)
        #expect(words(image) == [
            [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FFFF],
            // (200, 100, 50, 0) keeps no colour; (255, 0, 0, 128), (10, 200, 30, 64), (255, 255, 255, 1).
            [0x0000_0000, 0x8080_0000, 0x4003_3208, 0x0101_0101],
        ])
        // Straight again, within the rounding that premultiplying 8-bit values implies.
        #expect(pixels(image)[1] == [rgba(0, 0, 0, 0), rgba(255, 0, 0, 128), rgba(12, 199, 32, 64),
                                     rgba(255, 255, 255, 1)])
    }

    @Test func rgb8() throws {
        let image = try Image(contentsOfFile: Fixture.path("rgb8.png"))
        #expect(words(image) == [[0xFFFF_0000, 0xFF00_80FF, 0xFF11_2233]])
        #expect(pixels(image) == [[rgba(255, 0, 0), rgba(0, 128, 255), rgba(17, 34, 51)]])
    }

    @Test func grey1() throws {
        let image = try Image(contentsOfFile: Fixture.path("grey1.png"))
        let (white, black): (UInt32, UInt32) = (0xFFFF_FFFF, 0xFF00_0000)
        #expect(words(image) == [[white, black, white, white, black, black, white, black, black, white]])
    }

    @Test func grey2() throws {
        let image = try Image(contentsOfFile: Fixture.path("grey2.png"))
        #expect(words(image) == [[0xFF00_0000, 0xFF55_5555, 0xFFAA_AAAA, 0xFFFF_FFFF, 0xFF55_5555]])
    }

    @Test func grey4() throws {
        let image = try Image(contentsOfFile: Fixture.path("grey4.png"))
        // Sample v of 15 scales to v x 17 of 255.
        let expected: [UInt32] = (0..<16).map { (v: UInt32) -> UInt32 in 0xFF00_0000 | v * 17 * 0x01_0101 }
        #expect(words(image) == [expected])
    }

    @Test func grey8() throws {
        let image = try Image(contentsOfFile: Fixture.path("grey8.png"))
        #expect(words(image) == [[0xFF00_0000, 0xFF01_0101, 0xFF7F_7F7F, 0xFF80_8080, 0xFFFE_FEFE, 0xFFFF_FFFF]])
    }

    @Test func greyAlpha8() throws {
        let image = try Image(contentsOfFile: Fixture.path("grey-alpha8.png"))
        // (255, 255), (0, 0), (128, 128), (200, 51).
        #expect(words(image) == [[0xFFFF_FFFF, 0x0000_0000, 0x8040_4040, 0x3328_2828]])
        #expect(pixels(image) == [[rgba(255, 255, 255), rgba(0, 0, 0, 0), rgba(128, 128, 128, 128),
                                   rgba(200, 200, 200, 51)]])
    }

    @Test func palette() throws {
        let image = try Image(contentsOfFile: Fixture.path("palette4.png"))
        #expect(words(image) == [[0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFF64_6464, 0xFFFF_0000]])
    }

    @Test func paletteWithTransparency() throws {
        let image = try Image(contentsOfFile: Fixture.path("palette-trns8.png"))
        // tRNS: red opaque, green transparent, blue half, grey (no tRNS entry) opaque.
        #expect(words(image) == [[0xFFFF_0000, 0x0000_0000, 0x8000_0080, 0xFF64_6464]])
        #expect(pixels(image) == [[rgba(255, 0, 0), rgba(0, 0, 0, 0), rgba(0, 0, 255, 128), rgba(100, 100, 100)]])
    }

    @Test func rgba16() throws {
        let image = try Image(contentsOfFile: Fixture.path("rgba16.png"))
        // 0xABAB reduces to 0xAB: 16-bit samples are taken as sRGB, not brightened as linear.
        #expect(words(image) == [[0xFFFF_0000, 0xFF12_ABFE, 0x0000_0000, 0x8080_8000]])
        #expect(pixels(image)[0][3] == rgba(255, 255, 0, 128))
    }

    @Test func interlaced() throws {
        let image = try Image(contentsOfFile: Fixture.path("interlaced.png"))
        #expect(image.width == 8 && image.height == 8)
        var expected: [[RGBA8]] = []
        for y in 0..<8 {
            expected.append((0..<8).map { (x: Int) -> RGBA8 in
                RGBA8(r: UInt8(32 * x), g: UInt8(32 * y), b: UInt8(255 - 8 * (x + y)), a: 255)
            })
        }
        expected[5][3] = rgba(255, 255, 255, 128)
        #expect(pixels(image) == expected)
        #expect(image.word(x: 3, y: 5) == 0x8080_8080)
    }

    @Test func gammaChunkConvertsToSRGB() throws {
        let image = try Image(contentsOfFile: Fixture.path("gamma-linear.png"))
        // gAMA 1.0: linear 128 is 186 after libpng's gamma 1/2.2 encoding; the ends stay put.
        #expect(words(image) == [[0xFF00_0000, 0xFFBA_BABA, 0xFFFF_FFFF]])
    }

    @Test func formatComesFromTheBytesNotTheName() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = try folder.write(Fixture.data("rgb8.png"), "really-a-png.jpg")
        #expect(words(try Image(contentsOfFile: path)) == [[0xFFFF_0000, 0xFF00_80FF, 0xFF11_2233]])
    }

    @Test func dataDecodesLikeTheFile() throws {
        let path = try Fixture.path("rgba8.png")
        let fromData = try Image(data: Fixture.data("rgba8.png"), name: "rgba8")
        #expect(words(fromData) == words(try Image(contentsOfFile: path)))
    }

    @Test func damagedAncillaryChunkIsIgnored() throws {
        // A tEXt chunk with a wrong CRC is one libpng may skip (a warning): the pixels are all there.
        var data = try Fixture.data("rgb8.png")
        let text: [UInt8] = [0, 0, 0, 4] + Array("tEXta\0bc".utf8) + [1, 2, 3, 4]
        data.insert(contentsOf: text, at: 33)  // After the signature and IHDR.
        #expect(words(try Image(data: data)) == [[0xFFFF_0000, 0xFF00_80FF, 0xFF11_2233]])
    }

    @Test func largerThanTheLimitsYetFine() throws {
        // Limits are a policy, not a fixed cap: looser ones admit what the defaults would.
        let limits = PixelLimits(maxDimension: 4, maxPixels: 8)
        let image = try Image(data: Fixture.data("rgba8.png"), limits: limits)
        #expect(image.width == 4 && image.height == 2)
    }
}
