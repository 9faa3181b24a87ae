import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers
import Testing

/// Arcs of any angles draw in bounded time and keep their circle and end point (DrawingContext.arcAngles).
@Suite struct ArcAngleTests {
    let turn = 2 * Double.pi

    @Test func ordinaryArcsAreUnchanged() {
        #expect(DrawingContext.arcAngles(start: 0, end: .pi, clockwise: false)! == (0, .pi))
        #expect(DrawingContext.arcAngles(start: 1, end: 1 + 4 * .pi, clockwise: false)! == (1, 1 + 4 * .pi))
        #expect(DrawingContext.arcAngles(start: .pi, end: 0, clockwise: true)! == (.pi, 0))
    }

    @Test func anEndOnTheWrongSideGoesToTheNextTurnAsCairoDoes() throws {
        let (a0, a1) = try #require(DrawingContext.arcAngles(start: 0, end: -.pi / 2, clockwise: false))
        #expect(a0 == 0 && abs(a1 - 3 * .pi / 2) < 1e-12)
        let (b0, b1) = try #require(DrawingContext.arcAngles(start: 1e300, end: 0, clockwise: false))
        #expect(abs(b0) < turn && b1 >= b0 && b1 - b0 < turn)
    }

    @Test func longSweepsKeepTheirEndPointWithinTwoTurns() throws {
        let (a0, a1) = try #require(DrawingContext.arcAngles(start: 0, end: 1e9, clockwise: false))
        #expect(a0 == 0 && a1 > turn && a1 <= 2 * turn)
        // The same end point on the circle: 1e9 and a1 differ by whole turns.
        #expect(abs(cos(a1) - cos(1e9)) < 1e-6 && abs(sin(a1) - sin(1e9)) < 1e-6)
        let (c0, c1) = try #require(DrawingContext.arcAngles(start: 5, end: -1e308, clockwise: true))
        #expect(c0 == 5 && c0 - c1 > turn && c0 - c1 <= 2 * turn)
        #expect(DrawingContext.arcAngles(start: .nan, end: 0, clockwise: false) == nil)
        #expect(DrawingContext.arcAngles(start: 0, end: .infinity, clockwise: false) == nil)
    }

    @Test func aStrokedArcOfAMillionTurnsIsTheCircle() throws {
        func ring(_ end: CGFloat) throws -> Image {
            let image = try Image(width: 48, height: 48)
            let context = try DrawingContext(image: image)
            context.setStrokeColor(.black)
            context.setLineWidth(4)
            context.beginPath()
            context.addArc(center: CGPoint(x: 24, y: 24), radius: 16, startAngle: 0, endAngle: end, clockwise: false)
            context.strokePath()
            context.flush()
            return image
        }
        let many = try ring(2e6 * .pi + 1e-9), once = try ring(2 * .pi)
        let difference = ImageDifference(many, once, tolerance: 2)
        #expect(difference == nil || difference!.maxChannelDifference <= 64, "\(String(describing: difference))")
        #expect(many.rgba(x: 40, y: 24).a == 255 && many.rgba(x: 8, y: 24).a == 255 && many.rgba(x: 24, y: 24).a == 0)
    }

    @Test func arcsTooLargeForCairoAreNamedFailuresNotHangs() throws {
        let image = try Image(width: 20, height: 60)
        let context = try DrawingContext(image: image)
        context.fillEllipse(in: CGRect(x: 0, y: 0, width: 20, height: 30))
        #expect(context.failure == nil)
        context.fillEllipse(in: CGRect(x: 0, y: 0, width: 1e300, height: 30))
        context.addArc(center: .zero, radius: 1e12, startAngle: 0, endAngle: 1, clockwise: false)
        let failure = try #require(context.failure)
        #expect(failure.hasPrefix("an ellipse of radius 5e+299 pixels is beyond the largest drawable radius (8388608"),
                "\(failure)")
        // Through a layer, it is the layer's drawing error, which the planner reports.
        final class Huge: LayerDelegate {
            func draw(_ layer: Layer, in context: DrawingContext) {
                context.fillEllipse(in: CGRect(x: 0, y: 0, width: 1e300, height: 30))
            }
        }
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 20, height: 60))
        layer.ownedDelegate = Huge()
        layer.name = "huge"
        layer.setNeedsDisplay()
        #expect(throws: PlanError.self) { _ = try Planner().plan(layer) }
        do { _ = try Planner().plan(layer) } catch { #expect("\(error)".contains("huge")) }
    }
}
