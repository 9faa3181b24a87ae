import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// A custom animatable property declared the documented way (docs/porting-layers.md), animated and drawn by the CPU
/// renderer: each frame draws the layer with the value the animation presents at that frame's time.
@Suite struct CustomPropertyRenderTests {
    /// Fills the left `progress` of its bounds red.
    final class ProgressBar: Layer {
        var progress: CGFloat {
            get { value(forKey: "progress") as? CGFloat ?? 0 }
            set { setValue(newValue, forKey: "progress") }
        }
        override class func needsDisplay(forKey key: String) -> Bool {
            key == "progress" || super.needsDisplay(forKey: key)
        }
        override func draw(in context: DrawingContext) {
            context.setFillColor(.red)
            context.fill(CGRect(x: 0, y: 0, width: bounds.width * progress, height: bounds.height))
        }
    }

    @Test func anAnimatedCustomPropertyRedrawsEachFrame() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 20)
        root.backgroundColor = .white
        let bar = ProgressBar()
        bar.frame = root.bounds
        bar.progress = 1
        root.addSublayer(bar)
        let renderer = CPURenderer()
        let red = RGBA8(r: 255, g: 0, b: 0, a: 255), white = RGBA8(r: 255, g: 255, b: 255, a: 255)
        let full = try renderer.render(root, scale: 1, at: 0)
        #expect(full.probe(CGPoint(x: 90, y: 10), scale: 1) == red)

        let fill = BasicAnimation(keyPath: "progress")
        fill.fromValue = 0.0
        fill.toValue = 1.0
        fill.duration = 4
        fill.beginTime = 1000
        bar.add(fill, forKey: "fill")

        // A quarter of the way: 25 points red, the rest white.
        let quarter = try renderer.render(root, scale: 1, at: 1001)
        #expect(quarter.probe(CGPoint(x: 20, y: 10), scale: 1) == red)
        #expect(quarter.probe(CGPoint(x: 30, y: 10), scale: 1) == white)
        #expect(quarter.probe(CGPoint(x: 70, y: 10), scale: 1) == white)
        // Three quarters: 75 points.
        let threeQuarters = try renderer.render(root, scale: 1, at: 1003)
        #expect(threeQuarters.probe(CGPoint(x: 70, y: 10), scale: 1) == red)
        #expect(threeQuarters.probe(CGPoint(x: 80, y: 10), scale: 1) == white)
        // The model is unchanged; without the animation the bar is full again.
        #expect(bar.progress == 1)
        bar.removeAnimation(forKey: "fill")
        let after = try renderer.render(root, scale: 1, at: 1003)
        #expect(after.probe(CGPoint(x: 90, y: 10), scale: 1) == red)
    }
}
