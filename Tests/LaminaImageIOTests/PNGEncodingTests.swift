import Foundation
import LaminaCore
import LaminaImageIO
import Testing

@Suite struct PNGEncodingTests {
    /// Every premultiplied value there is: alpha down the rows, colour (at most alpha) across the columns,
    /// red rising, green falling, blue at half.
    func everyPremultipliedValue() throws -> Image {
        let image = try Image(width: 256, height: 256)
        for a in 0..<256 {
            for x in 0..<256 {
                let r = UInt32(min(x, a))
                let g = UInt32(a - min(x, a))
                let b = UInt32(min(x, a) / 2)
                image.setWord(UInt32(a) << 24 | r << 16 | g << 8 | b, x: x, y: a)
            }
        }
        return image
    }

    @Test(arguments: [PNGCompression.fast, .small])
    func roundTripIsExactInPremultipliedForm(compression: PNGCompression) throws {
        // Unpremultiplying with rounding and premultiplying again gives back every valid premultiplied word.
        let image = try everyPremultipliedValue()
        let decoded = try Image(data: image.pngData(compression: compression))
        #expect(decoded.width == 256 && decoded.height == 256)
        #expect(difference(decoded, image) == nil)
    }

    @Test func roundTripOfStraightColours() throws {
        let colours = [rgba(255, 0, 0), rgba(12, 34, 56), rgba(255, 128, 0, 128), rgba(10, 200, 30, 64),
                       rgba(255, 255, 255, 1), rgba(200, 100, 50, 0), rgba(1, 2, 3, 254)]
        let image = try Image(width: colours.count, height: 1)
        for (x, colour) in colours.enumerated() { image.setRGBA(colour, x: x, y: 0) }
        let decoded = try Image(data: image.pngData())
        for (x, colour) in colours.enumerated() {
            // Straight colour survives within what premultiplying to 8 bits keeps of it...
            let expected = Image.straight(Image.premultipliedWord(colour))
            #expect(decoded.rgba(x: x, y: 0) == expected)
            // ...which, for an alpha of a, is half a step of 255 / a.
            if colour.a > 0 {
                let slack = Int((255.0 / Double(colour.a) / 2).rounded(.up))
                #expect(decoded.rgba(x: x, y: 0).maxChannelDifference(to: colour) <= slack)
            }
        }
        #expect(decoded.rgba(x: 0, y: 0) == rgba(255, 0, 0))
        #expect(decoded.rgba(x: 1, y: 0) == rgba(12, 34, 56))
        #expect(decoded.rgba(x: 5, y: 0) == rgba(0, 0, 0, 0))
    }

    @Test func writesEightBitRGBA() throws {
        let image = try Image(width: 3, height: 2, color: .red)
        let data = try image.pngData()
        #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(data[12..<16]) == Array("IHDR".utf8))
        #expect(Array(data[16..<24]) == [0, 0, 0, 3, 0, 0, 0, 2])  // width, height
        #expect(data[24] == 8)  // bit depth
        #expect(data[25] == 6)  // colour type: RGBA
        #expect(data[28] == 0)  // not interlaced
        #expect(Array(data.suffix(8).prefix(4)) == Array("IEND".utf8))
    }

    @Test func writeAndReadAFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let image = try everyPremultipliedValue()
        let url = folder.url.appendingPathComponent("every value.png")
        try Image(width: 1, height: 1, color: .blue).writePNG(to: url)
        try image.writePNG(to: url)  // Replaces the file.
        #expect(difference(try Image(contentsOfFile: url.path), image) == nil)
        let size = try ImageFile.size(ofFile: url.path)
        #expect(size.width == 256 && size.height == 256)
    }

    @Test func emptyImageCannotBeEncoded() throws {
        let image = try Image(width: 0, height: 3)
        #expect(throws: ImageEncodingError.noPixels(width: 0, height: 3)) { try image.pngData() }
        #expect(ImageEncodingError.noPixels(width: 0, height: 3).description
            == "cannot encode a 0x3 image as PNG: PNG needs at least one pixel")
    }

    @Test func unwritablePath() throws {
        let image = try Image(width: 1, height: 1)
        let path = "/nonexistent-lamina-folder/out.png"
        let error = #expect(throws: ImageEncodingError.self) { try image.writePNG(to: URL(fileURLWithPath: path)) }
        #expect(error == .unwritable(path: path, reason: "no such folder /nonexistent-lamina-folder"))
        #expect(error?.description == "cannot write \"\(path)\": no such folder /nonexistent-lamina-folder")

        let folder = try ScratchFolder()
        defer { folder.remove() }
        let directory = folder.url.path
        let intoFolder = #expect(throws: ImageEncodingError.self) { try image.writePNG(to: folder.url) }
        #expect(intoFolder?.description == "cannot write \"\(directory)\": it is a folder")
    }

    @Test func notAFileURL() throws {
        let image = try Image(width: 1, height: 1)
        let url = try #require(URL(string: "https://example.com/out.png"))
        let error = #expect(throws: ImageEncodingError.self) { try image.writePNG(to: url) }
        #expect(error?.description == "cannot write \"https://example.com/out.png\": not a file URL")
    }
}
