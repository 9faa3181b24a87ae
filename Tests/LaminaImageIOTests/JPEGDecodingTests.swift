import Foundation
import LaminaCore
import LaminaImageIO
import Testing

/// JPEG decoding is lossy: colours are compared within `tolerance` of the source; alpha is always exact.
@Suite struct JPEGDecodingTests {
    /// Quality 100, 4:4:4 and solid 8x8 blocks come back within a level or two of the source.
    let tolerance = 3

    func expectClose(
        _ image: Image, x: Int, y: Int, to expected: RGBA8, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let actual = image.rgba(x: x, y: y)
        #expect(actual.a == 255, "pixel (\(x), \(y)) is \(actual)", sourceLocation: sourceLocation)
        #expect(actual.maxChannelDifference(to: expected) <= tolerance,
                "pixel (\(x), \(y)) is \(actual), expected \(expected)", sourceLocation: sourceLocation)
    }

    @Test func colour() throws {
        let image = try Image(contentsOfFile: Fixture.path("colour.jpg"))
        #expect(image.width == 16 && image.height == 16)
        let quadrants = [[rgba(230, 30, 40), rgba(40, 200, 60)], [rgba(30, 60, 220), rgba(250, 250, 250)]]
        for y in 0..<16 {
            for x in 0..<16 { expectClose(image, x: x, y: y, to: quadrants[y / 8][x / 8]) }
        }
    }

    @Test func greyscale() throws {
        let image = try Image(contentsOfFile: Fixture.path("grey.jpg"))
        #expect(image.width == 16 && image.height == 8)
        for y in 0..<8 {
            for x in 0..<16 {
                let pixel = image.rgba(x: x, y: y)
                #expect(pixel.r == pixel.g && pixel.g == pixel.b, "grey stays grey: \(pixel)")
                expectClose(image, x: x, y: y, to: x < 8 ? rgba(50, 50, 50) : rgba(200, 200, 200))
            }
        }
    }

    @Test func formatComesFromTheBytesNotTheName() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = try folder.write(Fixture.data("grey.jpg"), "really-a-jpeg.png")
        let image = try Image(contentsOfFile: path)
        expectClose(image, x: 0, y: 0, to: rgba(50, 50, 50))
    }

    @Test func sizeBeyondTheFirst64KiB() throws {
        // Two maximal APP15 segments push the frame header past what ImageFile.size reads at first.
        var data = try Fixture.data("colour.jpg")
        let segment = Data([0xFF, 0xEF, 0xFF, 0xFF]) + Data(repeating: 0x20, count: 0xFFFF - 2)
        data.insert(contentsOf: segment + segment, at: 2)  // After SOI.
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = try folder.write(data, "big-header.jpg")
        let size = try ImageFile.size(ofFile: path)
        #expect(size.width == 16 && size.height == 16)
        expectClose(try Image(contentsOfFile: path), x: 15, y: 15, to: rgba(250, 250, 250))
    }
}
