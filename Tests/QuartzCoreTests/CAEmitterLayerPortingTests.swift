// CAEmitterLayer code as written for iOS: only Apple's module names.
import CoreGraphics
import Foundation
import QuartzCore
import XCTest

final class CAEmitterLayerPortingTests: XCTestCase {
    func testDefaultsAndConstantsAreCoreAnimations() {
        let emitter = CAEmitterLayer()
        XCTAssertNil(emitter.emitterCells)
        XCTAssertEqual(emitter.birthRate, 1)
        XCTAssertEqual(emitter.lifetime, 1)
        XCTAssertEqual(emitter.emitterPosition, .zero)
        XCTAssertEqual(emitter.emitterSize, .zero)
        XCTAssertEqual(emitter.emitterShape, .point)
        XCTAssertEqual(emitter.emitterMode, .volume)
        XCTAssertEqual(emitter.renderMode, .unordered)
        XCTAssertEqual(emitter.seed, 0)
        XCTAssertEqual(CAEmitterLayerEmitterShape.circle.rawValue, "circle")
        XCTAssertEqual(CAEmitterLayerEmitterShape(rawValue: "cuboid"), .cuboid)
        XCTAssertEqual(CAEmitterLayerEmitterMode.outline.rawValue, "outline")
        XCTAssertEqual(CAEmitterLayerRenderMode.additive.rawValue, "additive")
        XCTAssertEqual(CAEmitterLayerRenderMode.oldestFirst.rawValue, "oldestFirst")
        let cell = CAEmitterCell()
        XCTAssertTrue(cell.isEnabled)
        XCTAssertEqual(cell.birthRate, 0)
        XCTAssertEqual(cell.scale, 1)
        XCTAssertEqual(cell.contentsRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(cell.speed, 1)
        XCTAssertNil(cell.emitterCells)
        let timing: CAMediaTiming = cell
        XCTAssertEqual(timing.duration, 0)
    }

    func testAFireworkAsTheDocumentationWritesIt() throws {
        // Apple's sub-cell example, with a square image as RadialGradient.png.
        let ctx = try XCTUnwrap(CGContext(data: nil, width: 8, height: 8, bitsPerComponent: 8, bytesPerRow: 0,
                                          space: CGColorSpaceCreateDeviceRGB(),
                                          bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        ctx.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        let image = try XCTUnwrap(ctx.makeImage())
        let emitterLayer = CAEmitterLayer()
        emitterLayer.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        emitterLayer.emitterPosition = CGPoint(x: 100, y: 100)
        let fireworkCell = CAEmitterCell()
        fireworkCell.color = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        fireworkCell.birthRate = 1
        fireworkCell.lifetime = 1000
        fireworkCell.velocity = 0
        fireworkCell.scale = 2
        fireworkCell.emissionLongitude = -CGFloat.pi * 0.5
        fireworkCell.contents = image
        let trailCell = CAEmitterCell()
        trailCell.yAcceleration = 20
        trailCell.birthRate = 10
        trailCell.lifetime = 3
        trailCell.contents = image
        fireworkCell.emitterCells = [trailCell]
        emitterLayer.emitterCells = [fireworkCell]
        XCTAssertEqual(emitterLayer.emitterCells?.first?.emitterCells?.count, 1)
        // The firework never moves: whatever the time, its particles sit on the emitter position, red.
        let out = try XCTUnwrap(CGContext(data: nil, width: 200, height: 200, bitsPerComponent: 8, bytesPerRow: 0,
                                          space: CGColorSpaceCreateDeviceRGB(),
                                          bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        out.translateBy(x: 0, y: 200)
        out.scaleBy(x: 1, y: -1)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.addSublayer(emitterLayer)
        // Start now, as a Core Animation emitter starts when it is added.
        emitterLayer.beginTime = CACurrentMediaTime() - 0.5
        root.render(in: out)
        let bytes = try XCTUnwrap(out.data).assumingMemoryBound(to: UInt8.self)
        let centre = 100 * out.bytesPerRow + 100 * 4
        XCTAssertEqual([bytes[centre], bytes[centre + 1], bytes[centre + 2], bytes[centre + 3]], [255, 0, 0, 255])
        let away = 100 * out.bytesPerRow + 150 * 4
        XCTAssertEqual(bytes[away + 3], 0, "nothing far from the emitter")
    }
}
