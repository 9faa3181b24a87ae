import Foundation
import LaminaCore
import LaminaDrawing
import Testing

/// GradientStyle.picture: every pixel is the gradient evaluated at its centre,
/// checked against the formulas.
@Suite struct GradientPictureTests {
    /// A straight colour as premultiplied 8-bit (r, g, b, a), the way the picture stores it.
    static func premultiplied(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> [Int] {
        [r * a, g * a, b * a, a].map { Int(($0 * 255).rounded()) }
    }

    /// The premultiplied (r, g, b, a) of pixel (x, y).
    static func pixel(_ picture: VectorPicture, _ x: Int, _ y: Int) -> [Int] {
        let w = picture.image.word(x: x, y: y)
        return [Int(w >> 16 & 255), Int(w >> 8 & 255), Int(w & 255), Int(w >> 24)]
    }

    /// The pixel of `picture` holding layer point `p`.
    static func pixel(_ picture: VectorPicture, at p: CGPoint) -> [Int] {
        let x = Int(((p.x - picture.rect.minX) * picture.density).rounded(.down))
        let y = Int(((p.y - picture.rect.minY) * picture.density).rounded(.down))
        return pixel(picture, x, y)
    }

    static func near(_ a: [Int], _ b: [Int], _ tolerance: Int = 1) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    static func lerp(_ a: Color, _ b: Color, _ f: Double) -> [Int] {
        premultiplied(a.red + (b.red - a.red) * f, a.green + (b.green - a.green) * f,
                      a.blue + (b.blue - a.blue) * f, a.alpha + (b.alpha - a.alpha) * f)
    }

    let red = Color(red: 1, green: 0, blue: 0), green = Color(red: 0, green: 1, blue: 0)
    let blue = Color(red: 0, green: 0, blue: 1)

    @Test func axialTopToBottomMatchesTheFormulaAtEachRow() throws {
        var style = GradientStyle()
        style.colors = [red, blue]
        let picture = try #require(try style.picture(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), density: 1))
        #expect(picture.image.width == 100 && picture.image.height == 100)
        #expect(picture.rect == CGRect(x: 0, y: 0, width: 100, height: 100))
        for row in [0, 24, 49, 75, 99] {
            let t = (Double(row) + 0.5) / 100
            #expect(Self.near(Self.pixel(picture, 37, row), Self.lerp(red, blue, t)), "row \(row)")
        }
    }

    @Test func unevenStopsInterpolateWithinTheirSegment() throws {
        var style = GradientStyle()
        style.colors = [red, green, blue]
        style.locations = [0, 0.2, 1]
        style.startPoint = CGPoint(x: 0, y: 0.5)
        style.endPoint = CGPoint(x: 1, y: 0.5)
        let picture = try #require(try style.picture(bounds: CGRect(x: 0, y: 0, width: 200, height: 10), density: 1))
        // Pixel 10: t = 10.5 / 200 = 0.0525, a quarter of the way into the first segment (0.2 long).
        #expect(Self.near(Self.pixel(picture, 10, 5), Self.lerp(red, green, 0.0525 / 0.2)))
        // Pixel 100: t = 0.5025, in the second segment.
        #expect(Self.near(Self.pixel(picture, 100, 5), Self.lerp(green, blue, (0.5025 - 0.2) / 0.8)))
        // Pixel 39 ends just before the stop at 0.2 (t = 0.1975): almost pure green.
        #expect(Self.near(Self.pixel(picture, 39, 5), Self.lerp(red, green, 0.1975 / 0.2)))
    }

    @Test func largePicturesSplitAmongCoresMatchTheFormulaInEveryChunk() throws {
        var style = GradientStyle()
        style.colors = [red, blue]
        style.startPoint = CGPoint(x: 0, y: 0.5)
        style.endPoint = CGPoint(x: 1, y: 0.5)
        // 600 x 300 pixels: past the size that is split by rows among the cores.
        let picture = try #require(try style.picture(bounds: CGRect(x: 0, y: 0, width: 300, height: 150), density: 2))
        for row in [0, 1, 37, 150, 222, 299] {
            for column in [0, 151, 450, 599] {
                let t = (Double(column) + 0.5) / 600
                #expect(Self.near(Self.pixel(picture, column, row), Self.lerp(red, blue, t)), "(\(column), \(row))")
            }
        }
        style.startPoint = CGPoint(x: 0, y: 0)
        style.endPoint = CGPoint(x: 1, y: 1)
        let diagonal = try #require(try style.picture(bounds: CGRect(x: 0, y: 0, width: 300, height: 150), density: 2))
        for (x, y) in [(10, 290), (300, 150), (599, 0), (420, 260)] {
            let px = (Double(x) + 0.5) / 2, py = (Double(y) + 0.5) / 2
            let t = (px * 300 + py * 150) / (300.0 * 300 + 150 * 150)
            #expect(Self.near(Self.pixel(diagonal, x, y), Self.lerp(red, blue, t)), "(\(x), \(y))")
        }
    }

    @Test func translucentStopsInterpolateStraightComponentsThroughGrey() throws {
        var style = GradientStyle()
        style.colors = [.white, Color(red: 0, green: 0, blue: 0, alpha: 0)]
        // 101 rows: the centre of row 50 is exactly half way.
        let picture = try #require(try style.picture(bounds: CGRect(x: 0, y: 0, width: 4, height: 101), density: 1))
        // Straight (0.5, 0.5, 0.5, 0.5): translucent grey, premultiplied 64 (premultiplied blending would give 128).
        #expect(Self.pixel(picture, 1, 50) == [64, 64, 64, 128])
        // A quarter of the way: straight 0.75 grey at alpha 0.75, premultiplied 0.5625.
        let t = 25.5 / 101
        #expect(Self.near(Self.pixel(picture, 1, 25), Self.premultiplied(1 - t, 1 - t, 1 - t, 1 - t)))
    }

    @Test func radialIsAnEllipseThroughTheEndPoint() throws {
        var style = GradientStyle()
        style.type = .radial
        style.colors = [.black, .white]
        style.startPoint = CGPoint(x: 0.5, y: 0.5)
        style.endPoint = CGPoint(x: 1, y: 0.75)
        // S = (100, 50), radii 100 and 25.
        let picture = try #require(try style.picture(bounds: CGRect(x: 0, y: 0, width: 200, height: 100), density: 1))
        func expected(_ x: Int, _ y: Int) -> [Int] {
            let u = (Double(x) + 0.5 - 100) / 100, v = (Double(y) + 0.5 - 50) / 25
            let t = min((u * u + v * v).squareRoot(), 1)
            return Self.premultiplied(t, t, t, 1)
        }
        for (x, y) in [(100, 50), (150, 50), (100, 60), (130, 40), (60, 62), (199, 50), (100, 99), (0, 0)] {
            #expect(Self.near(Self.pixel(picture, x, y), expected(x, y)), "(\(x), \(y))")
        }
        // Beyond the ellipse: the last colour.
        #expect(Self.pixel(picture, 100, 90) == [255, 255, 255, 255])
    }

    @Test func conicTurnsClockwiseOnScreenFromTheEndPoint() throws {
        var style = GradientStyle()
        style.type = .conic
        style.colors = [.black, .white]
        style.startPoint = CGPoint(x: 0.5, y: 0.5)
        style.endPoint = CGPoint(x: 1, y: 0.5)
        // S = (50.5, 50.5), the centre of pixel (50, 50).
        let picture = try #require(try style.picture(bounds: CGRect(x: 0, y: 0, width: 101, height: 101), density: 1))
        #expect(Self.pixel(picture, 80, 50) == [0, 0, 0, 255])  // 0 degrees: t = 0
        #expect(Self.near(Self.pixel(picture, 50, 80), Self.premultiplied(0.25, 0.25, 0.25, 1)))  // below: 90
        #expect(Self.near(Self.pixel(picture, 20, 50), Self.premultiplied(0.5, 0.5, 0.5, 1)))  // left: 180
        #expect(Self.near(Self.pixel(picture, 50, 20), Self.premultiplied(0.75, 0.75, 0.75, 1)))  // above: 270
        // 45 degrees, down and to the right.
        #expect(Self.near(Self.pixel(picture, 70, 70), Self.premultiplied(0.125, 0.125, 0.125, 1)))
        // Just above the start direction the turn is nearly complete.
        let t = (2 * Double.pi - atan2(1, 30)) / (2 * Double.pi)
        #expect(Self.near(Self.pixel(picture, 80, 49), Self.premultiplied(t, t, t, 1)))
    }

    @Test func degenerateGradientsPaintTheLastColour() throws {
        for type in GradientLayerType.allCases {
            var style = GradientStyle()
            style.type = type
            style.colors = [red, green, blue]
            style.startPoint = CGPoint(x: 0.3, y: 0.3)
            style.endPoint = CGPoint(x: 0.3, y: 0.3)
            let picture = try #require(try style.picture(bounds: CGRect(x: 0, y: 0, width: 20, height: 20), density: 1))
            for (x, y) in [(0, 0), (6, 6), (19, 19)] { #expect(Self.pixel(picture, x, y) == [0, 0, 255, 255]) }
        }
        // A radial gradient with a zero radius on one axis.
        var flat = GradientStyle()
        flat.type = .radial
        flat.colors = [red, blue]
        flat.startPoint = CGPoint(x: 0.5, y: 0)
        flat.endPoint = CGPoint(x: 0.5, y: 1)
        let picture = try #require(try flat.picture(bounds: CGRect(x: 0, y: 0, width: 20, height: 20), density: 1))
        #expect(Self.pixel(picture, 10, 0) == [0, 0, 255, 255])
    }

    @Test func oneColourFillsAndNoColourPaintsNothing() throws {
        var style = GradientStyle()
        style.colors = [Color(red: 1, green: 0.5, blue: 0, alpha: 0.5)]
        let picture = try #require(try style.picture(bounds: CGRect(x: 0, y: 0, width: 8, height: 6), density: 1))
        let expected = Self.premultiplied(1, 0.5, 0, 0.5)
        for y in 0..<6 { for x in 0..<8 { #expect(Self.pixel(picture, x, y) == expected) } }
        style.colors = []
        #expect(try style.picture(bounds: CGRect(x: 0, y: 0, width: 8, height: 6), density: 1) == nil)
        style.colors = [red]
        #expect(try style.picture(bounds: CGRect(x: 0, y: 0, width: 0, height: 6), density: 1) == nil)
        #expect(try style.picture(bounds: CGRect(x: 0, y: 0, width: 8, height: 6), density: 0) == nil)
    }

    @Test func densityTwoHasTwiceThePixelsAndTheSameColoursAtTheSamePoints() throws {
        var style = GradientStyle()
        style.colors = [red, green, blue]
        style.startPoint = CGPoint(x: 0, y: 0)
        style.endPoint = CGPoint(x: 1, y: 1)
        let bounds = CGRect(x: 10, y: 20, width: 100, height: 50)
        let one = try #require(try style.picture(bounds: bounds, density: 1))
        let two = try #require(try style.picture(bounds: bounds, density: 2))
        #expect(two.image.width == 200 && two.image.height == 100)
        #expect(one.rect == bounds && two.rect == bounds)
        // Layer points at the centres of density-1 pixels are corners of density-2 pixels: each picture is compared
        // with the formula at the centres of its own pixels.
        func expected(_ p: CGPoint) -> [Int] {
            let (dx, dy) = (100.0, 50.0)
            let t = ((p.x - 10) * dx + (p.y - 20) * dy) / (dx * dx + dy * dy)
            return t <= 0.5 ? Self.lerp(red, green, t / 0.5) : Self.lerp(green, blue, (t - 0.5) / 0.5)
        }
        for p in [CGPoint(x: 30.25, y: 30.25), CGPoint(x: 60.75, y: 45.25), CGPoint(x: 100.25, y: 60.75)] {
            #expect(Self.near(Self.pixel(two, at: p), expected(p)), "\(p)")
        }
        for p in [CGPoint(x: 30.5, y: 30.5), CGPoint(x: 90.5, y: 50.5)] {
            #expect(Self.near(Self.pixel(one, at: p), expected(p)), "\(p)")
        }
        // Along a line across the gradient t is the same: (30.25, 30.25) and (35.25, 20.25) at density 2.
        #expect(Self.pixel(two, at: CGPoint(x: 30.25, y: 30.25)) == Self.pixel(two, at: CGPoint(x: 35.25, y: 20.25)))
    }

    @Test func pixelsPartlyOutsideTheBoundsHoldTheCoveredFraction() throws {
        var style = GradientStyle()
        style.colors = [red]
        let picture = try #require(try style.picture(bounds: CGRect(x: 0.25, y: 0, width: 10, height: 4.5), density: 1))
        #expect(picture.image.width == 11 && picture.image.height == 5)
        #expect(picture.rect == CGRect(x: 0, y: 0, width: 11, height: 5))
        #expect(Self.pixel(picture, 5, 2) == [255, 0, 0, 255])
        #expect(Self.pixel(picture, 0, 2) == [191, 0, 0, 191])  // 0.75 covered
        #expect(Self.pixel(picture, 10, 2) == [64, 0, 0, 64])  // 0.25 covered
        #expect(Self.pixel(picture, 5, 4) == [128, 0, 0, 128])  // half a row
        #expect(Self.pixel(picture, 10, 4) == [32, 0, 0, 32])  // 0.25 x 0.5
    }

    @Test func locationsInAnotherNumberAreIgnoredAndUnsortedOnesMeet() throws {
        var style = GradientStyle()
        style.colors = [red, green, blue]
        let bounds = CGRect(x: 0, y: 0, width: 4, height: 100)
        let even = try #require(try style.picture(bounds: bounds, density: 1))
        style.locations = [0, 0.9]
        let mismatched = try #require(try style.picture(bounds: bounds, density: 1))
        for y in stride(from: 0, to: 100, by: 7) { #expect(Self.pixel(even, 1, y) == Self.pixel(mismatched, 1, y)) }
        // [0, 0.8, 0.3] is laid as [0, 0.8, 0.8]: blue from 0.8 on, green to red before it.
        style.locations = [0, 0.8, 0.3]
        let unsorted = try #require(try style.picture(bounds: bounds, density: 1))
        #expect(Self.pixel(unsorted, 1, 85) == [0, 0, 255, 255])
        #expect(Self.near(Self.pixel(unsorted, 1, 40), Self.lerp(red, green, 40.5 / 100 / 0.8)))
    }

    @Test func tooLargeAPictureThrowsInsteadOfAllocating() throws {
        var style = GradientStyle()
        style.colors = [red, blue]
        #expect(throws: ImageError.self) {
            _ = try style.picture(bounds: CGRect(x: 0, y: 0, width: 1e6, height: 1e6), density: 1)
        }
        #expect(throws: ImageError.self) {
            _ = try style.picture(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), density: 1,
                                  limits: PixelLimits(maxDimension: 50))
        }
        // Start and end points that are not finite: degenerate, the last colour.
        style.startPoint = CGPoint(x: CGFloat.nan, y: 0)
        let picture = try #require(try style.picture(bounds: CGRect(x: 0, y: 0, width: 4, height: 4), density: 1))
        #expect(Self.pixel(picture, 2, 2) == [0, 0, 255, 255])
    }
}
