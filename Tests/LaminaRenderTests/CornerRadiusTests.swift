import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// cornerRadius, maskedCorners, rounded borders and rounded clips on every renderer, at values worked out by hand
/// (coverage = clamp(0.5 - the pixel centre's distance to the outline, 0, 1)).
@Suite struct CornerRadiusTests {
    static func root(_ size: CGFloat = 100) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: size, height: size)
        root.backgroundColor = .white
        return root
    }

    static func near(_ p: RGBA8, _ r: Int, _ g: Int, _ b: Int, tolerance: Int = 1) -> Bool {
        p.maxChannelDifference(to: RGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: 255)) <= tolerance
    }

    @Test func theBackgroundIsRoundedWithAntialiasedCorners() throws {
        let root = Self.root()
        let layer = Layer(frame: root.bounds)
        layer.backgroundColor = .red
        layer.cornerRadius = 20
        root.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.near(image.rgba(x: 0, y: 0), 255, 255, 255), "\(renderer.name): outside the corner")
            #expect(Self.near(image.rgba(x: 50, y: 50), 255, 0, 0), "\(renderer.name)")
            // Coverage 176: red x 176 over white: (255, 79, 79).
            #expect(Self.near(image.rgba(x: 5, y: 6), 255, 79, 79), "\(renderer.name): \(image.rgba(x: 5, y: 6))")
            #expect(Self.near(image.rgba(x: 0, y: 50), 255, 0, 0), "\(renderer.name): straight edges stay sharp")
            #expect(Self.near(image.rgba(x: 99, y: 99), 255, 255, 255), "\(renderer.name)")
            #expect(renderer.statistics.offscreenPasses == 0)
        }
    }

    @Test func maskedCornersRoundOnlyTheNamedCorners() throws {
        let root = Self.root()
        let layer = Layer(frame: root.bounds)
        layer.backgroundColor = .blue
        layer.cornerRadius = 20
        layer.maskedCorners = [.layerMaxXMaxYCorner, .layerMinXMaxYCorner]
        root.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.near(image.rgba(x: 0, y: 0), 0, 0, 255), "\(renderer.name): the top corners stay square")
            #expect(Self.near(image.rgba(x: 99, y: 0), 0, 0, 255), "\(renderer.name)")
            #expect(Self.near(image.rgba(x: 0, y: 99), 255, 255, 255), "\(renderer.name): bottom corners rounded")
            #expect(Self.near(image.rgba(x: 99, y: 99), 255, 255, 255), "\(renderer.name)")
        }
        layer.maskedCorners = []
        #expect(try CPURenderer().render(root).rgba(x: 99, y: 99) == RGBA8(r: 0, g: 0, b: 255, a: 255))
    }

    @Test func theBorderIsARoundedRingAboveTheSublayers() throws {
        let root = Self.root()
        let layer = Layer(frame: root.bounds)
        layer.borderWidth = 10
        layer.borderColor = .blue
        layer.cornerRadius = 20
        let child = Layer(frame: CGRect(x: 0, y: 40, width: 100, height: 20))
        child.backgroundColor = .green
        layer.addSublayer(child)
        root.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.near(image.rgba(x: 50, y: 5), 0, 0, 255), "\(renderer.name): the band")
            #expect(Self.near(image.rgba(x: 50, y: 9), 0, 0, 255), "\(renderer.name): its last row")
            #expect(Self.near(image.rgba(x: 50, y: 10), 255, 255, 255), "\(renderer.name): the hole")
            #expect(Self.near(image.rgba(x: 3, y: 3), 255, 255, 255), "\(renderer.name): outside the corner")
            #expect(Self.near(image.rgba(x: 5, y: 50), 0, 0, 255), "\(renderer.name): the border covers the child")
            #expect(Self.near(image.rgba(x: 50, y: 50), 0, 255, 0), "\(renderer.name): the child inside")
        }
    }

    @Test func masksToBoundsClipsSublayersToTheRoundedBounds() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let root = Self.root()
        let layer = Layer(frame: root.bounds)
        layer.cornerRadius = 20
        layer.masksToBounds = true
        let child = Layer(frame: CGRect(x: -10, y: -10, width: 120, height: 120))
        child.backgroundColor = .green
        layer.addSublayer(child)
        root.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.near(image.rgba(x: 0, y: 0), 255, 255, 255), "\(renderer.name)")
            #expect(Self.near(image.rgba(x: 5, y: 6), 79, 255, 79), "\(renderer.name): \(image.rgba(x: 5, y: 6))")
            #expect(Self.near(image.rgba(x: 50, y: 50), 0, 255, 0), "\(renderer.name)")
            // Plain sublayers take the rounded clip on their own quads: no offscreen pass.
            #expect(renderer.statistics.offscreenPasses == 0, "\(renderer.name)")
        }
        // A smaller child keeps its own rectangle under the clip (it does not fill the rounded bounds).
        child.frame = CGRect(x: 0, y: 40, width: 100, height: 20)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.near(image.rgba(x: 50, y: 10), 255, 255, 255), "\(renderer.name)")
            #expect(Self.near(image.rgba(x: 0, y: 50), 0, 255, 0), "\(renderer.name)")
        }
        // A child with rounded corners of its own (or a group, or a shadow) is clipped through one offscreen group.
        child.frame = CGRect(x: -10, y: -10, width: 120, height: 120)
        child.cornerRadius = 4
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.near(image.rgba(x: 5, y: 6), 79, 255, 79), "\(renderer.name): \(image.rgba(x: 5, y: 6))")
            #expect(renderer.statistics.offscreenPasses == 1, "\(renderer.name)")
        }
        // A rounded child wholly inside the clip's untouched interior needs no group either.
        child.frame = CGRect(x: 30, y: 30, width: 40, height: 40)
        child.cornerRadius = 8
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(renderer.statistics.offscreenPasses == 0, "\(renderer.name)")
            #expect(Self.near(image.rgba(x: 50, y: 50), 0, 255, 0) && Self.near(image.rgba(x: 30, y: 30), 255, 255, 255))
        }
        child.frame = CGRect(x: -10, y: -10, width: 120, height: 120)
        child.cornerRadius = 0
        // Without masksToBounds the child is not clipped and no group is needed.
        layer.masksToBounds = false
        let open = try CPURenderer().render(root)
        #expect(Self.near(open.rgba(x: 0, y: 0), 0, 255, 0))
    }

    @Test func nestedRoundedClipsBothApply() throws {
        let root = Self.root(160)
        let outer = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        outer.cornerRadius = 20
        outer.masksToBounds = true
        let inner = Layer(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        inner.cornerRadius = 20
        inner.masksToBounds = true
        let fill = Layer(frame: CGRect(x: -60, y: -60, width: 300, height: 300))
        fill.backgroundColor = .green
        inner.addSublayer(fill)
        outer.addSublayer(inner)
        root.addSublayer(outer)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.near(image.rgba(x: 75, y: 75), 0, 255, 0), "\(renderer.name): inside both")
            #expect(Self.near(image.rgba(x: 51, y: 51), 255, 255, 255), "\(renderer.name): outside the inner corner")
            #expect(Self.near(image.rgba(x: 99, y: 99), 255, 255, 255), "\(renderer.name): outside the outer corner")
            #expect(Self.near(image.rgba(x: 120, y: 120), 255, 255, 255), "\(renderer.name): outside the outer bounds")
            // The inner clip goes onto the fill's quad; the outer one then meets a shaped quad: one group.
            #expect(renderer.statistics.offscreenPasses == 1, "\(renderer.name)")
        }
    }

    @Test func roundedContentsNeedNoGroup() throws {
        let root = Self.root()
        let layer = Layer(frame: root.bounds)
        layer.contents = TestImages.quadrants(width: 10, height: 10)
        layer.cornerRadius = 20
        layer.masksToBounds = true
        root.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(image.rgba(x: 0, y: 0) == RGBA8(r: 255, g: 255, b: 255, a: 255), "\(renderer.name)")
            #expect(image.rgba(x: 20, y: 20).a == 255 && image.rgba(x: 20, y: 20) != RGBA8(r: 255, g: 255, b: 255, a: 255))
            #expect(renderer.statistics.offscreenPasses == 0, "\(renderer.name)")
        }
    }

    @Test func rotatedAndScaledRoundedLayersAgreeAcrossRenderers() throws {
        let root = Self.root(160)
        let layer = Layer(frame: CGRect(x: 30, y: 30, width: 100, height: 70))
        layer.backgroundColor = Color(red: 0.9, green: 0.4, blue: 0.1, alpha: 0.8)
        layer.cornerRadius = 18
        layer.borderWidth = 4
        layer.borderColor = Color(red: 0.1, green: 0.2, blue: 0.9, alpha: 1)
        layer.masksToBounds = true
        layer.transform = Transform3D(rotationAngle: 0.4).concatenating(Transform3D(perspectiveDistance: 400))
        let child = Layer(frame: CGRect(x: 50, y: -10, width: 80, height: 50))
        child.backgroundColor = .green
        layer.addSublayer(child)
        root.addSublayer(layer)
        guard let gles = GLESAvailability.renderer() else { return }
        for scale in [1.0, 2.0] {
            let a = try CPURenderer().render(root, scale: scale), b = try gles.render(root, scale: scale)
            #expect(ImageDifference.meetsParity(a, b), "scale \(scale): \(String(describing: ImageDifference(a, b, tolerance: 2)))")
        }
    }
}
