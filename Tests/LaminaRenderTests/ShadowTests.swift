import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Shadows on every renderer: shape, offset, blur (sigma = shadowRadius), colour, clipping and caching, at values
/// worked out by hand from the kernel's definition.
@Suite struct ShadowTests {
    /// A white output of `size` points with one layer of `color` at `frame` casting a black shadow.
    static func scene(
        size: CGFloat = 100, frame: CGRect = CGRect(x: 20, y: 20, width: 40, height: 40), color: Color = .blue,
        _ configure: (Layer) -> Void
    ) -> (root: Layer, layer: Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: size, height: size)
        root.backgroundColor = .white
        let layer = Layer(frame: frame)
        layer.backgroundColor = color
        layer.shadowOpacity = 1
        configure(layer)
        root.addSublayer(layer)
        return (root, layer)
    }

    static func grey(_ p: RGBA8, _ value: Int, tolerance: Int = 1) -> Bool {
        p.maxChannelDifference(to: RGBA8(r: UInt8(value), g: UInt8(value), b: UInt8(value), a: 255)) <= tolerance
    }

    @Test func aHardShadowIsTheSilhouetteMoved() throws {
        let (root, _) = Self.scene {
            $0.shadowRadius = 0
            $0.shadowOffset = CGSize(width: 10, height: 10)
        }
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.grey(image.rgba(x: 65, y: 65), 0), "\(renderer.name): shadow below right")
            #expect(image.rgba(x: 25, y: 25) == RGBA8(r: 0, g: 0, b: 255, a: 255), "\(renderer.name): the layer above")
            #expect(Self.grey(image.rgba(x: 75, y: 75), 255), "\(renderer.name)")
            #expect(Self.grey(image.rgba(x: 65, y: 25), 255), "\(renderer.name): the shadow starts at y 30")
            #expect(renderer.statistics.shadowsBlurred == 1 && renderer.statistics.offscreenPasses == 2)
        }
    }

    @Test func theDefaultOffsetPutsTheShadowThreePointsAbove() throws {
        let (root, _) = Self.scene { $0.shadowRadius = 0 }
        for renderer in ReferenceScenes.renderers() {
            for scale in [1.0, 2.0] {
                let image = try renderer.render(root, scale: scale)
                let s = Int(scale)
                #expect(Self.grey(image.rgba(x: 30 * s, y: 18 * s), 0), "\(renderer.name) @\(scale)")
                #expect(Self.grey(image.rgba(x: 30 * s, y: 16 * s), 255), "\(renderer.name) @\(scale)")
                #expect(Self.grey(image.rgba(x: 30 * s, y: 60 * s), 255), "\(renderer.name) @\(scale): nothing below")
            }
        }
    }

    @Test func theBlurIsAGaussianOfSigmaShadowRadius() throws {
        // Sigma 2 px: R = 6, weights exp(-i^2/8) / 5.008122. Outside a straight edge far from corners the column is
        // constant, so the shadow's alpha k pixels out is round(255 x sum_{i >= k} w(i)): k = 1: 102, k = 2: 57.
        let (root, _) = Self.scene {
            $0.shadowRadius = 2
            $0.shadowOffset = .zero
            $0.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
        }
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.grey(image.rgba(x: 19, y: 50), 255 - 102), "\(renderer.name): \(image.rgba(x: 19, y: 50))")
            #expect(Self.grey(image.rgba(x: 18, y: 50), 255 - 57), "\(renderer.name): \(image.rgba(x: 18, y: 50))")
            #expect(Self.grey(image.rgba(x: 50, y: 80), 255 - 102), "\(renderer.name): below, the same")
            #expect(Self.grey(image.rgba(x: 10, y: 50), 255), "\(renderer.name): beyond 3 sigma")
        }
        // At scale 2 sigma is 4 pixels: the first pixel out gets round(255 x sum_{i=1..12} w(i)) = 115.
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root, scale: 2)
            #expect(Self.grey(image.rgba(x: 39, y: 100), 255 - 115), "\(renderer.name): \(image.rgba(x: 39, y: 100))")
        }
    }

    @Test func colourAndOpacityTintTheShadow() throws {
        let (root, _) = Self.scene {
            $0.shadowRadius = 0
            $0.shadowOffset = CGSize(width: 10, height: 10)
            $0.shadowColor = .red
            $0.shadowOpacity = 0.5
        }
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            // Red at alpha 128/255 over white: (255, 127, 127).
            #expect(image.rgba(x: 65, y: 65).maxChannelDifference(to: RGBA8(r: 255, g: 127, b: 127, a: 255)) <= 1,
                    "\(renderer.name): \(image.rgba(x: 65, y: 65))")
        }
    }

    @Test func theShadowTakesTheAlphaOfEverythingTheLayerPaints() throws {
        let (root, layer) = Self.scene {
            $0.backgroundColor = nil
            $0.shadowRadius = 0
            $0.shadowOffset = CGSize(width: 0, height: 30)
        }
        let child = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        child.backgroundColor = Color(red: 0, green: 1, blue: 0, alpha: 0.5)
        layer.addSublayer(child)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            // The child's alpha 128 in black, 30 points down: 255 - 128 = 127.
            #expect(Self.grey(image.rgba(x: 25, y: 55), 127), "\(renderer.name): \(image.rgba(x: 25, y: 55))")
            #expect(Self.grey(image.rgba(x: 45, y: 55), 255), "\(renderer.name): no background, no shadow there")
        }
    }

    @Test func aShadowPathGivesTheShape() throws {
        let (root, _) = Self.scene {
            $0.backgroundColor = nil
            $0.shadowRadius = 0
            $0.shadowOffset = .zero
            $0.shadowPath = Path(rect: CGRect(x: 0, y: 0, width: 20, height: 20)).cgPath
        }
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.grey(image.rgba(x: 25, y: 25), 0), "\(renderer.name): inside the path")
            #expect(Self.grey(image.rgba(x: 50, y: 50), 255), "\(renderer.name): the layer paints nothing there")
        }
    }

    @Test func masksToBoundsClipsTheShadow() throws {
        let (root, _) = Self.scene {
            $0.shadowRadius = 0
            $0.shadowOffset = CGSize(width: 10, height: 10)
            $0.masksToBounds = true
        }
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.grey(image.rgba(x: 65, y: 65), 255), "\(renderer.name)")
        }
    }

    @Test func groupOpacityFadesTheShadowWithTheLayer() throws {
        let (root, layer) = Self.scene {
            $0.shadowRadius = 0
            $0.shadowOffset = CGSize(width: 10, height: 10)
            $0.opacity = 0.5
        }
        layer.addSublayer(Layer(frame: CGRect(x: 0, y: 0, width: 5, height: 5)))
        layer.sublayers![0].backgroundColor = .red
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            #expect(Self.grey(image.rgba(x: 65, y: 65), 127, tolerance: 2), "\(renderer.name): \(image.rgba(x: 65, y: 65))")
        }
    }

    @Test func anUnchangedShadowIsBlurredOnceAndAWholePixelMoveReusesIt() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        // Whole frames (plans with the renderer's plan cache, drawn whole): live frames would redraw only the damage.
        for renderer in ReferenceScenes.renderers() {
            let (root, layer) = Self.scene { $0.shadowRadius = 3 }
            let first = try renderer.render(renderer.plan(root))
            #expect(renderer.statistics.shadowsBlurred == 1 && renderer.statistics.shadowsReused == 0)
            let second = try renderer.render(renderer.plan(root))
            #expect(renderer.statistics.shadowsBlurred == 0 && renderer.statistics.shadowsReused == 1,
                    "\(renderer.name): \(renderer.statistics)")
            #expect(renderer.statistics.offscreenPasses == 0)
            #expect(ImageDifference(first, second, tolerance: 0)?.maxChannelDifference == 0)
            layer.position.x += 5
            let moved = try renderer.render(renderer.plan(root))
            #expect(renderer.statistics.shadowsBlurred == 0 && renderer.statistics.shadowsReused == 1,
                    "\(renderer.name): the silhouette is relative to its buffer")
            #expect(moved.rgba(x: 64, y: 40) != first.rgba(x: 64, y: 40) || moved.rgba(x: 18, y: 40) != first.rgba(x: 18, y: 40))
            layer.bounds.size.width += 4
            _ = try renderer.render(renderer.plan(root))
            #expect(renderer.statistics.shadowsBlurred == 1, "\(renderer.name): a new shape is blurred again")
        }
    }

    @Test func shadowsNoFrameUsesAreReleased() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let (root, layer) = Self.scene { $0.shadowRadius = 2 }
        let cpu = CPURenderer()
        _ = try cpu.render(cpu.plan(root))
        #expect(cpu.cachedShadowCount == 1)
        layer.shadowOpacity = 0
        for _ in 0..<4 { _ = try cpu.render(cpu.plan(root)) }
        #expect(cpu.cachedShadowCount == 0)
        if let gles = GLESAvailability.renderer() {
            layer.shadowOpacity = 1
            _ = try gles.render(gles.plan(root))
            #expect(gles.cachedShadowCount == 1)
            // A new shape each frame: the old ones go after four frames unused, so at most five are held.
            for step in 1...8 {
                layer.bounds.size.width = 40 + CGFloat(step)
                _ = try gles.render(gles.plan(root))
                #expect(gles.statistics.shadowsBlurred == 1)
            }
            #expect(gles.cachedShadowCount <= 5)
            layer.shadowOpacity = 0
            for _ in 0..<4 { _ = try gles.render(gles.plan(root)) }
            #expect(gles.cachedShadowCount == 0)
        }
    }

    @Test func aShadowOverThePixelLimitsIsAClearError() throws {
        let (root, layer) = Self.scene { $0.shadowRadius = 30 }
        layer.name = "card"
        // Sigma 30 is blurred at half resolution with sigma sqrt(30^2 - 2^2 / 4) / 2 = 14.99 texels (radius 45),
        // which spreads 2 x (45 + 3) = 96 pixels, so the 40-pixel silhouette needs 40 + 2 x 96 = 232 pixels a side
        // (not cut to the 100-pixel output: that would save less than 2 x 64 pixels).
        let planner = Planner(limits: PixelLimits(maxDimension: 200))
        #expect(throws: PlanError.effectTooLarge(
            #"the shadow of layer "card" is too large: 232x232 pixels exceeds the limit of 200 pixels per side"#)) {
            _ = try planner.plan(root)
        }
        layer.shadowPath = Path(rect: CGRect(x: 0, y: 0, width: 400, height: 10)).cgPath
        layer.shadowRadius = 0
        #expect(throws: PlanError.effectTooLarge(
            #"the shadowPath of layer "card" is too large: 402x12 pixels exceeds the limit of 200 pixels per side"#)) {
            _ = try planner.plan(root)
        }
    }

    @Test func rotatedBlurredShadowsAgreeAcrossRenderers() throws {
        let (root, layer) = Self.scene {
            $0.shadowRadius = 4
            $0.shadowOffset = CGSize(width: 3, height: 5)
            $0.cornerRadius = 8
            $0.shadowColor = Color(red: 0.2, green: 0, blue: 0.4, alpha: 1)
            $0.shadowOpacity = 0.7
            $0.transform = Transform3D(rotationAngle: 0.3)
        }
        let child = Layer(frame: CGRect(x: 10, y: 10, width: 50, height: 10))
        child.backgroundColor = .yellow
        child.shadowOpacity = 0.8
        child.shadowRadius = 1
        layer.addSublayer(child)
        guard let gles = GLESAvailability.renderer() else { return }
        for scale in [1.0, 2.0] {
            let a = try CPURenderer().render(root, scale: scale), b = try gles.render(root, scale: scale)
            #expect(ImageDifference.meetsParity(a, b), "scale \(scale): \(String(describing: ImageDifference(a, b, tolerance: 2)))")
        }
    }
}
