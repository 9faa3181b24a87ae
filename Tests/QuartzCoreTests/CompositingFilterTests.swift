// Blend modes written as iOS code writes them: `compositingFilter` set to a string, with Apple's module names only.
import CoreGraphics
import Foundation
import QuartzCore
import XCTest

final class CompositingFilterTests: XCTestCase {
    func testCompositingFilterTakesCoreAnimationAndCoreImageNames() {
        let layer = CALayer()
        XCTAssertNil(layer.compositingFilter)
        layer.compositingFilter = "multiplyBlendMode"
        XCTAssertEqual(layer.compositingFilter as? String, "multiplyBlendMode")
        layer.compositingFilter = "CIScreenBlendMode"
        XCTAssertEqual(layer.compositingFilter as? String, "screenBlendMode")
        layer.setValue("sourceAtop", forKey: "compositingFilter")
        XCTAssertEqual(layer.value(forKey: "compositingFilter") as? String, "sourceAtop")
        // A filter Lamina cannot apply is ignored, as Core Animation ignores one it cannot.
        layer.compositingFilter = "CIGaussianBlur"
        XCTAssertNil(layer.compositingFilter)
    }

    func testAMultipliedLayerDrawnIntoAContext() throws {
        let ctx = try XCTUnwrap(CGContext(data: nil, width: 40, height: 20, bitsPerComponent: 8, bytesPerRow: 0,
                                          space: CGColorSpaceCreateDeviceRGB(),
                                          bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        ctx.translateBy(x: 0, y: 20)
        ctx.scaleBy(x: 1, y: -1)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        root.backgroundColor = CGColor(red: 1, green: 0.6, blue: 0.2, alpha: 1)
        let tint = CALayer()
        tint.frame = CGRect(x: 20, y: 0, width: 20, height: 20)
        tint.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 1, alpha: 1)
        tint.compositingFilter = "multiplyBlendMode"
        root.addSublayer(tint)
        root.render(in: ctx)
        let bytes = try XCTUnwrap(ctx.data).assumingMemoryBound(to: UInt8.self)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            let offset = y * ctx.bytesPerRow + x * 4
            return [bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]]
        }
        XCTAssertEqual(pixel(5, 10), [255, 153, 51, 255], "the background alone")
        // Multiply: (1 x 0.5, 0.6 x 0.5, 0.2 x 1) of 255, within rounding.
        let multiplied = pixel(30, 10)
        for (got, expected) in zip(multiplied, [128, 77, 51, 255] as [Int]) {
            XCTAssertLessThanOrEqual(abs(Int(got) - expected), 1, "\(multiplied)")
        }
    }
}
