import Foundation
import LaminaCore
import LaminaImageIO
import Testing

/// Bad input gives an `ImageDecodingError` with an exact, file-naming message: never a crash, never pixels.
@Suite struct DecodingErrorTests {
    /// Expects `body` to throw exactly `expected`, whose description is exactly `message`.
    func expectError(
        _ expected: ImageDecodingError, _ message: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Image
    ) {
        do {
            let image = try body()
            Issue.record("decoded \(image) instead of failing with: \(message)", sourceLocation: sourceLocation)
        } catch let error as ImageDecodingError {
            #expect(error == expected, sourceLocation: sourceLocation)
            #expect(error.description == message, sourceLocation: sourceLocation)
            #expect(error.localizedDescription == message, sourceLocation: sourceLocation)
        } catch {
            Issue.record("threw \(type(of: error)) \(error), not ImageDecodingError", sourceLocation: sourceLocation)
        }
    }

    // MARK: Files that cannot be read

    @Test func missingFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.path("nothing-here.png")
        expectError(.unreadable(name: path, reason: "no such file"), "cannot read \"\(path)\": no such file") {
            try Image(contentsOfFile: path)
        }
    }

    @Test func missingFolder() {
        let path = "/nonexistent-lamina-folder/x.png"
        expectError(.unreadable(name: path, reason: "no such file"), "cannot read \"\(path)\": no such file") {
            try Image(contentsOfFile: path)
        }
    }

    @Test func directory() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.url.path
        expectError(.notAFile(name: path, kind: "a folder"),
                    "cannot read \"\(path)\": it is a folder, not a regular file") {
            try Image(contentsOfFile: path)
        }
    }

    @Test func emptyFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = try folder.write(Data(), "empty.png")
        expectError(.empty(name: path), "\"\(path)\" is empty") { try Image(contentsOfFile: path) }
    }

    // MARK: Not an image

    @Test func textFileNamedPNG() throws {
        let path = try Fixture.path("not-an-image.png")
        expectError(.notAnImage(name: path), "\"\(path)\" is not a PNG or JPEG file") {
            try Image(contentsOfFile: path)
        }
    }

    @Test func dataUsesItsName() {
        expectError(.notAnImage(name: "<data>"), "\"<data>\" is not a PNG or JPEG file") {
            try Image(data: Data("GIF89a".utf8))
        }
        expectError(.empty(name: "logo"), "\"logo\" is empty") { try Image(data: Data(), name: "logo") }
    }

    @Test func partOfTheSignatureIsNotAnImage() throws {
        let data = try Fixture.data("rgb8.png").prefix(4)
        expectError(.notAnImage(name: "<data>"), "\"<data>\" is not a PNG or JPEG file") {
            try Image(data: Data(data))
        }
    }

    // MARK: Damaged PNG

    @Test func truncatedPNG() throws {
        let path = try Fixture.path("truncated.png")
        expectError(.corrupt(name: path, reason: "read beyond end of data"),
                    "cannot decode \"\(path)\": read beyond end of data") {
            try Image(contentsOfFile: path)
        }
    }

    @Test func pngEndingInsideItsHeader() throws {
        let data = try Fixture.data("rgb8.png").prefix(20)
        expectError(.corrupt(name: "short.png", reason: "read beyond end of data"),
                    "cannot decode \"short.png\": read beyond end of data") {
            try Image(data: Data(data), name: "short.png")
        }
    }

    @Test func badCRC() throws {
        let path = try Fixture.path("bad-crc.png")
        expectError(.corrupt(name: path, reason: "IDAT: CRC error"), "cannot decode \"\(path)\": IDAT: CRC error") {
            try Image(contentsOfFile: path)
        }
    }

    @Test func corruptImageData() throws {
        let path = try Fixture.path("corrupt-idat.png")
        expectError(.corrupt(name: path, reason: "IDAT: invalid stored block lengths"),
                    "cannot decode \"\(path)\": IDAT: invalid stored block lengths") {
            try Image(contentsOfFile: path)
        }
    }

    // MARK: Sizes

    @Test func hugeHeaderIsRefusedBeforeDecoding() throws {
        let path = try Fixture.path("huge.png")
        let reason = "100000x100000 pixels exceeds the limit of 16384 pixels per side"
        expectError(.tooLarge(name: path, width: 100000, height: 100000, reason: reason),
                    "\"\(path)\" is too large: \(reason)") {
            try Image(contentsOfFile: path)
        }
    }

    @Test func sizeIsCheckedBeforeLibpngSeesTheHeader() {
        // 2,000,000 wide is past libpng's own limit, and the IHDR CRC is wrong: the Lamina limit speaks first.
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
        data += Data([0x00, 0x1E, 0x84, 0x80, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0, 0, 0, 0])
        let reason = "2000000x1 pixels exceeds the limit of 16384 pixels per side"
        expectError(.tooLarge(name: "wide", width: 2_000_000, height: 1, reason: reason),
                    "\"wide\" is too large: \(reason)") {
            try Image(data: data, name: "wide")
        }
    }

    @Test func customLimits() throws {
        let data = try Fixture.data("rgba8.png")  // 4x2
        let perSide = "4x2 pixels exceeds the limit of 3 pixels per side"
        expectError(.tooLarge(name: "<data>", width: 4, height: 2, reason: perSide),
                    "\"<data>\" is too large: \(perSide)") {
            try Image(data: data, limits: PixelLimits(maxDimension: 3))
        }
        let inAll = "4x2 pixels exceeds the limit of 7 pixels in all"
        expectError(.tooLarge(name: "<data>", width: 4, height: 2, reason: inAll),
                    "\"<data>\" is too large: \(inAll)") {
            try Image(data: data, limits: PixelLimits(maxPixels: 7))
        }
        let jpeg = try Fixture.data("colour.jpg")  // 16x16
        let jpegReason = "16x16 pixels exceeds the limit of 255 pixels in all"
        expectError(.tooLarge(name: "<data>", width: 16, height: 16, reason: jpegReason),
                    "\"<data>\" is too large: \(jpegReason)") {
            try Image(data: jpeg, limits: PixelLimits(maxPixels: 255))
        }
    }

    @Test func zeroWidth() throws {
        let path = try Fixture.path("zero-width.png")
        expectError(.noPixels(name: path, width: 0, height: 4),
                    "\"\(path)\" is 0x4 pixels: an image needs at least one pixel") {
            try Image(contentsOfFile: path)
        }
    }

    // MARK: Damaged or unsupported JPEG

    @Test func truncatedJPEG() throws {
        // libjpeg only warns ("Premature end of JPEG file") and would fill the rest with grey.
        let path = try Fixture.path("truncated.jpg")
        expectError(.corrupt(name: path, reason: "Premature end of JPEG file"),
                    "cannot decode \"\(path)\": Premature end of JPEG file") {
            try Image(contentsOfFile: path)
        }
    }

    @Test func jpegEndingInsideItsHeader() throws {
        let data = try Fixture.data("colour.jpg").prefix(100)
        expectError(.corrupt(name: "head.jpg", reason: "Premature end of JPEG file"),
                    "cannot decode \"head.jpg\": Premature end of JPEG file") {
            try Image(data: Data(data), name: "head.jpg")
        }
    }

    @Test func cmykJPEG() throws {
        let path = try Fixture.path("cmyk.jpg")
        expectError(.unsupported(name: path, feature: "CMYK JPEG"),
                    "cannot decode \"\(path)\": CMYK JPEG is not supported") {
            try Image(contentsOfFile: path)
        }
    }
}
