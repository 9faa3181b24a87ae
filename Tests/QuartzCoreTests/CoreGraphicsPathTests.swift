import CoreGraphics
import Foundation
import XCTest

/// CGPath and CGMutablePath as iOS code uses them, with Core Graphics' numbers.
final class CoreGraphicsPathTests: XCTestCase {
    private func elements(_ path: CGPath) -> [(CGPathElementType, [CGPoint])] {
        var out: [(CGPathElementType, [CGPoint])] = []
        path.applyWithBlock { element in
            let e = element.pointee
            let count: Int
            switch e.type {
            case .moveToPoint, .addLineToPoint: count = 1
            case .addQuadCurveToPoint: count = 2
            case .addCurveToPoint: count = 3
            case .closeSubpath: count = 0
            }
            out.append((e.type, (0..<count).map { e.points[$0] }))
        }
        return out
    }

    private func assertPoint(_ p: CGPoint, _ x: CGFloat, _ y: CGFloat, file: StaticString = #filePath,
                             line: UInt = #line) {
        XCTAssertEqual(p.x, x, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(p.y, y, accuracy: 1e-9, file: file, line: line)
    }

    func testRectPath() {
        let path = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40), transform: nil)
        XCTAssertEqual(path.boundingBox, CGRect(x: 10, y: 20, width: 30, height: 40))
        XCTAssertEqual(path.boundingBoxOfPath, CGRect(x: 10, y: 20, width: 30, height: 40))
        XCTAssertEqual(elements(path).map(\.0), [.moveToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint,
                                                 .closeSubpath])
        XCTAssertEqual(elements(path)[1].1, [CGPoint(x: 40, y: 20)])
        var rect = CGRect.zero
        XCTAssertTrue(path.isRect(&rect))
        XCTAssertEqual(rect, CGRect(x: 10, y: 20, width: 30, height: 40))
        XCTAssertEqual(path.currentPoint, CGPoint(x: 10, y: 20))
        XCTAssertTrue(path.contains(CGPoint(x: 11, y: 59)))
        XCTAssertFalse(path.contains(CGPoint(x: 9, y: 30)))
        var t = CGAffineTransform(translationX: 5, y: -5)
        XCTAssertEqual(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: &t).boundingBox,
                       CGRect(x: 5, y: -5, width: 1, height: 1))
        XCTAssertFalse(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil).isRect(nil))
    }

    func testEllipseBoxesAndContains() {
        let path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 50), transform: nil)
        let list = elements(path)
        XCTAssertEqual(list.map(\.0), [.moveToPoint, .addCurveToPoint, .addCurveToPoint, .addCurveToPoint,
                                       .addCurveToPoint, .closeSubpath])
        XCTAssertEqual(list[0].1, [CGPoint(x: 100, y: 25)])
        XCTAssertEqual(list[1].1[2], CGPoint(x: 50, y: 50))
        XCTAssertEqual(path.boundingBox, CGRect(x: 0, y: 0, width: 100, height: 50))
        let tight = path.boundingBoxOfPath
        XCTAssertEqual(tight.minX, 0, accuracy: 1e-9)
        XCTAssertEqual(tight.maxY, 50, accuracy: 1e-9)
        XCTAssertTrue(path.contains(CGPoint(x: 50, y: 25)))
        XCTAssertFalse(path.contains(CGPoint(x: 3, y: 3)))
    }

    func testArcEndPointsAndDirection() {
        let ccw = CGMutablePath()
        ccw.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        assertPoint(elements(ccw)[0].1[0], 60, 50)
        assertPoint(ccw.currentPoint, 50, 60)
        let box = ccw.boundingBoxOfPath
        XCTAssertEqual(box.minX, 50, accuracy: 1e-9)
        XCTAssertEqual(box.maxX, 60, accuracy: 1e-9)
        XCTAssertEqual(box.minY, 50, accuracy: 1e-9)
        XCTAssertEqual(box.maxY, 60, accuracy: 1e-9)
        XCTAssertEqual(elements(ccw).count, 2)  // a move and one quarter-turn curve

        // clockwise (decreasing angle, y up) from 0 to pi/2 goes three quarters of the way round.
        let cw = CGMutablePath()
        cw.move(to: CGPoint(x: 0, y: 0))
        cw.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        XCTAssertEqual(elements(cw).map(\.0), [.moveToPoint, .addLineToPoint, .addCurveToPoint, .addCurveToPoint,
                                               .addCurveToPoint])
        assertPoint(elements(cw)[1].1[0], 60, 50)
        assertPoint(elements(cw)[2].1[2], 50, 40)
        assertPoint(cw.currentPoint, 50, 60)
        let cwBox = cw.boundingBoxOfPath
        XCTAssertEqual(cwBox.minX, 0, accuracy: 1e-9)
        XCTAssertEqual(cwBox.maxX, 60, accuracy: 1e-9)
        XCTAssertEqual(cwBox.maxY, 60, accuracy: 1e-9)

        let relative = CGMutablePath()
        relative.addRelativeArc(center: .zero, radius: 2, startAngle: .pi, delta: -.pi / 2)
        assertPoint(relative.currentPoint, 0, 2)

        let tangent = CGMutablePath()
        tangent.move(to: CGPoint(x: 0, y: 0))
        tangent.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 4)
        assertPoint(elements(tangent)[1].1[0], 6, 0)
        assertPoint(tangent.currentPoint, 10, 4)
    }

    func testRoundedRectMutableCopyAndTransforms() {
        let rounded = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 10), cornerWidth: 4, cornerHeight: 2,
                             transform: nil)
        XCTAssertEqual(rounded.boundingBoxOfPath.width, 20, accuracy: 1e-9)
        XCTAssertTrue(rounded.contains(CGPoint(x: 10, y: 5)))
        XCTAssertFalse(rounded.contains(CGPoint(x: 0.2, y: 0.1)))

        let path = CGMutablePath()
        path.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10)])
        path.closeSubpath()
        path.addRect(CGRect(x: 2, y: 1, width: 2, height: 2), transform: CGAffineTransform(scaleX: 2, y: 2))
        XCTAssertEqual(path.boundingBox, CGRect(x: 0, y: 0, width: 10, height: 10))
        let copy = path.mutableCopy()
        copy?.addEllipse(in: CGRect(x: 20, y: 20, width: 2, height: 2))
        XCTAssertEqual(copy?.boundingBox, CGRect(x: 0, y: 0, width: 22, height: 22))
        XCTAssertEqual(path.boundingBox, CGRect(x: 0, y: 0, width: 10, height: 10))
        var shift = CGAffineTransform(translationX: 1, y: 0)
        XCTAssertEqual(path.copy(using: &shift)?.boundingBox, CGRect(x: 1, y: 0, width: 10, height: 10))
        let other = CGMutablePath()
        other.addPath(path, transform: CGAffineTransform(translationX: 0, y: 100))
        XCTAssertEqual(other.boundingBox, CGRect(x: 0, y: 100, width: 10, height: 10))
        XCTAssertTrue(CGMutablePath().isEmpty)
        XCTAssertEqual(CGMutablePath().boundingBox, .null)
        XCTAssertEqual(CGMutablePath().currentPoint, .zero)
    }

    func testFillRules() {
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        path.addRect(CGRect(x: 2, y: 2, width: 6, height: 6))
        XCTAssertTrue(path.contains(CGPoint(x: 5, y: 5), using: .winding))
        XCTAssertFalse(path.contains(CGPoint(x: 5, y: 5), using: .evenOdd))
        XCTAssertTrue(path.contains(CGPoint(x: 1, y: 5), using: .evenOdd))
        XCTAssertFalse(path.contains(CGPoint(x: 5, y: 5), using: .winding,
                                     transform: CGAffineTransform(translationX: 100, y: 0)))
        XCTAssertTrue(path.contains(CGPoint(x: 105, y: 5), using: .winding,
                                    transform: CGAffineTransform(translationX: 100, y: 0)))
    }

    func testStrokeOutline() {
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 0, y: 0))
        line.addLine(to: CGPoint(x: 100, y: 0))
        let butt = line.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        XCTAssertTrue(butt.contains(CGPoint(x: 50, y: 4.9)))
        XCTAssertFalse(butt.contains(CGPoint(x: 50, y: 5.1)))
        XCTAssertFalse(butt.contains(CGPoint(x: -1, y: 0)))
        XCTAssertEqual(butt.boundingBoxOfPath, CGRect(x: 0, y: -5, width: 100, height: 10))
        let square = line.copy(strokingWithWidth: 10, lineCap: .square, lineJoin: .miter, miterLimit: 10)
        XCTAssertTrue(square.contains(CGPoint(x: -4.9, y: 4.9)))
        let round = line.copy(strokingWithWidth: 10, lineCap: .round, lineJoin: .round, miterLimit: 10)
        XCTAssertTrue(round.contains(CGPoint(x: -4.9, y: 0)))
        XCTAssertFalse(round.contains(CGPoint(x: -4, y: 4)))

        // A right-angle corner: the miter fills the outer corner, a bevel cuts it.
        let corner = CGMutablePath()
        corner.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 50, y: 0), CGPoint(x: 50, y: 50)])
        let miter = corner.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        XCTAssertTrue(miter.contains(CGPoint(x: 54.5, y: -4.5)))
        XCTAssertEqual(miter.boundingBoxOfPath.maxX, 55, accuracy: 1e-9)
        XCTAssertEqual(miter.boundingBoxOfPath.minY, -5, accuracy: 1e-9)
        XCTAssertEqual(miter.boundingBoxOfPath.maxY, 50, accuracy: 1e-9)
        let bevel = corner.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .bevel, miterLimit: 10)
        XCTAssertFalse(bevel.contains(CGPoint(x: 54.5, y: -4.5)))
        XCTAssertTrue(bevel.contains(CGPoint(x: 52, y: -2)))
        let limited = corner.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 1.2)
        XCTAssertFalse(limited.contains(CGPoint(x: 54.5, y: -4.5)))
        // The inner side of the corner is covered too.
        XCTAssertTrue(miter.contains(CGPoint(x: 46, y: 4)))
    }

    func testDashing() {
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 0, y: 0))
        line.addLine(to: CGPoint(x: 100, y: 0))
        let dashes = line.copy(dashingWithPhase: 0, lengths: [10, 10])
        let moves = elements(dashes).filter { $0.0 == .moveToPoint }.map { $0.1[0].x }
        XCTAssertEqual(moves, [0, 20, 40, 60, 80])
        let shifted = line.copy(dashingWithPhase: 5, lengths: [10, 10])
        let starts = elements(shifted).filter { $0.0 == .moveToPoint }.map { $0.1[0].x }
        XCTAssertEqual(starts.count, 6)
        for (start, expected) in zip(starts, [0.0, 15, 35, 55, 75, 95]) { XCTAssertEqual(start, expected, accuracy: 1e-9) }
        XCTAssertEqual(line.copy(dashingWithPhase: 0, lengths: []).boundingBox, line.boundingBox)
    }
}
