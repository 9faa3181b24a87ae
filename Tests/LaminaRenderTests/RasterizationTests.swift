import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// shouldRasterize and rasterizationScale (docs/semantics.md, "Rasterized layers"): the layer and its subtree drawn
/// once offscreen in the layer's own space at rasterizationScale pixels per point, composited with the layer's
/// transform, and kept while the subtree does not change.
@Suite struct RasterizationTests {
    static let red = RGBA8(r: 255, g: 0, b: 0, a: 255)
    static let blue = RGBA8(r: 0, g: 0, b: 255, a: 255)
    static let white = RGBA8(r: 255, g: 255, b: 255, a: 255)

    /// An 8-point blue layer scaled 2x about its top-left corner (16 pixels at scale 1), holding a red 1.5-point
    /// square at (2, 2).
    static func tree(rasterize: Bool, scale: CGFloat) -> (root: Layer, layer: Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 24, height: 24)
        root.backgroundColor = .white
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        layer.anchorPoint = .zero
        layer.position = .zero
        layer.transform = Transform3D(scaleX: 2, y: 2, z: 1)
        layer.backgroundColor = .blue
        layer.shouldRasterize = rasterize
        layer.rasterizationScale = scale
        layer.magnificationFilter = .nearest
        let dot = Layer(frame: CGRect(x: 2, y: 2, width: 1.5, height: 1.5))
        dot.backgroundColor = .red
        layer.addSublayer(dot)
        root.addSublayer(layer)
        return (root, layer)
    }

    @Test func aLowRasterizationScaleShowsBlocks() throws {
        for renderer in ReferenceScenes.renderers() {
            // Drawn directly: the dot is 3 x 3 pixels (4 ..< 7).
            let direct = try renderer.render(Self.tree(rasterize: false, scale: 0.5).root)
            #expect(direct.rgba(x: 6, y: 6) == Self.red, "\(renderer.name)")
            #expect(direct.rgba(x: 7, y: 7) == Self.blue, "\(renderer.name)")
            // At 0.5 pixels per point the picture is 4 x 4; the dot covers the centre of its pixel (1, 1), which the
            // 2x transform shows as the 4 x 4 block 4 ..< 8.
            let blocky = try renderer.render(Self.tree(rasterize: true, scale: 0.5).root)
            for y in 0..<16 {
                for x in 0..<16 {
                    let expected = (4..<8).contains(x) && (4..<8).contains(y) ? Self.red : Self.blue
                    #expect(blocky.rgba(x: x, y: y) == expected, "\(renderer.name) (\(x), \(y))")
                }
            }
            #expect(blocky.rgba(x: 16, y: 16) == Self.white)
            // At 2 pixels per point the picture is as sharp as the screen: the same pixels as drawn directly.
            let sharp = try renderer.render(Self.tree(rasterize: true, scale: 2).root)
            #expect(sharp.rgba(x: 6, y: 6) == Self.red, "\(renderer.name)")
            #expect(sharp.rgba(x: 7, y: 7) == Self.blue, "\(renderer.name)")
        }
    }

    @Test func anUnchangedRasterizedSubtreeIsNotDrawnAgain() throws {
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        for renderer in ReferenceScenes.renderers() {
            let (root, layer) = Self.tree(rasterize: true, scale: 0.5)
            let sibling = Layer(frame: CGRect(x: 18, y: 18, width: 4, height: 4))
            sibling.backgroundColor = .green
            root.addSublayer(sibling)
            let cache = renderer.planCache(for: root)
            _ = try renderer.render(root)
            #expect(cache.statistics.rasterizationsDrawn == 1, "\(renderer.name): the first frame draws the picture")
            // A sibling changes: the root is planned again, the rasterized layer's picture is not drawn again.
            sibling.backgroundColor = .black
            _ = try renderer.render(root)
            #expect(cache.statistics.rasterizationsDrawn == 0, "\(renderer.name)")
            // The rasterized layer moves: its picture moves with it.
            layer.position = CGPoint(x: 2, y: 0)
            let moved = try renderer.render(root)
            #expect(cache.statistics.rasterizationsDrawn == 0, "\(renderer.name)")
            #expect(moved.rgba(x: 6 + 2, y: 4) == Self.red, "\(renderer.name): the block moved with the layer")
            // Its opacity changes: the same picture, faded.
            layer.opacity = 0.5
            _ = try renderer.render(root)
            #expect(cache.statistics.rasterizationsDrawn == 1, "\(renderer.name): opacity is the layer's own paint")
            _ = try renderer.render(root)
            #expect(cache.statistics.rasterizationsDrawn == 0, "\(renderer.name)")
            // Something inside changes: drawn again.
            layer.sublayers?.first?.backgroundColor = .green
            let changed = try renderer.render(root)
            #expect(cache.statistics.rasterizationsDrawn == 1, "\(renderer.name)")
            #expect(changed.rgba(x: 8, y: 6).g > 100, "\(renderer.name): the new picture shows")
        }
    }

    @Test func theLayersOpacityFadesThePictureAsAGroup() throws {
        for renderer in ReferenceScenes.renderers() {
            func render(rasterize: Bool) throws -> Image {
                let root = Layer()
                root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
                root.backgroundColor = .white
                let layer = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
                layer.opacity = 0.5
                layer.allowsGroupOpacity = true
                layer.shouldRasterize = rasterize
                for x in [5.0, 15.0] {
                    let square = Layer(frame: CGRect(x: x, y: 5, width: 20, height: 20))
                    square.backgroundColor = .red
                    layer.addSublayer(square)
                }
                root.addSublayer(layer)
                return try renderer.render(root)
            }
            let grouped = try render(rasterize: false), rasterized = try render(rasterize: true)
            let difference = try #require(ImageDifference(grouped, rasterized, tolerance: 1))
            #expect(difference.pixelsOverTolerance == 0, "\(renderer.name): max \(difference.maxChannelDifference)")
            #expect(rasterized.rgba(x: 20, y: 10) == rasterized.rgba(x: 10, y: 10), "the overlap is not darker")
        }
    }

    @Test func rasterizedLayersAreDrawnAlikeOnBothRenderers() throws {
        guard let gles = GLESAvailability.renderer() else { return }
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 120, height: 120)
        root.backgroundColor = .white
        let layer = Layer(frame: CGRect(x: 20, y: 20, width: 70, height: 60))
        layer.backgroundColor = .blue
        layer.cornerRadius = 12
        layer.borderWidth = 3
        layer.borderColor = .black
        layer.shouldRasterize = true
        layer.rasterizationScale = 1.5
        layer.transform = Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1)
        layer.shadowOpacity = 0.6
        layer.shadowRadius = 4
        let child = Layer(frame: CGRect(x: 10, y: 10, width: 40, height: 20))
        child.backgroundColor = .red
        child.cornerRadius = 6
        child.cornerCurve = .continuous
        layer.addSublayer(child)
        root.addSublayer(layer)
        for scale in [1.0, 2.0] {
            let a = try CPURenderer().render(root, scale: scale)
            let b = try gles.render(root, scale: scale)
            #expect(ImageDifference.meetsParity(a, b), "scale \(scale)")
        }
    }
}
