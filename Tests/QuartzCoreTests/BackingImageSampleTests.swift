// The ported sample of docs/porting.md (examples/backing-image), run as an iOS program would run: its picture is
// checked at one probe per topic of the chapter.
import BackingImageSample
import CoreGraphics
import Foundation
import ImageIO
import XCTest

final class BackingImageSampleTests: XCTestCase {
    /// The RGBA of pixel (x, y) (row 0 at the top) of an image, read through its data provider in the format its
    /// bitmap info gives (Lamina's images are BGRA, premultiplied, 32 bits).
    private func rgba(_ image: CGImage, _ x: Int, _ y: Int) throws -> [Int] {
        let data = try XCTUnwrap(image.dataProvider?.data)
        let bytes = [UInt8](data)
        let offset = y * image.bytesPerRow + x * 4
        XCTAssertEqual(image.bitsPerPixel, 32)
        let little = image.bitmapInfo.contains(.byteOrder32Little)
        let first = image.alphaInfo == .premultipliedFirst || image.alphaInfo == .first
            || image.alphaInfo == .noneSkipFirst
        // In memory: BGRA for "first, 32 little", RGBA for "last, big/default".
        switch (first, little) {
        case (true, true): return [Int(bytes[offset + 2]), Int(bytes[offset + 1]), Int(bytes[offset]), Int(bytes[offset + 3])]
        case (false, false): return [Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]), Int(bytes[offset + 3])]
        case (true, false): return [Int(bytes[offset + 1]), Int(bytes[offset + 2]), Int(bytes[offset + 3]), Int(bytes[offset])]
        case (false, true): return [Int(bytes[offset + 3]), Int(bytes[offset + 2]), Int(bytes[offset + 1]), Int(bytes[offset])]
        }
    }

    private func assertColour(_ image: CGImage, _ x: Int, _ y: Int, _ expected: [Int], _ what: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let got = try rgba(image, x, y)
        for channel in 0..<4 where abs(got[channel] - expected[channel]) > 3 {
            XCTFail("\(what) at (\(x), \(y)): \(got), expected \(expected)", file: file, line: line)
            return
        }
    }

    func testEveryPanelShowsWhatTheChapterDescribes() throws {
        let image = try XCTUnwrap(renderBackingImageDemo())
        XCTAssertEqual(image.width, 640)
        XCTAssertEqual(image.height, 400)
        let grey = [204, 204, 204, 255], sky = [140, 199, 242, 255], paper = [245, 245, 240, 255]
        let white = [255, 255, 255, 255]
        try assertColour(image, 25, 30, grey, "contentsGravity resizeAspect leaves the letterbox")
        try assertColour(image, 25, 60, sky, "contentsGravity resizeAspect fits the image")
        try assertColour(image, 240, 30, grey, "contentsScale 2 shows the image at half its pixel size")
        try assertColour(image, 275, 80, sky, "contentsScale 2 centres the image")
        try assertColour(image, 443, 23, paper, "masksToBounds clips the rounded corner")
        try assertColour(image, 520, 100, white, "resizeAspectFill covers the square")
        try assertColour(image, 60, 250, [230, 51, 51, 255], "sprite 0 shows the top-left cell")
        try assertColour(image, 150, 250, [51, 179, 77, 255], "sprite 1 shows the top-right cell")
        try assertColour(image, 60, 340, [51, 102, 230, 255], "sprite 2 shows the bottom-left cell")
        try assertColour(image, 150, 340, [242, 204, 26, 255], "sprite 3 shows the bottom-right cell")
        try assertColour(image, 310, 270, [217, 230, 255, 255], "contentsCenter stretches the centre")
        try assertColour(image, 235, 270, [38, 51, 89, 255], "contentsCenter keeps the border")
        try assertColour(image, 500, 300, white, "the delegate draws the clock face")
        try assertColour(image, 455, 280, [51, 51, 51, 255], "the delegate strokes the rim")
    }

    func testTheCommandWritesThePictureAsAPNGFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("backing-image-\(getpid()).png")
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertTrue(writeBackingImageDemo(to: url, scale: 2))
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(url as CFURL, nil))
        XCTAssertEqual(CGImageSourceGetCount(source), 1)
        let image = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))
        XCTAssertEqual(image.width, 1280)
        XCTAssertEqual(image.height, 800)
        try assertColour(image, 120, 500, [230, 51, 51, 255], "the 2x file's sprite 0")
    }
}
