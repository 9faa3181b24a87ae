import Foundation
import LaminaCore
import Testing

@testable import LaminaLayers

/// The planner's contents quads, number for number: destination, texture mapping and no-bleed clamp.
@Suite struct ContentsPlanTests {
    func plan(_ layer: Layer, size: CGFloat = 300, scale: CGFloat = 1) throws -> [Quad] {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: size, height: size)
        root.addSublayer(layer)
        return try Planner(scale: scale).plan(root).quads
    }

    func texture(_ quad: Quad) throws -> TextureSource {
        guard case .texture(let texture) = quad.paint else { throw PlanError.invalidSize("not a texture quad") }
        return texture
    }

    func texel(_ texture: TextureSource, _ u: CGFloat, _ v: CGFloat) -> CGPoint {
        texture.unitToTexel.apply(CGPoint(x: u, y: v)).projected
    }

    func target(_ quad: Quad, _ u: CGFloat, _ v: CGFloat) -> CGPoint {
        quad.unitToTarget.apply(CGPoint(x: u, y: v)).projected
    }

    @Test func spriteMapsItsSubImageAndClampsToIt() throws {
        let layer = Layer(frame: CGRect(x: 10, y: 10, width: 96, height: 96))
        layer.contents = try Image(width: 64, height: 64)
        layer.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 0.5)
        let quads = try plan(layer)
        #expect(quads.count == 1)
        let t = try texture(quads[0])
        #expect(texel(t, 0, 0) == CGPoint(x: 32, y: 0) && texel(t, 1, 1) == CGPoint(x: 64, y: 32))
        #expect(t.clamp == TexelRect(x0: 32, y0: 0, x1: 64, y1: 32))
        #expect(target(quads[0], 0, 0) == CGPoint(x: 10, y: 10) && target(quads[0], 1, 1) == CGPoint(x: 106, y: 106))
        #expect(t.filter == .linear)
    }

    @Test func contentsScaleSetsThePointSizeForNonScalingGravities() throws {
        let layer = Layer(frame: CGRect(x: 10, y: 10, width: 100, height: 100))
        layer.contents = try Image(width: 80, height: 80)
        layer.contentsGravity = .center
        layer.contentsScale = 2
        let quad = try #require(try plan(layer).first)
        #expect(target(quad, 0, 0) == CGPoint(x: 40, y: 40) && target(quad, 1, 1) == CGPoint(x: 80, y: 80))
        // 80 texels over 40 points at output scale 1: minification.
        layer.minificationFilter = .nearest
        #expect(try texture(try plan(layer)[0]).filter == .nearest)
        #expect(try texture(try plan(layer, scale: 2)[0]).filter == .linear)
    }

    @Test func nineSliceCellsHaveTheirOwnSourceAndClamp() throws {
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        layer.contents = try Image(width: 30, height: 30)
        layer.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        let quads = try plan(layer)
        #expect(quads.count == 9)
        let xs = quads.prefix(3).map { target($0, 0, 0).x.rounded(.toNearestOrEven) }
        #expect(xs == [0, 10, 190])
        let centre = try texture(quads[4])
        #expect(centre.clamp == TexelRect(x0: 10, y0: 10, x1: 20, y1: 20))
        #expect(abs(texel(centre, 0, 0).x - 10) < 1e-9 && abs(texel(centre, 1, 1).x - 20) < 1e-9)
        #expect(try texture(quads[0]).clamp == TexelRect(x0: 0, y0: 0, x1: 10, y1: 10))
        #expect(try texture(quads[8]).clamp == TexelRect(x0: 20, y0: 20, x1: 30, y1: 30))
    }

    @Test func shrinkRuleAndZeroWidthCentre() {
        // Ends of 10 + 10 points into 15: both shrink to 7.5, the middle vanishes.
        let shrunk = ContentsLayout.slices(centre: 1.0 / 3, extent: 1.0 / 3, sizeInPoints: 30, sizeInPixels: 30,
                                           destinationStart: 0, destinationLength: 15)
        func close(_ a: ClosedRange<CGFloat>, _ b: ClosedRange<CGFloat>) -> Bool {
            abs(a.lowerBound - b.lowerBound) < 1e-9 && abs(a.upperBound - b.upperBound) < 1e-9
        }
        #expect(shrunk.count == 2 && close(shrunk[0].destination, 0...7.5) && close(shrunk[1].destination, 7.5...15))
        // A zero extent: one source pixel centred at c, ends of c x S and (1 - c) x S.
        let zero = ContentsLayout.slices(centre: 0.5, extent: 0, sizeInPoints: 21, sizeInPixels: 21,
                                         destinationStart: 10, destinationLength: 200)
        #expect(zero.count == 3)
        #expect(close(zero[0].destination, 10...20.5) && close(zero[2].destination, 199.5...210))
        #expect(abs(zero[1].source.lowerBound * 21 - 10) < 1e-9 && abs(zero[1].source.upperBound * 21 - 11) < 1e-9)
    }

    @Test func rotatedFramesTurnBack() throws {
        // A sprite of 20 x 10 pixels stored turned clockwise as 10 x 20 at (4, 8) of a 32 x 32 sheet.
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 20, height: 10))
        layer.contents = try Image(width: 32, height: 32)
        layer.contentsRect = CGRect(x: 4.0 / 32, y: 8.0 / 32, width: 10.0 / 32, height: 20.0 / 32)
        layer.contentsAreRotated = true
        layer.contentsGravity = .topLeft
        let quad = try #require(try plan(layer).first)
        let t = try texture(quad)
        // Shown at its upright size; its top-left comes from the stored region's top-right, its top-right from the
        // bottom-right.
        #expect(target(quad, 1, 1) == CGPoint(x: 20, y: 10))
        #expect(texel(t, 0, 0) == CGPoint(x: 14, y: 8) && texel(t, 1, 0) == CGPoint(x: 14, y: 28))
        #expect(texel(t, 0, 1) == CGPoint(x: 4, y: 8))
        #expect(t.clamp == TexelRect(x0: 4, y0: 8, x1: 14, y1: 28))
    }

    @Test func contentsRectOutsideTheImageClampsToItsEdge() throws {
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 90, height: 30))
        layer.contents = try Image(width: 30, height: 10)
        layer.contentsRect = CGRect(x: -0.5, y: 0, width: 1, height: 1)
        let t = try texture(try #require(try plan(layer).first))
        #expect(texel(t, 0, 0) == CGPoint(x: -15, y: 0))
        #expect(t.clamp == TexelRect(x0: 0, y0: 0, x1: 15, y1: 10))
    }

    @Test func masksToBoundsClipsContentsToTheBounds() throws {
        let layer = Layer(frame: CGRect(x: 10, y: 10, width: 40, height: 40))
        layer.contents = try Image(width: 100, height: 50)
        layer.contentsGravity = .resizeAspectFill
        layer.masksToBounds = true
        let quad = try #require(try plan(layer).first)
        #expect(target(quad, 0, 0) == CGPoint(x: -10, y: 10))
        #expect(quad.clip?.axisAlignedRect == CGRect(x: 10, y: 10, width: 40, height: 40))
    }
}
