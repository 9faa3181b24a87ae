import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// cornerCurve = .continuous (docs/semantics.md, "Rounded corners"): Apple's continuous corners on the background,
/// the border, masksToBounds clipping and shadows, on every renderer. The probes lie at least half a pixel inside
/// one outline and outside the other (distances worked out from the Bézier points, docs/semantics.md).
@Suite struct CornerCurveTests {
    static func near(_ p: RGBA8, _ r: Int, _ g: Int, _ b: Int, tolerance: Int = 5) -> Bool {
        p.maxChannelDifference(to: RGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: 255)) <= tolerance
    }

    /// A 320-point square (radius 100: the continuous curve reaches 152.9 points along each edge) at (0, 0).
    static func tree(_ curve: CornerCurve, _ configure: (Layer) -> Void) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 660, height: 320)
        root.backgroundColor = .white
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 320, height: 320))
        layer.cornerRadius = 100
        layer.cornerCurve = curve
        root.addSublayer(layer)
        configure(layer)
        return root
    }

    /// Pixels inside the circular corner (by 1.4, 1.4 and 0.5 points) and outside the continuous one (by 0.77,
    /// 0.62 and 0.48 points), near where the continuous curve leaves the edge, at all four corners.
    static let between: [(Int, Int)] = [
        (2, 85), (1, 95), (0, 110), (85, 2), (95, 1), (110, 0),
        (317, 234), (318, 224), (234, 317), (224, 318), (317, 85), (85, 317),
    ]

    @Test func continuousCornersLeaveTheEdgeEarlier() throws {
        for renderer in ReferenceScenes.renderers() {
            let circular = try renderer.render(Self.tree(.circular) { $0.backgroundColor = .red })
            let continuous = try renderer.render(Self.tree(.continuous) { $0.backgroundColor = .red })
            for (x, y) in Self.between {
                #expect(Self.near(circular.rgba(x: x, y: y), 255, 0, 0), "\(renderer.name) circular (\(x), \(y))")
                #expect(Self.near(continuous.rgba(x: x, y: y), 255, 255, 255),
                        "\(renderer.name) continuous (\(x), \(y)): \(continuous.rgba(x: x, y: y))")
            }
            for image in [circular, continuous] {
                #expect(Self.near(image.rgba(x: 160, y: 160), 255, 0, 0, tolerance: 0))
                #expect(Self.near(image.rgba(x: 0, y: 160), 255, 0, 0, tolerance: 0), "straight edges stay sharp")
                #expect(Self.near(image.rgba(x: 3, y: 3), 255, 255, 255, tolerance: 0))
            }
        }
    }

    @Test func borderClipAndShadowFollowTheContinuousCurve() throws {
        for renderer in ReferenceScenes.renderers() {
            func render(_ curve: CornerCurve) throws -> Image {
                try renderer.render(Self.tree(curve) { layer in
                    layer.borderWidth = 6
                    layer.borderColor = .blue
                    layer.masksToBounds = true
                    let child = Layer(frame: CGRect(x: -20, y: -20, width: 360, height: 360))
                    child.backgroundColor = .green
                    layer.addSublayer(child)
                    // A hard shadow beside the layer (masksToBounds clips a layer's own shadow, so a second
                    // layer casts it): the shadow of a continuous rounded rectangle.
                    let caster = Layer(frame: CGRect(x: 0, y: 0, width: 320, height: 320))
                    caster.cornerRadius = 100
                    caster.cornerCurve = curve
                    caster.backgroundColor = .red
                    caster.shadowOpacity = 1
                    caster.shadowRadius = 0
                    caster.shadowOffset = CGSize(width: 330, height: 0)
                    caster.shadowColor = .black
                    layer.superlayer?.insertSublayer(caster, at: 0)
                })
            }
            let circular = try render(.circular), continuous = try render(.continuous)
            for (x, y) in Self.between {
                // The border (6 points wide) is what shows in these pixels when they are inside.
                #expect(Self.near(circular.rgba(x: x, y: y), 0, 0, 255), "\(renderer.name) border (\(x), \(y))")
                // Up to 0.02 coverage of each of three layers (the caster, the clipped child, the border).
                #expect(Self.near(continuous.rgba(x: x, y: y), 255, 255, 255, tolerance: 10),
                        "\(renderer.name) clipped (\(x), \(y)): \(continuous.rgba(x: x, y: y))")
                #expect(Self.near(circular.rgba(x: x + 330, y: y), 0, 0, 0), "\(renderer.name) shadow (\(x), \(y))")
                #expect(Self.near(continuous.rgba(x: x + 330, y: y), 255, 255, 255),
                        "\(renderer.name) shadow (\(x), \(y)): \(continuous.rgba(x: x + 330, y: y))")
            }
            #expect(Self.near(continuous.rgba(x: 160, y: 160), 0, 255, 0, tolerance: 0), "the clipped child")
            #expect(Self.near(continuous.rgba(x: 490, y: 160), 0, 0, 0, tolerance: 0), "the shadow")
        }
    }

    @Test func theCurveIsDrawnAlikeOnBothRenderers() throws {
        guard let gles = GLESAvailability.renderer() else { return }
        let root = Self.tree(.continuous) { layer in
            layer.backgroundColor = .red
            layer.borderWidth = 7
            layer.borderColor = .blue
            layer.masksToBounds = true
            layer.cornerRadius = 70
            layer.transform = Transform3D(rotationAngle: 0.2, x: 0, y: 0, z: 1)
            layer.position = CGPoint(x: 200, y: 160)
            layer.shadowOpacity = 0.8
            layer.shadowRadius = 5
            let child = Layer(frame: CGRect(x: 10, y: 10, width: 300, height: 80))
            child.backgroundColor = .green
            child.cornerRadius = 30
            child.cornerCurve = .continuous
            layer.addSublayer(child)
        }
        for scale in [1.0, 2.0] {
            let a = try CPURenderer().render(root, scale: scale)
            let b = try gles.render(root, scale: scale)
            #expect(ImageDifference.meetsParity(a, b), "scale \(scale)")
        }
    }

    /// At a radius of half the shorter side the continuous corner has become the circular one (a capsule); between
    /// 1 / 1.52866 of that and it, it is blended (docs/semantics.md).
    @Test func theLargestRadiusGivesACapsule() throws {
        func render(_ curve: CornerCurve, radius: CGFloat) throws -> Image {
            let root = Layer()
            root.bounds = CGRect(x: 0, y: 0, width: 200, height: 80)
            root.backgroundColor = .white
            let layer = Layer(frame: CGRect(x: 10, y: 10, width: 180, height: 60))
            layer.backgroundColor = .red
            layer.cornerRadius = radius
            layer.cornerCurve = curve
            root.addSublayer(layer)
            return try CPURenderer().render(root)
        }
        let capsule = try render(.circular, radius: 30), continuous = try render(.continuous, radius: 30)
        let difference = try #require(ImageDifference(capsule, continuous, tolerance: 2))
        #expect(difference.pixelsOverTolerance == 0, "max \(difference.maxChannelDifference)")
        // Blended: between the two, never outside the circular corner's pixels' range.
        let blended = try render(.continuous, radius: 25)
        #expect(Self.near(blended.rgba(x: 100, y: 40), 255, 0, 0, tolerance: 0))
        #expect(Self.near(blended.rgba(x: 10, y: 10), 255, 255, 255, tolerance: 0))
    }
}
