import CoreGraphics
import Foundation
import XCTest

/// Bitmap contexts as iOS code makes them: pixel bytes in the caller's memory, y up.
final class CoreGraphicsContextTests: XCTestCase {
    private func rgbaContext(_ data: UnsafeMutableRawPointer?, width: Int, height: Int) -> CGContext? {
        CGContext(data: data, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4,
                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
    }

    func testFillInRGBAPremultipliedLastIsYUpInCallersMemory() throws {
        var pixels = [UInt8](repeating: 0, count: 4 * 4 * 4)
        try pixels.withUnsafeMutableBytes { raw in
            let context = try XCTUnwrap(rgbaContext(raw.baseAddress, width: 4, height: 4))
            context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            context.fill(CGRect(x: 0, y: 0, width: 2, height: 1))  // bottom-left: memory row 3
            XCTAssertEqual(context.data, raw.baseAddress)
        }
        XCTAssertEqual(Array(pixels[48..<56]), [255, 0, 0, 255, 255, 0, 0, 255])  // row 3, x 0 and 1
        XCTAssertEqual(Array(pixels[56..<64]), [0, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(Array(pixels[0..<48]), [UInt8](repeating: 0, count: 48))
    }

    func testBGRAPremultipliedFirstLittleAndProperties() throws {
        let info = CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue
        let context = try XCTUnwrap(CGContext(data: nil, width: 3, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
                                              space: CGColorSpace(name: CGColorSpace.sRGB)!, bitmapInfo: info))
        XCTAssertEqual(context.bytesPerRow, 12)
        XCTAssertEqual(context.bitsPerPixel, 32)
        XCTAssertEqual(context.bitsPerComponent, 8)
        XCTAssertEqual(context.alphaInfo, .premultipliedFirst)
        XCTAssertEqual(context.bitmapInfo, CGBitmapInfo(rawValue: info))
        XCTAssertEqual(context.colorSpace?.name, CGColorSpace.sRGB)
        XCTAssertEqual(context.ctm, .identity)
        context.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        context.fill(CGRect(x: 2, y: 1, width: 1, height: 1))  // top-right: memory row 0, x 2
        let bytes = try XCTUnwrap(context.data).assumingMemoryBound(to: UInt8.self)
        XCTAssertEqual((8..<12).map { bytes[$0] }, [255, 0, 0, 255])
        XCTAssertEqual((20..<24).map { bytes[$0] }, [0, 0, 0, 0])
    }

    func testSkipAndGrayFormats() throws {
        var rgbx = [UInt8](repeating: 7, count: 8)
        try rgbx.withUnsafeMutableBytes { raw in
            let context = try XCTUnwrap(CGContext(
                data: raw.baseAddress, width: 2, height: 1, bitsPerComponent: 8, bytesPerRow: 8,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue))
            context.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
            context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        }
        // The first pixel drawn, its skipped byte left as it was; the second untouched.
        XCTAssertEqual(rgbx, [0, 255, 0, 7, 7, 7, 7, 7])

        var xrgb = [UInt8](repeating: 0, count: 4)
        try xrgb.withUnsafeMutableBytes { raw in
            let context = try XCTUnwrap(CGContext(
                data: raw.baseAddress, width: 1, height: 1, bitsPerComponent: 8, bytesPerRow: 4,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.noneSkipFirst.rawValue))
            context.setFillColor(red: 1, green: 0, blue: 1, alpha: 1)
            context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        }
        XCTAssertEqual(xrgb, [0, 255, 0, 255])

        var gray = [UInt8](repeating: 0, count: 2 * 2)
        try gray.withUnsafeMutableBytes { raw in
            let context = try XCTUnwrap(CGContext(
                data: raw.baseAddress, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 2,
                space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue))
            XCTAssertEqual(context.bitsPerPixel, 8)
            context.setFillColor(gray: 1, alpha: 1)
            context.fill(CGRect(x: 0, y: 1, width: 1, height: 1))  // top-left
            context.setFillColor(gray: 0.2, alpha: 1)
            context.fill(CGRect(x: 1, y: 0, width: 1, height: 1))  // bottom-right
        }
        XCTAssertEqual(gray, [255, 0, 0, 51])
    }

    func testUnsupportedFormatsGiveNil() {
        let rgb = CGColorSpaceCreateDeviceRGB()
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 16, space: rgb,
                               bitmapInfo: CGImageAlphaInfo.last.rawValue))
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 16, bytesPerRow: 32, space: rgb,
                               bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 8, space: rgb,
                               bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        XCTAssertNil(CGContext(data: nil, width: 0, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                               bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        XCTAssertNil(CGContext(data: nil, width: 1 << 20, height: 1 << 20, bitsPerComponent: 8, bytesPerRow: 0,
                               space: rgb, bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
    }

    func testImageIsDrawnUprightInYUpSpace() throws {
        // A 1x2 image: red on top (its first row), blue below.
        let bytes: [UInt8] = [255, 0, 0, 255, 0, 0, 255, 255]
        let image = try XCTUnwrap(CGImage(
            width: 1, height: 2, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 4,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo(alphaInfo: .premultipliedLast),
            provider: try XCTUnwrap(CGDataProvider(data: Data(bytes) as CFData)), decode: nil,
            shouldInterpolate: false, intent: .defaultIntent))
        var pixels = [UInt8](repeating: 0, count: 8)
        try pixels.withUnsafeMutableBytes { raw in
            let context = try XCTUnwrap(rgbaContext(raw.baseAddress, width: 1, height: 2))
            context.draw(image, in: CGRect(x: 0, y: 0, width: 1, height: 2))
        }
        XCTAssertEqual(pixels, bytes)
    }

    func testStateAlphaBlendModesAndClear() throws {
        var pixels = [UInt8](repeating: 0, count: 4 * 3)
        try pixels.withUnsafeMutableBytes { raw in
            let context = try XCTUnwrap(rgbaContext(raw.baseAddress, width: 3, height: 1))
            context.setFillColor(CGColor.white)
            context.fill(CGRect(x: 0, y: 0, width: 3, height: 1))
            context.saveGState()
            context.setBlendMode(.copy)
            context.setFillColor(red: 0, green: 0, blue: 0, alpha: 0)
            context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            context.restoreGState()
            context.clear(CGRect(x: 2, y: 0, width: 1, height: 1))
            context.setAlpha(0)
            context.fill(CGRect(x: 0, y: 0, width: 3, height: 1))  // draws nothing
        }
        XCTAssertEqual(pixels, [0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0])
    }

    func testTransformsPathQueriesAndClip() throws {
        let context = try XCTUnwrap(rgbaContext(nil, width: 10, height: 10))
        context.translateBy(x: 2, y: 3)
        XCTAssertEqual(context.ctm, CGAffineTransform(translationX: 2, y: 3))
        XCTAssertTrue(context.isPathEmpty)
        context.move(to: CGPoint(x: 0, y: 0))
        context.addLine(to: CGPoint(x: 4, y: 0))
        context.addArc(tangent1End: CGPoint(x: 6, y: 0), tangent2End: CGPoint(x: 6, y: 6), radius: 2)
        XCTAssertFalse(context.isPathEmpty)
        XCTAssertEqual(context.currentPointOfPath.x, 6, accuracy: 1e-9)
        XCTAssertEqual(context.currentPointOfPath.y, 2, accuracy: 1e-9)
        context.beginPath()
        XCTAssertEqual(context.boundingBoxOfPath, .null)
        XCTAssertEqual(context.boundingBoxOfClipPath, CGRect(x: -2, y: -3, width: 10, height: 10))
        context.clip(to: [CGRect(x: 0, y: 0, width: 2, height: 2), CGRect(x: 1, y: 1, width: 2, height: 2)])
        XCTAssertEqual(context.boundingBoxOfClipPath, CGRect(x: 0, y: 0, width: 3, height: 3))
        context.setFillColor(gray: 1, alpha: 1)
        context.fill(CGRect(x: -2, y: -3, width: 10, height: 10))
        let bytes = try XCTUnwrap(context.data).assumingMemoryBound(to: UInt8.self)
        // Device (2, 3) is inside the clip: memory row 10 - 1 - 3 = 6; device (0, 0) is not.
        XCTAssertEqual(bytes[6 * 40 + 2 * 4 + 3], 255)
        XCTAssertEqual(bytes[9 * 40 + 3], 0)
    }

    func testLinearGradientValues() throws {
        var pixels = [UInt8](repeating: 0, count: 4 * 256)
        try pixels.withUnsafeMutableBytes { raw in
            let context = try XCTUnwrap(rgbaContext(raw.baseAddress, width: 256, height: 1))
            let gradient = try XCTUnwrap(CGGradient(
                colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [CGColor.black, CGColor.white] as CFArray,
                locations: [0, 1]))
            context.drawLinearGradient(gradient, start: CGPoint(x: 0, y: 0), end: CGPoint(x: 256, y: 0), options: [])
        }
        // Sampled at pixel centres: (x + 0.5) / 256 of the way.
        for x in [0, 64, 128, 255] {
            let expected = Double(x) + 0.5
            XCTAssertEqual(Double(pixels[4 * x]), expected, accuracy: 1, "x \(x)")
            XCTAssertEqual(pixels[4 * x + 3], 255)
        }
        let components: [CGFloat] = [1, 0, 0, 1, 0, 0, 1, 1]
        XCTAssertEqual(CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: components,
                                  locations: nil, count: 2)?.colors, [CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                                                                      CGColor(red: 0, green: 0, blue: 1, alpha: 1)])
    }

    func testMakeImageCopiesTheMemory() throws {
        var pixels = [UInt8](repeating: 0, count: 4)
        let image = try pixels.withUnsafeMutableBytes { raw -> CGImage in
            let context = try XCTUnwrap(rgbaContext(raw.baseAddress, width: 1, height: 1))
            context.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
            context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            return try XCTUnwrap(context.makeImage())
        }
        XCTAssertEqual(image.width, 1)
        XCTAssertEqual(image.alphaInfo, .premultipliedFirst)
        XCTAssertEqual(image.dataProvider?.data, Data([0, 255, 0, 255]))  // B, G, R, A
    }

    func testManySmallFillsEachLandInTheCallersMemory() throws {
        let context = try XCTUnwrap(rgbaContext(nil, width: 1024, height: 1024))
        for i in 0..<2000 {
            context.setFillColor(red: 1, green: CGFloat(i % 7) / 7, blue: 0, alpha: 1)
            context.fill(CGRect(x: i % 1000, y: (i * 7) % 1000, width: 8, height: 8))
        }
        // Only the pixels each call may change are converted, so every call's pixels must be there: the last fill
        // (i = 1999) covers x 999..<1007, y 993..<1001 (y up), so memory row 1024 - 1 - 995 = 28 at x 1000.
        let data = try XCTUnwrap(context.data).assumingMemoryBound(to: UInt8.self)
        let offset = 28 * context.bytesPerRow + 1000 * 4
        XCTAssertEqual(data[offset], 255)
        XCTAssertEqual(Double(data[offset + 1]), 255 * 4.0 / 7, accuracy: 1)
        XCTAssertEqual(data[offset + 2], 0)
        XCTAssertEqual(data[offset + 3], 255)
    }
}
