import Foundation
import LaminaCore
import LaminaDrawing
import Testing

/// Path.trimmed(from:to:): the part of a path between two fractions of its length, measured by PathMeasure.
@Suite struct PathTrimTests {
    func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: Double = 1e-6) -> Bool {
        abs(Double(a.x - b.x)) <= tolerance && abs(Double(a.y - b.y)) <= tolerance
    }

    func ends(_ path: Path) -> (CGPoint, CGPoint) {
        let measure = PathMeasure(path)
        return (measure.point(atDistance: 0).point, measure.point(atDistance: measure.length).point)
    }

    func closes(_ path: Path) -> Int { path.elements.filter { $0 == .close }.count }

    @Test func aLineKeepsTheMiddle() {
        let line = Path([.move(to: CGPoint(x: 0, y: 0)), .line(to: CGPoint(x: 100, y: 0))])
        let part = line.trimmed(from: 0.2, to: 0.7)
        #expect(abs(PathMeasure(part).length - 50) < 1e-9)
        let (start, end) = ends(part)
        #expect(close(start, CGPoint(x: 20, y: 0)) && close(end, CGPoint(x: 70, y: 0)))
    }

    @Test func aRectIsCutAlongItsPerimeterAndOpened() {
        let rect = Path(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        let part = rect.trimmed(from: 0.125, to: 0.375)
        #expect(abs(PathMeasure(part).length - 100) < 1e-9)
        let (start, end) = ends(part)
        #expect(close(start, CGPoint(x: 50, y: 0)) && close(end, CGPoint(x: 100, y: 50)))
        #expect(closes(part) == 0)
        // Through the closing side and back onto the top edge is not possible: the subpath ends where it closes.
        let tail = rect.trimmed(from: 0.8, to: 1)
        #expect(abs(PathMeasure(tail).length - 80) < 1e-9)
        #expect(close(ends(tail).0, CGPoint(x: 0, y: 80)) && close(ends(tail).1, CGPoint(x: 0, y: 0)))
    }

    @Test func curvesAreCutByTheirTrueLength() {
        let circle = Path(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100))
        let half = circle.trimmed(from: 0, to: 0.5)
        #expect(abs(PathMeasure(half).length - 50 * .pi) < 0.05)
        // The ellipse starts at its right end and runs towards +y: half way is the left end. Cut points lie on the
        // flattening, within its tolerance (0.05) of the curve.
        let (start, end) = ends(half)
        #expect(close(start, CGPoint(x: 100, y: 50), 1e-6) && close(end, CGPoint(x: 0, y: 50), 0.05))
        let quarter = circle.trimmed(from: 0.25, to: 0.5)
        #expect(close(ends(quarter).0, CGPoint(x: 50, y: 100), 0.05))
        #expect(abs(PathMeasure(quarter).length - 25 * .pi) < 0.05)
        var curve = Path()
        curve.move(to: CGPoint(x: 0, y: 0))
        curve.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 80), control2: CGPoint(x: 100, y: 80))
        let total = PathMeasure(curve).length
        let firstThird = curve.trimmed(from: 0, to: 1.0 / 3)
        #expect(abs(PathMeasure(firstThird).length - total / 3) < 0.05)
        // By symmetry the middle of the length is the curve's middle, (50, 60).
        #expect(close(ends(curve.trimmed(from: 0, to: 0.5)).1, CGPoint(x: 50, y: 60), 0.05))
    }

    @Test func theFractionsRunOverAllSubpathsInOrder() {
        var two = Path()
        two.move(to: CGPoint(x: 0, y: 10))
        two.addLine(to: CGPoint(x: 100, y: 10))
        two.move(to: CGPoint(x: 0, y: 50))
        two.addLine(to: CGPoint(x: 100, y: 50))
        let part = two.trimmed(from: 0.25, to: 0.75)
        #expect(abs(PathMeasure(part).length - 100) < 1e-9)
        #expect(part.elements.filter { if case .move = $0 { true } else { false } }.count == 2)
        let (start, end) = ends(part)
        #expect(close(start, CGPoint(x: 50, y: 10)) && close(end, CGPoint(x: 50, y: 50)))
    }

    @Test func aClosedSubpathKeptWholeStaysClosed() {
        var path = Path(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        path.move(to: CGPoint(x: 0, y: 200))
        path.addLine(to: CGPoint(x: 100, y: 200))
        // 400 of rect, then 100 of line: 0.9 keeps the rect and half the line.
        let part = path.trimmed(from: 0, to: 0.9)
        #expect(closes(part) == 1)
        #expect(abs(PathMeasure(part).length - 450) < 1e-9)
        #expect(close(ends(part).1, CGPoint(x: 50, y: 200)))
    }

    @Test func theFractionsAreClampedAndAnEmptyRangeKeepsNothing() {
        let line = Path([.move(to: CGPoint(x: 0, y: 0)), .line(to: CGPoint(x: 100, y: 0)),
                         .line(to: CGPoint(x: CGFloat.nan, y: 4))])
        #expect(line.trimmed(from: 0.5, to: 0.5).isEmpty)
        #expect(line.trimmed(from: 0.7, to: 0.2).isEmpty)
        #expect(line.trimmed(from: CGFloat.nan, to: CGFloat.nan).isEmpty)
        // 0...1 is the path itself, without the element that is not finite.
        let finite = Path([.move(to: CGPoint(x: 0, y: 0)), .line(to: CGPoint(x: 100, y: 0))])
        #expect(line.trimmed(from: -3, to: 8) == finite)
        let tail = line.trimmed(from: 0.9, to: CGFloat.infinity)
        #expect(abs(PathMeasure(tail).length - 10) < 1e-9)
    }
}
