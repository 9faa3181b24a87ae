import Foundation
import LaminaCore
import Testing

/// Saturating conversions and the guard band (docs/semantics.md, "Numbers").
@Suite struct NumberRangeTests {
    @Test func conversionsSaturateInsteadOfTrapping() {
        #expect(Int(saturating: Double.nan) == 0)
        #expect(Int(saturating: 1e308) == 1 << 52)
        #expect(Int(saturating: -Double.infinity) == -(1 << 52))
        #expect(Int(saturating: -3.7) == -3)
        #expect(Int(saturating: Float.infinity) == 1 << 24)
        #expect(UInt8(saturatingRounded: Float.nan) == 0)
        #expect(UInt8(saturatingRounded: 254.6 as Float) == 255)
        #expect(UInt8(saturatingRounded: -1e300) == 0)
        #expect(UInt8(saturatingRounded: 1e300) == 255)
        #expect(PremultipliedColor.byte(.nan) == 0)
    }

    @Test func centreRangesOfAnyNumberAreIntegers() {
        #expect(ConvexPolygon.centreRange(.nan, 10) == (0, 10))
        #expect(ConvexPolygon.centreRange(-.infinity, .infinity) == (-Int(Int32.max), Int(Int32.max)))
    }

    @Test func polygonsBeyondTheGuardBandAreCutExactly() {
        // A triangle reaching 1e308 pixels: its part on screen is the same as that of the triangle cut by hand.
        let huge = ConvexPolygon(vertices: [CGPoint(x: 0, y: 0), CGPoint(x: 1e308, y: 0), CGPoint(x: 0, y: 1e308)])
        let band = CGFloat.guardBand
        #expect(huge.vertices.allSatisfy { abs($0.x) <= band && abs($0.y) <= band })
        let screen = ConvexPolygon(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(huge.intersection(screen).spans() == screen.spans())
        // A rotated square of side 1e300 centred on the screen covers all of it.
        let c = CGPoint(x: 50, y: 50), r: CGFloat = 1e300
        let diamond = ConvexPolygon(vertices: [CGPoint(x: c.x, y: c.y - r), CGPoint(x: c.x + r, y: c.y),
                                               CGPoint(x: c.x, y: c.y + r), CGPoint(x: c.x - r, y: c.y)])
        #expect(diamond.intersection(screen).spans() == screen.spans())
        // A sliver from 1e300 pixels away keeps its edges on screen: both run at dx/dy = 1/2 through (40, 100) and
        // (60, 100), so row 50 (centre 50.5) holds x from 15.25 to 35.25: pixels 15 ..< 35.
        let sliver = ConvexPolygon(vertices: [CGPoint(x: -1e300, y: -2e300), CGPoint(x: 60, y: 100),
                                              CGPoint(x: 40, y: 100)])
        #expect(sliver.intersection(screen).spans().first { $0.y == 50 } == PixelSpan(y: 50, x0: 15, x1: 35))
        #expect(ConvexPolygon(vertices: [CGPoint(x: CGFloat.nan, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 0, y: 1)]).isEmpty)
        #expect(ConvexPolygon(vertices: [CGPoint(x: CGFloat.infinity, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 0, y: 1)]).isEmpty)
    }
}
