import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Blend modes on every renderer beyond the reference scenes (Scenes/blend, whose probes come from the W3C
/// formulas): live frames of a blended layer moving over a backdrop equal fresh renders, a blended layer keeps its
/// effect inside its group's bounds, and every mode's plan agrees between the renderers.
@Suite struct BlendModeRenderTests {
    /// A 120 x 80 root with a white background, two coloured stripes and a blended card over them.
    static func scene(_ filter: String) -> (root: Layer, card: Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
        root.backgroundColor = .white
        let stripe = Layer(frame: CGRect(x: 0, y: 20, width: 120, height: 20))
        stripe.backgroundColor = Color(red: 0.9, green: 0.4, blue: 0.1, alpha: 1)
        let glass = Layer(frame: CGRect(x: 30, y: 0, width: 20, height: 80))
        glass.backgroundColor = Color(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.5)
        let card = Layer(frame: CGRect(x: 5, y: 10, width: 30, height: 40))
        card.backgroundColor = Color(red: 0.3, green: 0.8, blue: 0.5, alpha: 0.8)
        card.cornerRadius = 6
        let dot = Layer(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
        dot.backgroundColor = Color(red: 1, green: 0.9, blue: 0.2, alpha: 1)
        card.sublayers = [dot]
        card.compositingFilter = filter
        root.sublayers = [stripe, glass, card]
        return (root, card)
    }

    /// A blended card moved across frames: each live frame (damage only redrawn into a kept image) equals a fresh
    /// render of the same tree, for a blend mode and for the operations that change the backdrop where they land.
    @Test(arguments: ["multiplyBlendMode", "destinationOut", "hueBlendMode", "plusDarker", "sourceIn"])
    func liveFramesOfAMovingBlendedLayerEqualFreshRenders(_ filter: String) throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, card) = Self.scene(filter)
            let fresh = renderer is CPURenderer ? CPURenderer() as Renderer : try #require(GLESAvailability.renderer())
            for step in 0..<8 {
                Transaction.begin()
                Transaction.setDisableActions(true)
                card.position = CGPoint(x: 20 + Double(step) * 11, y: 30 + Double(step % 3) * 7)
                Transaction.commit()
                let frame = try renderer.render(root, at: 0)
                let expected = try fresh.render(Planner().plan(root, at: 0))
                #expect(memcmp(frame.baseAddress, expected.baseAddress, frame.byteCount) == 0,
                        "\(renderer.name), \(filter), step \(step)")
                if step > 0 {
                    #expect(renderer.statistics.damagedShare < 0.9, "\(renderer.name): only the card's path redrawn")
                }
            }
        }
    }

    /// Every mode, on the plan of the scene above at scales 1 and 2: the two renderers meet the parity bound.
    @Test(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"),
          arguments: LayerBlendMode.allCases)
    func everyModeMeetsParity(_ mode: LayerBlendMode) throws {
        let (root, _) = Self.scene(mode.rawValue)
        let gles = try #require(GLESAvailability.renderer())
        for scale in [1.0, 2.0] {
            let plan = try Planner(scale: scale).plan(root, at: 0)
            let a = try CPURenderer().render(plan)
            let b = try gles.render(plan)
            let difference = try #require(ImageDifference(a, b, tolerance: 2))
            #expect(ImageDifference.meetsParity(a, b),
                    "\(mode) at \(scale): max \(difference.maxChannelDifference), \(difference.pixelsOverTolerance) over 2")
        }
    }

    /// What the blended card does stays inside its group's bounds: pixels beside it are the backdrop's, even for
    /// operations that would clear the backdrop where the card has no pixels.
    @Test(arguments: ["sourceIn", "destinationIn", "sourceOut", "destinationAtop", "plusDarker"])
    func operationsLeaveTheBackdropWhereTheGroupHasNoPixels(_ filter: String) throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, card) = Self.scene(filter)
            Transaction.begin()
            Transaction.setDisableActions(true)
            card.position = CGPoint(x: 60, y: 40)
            Transaction.commit()
            let bare = Self.scene("normalBlendMode")
            bare.card.removeFromSuperlayer()
            let plain = try renderer.render(bare.root, at: 0)
            let image = try renderer.render(root, at: 0)
            // The rounded corner of the card (45, 20): inside the group's bounds, outside its picture.
            #expect(image.word(x: 45, y: 20) == plain.word(x: 45, y: 20), "\(renderer.name), \(filter)")
            // Right of the card and below it.
            #expect(image.word(x: 100, y: 30) == plain.word(x: 100, y: 30), "\(renderer.name), \(filter)")
        }
    }
}

/// A blended layer that is rasterized or casts a shadow: its bitmap and its shadow's silhouette are made without the
/// blend mode (over nothing it would clear them), and the finished picture is blended.
@Suite struct BlendModeEffectsRenderTests {
    static func tree(rasterized: Bool, shadowed: Bool) -> (root: Layer, cut: Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
        root.backgroundColor = Color(red: 0.2, green: 0.6, blue: 0.4, alpha: 1)
        let cut = Layer(frame: CGRect(x: 10, y: 10, width: 30, height: 30))
        cut.backgroundColor = .black
        cut.compositingFilter = "destinationOut"
        cut.shouldRasterize = rasterized
        if shadowed {
            cut.shadowOpacity = 1
            cut.shadowRadius = 0
            cut.shadowOffset = CGSize(width: 10, height: 10)
        }
        root.sublayers = [cut]
        return (root, cut)
    }

    @Test func aRasterizedBlendedLayerBlendsItsBitmap() throws {
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(Self.tree(rasterized: true, shadowed: false).root, at: 0)
            #expect(image.word(x: 25, y: 25) >> 24 == 0, "\(renderer.name): the opaque bitmap cuts the backdrop")
            #expect(image.word(x: 50, y: 50) >> 24 == 255, "\(renderer.name): outside it the backdrop stays")
        }
    }

    @Test func aBlendedLayersShadowIsBlendedWithIt() throws {
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(Self.tree(rasterized: false, shadowed: true).root, at: 0)
            // The shadow (offset 10, 10, opaque black) is part of the layer's group: it cuts the backdrop too.
            #expect(image.word(x: 45, y: 45) >> 24 == 0, "\(renderer.name): the shadow cuts where it falls")
            #expect(image.word(x: 25, y: 25) >> 24 == 0, "\(renderer.name)")
            #expect(image.word(x: 55, y: 5) >> 24 == 255, "\(renderer.name): nothing cut elsewhere")
        }
    }
}
