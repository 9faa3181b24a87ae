import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Scroll layers on both renderers (docs/semantics.md, "Scroll layers"): the bounds' origin is the scroll offset,
/// the bounds clip by default, and a scroll animates as a bounds change.
@Suite struct ScrollLayerRenderTests {
    /// A 140 x 140 white root; a 100 x 100 scroll layer at (20, 20) over four 100 x 100 quadrants (red, green,
    /// blue, yellow) making a 200 x 200 picture.
    func scene() -> (Layer, ScrollLayer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 140, height: 140)
        root.backgroundColor = .white
        let scroller = ScrollLayer()
        scroller.frame = CGRect(x: 20, y: 20, width: 100, height: 100)
        for (i, colour) in [Color.red, .green, .blue, Color(red: 1, green: 1, blue: 0)].enumerated() {
            let quadrant = Layer(frame: CGRect(x: CGFloat(i % 2) * 100, y: CGFloat(i / 2) * 100, width: 100,
                                               height: 100))
            quadrant.backgroundColor = colour
            scroller.addSublayer(quadrant)
        }
        root.addSublayer(scroller)
        return (root, scroller)
    }

    func colour(at point: CGPoint) -> RGBA8 {
        guard point.x >= 0, point.y >= 0, point.x < 200, point.y < 200 else { return RGBA8(r: 255, g: 255, b: 255, a: 255) }
        switch (point.x < 100, point.y < 100) {
        case (true, true): return RGBA8(r: 255, g: 0, b: 0, a: 255)
        case (false, true): return RGBA8(r: 0, g: 255, b: 0, a: 255)
        case (true, false): return RGBA8(r: 0, g: 0, b: 255, a: 255)
        case (false, false): return RGBA8(r: 255, g: 255, b: 0, a: 255)
        }
    }

    @Test func scrolledOffsetsShowTheirPartOfTheSublayers() throws {
        let offsets = [CGPoint(x: 0, y: 0), CGPoint(x: 50, y: 30), CGPoint(x: 100, y: 100), CGPoint(x: -30, y: 60),
                       CGPoint(x: 150, y: 0)]
        for offset in offsets {
            for scale in [CGFloat(1), 2] {
                var pictures: [Image] = []
                for renderer in ReferenceScenes.renderers() {
                    let (root, scroller) = scene()
                    scroller.scroll(to: offset)
                    let image = try renderer.render(root, scale: scale)
                    pictures.append(image)
                    for probe in [CGPoint(x: 25, y: 25), CGPoint(x: 75, y: 25), CGPoint(x: 25, y: 75),
                                  CGPoint(x: 75, y: 75), CGPoint(x: 45, y: 55)]
                    {
                        let expected = colour(at: CGPoint(x: offset.x + probe.x, y: offset.y + probe.y))
                        let pixel = image.rgba(x: Int((20 + probe.x) * scale), y: Int((20 + probe.y) * scale))
                        #expect(pixel.maxChannelDifference(to: expected) <= 2,
                                "\(renderer.name) offset \(offset) @\(scale)x probe \(probe): \(pixel)")
                    }
                    // Clipped to the bounds (masksToBounds by default).
                    let outside = image.rgba(x: Int(130 * scale), y: Int(70 * scale))
                    #expect(outside.maxChannelDifference(to: RGBA8(r: 255, g: 255, b: 255, a: 255)) <= 2)
                }
                if pictures.count == 2 { #expect(ImageDifference.meetsParity(pictures[0], pictures[1])) }
            }
        }
    }

    @Test func aScrollAnimatesLikeAnyBoundsChange() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, scroller) = scene()
            Transaction.flush()
            _ = try renderer.render(root, at: 0)
            Transaction.begin()
            Transaction.setAnimationDuration(1)
            Transaction.setAnimationTimingFunction(MediaTimingFunction(name: .linear))
            scroller.scroll(to: CGPoint(x: 100, y: 0))
            Transaction.commit()
            let animation = try #require(scroller.animation(forKey: "bounds"))
            let begin = animation.beginTime
            // Halfway: the origin is at x = 50, so the scroll layer's point (25, 25) shows red (75, 25) and (75, 25)
            // shows green (125, 25).
            let image = try renderer.render(root, at: begin + 0.5)
            #expect(image.rgba(x: 45, y: 45).maxChannelDifference(to: RGBA8(r: 255, g: 0, b: 0, a: 255)) <= 2)
            #expect(image.rgba(x: 95, y: 45).maxChannelDifference(to: RGBA8(r: 0, g: 255, b: 0, a: 255)) <= 2)
            let end = try renderer.render(root, at: begin + 2)
            #expect(end.rgba(x: 45, y: 45).maxChannelDifference(to: RGBA8(r: 0, g: 255, b: 0, a: 255)) <= 2)
        }
    }
}
