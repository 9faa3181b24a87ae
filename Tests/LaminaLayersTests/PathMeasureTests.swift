import Foundation
import LaminaCore
import LaminaDrawing
import Testing

/// PathMeasure: lengths, points and tangents along flattened paths, and that it walks a path the way
/// DrawingContext draws it.
@Suite struct PathMeasureTests {
    func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: Double = 1e-9) -> Bool {
        abs(Double(a.x - b.x)) <= tolerance && abs(Double(a.y - b.y)) <= tolerance
    }

    func close(angle a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        abs(remainder(a - b, 2 * .pi)) <= tolerance
    }

    @Test func aLineIsMeasuredExactly() {
        let path = Path([.move(to: CGPoint(x: 10, y: 10)), .line(to: CGPoint(x: 40, y: 50))])
        let measure = PathMeasure(path)
        #expect(measure.length == 50)
        let (mid, angle) = measure.point(atDistance: 25)
        #expect(close(mid, CGPoint(x: 25, y: 30)))
        #expect(close(angle: angle, atan2(40, 30)))
        // Clamped to the ends.
        #expect(close(measure.point(atDistance: -5).point, CGPoint(x: 10, y: 10)))
        #expect(close(measure.point(atDistance: 500).point, CGPoint(x: 40, y: 50)))
        #expect(close(measure.point(atDistance: .nan).point, CGPoint(x: 10, y: 10)))
    }

    @Test func aRectIsItsPerimeterFromTheMinimumCornerAlongX() {
        let measure = PathMeasure(Path(rect: CGRect(x: 5, y: 5, width: 30, height: 20)))
        #expect(measure.length == 100)
        #expect(measure.pieceCount == 4)
        let (topMiddle, right) = measure.point(atDistance: 15)
        #expect(close(topMiddle, CGPoint(x: 20, y: 5)) && close(angle: right, 0))
        let (sideMiddle, down) = measure.point(atDistance: 40)
        #expect(close(sideMiddle, CGPoint(x: 35, y: 15)) && close(angle: down, .pi / 2))
        // The closing side runs up the left edge.
        let (leftMiddle, up) = measure.point(atDistance: 90)
        #expect(close(leftMiddle, CGPoint(x: 5, y: 15)) && close(angle: up, -.pi / 2))
    }

    @Test func aCircleIsTwoPiR() {
        for r in [1.0, 10, 50, 400] {
            let measure = PathMeasure(Path(ellipseIn: CGRect(x: 0, y: 0, width: 2 * r, height: 2 * r)))
            let exact = 2 * Double.pi * r
            #expect(abs(measure.length - exact) / exact < 1e-3, "r \(r): \(measure.length)")
            // Every flattened point is within the tolerance of the circle.
            for i in 0...64 {
                let p = measure.point(atDistance: measure.length * Double(i) / 64).point
                let off = abs((Double(p.x - r) * Double(p.x - r) + Double(p.y - r) * Double(p.y - r)).squareRoot() - r)
                #expect(off <= PathMeasure.defaultTolerance, "r \(r) at \(i)/64: \(off)")
            }
        }
    }

    @Test func aCirclesTangentAtAQuarter() {
        // The ellipse starts at its right end and runs towards +y: a quarter along is the bottom, heading left.
        let measure = PathMeasure(Path(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100)))
        let start = measure.point(atDistance: 0)
        #expect(close(start.point, CGPoint(x: 100, y: 50)) && close(angle: start.angle, .pi / 2))
        let (bottom, angle) = measure.point(atDistance: measure.length / 4)
        #expect(close(bottom, CGPoint(x: 50, y: 100), 0.05), "\(bottom)")
        #expect(close(angle: angle, .pi, 1e-3), "\(angle)")
        // The tangent turns smoothly: between two samples a millionth of the length apart it barely moves.
        let a = measure.point(atDistance: measure.length * 0.3).angle
        let b = measure.point(atDistance: measure.length * 0.3 + 1e-4).angle
        #expect(abs(remainder(b - a, 2 * .pi)) < 1e-5)
    }

    @Test func arcsFollowTheirDirection() {
        let center = CGPoint(x: 50, y: 50)
        let counter = PathMeasure(Path([.arc(center: center, radius: 20, startAngle: 0, endAngle: .pi, clockwise: false)]))
        #expect(abs(counter.length - 20 * .pi) < 20 * .pi * 1e-3)
        // Increasing angle on a y-down screen passes below the centre.
        #expect(close(counter.point(atDistance: counter.length / 2).point, CGPoint(x: 50, y: 70), 0.05))
        let clockwise = PathMeasure(Path([.arc(center: center, radius: 20, startAngle: 0, endAngle: .pi, clockwise: true)]))
        #expect(close(clockwise.point(atDistance: clockwise.length / 2).point, CGPoint(x: 50, y: 30), 0.05))
        #expect(close(angle: clockwise.point(atDistance: clockwise.length / 2).angle, .pi, 1e-3))
        // An arc after a point is joined to it by a line.
        let joined = PathMeasure(Path([.move(to: CGPoint(x: 0, y: 50)),
                                       .arc(center: center, radius: 20, startAngle: .pi, endAngle: 2 * .pi, clockwise: false)]))
        #expect(abs(joined.length - (30 + 20 * .pi)) < 0.1)
    }

    @Test func subpathsAreWalkedInOrderAndCloseAddsItsSide() {
        let path = Path([
            .move(to: CGPoint(x: 0, y: 0)), .line(to: CGPoint(x: 10, y: 0)),
            .move(to: CGPoint(x: 100, y: 100)), .line(to: CGPoint(x: 100, y: 130)), .line(to: CGPoint(x: 140, y: 130)),
            .close,
        ])
        let measure = PathMeasure(path)
        // 10, then a 30-40-50 triangle; the jump adds nothing.
        #expect(measure.length == 130)
        #expect(close(measure.point(atDistance: 10).point, CGPoint(x: 100, y: 100)))
        #expect(close(measure.point(atDistance: 9.5).point, CGPoint(x: 9.5, y: 0)))
        let (onHypotenuse, angle) = measure.point(atDistance: 105)
        #expect(close(onHypotenuse, CGPoint(x: 120, y: 115)) && close(angle: angle, atan2(-30, -40)))
        #expect(close(measure.point(atDistance: 130).point, CGPoint(x: 100, y: 100)))
    }

    @Test func curvesMatchTheirArcLength() {
        // A cubic and a quadratic against Simpson's rule on |B'(t)|.
        let p0 = CGPoint(x: 0, y: 0), c1 = CGPoint(x: 30, y: 80), c2 = CGPoint(x: 90, y: -40), p3 = CGPoint(x: 120, y: 30)
        func simpson(_ speed: (Double) -> Double) -> Double {
            let n = 20_000
            var sum = speed(0) + speed(1)
            for i in 1..<n { sum += (i % 2 == 1 ? 4 : 2) * speed(Double(i) / Double(n)) }
            return sum / Double(3 * n)
        }
        let cubicLength = simpson { t in
            let s = 1 - t
            let dx = 3 * (s * s * 30 + 2 * s * t * 60 + t * t * 30)
            let dy = 3 * (s * s * 80 + 2 * s * t * -120 + t * t * 70)
            return (dx * dx + dy * dy).squareRoot()
        }
        let cubic = PathMeasure(Path([.move(to: p0), .curve(to: p3, control1: c1, control2: c2)]))
        #expect(abs(cubic.length - cubicLength) / cubicLength < 2e-4, "\(cubic.length) against \(cubicLength)")
        #expect(close(cubic.point(atDistance: cubic.length).point, p3))
        #expect(close(angle: cubic.point(atDistance: 0).angle, atan2(80, 30)))
        #expect(close(angle: cubic.point(atDistance: cubic.length).angle, atan2(70, 30)))
        let quadLength = simpson { t in
            // B'(t) = 2 ((1 - t)(c - p0) + t (p - c)) with p0 = (0, 0), c = (50, 100), p = (100, 0).
            let dx = 2 * ((1 - t) * 50 + t * 50), dy = 2 * ((1 - t) * 100 - t * 100)
            return (dx * dx + dy * dy).squareRoot()
        }
        let quad = PathMeasure(Path([.move(to: p0), .quadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 50, y: 100))]))
        #expect(abs(quad.length - quadLength) / quadLength < 2e-4, "\(quad.length) against \(quadLength)")
    }

    @Test func aRoundedRectStartsOnItsTopEdge() {
        let measure = PathMeasure(Path(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 60), cornerRadius: 10))
        let exact = 2 * (80 + 40) + 2 * Double.pi * 10
        #expect(abs(measure.length - exact) / exact < 1e-3)
        let start = measure.point(atDistance: 0)
        #expect(close(start.point, CGPoint(x: 90, y: 0)) && close(angle: start.angle, 0))
        // The top edge's straight part is the closing line, last.
        #expect(close(measure.point(atDistance: measure.length - 40).point, CGPoint(x: 50, y: 0), 0.05))
        // A radius larger than half the short side is clamped, as DrawingContext clamps it.
        let pill = PathMeasure(Path(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 20), cornerRadius: 50))
        #expect(abs(pill.length - (2 * 80 + 2 * .pi * 10)) < 0.05)
    }

    @Test func degenerateAndUnusablePaths() {
        #expect(PathMeasure(Path()).length == 0)
        #expect(PathMeasure(Path()).point(atDistance: 3).point == .zero)
        let dot = PathMeasure(Path([.move(to: CGPoint(x: 4, y: 5)), .line(to: CGPoint(x: 4, y: 5))]))
        #expect(dot.length == 0 && dot.point(atDistance: 1).point == CGPoint(x: 4, y: 5))
        let bad = PathMeasure(Path([.move(to: CGPoint(x: 0, y: 0)), .line(to: CGPoint(x: CGFloat.nan, y: 1)),
                                    .line(to: CGPoint(x: 3, y: 4)),
                                    .arc(center: .zero, radius: 5, startAngle: 0, endAngle: .infinity, clockwise: false)]))
        #expect(bad.length == 5)
        // An arc of a billion radians is reduced as DrawingContext reduces it: at most two turns.
        let long = PathMeasure(Path([.arc(center: .zero, radius: 1, startAngle: 0, endAngle: 1e9, clockwise: false)]))
        #expect(long.length <= 4 * .pi * 1.001 && long.length > 2 * .pi)
    }

    @Test func theMeasuredPathIsWhereDrawingPutsIt() throws {
        // Stroke a path thinly and check that points along it, by PathMeasure, are inked: the directions and
        // starting points agree with cairo's.
        let path = Path([
            .arc(center: CGPoint(x: 40, y: 40), radius: 25, startAngle: 0, endAngle: .pi * 1.5, clockwise: true),
            .roundedRect(CGRect(x: 70, y: 10, width: 40, height: 60), radius: 12),
            .move(to: CGPoint(x: 10, y: 90)), .quadCurve(to: CGPoint(x: 110, y: 90), control: CGPoint(x: 60, y: 60)),
        ])
        let image = try Image(width: 120, height: 100)
        let context = try DrawingContext(image: image)
        context.setStrokeColor(.black)
        context.setLineWidth(2)
        // Square caps ink the pixels just past the ends, where the first and last points fall.
        context.setLineCap(.square)
        context.beginPath()
        context.addPath(path)
        context.strokePath()
        context.flush()
        let measure = PathMeasure(path)
        for i in 0...200 {
            let p = measure.point(atDistance: measure.length * Double(i) / 200).point
            let (x, y) = (Int(Double(p.x).rounded(.down)), Int(Double(p.y).rounded(.down)))
            #expect(image.rgba(x: x, y: y).a > 0, "\(i)/200 at \(p)")
        }
        // The clockwise arc from 0 to 3 pi / 2 is the quarter turn from 0 down to -pi / 2 (cairo_arc_negative):
        // its middle is up and to the right of the centre.
        let middle = PathMeasure(Path([path.elements[0]]))
        let m = middle.point(atDistance: middle.length / 2).point
        #expect(close(m, CGPoint(x: 40 + 25 * cos(-Double.pi / 4), y: 40 + 25 * sin(-Double.pi / 4)), 0.05), "\(m)")
    }
}
