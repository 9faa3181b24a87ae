import Foundation
import LaminaCore
import LaminaImageIO
import Testing

/// `ImageFile.size` reads headers only: it gives sizes of files that would not decode.
@Suite struct ImageFileTests {
    @Test(arguments: [
        ("rgba8.png", 4, 2), ("rgb8.png", 3, 1), ("grey1.png", 10, 1), ("palette-trns8.png", 4, 1),
        ("rgba16.png", 4, 1), ("interlaced.png", 8, 8), ("colour.jpg", 16, 16), ("grey.jpg", 16, 8),
        // Damaged after the header, or too large to decode: the size is still there.
        ("truncated.png", 24, 24), ("bad-crc.png", 24, 24), ("truncated.jpg", 32, 32),
        ("huge.png", 100_000, 100_000),
    ])
    func size(name: String, width: Int, height: Int) throws {
        let size = try ImageFile.size(ofFile: Fixture.path(name))
        #expect(size.width == width && size.height == height)
    }

    @Test func errors() throws {
        let text = try Fixture.path("not-an-image.png")
        #expect(throws: ImageDecodingError.notAnImage(name: text)) { try ImageFile.size(ofFile: text) }

        let missing = "/nonexistent-lamina-folder/x.jpg"
        #expect(throws: ImageDecodingError.unreadable(name: missing, reason: "no such file")) {
            try ImageFile.size(ofFile: missing)
        }

        let zero = try Fixture.path("zero-width.png")
        #expect(throws: ImageDecodingError.noPixels(name: zero, width: 0, height: 4)) {
            try ImageFile.size(ofFile: zero)
        }

        let cmyk = try Fixture.path("cmyk.jpg")
        #expect(throws: ImageDecodingError.unsupported(name: cmyk, feature: "CMYK JPEG")) {
            try ImageFile.size(ofFile: cmyk)
        }

        let folder = try ScratchFolder()
        defer { folder.remove() }
        let head = try folder.write(Fixture.data("colour.jpg").prefix(100), "head.jpg")
        #expect(throws: ImageDecodingError.corrupt(name: head, reason: "Premature end of JPEG file")) {
            try ImageFile.size(ofFile: head)
        }
    }
}
