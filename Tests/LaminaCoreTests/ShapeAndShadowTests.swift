import Foundation
import LaminaCore
import Testing

/// Rounded shapes and the shadow blur, with values worked out by hand from their definitions.
@Suite struct RoundedShapeTests {
    let square = RoundedRect(rect: CGRect(x: 0, y: 0, width: 100, height: 100), radii: CornerRadii(20))

    @Test func signedDistancesAndNormals() {
        let centre = square.signedDistance(50, 50)
        #expect(centre.distance == -50)
        // (10, 50): 10 inside the left edge, normal pointing left.
        let left = square.signedDistance(10, 50)
        #expect(left.distance == -10 && left.nx == -1 && left.ny == 0)
        // (2.5, 2.5): |(2.5, 2.5) - (20, 20)| - 20 = 17.5 * sqrt 2 - 20 = 4.7487.
        let corner = square.signedDistance(2.5, 2.5)
        #expect(abs(corner.distance - 4.74874) < 1e-4)
        #expect(abs(corner.nx + 0.70711) < 1e-4 && abs(corner.ny + 0.70711) < 1e-4)
    }

    @Test func radiiAreLimitedToHalfTheShorterSide() {
        let capsule = RoundedRect(rect: CGRect(x: 0, y: 0, width: 40, height: 20), radii: CornerRadii(15))
        #expect(capsule.radii == CornerRadii(10))
        let odd = RoundedRect(rect: CGRect(x: 0, y: 0, width: 40, height: 20),
                              radii: CornerRadii(topLeft: -3, topRight: .nan, bottomRight: 4, bottomLeft: 30))
        #expect(odd.radii == CornerRadii(topLeft: 0, topRight: 0, bottomRight: 4, bottomLeft: 10))
    }

    func coverage(_ shape: CoverageShape, _ x: Int, _ y: Int, in result: AntialiasedCoverage) -> UInt8 {
        if result.full.contains(where: { x >= $0.x0 && x < $0.x1 && y >= $0.y0 && y < $0.y1 }) { return 255 }
        return result.partial.first { Int($0.x) == x && Int($0.y) == y }?.coverage ?? 0
    }

    @Test func coverageIsHalfAPixelMinusTheDistance() {
        let shape = CoverageShape(toTarget: .identity, outer: square)
        let result = shape.applied(to: AntialiasedCoverage(full: [PixelBox(x0: 0, y0: 0, x1: 100, y1: 100)]))
        #expect(coverage(shape, 0, 0, in: result) == 0)
        #expect(coverage(shape, 50, 50, in: result) == 255)
        // Centre (5.5, 6.5): |(-14.5, -13.5)| = sqrt(392.5) = 19.8116, d = -0.1884: 0.6884 x 255 = 175.5.
        #expect(coverage(shape, 5, 6, in: result) == 176)
        // Centre (5.5, 5.5): d = 20.506 - 20 = 0.506: nothing.
        #expect(coverage(shape, 5, 5, in: result) == 0)
        // A straight edge on a pixel boundary is sharp: (0, 50) is 0.5 inside, fully covered.
        #expect(coverage(shape, 0, 50, in: result) == 255)
        // Nothing outside the base coverage is added, and the full boxes hold no partial pixel.
        #expect(result.partial.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x < 100 && $0.y < 100 })
        for pixel in result.partial {
            #expect(!result.full.contains { Int(pixel.x) >= $0.x0 && Int(pixel.x) < $0.x1 && Int(pixel.y) >= $0.y0
                && Int(pixel.y) < $0.y1 })
        }
    }

    @Test func distancesAreMeasuredInTargetPixels() {
        // At scale 2, centre (10.5, 12.5) is (5.25, 6.25) in the shape: |(-14.75, -13.75)| - 20 = 0.1649 units,
        // 0.3299 pixels outside: coverage 0.1701, 43 of 255.
        let shape = CoverageShape(toTarget: .scale(2, 2), outer: square)
        let result = shape.applied(to: AntialiasedCoverage(full: [PixelBox(x0: 0, y0: 0, x1: 200, y1: 200)]))
        #expect(coverage(shape, 10, 12, in: result) == 43)
        #expect(coverage(shape, 11, 13, in: result) == 255)
    }

    @Test func aRingLeavesTheHoleOut() {
        let inner = RoundedRect(rect: CGRect(x: 10, y: 10, width: 80, height: 80), radii: CornerRadii(10))
        let ring = CoverageShape(toTarget: .identity, outer: square, inner: inner)
        let result = ring.applied(to: AntialiasedCoverage(full: [PixelBox(x0: 0, y0: 0, x1: 100, y1: 100)]))
        #expect(coverage(ring, 50, 5, in: result) == 255)
        #expect(coverage(ring, 50, 9, in: result) == 255)
        #expect(coverage(ring, 50, 10, in: result) == 0)
        #expect(coverage(ring, 50, 50, in: result) == 0)
        #expect(coverage(ring, 95, 50, in: result) == 255)
    }

    @Test func partialPixelsOfTheBaseAreMultiplied() {
        let shape = CoverageShape(toTarget: .identity, outer: square)
        let base = AntialiasedCoverage(partial: [PartialPixel(x: 5, y: 6, coverage: 128),
                                                  PartialPixel(x: 50, y: 50, coverage: 100)])
        let result = shape.applied(to: base)
        // 128/255 x 0.6884 x 255 = 88.1; inside, the base's coverage stays.
        #expect(coverage(shape, 5, 6, in: result) == 88)
        #expect(coverage(shape, 50, 50, in: result) == 100)
    }
}

@Suite struct ShadowBlurTests {
    @Test func theKernelIsANormalisedGaussianOfThreeSigma() {
        let kernel = GaussianKernel(sigma: 1)
        #expect(kernel.radius == 3)
        // 1 + 2 (e^-0.5 + e^-2 + e^-4.5) = 2.505948.
        #expect(abs(kernel.weights[0] - 1 / 2.505948) < 1e-6)
        #expect(abs(kernel.weights[1] - 0.606531 / 2.505948) < 1e-6)
        #expect(abs(kernel.weights[0] + 2 * kernel.weights.dropFirst().reduce(0, +) - 1) < 1e-6)
        let none = GaussianKernel(sigma: 0)
        #expect(none.radius == 0 && none.weights == [1])
        #expect(GaussianKernel(sigma: .infinity).radius == 0)
        #expect(GaussianKernel(sigma: 1e9).sigma == GaussianKernel.maximumSigma)
    }

    @Test func oneOpaquePixelSpreadsAsTheKernelSquared() throws {
        let silhouette = try Image(width: 9, height: 9)
        silhouette.setRGBA(RGBA8(r: 0, g: 0, b: 0, a: 255), x: 4, y: 4)
        let plan = RenderPlan(width: 9, height: 9)
        let black = ShadowSource(silhouette: plan, kernel: GaussianKernel(sigma: 1),
                                 color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1))
        let shadow = try black.blurred(from: silhouette)
        // Across: round(255 w): 102, 62, 14, 1. Down: w0 x 102 = 40.70 -> 41; w0 x 62 = 24.7 -> 25;
        // w1 x 62 = 15.0 -> 15; w2 x 102 = 5.5 -> 6.
        #expect(shadow.rgba(x: 4, y: 4).a == 41)
        #expect(shadow.rgba(x: 5, y: 4).a == 25)
        #expect(shadow.rgba(x: 5, y: 5).a == 15)
        #expect(shadow.rgba(x: 4, y: 6).a == 6)
        #expect(shadow.rgba(x: 0, y: 0).a == 0)
        // A half-transparent red: colour bytes (128, 0, 0, 128) x 40.70 / 255 = 20.4: premultiplied (20, 0, 0, 20).
        let red = ShadowSource(silhouette: plan, kernel: GaussianKernel(sigma: 1),
                               color: Color(red: 1, green: 0, blue: 0, alpha: 0.5).premultiplied)
        let tinted = try red.blurred(from: silhouette).word(x: 4, y: 4)
        #expect(tinted == 0x1414_0000)
    }

    @Test func equalSourcesAreEqualAndHashAlike() {
        let quad = Quad(unitToTarget: .unitSquare(to: CGRect(x: 2, y: 2, width: 4, height: 4)),
                        paint: .solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1)))
        func source(_ sigma: Float) -> ShadowSource {
            ShadowSource(silhouette: RenderPlan(width: 8, height: 8, quads: [quad]), kernel: GaussianKernel(sigma: sigma),
                         color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0.5))
        }
        #expect(source(1) == source(1) && source(1).hashValue == source(1).hashValue)
        #expect(source(1) != source(2))
        var moved = quad
        moved = moved.translated(x: 1, y: 0)
        #expect(ShadowSource(silhouette: RenderPlan(width: 8, height: 8, quads: [moved]), kernel: GaussianKernel(sigma: 1),
                             color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0.5)) != source(1))
    }
}
