import Foundation
import LaminaCore
import LaminaDrawing
import Testing

/// ShapeStyle.picture and paintedBounds: fill rules, stroke width, caps, joins, dashes and strokeStart/strokeEnd,
/// checked at pixels whose coverage the geometry decides.
@Suite struct ShapePictureTests {
    let red = Color(red: 1, green: 0, blue: 0)

    /// The alpha of the pixel holding layer point `p` (0 outside the picture).
    static func alpha(_ picture: VectorPicture, _ x: CGFloat, _ y: CGFloat) -> Int {
        let i = Int(((x - picture.rect.minX) * picture.density).rounded(.down))
        let j = Int(((y - picture.rect.minY) * picture.density).rounded(.down))
        guard i >= 0, j >= 0, i < picture.image.width, j < picture.image.height else { return 0 }
        return Int(picture.image.word(x: i, y: j) >> 24)
    }

    static func line(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat) -> Path {
        Path([.move(to: CGPoint(x: x0, y: y0)), .line(to: CGPoint(x: x1, y: y1))])
    }

    func stroked(_ path: Path, width: CGFloat = 10) -> ShapeStyle {
        var style = ShapeStyle()
        style.path = path
        style.fillColor = nil
        style.strokeColor = red
        style.lineWidth = width
        return style
    }

    static func near(_ a: CGRect?, _ b: CGRect, _ tolerance: CGFloat = 0.02) -> Bool {
        guard let a else { return false }
        return abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
            && abs(a.maxX - b.maxX) <= tolerance && abs(a.maxY - b.maxY) <= tolerance
    }

    @Test func evenOddLeavesTheHoleAndNonZeroFillsIt() throws {
        var path = Path(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        path.addRect(CGRect(x: 25, y: 25, width: 50, height: 50))
        var style = ShapeStyle()
        style.path = path
        let nonZero = try #require(try style.picture(density: 1))
        #expect(nonZero.rect == CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(nonZero.image.word(x: 50, y: 50) == 0xFF00_0000 && nonZero.image.word(x: 10, y: 10) == 0xFF00_0000)
        style.fillRule = .evenOdd
        let evenOdd = try #require(try style.picture(density: 1))
        #expect(evenOdd.image.word(x: 50, y: 50) == 0 && evenOdd.image.word(x: 10, y: 10) == 0xFF00_0000)
        // The hole's edges are on pixel edges: no partial pixels.
        #expect(evenOdd.image.word(x: 24, y: 50) == 0xFF00_0000 && evenOdd.image.word(x: 25, y: 50) == 0)
    }

    @Test func theStrokeIsLineWidthWideAtEveryDensity() throws {
        let style = stroked(Self.line(10, 50, 90, 50))
        #expect(style.paintedBounds == CGRect(x: 10, y: 45, width: 80, height: 10))
        for density: CGFloat in [1, 2] {
            let picture = try #require(try style.picture(density: density))
            #expect(picture.rect == CGRect(x: 10, y: 45, width: 80, height: 10))
            #expect(picture.image.width == Int(80 * density) && picture.image.height == Int(10 * density))
            for row in 0..<picture.image.height {
                #expect(picture.image.word(x: 3, y: row) == 0xFFFF_0000, "row \(row) at density \(density)")
            }
        }
    }

    @Test func capsReachPastTheEndsAsTheirShapeSays() throws {
        var style = stroked(Self.line(20, 50, 80, 50))
        let butt = try #require(try style.picture(density: 1))
        #expect(Self.alpha(butt, 79.5, 50) == 255 && Self.alpha(butt, 80.5, 50) == 0)
        style.lineCap = .square
        #expect(style.paintedBounds == CGRect(x: 15, y: 45, width: 70, height: 10))
        let square = try #require(try style.picture(density: 1))
        #expect(Self.alpha(square, 84.5, 50) == 255 && Self.alpha(square, 84.5, 45.5) == 255)
        #expect(Self.alpha(square, 85.5, 50) == 0)
        style.lineCap = .round
        let round = try #require(try style.picture(density: 1))
        // The round cap reaches 5 past the end on the axis but not into the square's corner.
        #expect(Self.alpha(round, 84.5, 50) > 100 && Self.alpha(round, 84.5, 45.5) == 0)
        #expect(Self.near(style.paintedBounds, CGRect(x: 15, y: 45, width: 70, height: 10), 0.05))
    }

    @Test func miterJoinsHaveTheirTipBevelsAndTheMiterLimitDoNot() throws {
        var path = Path()
        path.move(to: CGPoint(x: 10, y: 90))
        path.addLine(to: CGPoint(x: 50, y: 10))
        path.addLine(to: CGPoint(x: 90, y: 90))
        var style = stroked(path)
        // Half the angle at the apex has sine 40 / sqrt(40^2 + 80^2): the miter reaches 5 / sine above it.
        let sine: Double = 40 / (40.0 * 40 + 80 * 80).squareRoot()
        let tip: Double = 10 - 5 / sine
        #expect(abs(Double(style.paintedBounds!.minY) - tip) < 0.02)
        let miter = try #require(try style.picture(density: 1))
        #expect(Self.alpha(miter, 50, 3.5) == 255)
        style.lineJoin = .bevel
        // The bevel runs between the outer corners of the two lines, 5 x sine above the apex (y = 7.76).
        let bevel = try #require(try style.picture(density: 1))
        #expect(Self.alpha(bevel, 50, 3.5) == 0 && Self.alpha(bevel, 50, 8.5) == 255)
        let bevelTop: Double = 10 - 5 * sine
        #expect(abs(Double(style.paintedBounds!.minY) - bevelTop) < 0.02)
        // A miter longer than miterLimit x lineWidth (2.236 > 2) is bevelled.
        style.lineJoin = .miter
        style.miterLimit = 2
        let limited = try #require(try style.picture(density: 1))
        #expect(Self.alpha(limited, 50, 3.5) == 0 && Self.alpha(limited, 50, 8.5) == 255)
    }

    @Test func dashGapsAreTransparentAndThePhaseShiftsThem() throws {
        var style = stroked(Self.line(0, 50, 100, 50), width: 4)
        style.lineDashPattern = [10, 10]
        let dashed = try #require(try style.picture(density: 1))
        for x: CGFloat in [0.5, 5.5, 9.5, 20.5, 29.5, 85.5] { #expect(Self.alpha(dashed, x, 50) == 255, "x \(x)") }
        for x: CGFloat in [10.5, 15.5, 19.5, 30.5, 95.5] { #expect(Self.alpha(dashed, x, 50) == 0, "x \(x)") }
        // Five points into the pattern: dashes 0..<5, 15..<25, ...
        style.lineDashPhase = 5
        let shifted = try #require(try style.picture(density: 1))
        for x: CGFloat in [2.5, 15.5, 24.5, 35.5] { #expect(Self.alpha(shifted, x, 50) == 255, "x \(x)") }
        for x: CGFloat in [5.5, 14.5, 25.5, 34.5] { #expect(Self.alpha(shifted, x, 50) == 0, "x \(x)") }
        // An odd pattern alternates over two rounds: [10] is 10 on, 10 off.
        style.lineDashPhase = 0
        style.lineDashPattern = [10]
        let odd = try #require(try style.picture(density: 1))
        #expect(Self.alpha(odd, 5.5, 50) == 255 && Self.alpha(odd, 15.5, 50) == 0)
        // On a closed rect, a dash running through the closing corner is one dash: joined (mitered), not capped.
        // [30, 10] at phase 10 is on over 390...400 and 0...20 of the 400 long perimeter.
        var rect = stroked(Path(rect: CGRect(x: 0, y: 0, width: 100, height: 100)), width: 2)
        rect.lineDashPattern = [30, 10]
        rect.lineDashPhase = 10
        let joined = try #require(try rect.picture(density: 1))
        #expect(Self.alpha(joined, -0.5, -0.5) == 255 && Self.alpha(joined, 19.5, 0) == 255)
        #expect(Self.alpha(joined, 20.5, 0) == 0 && Self.alpha(joined, 0, 10.5) == 0)
        #expect(Self.alpha(joined, 0, 9.5) == 255)
        rect.lineDashPhase = 0
        let capped = try #require(try rect.picture(density: 1))
        #expect(Self.alpha(capped, -0.5, -0.5) == 0 && Self.alpha(capped, 0.5, -0.5) == 255)
        // Patterns Core Graphics would not dash with stroke solid.
        for pattern in [[], [0, 0], [-1, 5], [Double.nan, 5], [5, .infinity]] as [[Double]] {
            style.lineDashPattern = pattern
            let solid = try #require(try style.picture(density: 1))
            #expect(Self.alpha(solid, 15.5, 50) == 255, "\(pattern)")
        }
    }

    @Test func strokeEndAndStartCutTheStroke() throws {
        var style = stroked(Self.line(0, 50, 100, 50), width: 4)
        style.strokeEnd = 0.5
        #expect(style.paintedBounds == CGRect(x: 0, y: 48, width: 50, height: 4))
        let half = try #require(try style.picture(density: 1))
        #expect(Self.alpha(half, 49.5, 50) == 255 && Self.alpha(half, 50.5, 50) == 0)
        // The dashes stay where they are on the path: strokeStart 0.15 cuts into the first gap's end.
        style.strokeStart = 0.15
        style.strokeEnd = 1
        style.lineDashPattern = [10, 10]
        let cut = try #require(try style.picture(density: 1))
        #expect(Self.alpha(cut, 19.5, 50) == 0 && Self.alpha(cut, 20.5, 50) == 255 && Self.alpha(cut, 30.5, 50) == 0)
        style.strokeStart = 0.6
        style.strokeEnd = 0.6
        #expect(style.paintedBounds == nil)
        #expect(try style.picture(density: 1) == nil)
    }

    @Test func aClosedRectIsTrimmedAlongItsPerimeter() throws {
        var style = stroked(Path(rect: CGRect(x: 0, y: 0, width: 100, height: 100)), width: 2)
        style.strokeEnd = 0.25
        // The top edge only, butt ends.
        #expect(style.paintedBounds == CGRect(x: 0, y: -1, width: 100, height: 2))
        style.strokeStart = 0.25
        style.strokeEnd = 0.5
        #expect(style.paintedBounds == CGRect(x: 99, y: 0, width: 2, height: 100))
        let right = try #require(try style.picture(density: 2))
        #expect(Self.alpha(right, 100, 50) == 255 && Self.alpha(right, 99.25, 0.25) == 255)
        #expect(Self.alpha(right, 99.25, 99.75) == 255)
        // Untrimmed, the closing corner has its miter join: the top-left corner is filled to (-1, -1).
        style.strokeStart = 0
        style.strokeEnd = 1
        let whole = try #require(try style.picture(density: 1))
        #expect(whole.rect == CGRect(x: -1, y: -1, width: 102, height: 102))
        #expect(Self.alpha(whole, -0.5, -0.5) == 255)
    }

    @Test func strokeFractionsRunAcrossSubpaths() throws {
        var path = Self.line(0, 10, 100, 10)
        path.move(to: CGPoint(x: 0, y: 50))
        path.addLine(to: CGPoint(x: 100, y: 50))
        var style = stroked(path, width: 4)
        style.strokeEnd = 0.75
        let picture = try #require(try style.picture(density: 1))
        #expect(Self.alpha(picture, 75, 10) == 255 && Self.alpha(picture, 25, 50) == 255)
        #expect(Self.alpha(picture, 75, 50) == 0)
        // The fill ignores the fractions.
        style.fillColor = red
        style.path = Path(rect: CGRect(x: 0, y: 0, width: 40, height: 40))
        style.strokeColor = .black
        style.strokeEnd = 0.25
        let filled = try #require(try style.picture(density: 1))
        #expect(filled.image.word(x: 21, y: 30) == 0xFFFF_0000)
        #expect(filled.image.word(x: 21, y: 2) == 0xFF00_0000)  // top edge: the black stroke over the fill
    }

    @Test func paintedBoundsAreTightAndThePictureSitsOnTheDensityGrid() throws {
        var style = ShapeStyle()
        #expect(style.paintedBounds == nil)
        style.path = Path(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 40))
        #expect(Self.near(style.paintedBounds, CGRect(x: 10, y: 10, width: 80, height: 40), 0.02))
        style.path = Path(rect: CGRect(x: 10.3, y: 10, width: 80, height: 40))
        style.strokeColor = red
        style.lineWidth = 4
        // A right-angled miter reaches lineWidth / 2 past each side.
        #expect(Self.near(style.paintedBounds, CGRect(x: 8.3, y: 8, width: 84, height: 44)))
        let picture = try #require(try style.picture(density: 2))
        #expect(picture.rect == CGRect(x: 8, y: 8, width: 84.5, height: 44))
        #expect(picture.image.width == 169 && picture.image.height == 88)
        style.fillColor = nil
        style.strokeColor = nil
        #expect(style.paintedBounds == nil)
        style.fillColor = Color(red: 1, green: 0, blue: 0, alpha: 0)
        #expect(style.paintedBounds == nil)
    }

    @Test func absurdInputNeitherTrapsNorAllocatesWithoutBound() throws {
        var style = ShapeStyle()
        style.path = Path([.move(to: CGPoint(x: 0, y: 0)), .line(to: CGPoint(x: CGFloat.nan, y: 5)),
                           .line(to: CGPoint(x: 10, y: 0)), .line(to: CGPoint(x: 10, y: 10)), .close])
        let triangle = try #require(try style.picture(density: 1))
        #expect(triangle.rect == CGRect(x: 0, y: 0, width: 10, height: 10))
        style.strokeColor = red
        style.lineWidth = 1e300
        #expect(throws: ImageError.self) { _ = try style.picture(density: 1) }
        style.lineWidth = .infinity
        #expect(style.paintedBounds == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(throws: ImageError.self) { _ = try style.picture(density: 1e6) }
        #expect(try style.picture(density: .nan) == nil)
        style.path = Path(rect: CGRect(x: 1e9, y: 1e9, width: 10, height: 10))
        let far = try #require(try style.picture(density: 1))
        #expect(far.rect == CGRect(x: 1e9, y: 1e9, width: 10, height: 10))
        #expect(far.image.word(x: 5, y: 5) == 0xFF00_0000)
        style.lineDashPattern = [1e-9, 1e-9]
        style.lineWidth = 1
        style.path = Self.line(0, 0, 100, 0)
        let fine = try #require(try style.picture(density: 1))
        #expect(Self.alpha(fine, 50, 0) == 128)
    }
}
