// CATiledLayer as iOS code uses it: a subclass that draws each tile in draw(in:), on background threads.
import CoreGraphics
import Foundation
import QuartzCore
import XCTest

final class CATiledLayerTests: XCTestCase {
    /// Fills each tile green and records the tiles asked for (the clip's box and the context's scale).
    final class GreenTiles: CATiledLayer, @unchecked Sendable {
        override class func fadeDuration() -> CFTimeInterval { 1 }
        private let lock = NSLock()
        private var boxes: [CGRect] = []
        var tiles: [CGRect] { lock.withLock { boxes } }

        override func draw(in ctx: CGContext) {
            let box = ctx.boundingBoxOfClipPath
            lock.withLock { boxes.append(box) }
            ctx.setFillColor(CGColor(red: 0, green: 1, blue: 0, alpha: 1))
            ctx.fill(box)
        }
    }

    func testDefaultsAreCoreAnimations() {
        let layer = CATiledLayer()
        XCTAssertEqual(CATiledLayer.fadeDuration(), 0.25)
        XCTAssertEqual(layer.tileSize, CGSize(width: 256, height: 256))
        XCTAssertEqual(layer.levelsOfDetail, 1)
        XCTAssertEqual(layer.levelsOfDetailBias, 0)
        XCTAssertEqual(GreenTiles.fadeDuration(), 1)
        XCTAssertEqual(GreenTiles().fadeDuration, 1, "a subclass's class fadeDuration is its layers' fade")
    }

    func testRenderInContextDrawsTheVisibleTiles() throws {
        let tiled = GreenTiles()
        tiled.frame = CGRect(x: 0, y: 0, width: 600, height: 300)
        tiled.tileSize = CGSize(width: 128, height: 128)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.addSublayer(tiled)
        let ctx = try XCTUnwrap(CGContext(data: nil, width: 200, height: 100, bitsPerComponent: 8, bytesPerRow: 0,
                                          space: CGColorSpaceCreateDeviceRGB(),
                                          bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        root.render(in: ctx)
        // The 200 x 100 view meets tiles (0, 0) and (1, 0) only.
        XCTAssertEqual(Set(tiled.tiles.map(\.origin)), [CGPoint(x: 0, y: 0), CGPoint(x: 128, y: 0)])
        let bytes = try XCTUnwrap(ctx.data).assumingMemoryBound(to: UInt8.self)
        for (x, y) in [(10, 10), (150, 90), (199, 50)] {
            let offset = y * ctx.bytesPerRow + x * 4
            XCTAssertEqual([bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]], [0, 255, 0, 255],
                           "(\(x), \(y))")
        }
    }
}
