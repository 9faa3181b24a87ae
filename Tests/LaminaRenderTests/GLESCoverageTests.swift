import CEGL
import Foundation
import Lamina
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// Rotated quads drawn by coverage in the fragment shader (GLESPass+Spans.swift): one instance per quad over its
/// bounding box, the span table giving each row's run; and rotated antialiased and rounded quads at several angles,
/// all within parity of the CPU renderer.
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct GLESCoverageTests {
    /// Not 0.7854 (45 degrees to 4 digits): there the nearest-filtered image's samples fall within a float step of
    /// texel edges along a whole diagonal, and GLES's float interpolation and the CPU's doubles round them to
    /// different texels (with or without the span table; noted in docs/gpu.md).
    static let angles: [CGFloat] = [0.05, 0.3, 0.78, 1.2, 2.0, 3.0, -0.6]

    /// Solid, textured (bilinear, nearest), antialiased and rounded layers, all turned by `angle`.
    func scene(angle: CGFloat) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 240, height: 160)
        root.backgroundColor = Color(red: 0.95, green: 0.95, blue: 0.9, alpha: 1)
        let image = TestImages.quadrants(width: 16, height: 16)
        func add(_ frame: CGRect, _ configure: (Layer) -> Void) {
            let layer = Layer(frame: frame)
            layer.transform = Transform3D(rotationAngle: angle)
            configure(layer)
            root.addSublayer(layer)
        }
        add(CGRect(x: 10, y: 10, width: 50, height: 30)) { $0.backgroundColor = .red }
        add(CGRect(x: 80, y: 12, width: 48, height: 40)) { $0.contents = image }
        add(CGRect(x: 150, y: 14, width: 64, height: 32)) {
            $0.contents = image
            $0.magnificationFilter = .nearest
        }
        add(CGRect(x: 12, y: 80, width: 60, height: 36)) {
            $0.backgroundColor = Color(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.8)
            $0.allowsEdgeAntialiasing = true
        }
        add(CGRect(x: 90, y: 84, width: 56, height: 44)) {
            $0.contents = image
            $0.allowsEdgeAntialiasing = true
        }
        add(CGRect(x: 165, y: 88, width: 52, height: 40)) {
            $0.backgroundColor = Color(red: 0.2, green: 0.7, blue: 0.3, alpha: 1)
            $0.cornerRadius = 12
        }
        return root
    }

    @Test(arguments: angles)
    func turnedQuadsMatchTheCPU(angle: CGFloat) throws {
        let gles = try #require(GLESAvailability.renderer())
        let root = scene(angle: angle)
        for scale in [1.0, 2.0] {
            let a = try CPURenderer().render(root, scale: scale)
            let b = try gles.render(root, scale: scale)
            let difference = try #require(ImageDifference(a, b, tolerance: 2))
            #expect(ImageDifference.meetsParity(a, b),
                    "angle \(angle), scale \(scale): max \(difference.maxChannelDifference), \(difference.pixelsOverTolerance) over 2")
        }
    }

    @Test func aTurnedSpriteIsOneInstanceOverItsRows() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 128, height: 128)
        let sprite = Layer(frame: CGRect(x: 32, y: 32, width: 64, height: 64))
        sprite.contents = TestImages.quadrants(width: 16, height: 16)
        sprite.transform = Transform3D(rotationAngle: 0.5)
        root.addSublayer(sprite)
        let plan = try Planner(scale: 1).plan(root)
        let image = try renderer.render(plan)
        // One instance, not one per row (about 90 rows).
        #expect(renderer.encoder.instances.count == GLESProgram.instanceFloats)
        let coverage = plan.quads[0].pixelCoverage(width: 128, height: 128)
        guard case .spans(let spans) = coverage else {
            Issue.record("a turned quad covers runs, got \(coverage)")
            return
        }
        #expect(renderer.encoder.spanRows.count == 2 * (spans.last!.y - spans.first!.y + 1))
        #expect(spans.count > 80)
        // Exactly the covered pixels are drawn: inside each run opaque, outside transparent.
        for span in spans {
            #expect(image.rgba(x: span.x0, y: span.y).a == 255 && image.rgba(x: span.x1 - 1, y: span.y).a == 255)
            if span.x0 > 0 { #expect(image.rgba(x: span.x0 - 1, y: span.y).a == 0, "row \(span.y)") }
            if span.x1 < 128 { #expect(image.rgba(x: span.x1, y: span.y).a == 0, "row \(span.y)") }
        }
        #expect(ImageDifference.meetsParity(try CPURenderer().render(plan), image))
    }
}
