import Lamina
import QuartzCore
import XCTest

/// `Layer.render(in:)` (Core Animation's `render(in:)`) into Core Graphics bitmap contexts, as an iOS program calls
/// it: exact bytes. Written with Lamina's layer names until `CALayer` is in the QuartzCore module (then these port to
/// Tests/QuartzCoreTests as they are). XCTest, as in QuartzCoreTests: swift-testing with a module named CoreGraphics
/// asks for a cross-import overlay Linux does not have.
final class RenderInContextTests: XCTestCase {
    static func context(_ width: Int, _ height: Int) -> CGContext {
        CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4,
                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
    }

    /// The RGBA bytes of pixel (x, y), row 0 first in memory.
    static func bytes(_ ctx: CGContext, _ x: Int, _ y: Int) -> [UInt8] {
        let base = ctx.data!.assumingMemoryBound(to: UInt8.self) + y * ctx.bytesPerRow + x * 4
        return (0..<4).map { base[$0] }
    }

    static let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255], clear: [UInt8] = [0, 0, 0, 0]

    /// A blue 4 x 4 layer with a red 2 x 2 sublayer at its top-left (layer space, y down).
    static func layer() -> Layer {
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let sublayer = Layer()
        sublayer.frame = CGRect(x: 0, y: 0, width: 2, height: 2)
        sublayer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.addSublayer(sublayer)
        return layer
    }

    func testABitmapContextGetsThePictureUpsideDownInMemory() {
        let ctx = Self.context(4, 4)
        Self.layer().render(in: ctx)
        // User space is y up: layer y 0 ..< 2 is user y 0 ..< 2, the last two rows in memory.
        for y in 0..<4 {
            for x in 0..<4 {
                let expected = x < 2 && y >= 2 ? Self.red : Self.blue
                XCTAssertTrue(Self.bytes(ctx, x, y) == expected, "(\(x), \(y))")
            }
        }
    }

    func testAFlippedContextGetsItUpright() {
        let ctx = Self.context(4, 4)
        ctx.translateBy(x: 0, y: 4)
        ctx.scaleBy(x: 1, y: -1)
        Self.layer().render(in: ctx)
        for y in 0..<4 {
            for x in 0..<4 {
                XCTAssertTrue(Self.bytes(ctx, x, y) == (x < 2 && y < 2 ? Self.red : Self.blue), "(\(x), \(y))")
            }
        }
    }

    func testAScaledContextGetsASharpPicture() {
        let ctx = Self.context(8, 8)
        ctx.translateBy(x: 0, y: 8)
        ctx.scaleBy(x: 2, y: -2)
        let layer = Self.layer()
        // A half-point line: at 2 pixels per point it is one whole pixel column, not a blurred one.
        let line = Layer()
        line.frame = CGRect(x: 3, y: 0, width: 0.5, height: 4)
        line.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.addSublayer(line)
        layer.render(in: ctx)
        for y in 0..<8 {
            for x in 0..<8 {
                let expected = (x < 4 && y < 4) || x == 6 ? Self.red : Self.blue
                XCTAssertTrue(Self.bytes(ctx, x, y) == expected, "(\(x), \(y))")
            }
        }
    }

    func testARotatedSublayerIsDrawnRotated() {
        let ctx = Self.context(4, 4)
        ctx.translateBy(x: 0, y: 4)
        ctx.scaleBy(x: 1, y: -1)
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        // A 4 x 2 bar across the middle, turned a quarter: a 2 x 4 bar down the middle.
        let bar = Layer()
        bar.bounds = CGRect(x: 0, y: 0, width: 4, height: 2)
        bar.position = CGPoint(x: 2, y: 2)
        bar.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        bar.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.addSublayer(bar)
        layer.render(in: ctx)
        for y in 0..<4 {
            for x in 0..<4 {
                XCTAssertTrue(Self.bytes(ctx, x, y) == ((1...2).contains(x) ? Self.red : Self.blue), "(\(x), \(y))")
            }
        }
    }

    func testARoundedClippedLayerKeepsItsCornersTransparent() throws {
        let ctx = Self.context(20, 20)
        ctx.translateBy(x: 0, y: 20)
        ctx.scaleBy(x: 1, y: -1)
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        layer.cornerRadius = 10
        layer.masksToBounds = true
        let fill = Layer()
        fill.frame = CGRect(x: -5, y: -5, width: 30, height: 30)
        fill.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.addSublayer(fill)
        layer.render(in: ctx)
        XCTAssertTrue(Self.bytes(ctx, 0, 0) == Self.clear, "outside the circle")
        XCTAssertTrue(Self.bytes(ctx, 19, 19) == Self.clear)
        XCTAssertTrue(Self.bytes(ctx, 10, 10) == Self.red)
        XCTAssertTrue(Self.bytes(ctx, 1, 10) == Self.red, "inside the circle, near its left edge")
        // The same bytes as the CPU renderer's picture of the layer (premultiplied RGBA from its BGRA).
        let image = try CPURenderer().render(layer)
        for y in 0..<20 {
            for x in 0..<20 {
                let word = image.rgba(x: x, y: y)
                let a = Int(word.a)
                let expected = [word.r, word.g, word.b].map { UInt8((Int($0) * a + 127) / 255) } + [word.a]
                let got = Self.bytes(ctx, x, y)
                XCTAssertTrue(zip(got, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "(\(x), \(y)): \(got) \(expected)")
            }
        }
    }

    func testTheModelIsDrawnNotThePresentation() {
        let ctx = Self.context(4, 4)
        let layer = Self.layer()
        let fade = BasicAnimation(keyPath: "backgroundColor")
        fade.fromValue = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        fade.toValue = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        fade.duration = 100
        layer.add(fade, forKey: "fade")
        layer.render(in: ctx)
        XCTAssertTrue(Self.bytes(ctx, 3, 0) == Self.blue)
    }
}
