import CoreGraphics
import Foundation
import ImageIO
import XCTest

/// Reading and writing PNG and JPEG through ImageIO, as iOS code does.
final class ImageIOTests: XCTestCase {
    /// A 4x3 picture: transparent, with opaque and half-transparent pixels.
    private func picture() throws -> CGImage {
        let context = try XCTUnwrap(CGContext(
            data: nil, width: 4, height: 3, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 2, height: 3))
        context.setFillColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        context.fill(CGRect(x: 3, y: 2, width: 1, height: 1))
        return try XCTUnwrap(context.makeImage())
    }

    func testPNGRoundTripThroughDataIsExact() throws {
        let image = try picture()
        let data = NSMutableData()
        let destination = try XCTUnwrap(CGImageDestinationCreateWithData(data as CFMutableData,
                                                                          "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(destination, image, nil)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        XCTAssertFalse(CGImageDestinationFinalize(destination))
        let source = try XCTUnwrap(CGImageSourceCreateWithData(data as Data as CFData, nil))
        XCTAssertEqual(CGImageSourceGetCount(source), 1)
        XCTAssertEqual(CGImageSourceGetType(source), "public.png")
        let properties = try XCTUnwrap(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any])
        XCTAssertEqual(properties[kCGImagePropertyPixelWidth] as? Int, 4)
        XCTAssertEqual(properties[kCGImagePropertyPixelHeight] as? Int, 3)
        let decoded = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))
        XCTAssertEqual(decoded.width, 4)
        XCTAssertEqual(decoded.height, 3)
        XCTAssertEqual(decoded.dataProvider?.data, image.dataProvider?.data)
        XCTAssertNil(CGImageSourceCreateImageAtIndex(source, 1, nil))
    }

    func testJPEGRoundTripThroughFileIsClose() throws {
        let context = try XCTUnwrap(CGContext(
            data: nil, width: 16, height: 16, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
        context.setFillColor(red: 0.2, green: 0.6, blue: 0.4, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 16, height: 16))
        let image = try XCTUnwrap(context.makeImage())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-imageio-\(UUID()).jpg")
        defer { try? FileManager.default.removeItem(at: url) }
        let destination = try XCTUnwrap(CGImageDestinationCreateWithURL(url as CFURL, "public.jpeg" as CFString, 1,
                                                                         nil))
        CGImageDestinationAddImage(destination, image,
                                   [kCGImageDestinationLossyCompressionQuality: 0.9] as CFDictionary)
        XCTAssertTrue(CGImageDestinationFinalize(destination))
        let source = try XCTUnwrap(CGImageSourceCreateWithURL(url as CFURL, nil))
        XCTAssertEqual(CGImageSourceGetType(source), "public.jpeg")
        let decoded = try XCTUnwrap(CGImageSourceCreateImageAtIndex(source, 0, nil))
        let bytes = try XCTUnwrap(decoded.dataProvider?.data)
        // B, G, R, A of 0.2, 0.6, 0.4: 102, 153, 51.
        for offset in stride(from: 0, to: bytes.count, by: 4) {
            XCTAssertEqual(Double(bytes[offset]), 102, accuracy: 3)
            XCTAssertEqual(Double(bytes[offset + 1]), 153, accuracy: 3)
            XCTAssertEqual(Double(bytes[offset + 2]), 51, accuracy: 3)
            XCTAssertEqual(bytes[offset + 3], 255)
        }
        let small = NSMutableData(), large = NSMutableData()
        for (data, quality) in [(small, 0.1), (large, 1.0)] {
            let d = try XCTUnwrap(CGImageDestinationCreateWithData(data, "public.jpeg" as CFString, 1,
                                                                  [kCGImageDestinationLossyCompressionQuality: quality] as CFDictionary))
            CGImageDestinationAddImage(d, try picture(), nil)
            XCTAssertTrue(CGImageDestinationFinalize(d))
        }
        XCTAssertLessThan(small.length, large.length)
    }

    func testBadInputGivesNilOrFalse() throws {
        let garbage = try XCTUnwrap(CGImageSourceCreateWithData(Data([1, 2, 3, 4]) as CFData, nil))
        XCTAssertEqual(CGImageSourceGetCount(garbage), 0)
        XCTAssertNil(CGImageSourceGetType(garbage))
        XCTAssertNil(CGImageSourceCreateImageAtIndex(garbage, 0, nil))
        XCTAssertNil(CGImageSourceCopyPropertiesAtIndex(garbage, 0, nil))
        let empty = try XCTUnwrap(CGImageSourceCreateWithData(Data() as CFData, nil))
        XCTAssertEqual(CGImageSourceGetCount(empty), 0)
        // A PNG header claiming 100000 x 100000 pixels: a size, but no image (beyond the decoder's limits).
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        png += [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        let huge = try XCTUnwrap(CGImageSourceCreateWithData(Data(png) as CFData, nil))
        XCTAssertNil(CGImageSourceCreateImageAtIndex(huge, 0, nil))
        XCTAssertNil(CGImageSourceCreateWithURL(URL(fileURLWithPath: "/nonexistent/lamina.png") as CFURL, nil))

        XCTAssertNil(CGImageDestinationCreateWithData(NSMutableData(), "public.tiff" as CFString, 1, nil))
        let unfinished = try XCTUnwrap(CGImageDestinationCreateWithData(NSMutableData(), "public.png" as CFString, 1,
                                                                        nil))
        XCTAssertFalse(CGImageDestinationFinalize(unfinished))
        let unwritable = try XCTUnwrap(CGImageDestinationCreateWithURL(
            URL(fileURLWithPath: "/nonexistent/folder/out.png") as CFURL, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(unwritable, try picture(), nil)
        XCTAssertFalse(CGImageDestinationFinalize(unwritable))
    }

    func testColorsAndSpaces() throws {
        let gray = CGColor(gray: 0.5, alpha: 1)
        XCTAssertEqual(gray.components, [0.5, 0.5, 0.5, 1])
        XCTAssertEqual(CGColor(srgbRed: 1, green: 0.5, blue: 0, alpha: 0.25).alpha, 0.25)
        let space = try XCTUnwrap(CGColorSpace(name: CGColorSpace.linearSRGB))
        XCTAssertEqual(space.model, .rgb)
        XCTAssertEqual(space.numberOfComponents, 3)
        let linear = try XCTUnwrap(CGColor(colorSpace: space, components: [0.2140411404, 1, 0, 1]))
        XCTAssertEqual(linear.components?[0] ?? 0, 0.5, accuracy: 1e-6)
        XCTAssertEqual(CGColorSpaceCreateDeviceGray().model, .monochrome)
        XCTAssertNil(CGColorSpace(name: "nonsense" as CFString))
        XCTAssertEqual(CGColor.white.copy(alpha: 0.5)?.alpha, 0.5)
        let converted = CGColor.white.converted(to: CGColorSpaceCreateDeviceGray(), intent: .defaultIntent,
                                                options: nil)
        XCTAssertEqual(converted?.components?[0] ?? 0, 1, accuracy: 1e-12)
    }
}
