import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Gradient layers on both renderers at scales 1 and 2 (docs/semantics.md, "Gradient layers"): probes against the
/// formulas, and parity.
@Suite struct GradientLayerRenderTests {
    /// A 200 x 100 root (transparent) holding one gradient layer over its whole bounds.
    func scene(_ configure: (GradientLayer) -> Void) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        let gradient = GradientLayer()
        gradient.frame = root.bounds
        configure(gradient)
        root.addSublayer(gradient)
        return root
    }

    /// The pixel `Image.rgba` reads (straight components) for straight colour `c`; clear reads as all zeros.
    func expected(_ c: Color) -> RGBA8 {
        func byte(_ x: Double) -> UInt8 { UInt8(min(max(x * 255, 0), 255).rounded()) }
        guard c.alpha > 0 else { return RGBA8(r: 0, g: 0, b: 0, a: 0) }
        return RGBA8(r: byte(c.red), g: byte(c.green), b: byte(c.blue), a: byte(c.alpha))
    }

    /// Straight mix of a and b at t.
    func mix(_ a: Color, _ b: Color, _ t: Double) -> Color {
        Color(red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t,
              blue: a.blue + (b.blue - a.blue) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
    }

    /// Renders `make()` on every renderer at scales 1 and 2 and checks the pixels holding `points`: each against
    /// `colour` of its pixel's centre (in points), then parity.
    func check(_ make: () -> Layer, points: [CGPoint], tolerance: Int = 3, comment: String,
               colour: (CGPoint) -> Color) throws {
        for scale in [CGFloat(1), 2] {
            var images: [Image] = []
            for renderer in ReferenceScenes.renderers() {
                let image = try renderer.render(make(), scale: scale)
                images.append(image)
                for point in points {
                    let x = Int(point.x * scale), y = Int(point.y * scale)
                    let centre = CGPoint(x: (CGFloat(x) + 0.5) / scale, y: (CGFloat(y) + 0.5) / scale)
                    let pixel = image.rgba(x: x, y: y), want = expected(colour(centre))
                    #expect(pixel.maxChannelDifference(to: want) <= tolerance,
                            "\(comment), \(renderer.name) at scale \(scale), \(point): \(pixel) vs \(want)")
                }
            }
            if images.count == 2 {
                #expect(ImageDifference.meetsParity(images[0], images[1]), "\(comment) at scale \(scale)")
            }
        }
    }

    /// Straight colour of a two- or more-stop gradient at t (stops `locations`), ends clamped.
    func colour(_ colours: [Color], _ locations: [Double], at t: Double) -> Color {
        if t <= locations[0] { return colours[0] }
        for i in 1..<colours.count where t <= locations[i] {
            return mix(colours[i - 1], colours[i], (t - locations[i - 1]) / (locations[i] - locations[i - 1]))
        }
        return colours[colours.count - 1]
    }

    @Test func axialFromTopToBottomByDefault() throws {
        let (a, b) = (Color.red, Color.blue)
        try check({ scene { $0.colors = [a, b] } },
                  points: [CGPoint(x: 100, y: 0.2), CGPoint(x: 20, y: 50.2), CGPoint(x: 180, y: 99.7)],
                  comment: "axial") { q in mix(a, b, Double(q.y) / 100) }
    }

    @Test func unevenLocationsAndClampedEnds() throws {
        let colours = [Color.red, Color.green, Color.blue], stops = [0.2, 0.3, 0.9]
        try check({ scene {
            $0.colors = colours
            $0.locations = (stops).map { NSNumber(value: $0) }
            $0.startPoint = CGPoint(x: 0, y: 0.5)
            $0.endPoint = CGPoint(x: 1, y: 0.5)
        } }, points: [10, 50, 55, 120, 170, 190].map { CGPoint(x: $0 + 0.2, y: 50) }, comment: "uneven stops") { q in
            colour(colours, stops, at: Double(q.x) / 200)
        }
    }

    @Test func translucentStopsInterpolateOnStraightComponents() throws {
        // White to clear passes through translucent grey: straight (1, 1, 1, 1 - t).
        try check({ scene {
            $0.colors = [Color.white, Color.clear]
            $0.startPoint = CGPoint(x: 0, y: 0.5)
            $0.endPoint = CGPoint(x: 1, y: 0.5)
        } }, points: [40, 100, 160].map { CGPoint(x: $0 + 0.2, y: 50) }, comment: "translucent") { q in
            mix(.white, .clear, Double(q.x) / 200)
        }
    }

    @Test func radialIsAnEllipseThroughTheEndPoint() throws {
        let (a, b) = (Color.white, Color.black)
        // Centre (100, 50); radii 100 x 50 points (endPoint (1, 1)).
        try check({ scene {
            $0.type = .radial
            $0.colors = [a, b]
            $0.startPoint = CGPoint(x: 0.5, y: 0.5)
            $0.endPoint = CGPoint(x: 1, y: 1)
        } }, points: [CGPoint(x: 150.2, y: 50.2), CGPoint(x: 100.2, y: 75.2), CGPoint(x: 60.2, y: 30.2),
                      CGPoint(x: 199.7, y: 99.7)], comment: "radial") { q in
            let t = (pow(Double(q.x - 100) / 100, 2) + pow(Double(q.y - 50) / 50, 2)).squareRoot()
            return mix(a, b, min(t, 1))
        }
    }

    @Test func conicTurnsClockwiseFromTheEndPoint() throws {
        let (a, b) = (Color.black, Color.white)
        // Centre (100, 50), zero towards +x: +y (down the screen) is a quarter turn clockwise.
        try check({ scene {
            $0.type = .conic
            $0.colors = [a, b]
            $0.startPoint = CGPoint(x: 0.5, y: 0.5)
            $0.endPoint = CGPoint(x: 1, y: 0.5)
        } }, points: [CGPoint(x: 100.2, y: 90.2), CGPoint(x: 30.2, y: 50.2), CGPoint(x: 100.2, y: 10.2),
                      CGPoint(x: 170.2, y: 80.2)], comment: "conic") { q in
            var angle = atan2(Double(q.y - 50), Double(q.x - 100))
            if angle < 0 { angle += 2 * .pi }
            return mix(a, b, angle / (2 * .pi))
        }
    }

    @Test func aDegenerateGradientPaintsTheLastColour() throws {
        try check({ scene {
            $0.colors = [Color.red, Color.green, Color.blue]
            $0.startPoint = CGPoint(x: 0.3, y: 0.3)
            $0.endPoint = CGPoint(x: 0.3, y: 0.3)
        } }, points: [CGPoint(x: 20, y: 20), CGPoint(x: 150, y: 80)], comment: "degenerate") { _ in .blue }
        try check({ scene { $0.colors = [Color.green] } }, points: [CGPoint(x: 50, y: 50)], comment: "one colour") { _ in
            .green
        }
    }

    @Test func roundedCornersClipTheGradientWithoutMasksToBounds() throws {
        try check({ scene {
            $0.colors = [Color.red, Color.red]
            $0.cornerRadius = 30
        } }, points: [CGPoint(x: 1, y: 1), CGPoint(x: 198.7, y: 98.7), CGPoint(x: 100, y: 50), CGPoint(x: 30, y: 2)],
                  comment: "rounded") { q in
            q.x < 5 && q.y < 5 || q.x > 195 && q.y > 95 ? .clear : .red
        }
    }

    @Test func aScaledLayerIsDrawnAtItsShownDensity() throws {
        // A 20 x 10 point layer scaled 10 times: a picture of 200 x 100 pixels, no blocky steps between pixels.
        let renderer = CPURenderer()
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        let gradient = GradientLayer()
        gradient.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
        gradient.position = CGPoint(x: 100, y: 50)
        gradient.transform = Transform3D(scaleX: 10, y: 10, z: 1)
        gradient.colors = [Color.black, Color.white]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        root.addSublayer(gradient)
        let image = try renderer.render(root)
        // Neighbouring pixels differ by about one step of 255 / 200, never by a 10-pixel block's step.
        for x in stride(from: 20, to: 180, by: 7) {
            let a = Int(image.rgba(x: x, y: 50).r), b = Int(image.rgba(x: x + 1, y: 50).r)
            #expect(abs(b - a) <= 3, "x \(x): \(a) then \(b)")
        }
    }
}
