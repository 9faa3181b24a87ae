import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The code of SpecialisedLayers.md (Sources/Lamina/Lamina.docc), run as written and checked by its pixels.
@Suite struct DocCSpecialisedExampleTests {
    @Test func theGradientTickAndLabelExample() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 320, height: 120)
        root.backgroundColor = .white

        let sky = GradientLayer()
        sky.frame = CGRect(x: 10, y: 10, width: 100, height: 100)
        sky.colors = [Color(hex: "#3B82F6")!, Color.white]
        sky.cornerRadius = 12                                // a gradient takes the rounded bounds, as a background does
        root.addSublayer(sky)

        let tick = ShapeLayer()
        tick.frame = CGRect(x: 120, y: 10, width: 100, height: 100)
        var path = Path()
        path.move(to: CGPoint(x: 15, y: 55))
        path.addLine(to: CGPoint(x: 40, y: 80))
        path.addLine(to: CGPoint(x: 85, y: 25))
        tick.path = path.cgPath
        tick.fillColor = nil
        tick.strokeColor = Color(hex: "#16A34A")!
        tick.lineWidth = 10
        tick.lineCap = .round
        tick.strokeEnd = 1                                   // animate "strokeEnd" from 0 to draw the tick
        root.addSublayer(tick)

        let label = TextLayer()
        label.frame = CGRect(x: 230, y: 10, width: 80, height: 100)
        label.string = "Done ✓ 完了"
        label.font = "DejaVu Sans"
        label.fontSize = 18
        label.foregroundColor = .black
        label.isWrapped = true
        root.addSublayer(label)

        let image = try CPURenderer().render(root, scale: 2)

        #expect(image.width == 640 && image.height == 240)
        // The gradient's top is blue, its bottom nearly white; its corner is cut round (white page).
        #expect(near(image.rgba(x: 120, y: 24), 59, 130, 246, tolerance: 6))
        #expect(near(image.rgba(x: 120, y: 214), 255, 255, 255, tolerance: 8))
        #expect(near(image.rgba(x: 21, y: 21), 255, 255, 255))
        // The tick's corner at (40, 80) in the shape layer: green.
        #expect(near(image.rgba(x: 2 * 160, y: 2 * 88), 22, 163, 74, tolerance: 4))
        // The label has dark ink in its first line and none far below it.
        var ink = 0, below = 0
        for y in 20..<60 { for x in 460..<620 where image.rgba(x: x, y: y).r < 100 { ink += 1 } }
        for y in 180..<230 { for x in 460..<620 where image.rgba(x: x, y: y).r < 100 { below += 1 } }
        #expect(ink > 100 && below == 0, "ink \(ink), below \(below)")
    }

    @Test func theReplicatorRingExample() throws {
        let ring = ReplicatorLayer()
        ring.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        ring.instanceCount = 12
        ring.instanceTransform = Transform3D(rotationAngle: 2 * .pi / 12, x: 0, y: 0, z: 1)
        ring.instanceAlphaOffset = -1.0 / 12                 // each dot a little fainter
        let dot = Layer(frame: CGRect(x: 45, y: 0, width: 10, height: 10))
        dot.backgroundColor = .black
        dot.cornerRadius = 5
        ring.addSublayer(dot)

        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(ring)
            // Instance 0 at the top is opaque; instance 3 (a quarter turn clockwise, at the right) has alpha 0.75.
            #expect(near(image.rgba(x: 50, y: 5), 0, 0, 0, 255), "\(renderer.name)")
            #expect(near(image.rgba(x: 95, y: 50), 0, 0, 0, 191), "\(renderer.name): \(image.rgba(x: 95, y: 50))")
            #expect(image.rgba(x: 50, y: 50).a == 0, "\(renderer.name)")
        }
    }
}
