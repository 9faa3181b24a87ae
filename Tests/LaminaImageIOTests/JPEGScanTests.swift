import Foundation
import LaminaBench
import LaminaCore
import LaminaImageIO
import Testing

/// Progressive JPEGs and the decoder's limits (docs/reliability.md, "Hostile images"): more than 500 scans is refused
/// by TurboJPEG's TJFLAG_LIMITSCANS, which Lamina sets (so it holds whatever libjpeg-turbo's build); 500 and fewer
/// decode; a JPEG whose coefficients would not fit beside its file in 352 MiB is refused before libjpeg allocates
/// them. The scan fixtures are made by tools/fixtures/jpeg-scans.c (tools/make-image-fixtures.py).
@Suite struct JPEGScanTests {
    /// The scan fixtures' pixels: grey x * 16 + y, every scan refined to the last bit.
    func expectRamp(_ image: Image, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(image.width == 16 && image.height == 16, sourceLocation: sourceLocation)
        var wrong: [String] = []
        for y in 0..<16 {
            for x in 0..<16 {
                let pixel = image.rgba(x: x, y: y)
                let grey = x * 16 + y
                if pixel.a != 255 || pixel.r != pixel.g || pixel.g != pixel.b || abs(Int(pixel.r) - grey) > 1 {
                    wrong.append("(\(x), \(y)): \(pixel), expected \(grey)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(4))", sourceLocation: sourceLocation)
    }

    /// The SOS markers of `data`: one a scan (entropy-coded data never holds FF DA, as FF is stuffed).
    func scans(_ data: Data) -> Int {
        let bytes = [UInt8](data)
        return zip(bytes, bytes.dropFirst()).filter { $0 == 0xFF && $1 == 0xDA }.count
    }

    @Test func aJPEGOf120ScansDecodes() throws {
        let data = try Fixture.data("scans-120.jpg")
        #expect(scans(data) == 120)
        expectRamp(try Image(contentsOfFile: Fixture.path("scans-120.jpg")))
    }

    @Test func aJPEGOf500ScansDecodes() throws {
        #expect(scans(try Fixture.data("scans-500.jpg")) == 500)
        expectRamp(try Image(contentsOfFile: Fixture.path("scans-500.jpg")))
    }

    @Test func aJPEGOfMoreThan500ScansIsRefused() throws {
        let path = try Fixture.path("scans-501.jpg")
        #expect(scans(try Fixture.data("scans-501.jpg")) == 501)
        let expected = ImageDecodingError.corrupt(name: path, reason: "Progressive JPEG image has more than 500 scans")
        #expect(throws: expected) { try Image(contentsOfFile: path) }
        #expect(expected.description == "cannot decode \"\(path)\": Progressive JPEG image has more than 500 scans")
        // Its header is sound: the size can be read.
        let size = try ImageFile.size(ofFile: path)
        #expect(size.width == 16 && size.height == 16)
    }

    /// `fixture` with its frame header (SOF2) saying `side` x `side` pixels.
    func resized(_ fixture: String, side: UInt8) throws -> Data {
        var data = try Fixture.data(fixture)
        let frame = try #require(data.range(of: Data([0xFF, 0xC2]))).lowerBound
        data.replaceSubrange((frame + 5)..<(frame + 9), with: [side, 0x00, side, 0x00])
        return data
    }

    @Test func manyScansOfManyPixelsAreRefusedBeforeDecoding() throws {
        // 500 scans of 4096 x 4096: 500 passes over 16.8 million pixels, which took 27 s for a 60 KB file. 32 MiB of
        // coefficients would fit; the work does not.
        let data = try resized("scans-500.jpg", side: 0x10)
        let reason = "a progressive JPEG of 4096x4096 in 500 scans would take 500 passes over its pixels, more than "
            + "the limit of 4294967296 pixels in all scans"
        #expect(throws: ImageDecodingError.tooLarge(name: "many.jpg", width: 4096, height: 4096, reason: reason)) {
            try Image(data: data, name: "many.jpg")
        }
    }

    @Test func coefficientsThatDoNotFitBesideTheFileAreRefusedBeforeDecoding() throws {
        // The 10-scan 4:4:4 fixture with its frame header made 16384 x 16384: 1.5 GiB of coefficients (three
        // components, 2 bytes a pixel each) that libjpeg would allocate before the first scan.
        let data = try resized("progressive-2048.jpg", side: 0x40)
        let before = ProcessMemory.residentKilobytes
        let reason = "a progressive JPEG of 16384x16384 keeps every DCT coefficient while it decodes, 1.5 GiB, which "
            + "with the file's \(MemorySize.describe(data.count)) passes the limit of 352 MiB"
        #expect(throws: ImageDecodingError.tooLarge(name: "big.jpg", width: 16384, height: 16384, reason: reason)) {
            try Image(data: data, name: "big.jpg")
        }
        // Refused from the headers: neither the 1 GiB image nor the coefficients were allocated (other tests run
        // alongside, so the margin is wide).
        #expect(ProcessMemory.residentKilobytes - before < 256 << 10)
    }
}
