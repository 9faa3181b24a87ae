import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `mask`: a layer whose painted alpha masks a layer and its subtree, on every renderer.
@Suite struct MaskTests {
    func scene() -> (root: Layer, masked: Layer, mask: Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.backgroundColor = .white
        let masked = Layer(frame: CGRect(x: 10, y: 10, width: 80, height: 80))
        masked.backgroundColor = .red
        let child = Layer(frame: CGRect(x: 30, y: 20, width: 30, height: 40))
        child.backgroundColor = .blue
        masked.addSublayer(child)
        // Opaque on the left half, clear on the right, 50% alpha in a band at the bottom.
        let maskImage = try! Image(width: 2, height: 4)
        for y in 0..<4 {
            maskImage.setRGBA(RGBA8(r: 0, g: 0, b: 0, a: y == 3 ? 128 : 255), x: 0, y: y)
            maskImage.setRGBA(RGBA8(r: 0, g: 0, b: 0, a: 0), x: 1, y: y)
        }
        let mask = Layer(frame: CGRect(x: 0, y: 0, width: 80, height: 80))
        mask.contents = maskImage
        mask.magnificationFilter = .nearest
        masked.mask = mask
        root.addSublayer(masked)
        return (root, masked, mask)
    }

    func close(_ p: RGBA8, _ r: Int, _ g: Int, _ b: Int) -> Bool {
        p.maxChannelDifference(to: RGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: 255)) <= 2
    }

    @Test func theMaskAlphaMultipliesTheLayerAndItsSubtree() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, _, _) = scene()
            let image = try renderer.render(root)
            #expect(renderer.statistics.offscreenPasses == 1, "\(renderer.name)")
            #expect(close(image.rgba(x: 20, y: 30), 255, 0, 0), "\(renderer.name): left half shows the layer")
            #expect(close(image.rgba(x: 70, y: 40), 255, 255, 255), "\(renderer.name): right half masked out, child too")
            #expect(close(image.rgba(x: 55, y: 40), 255, 255, 255), "\(renderer.name): the child's part in the clear half")
            #expect(close(image.rgba(x: 45, y: 40), 0, 0, 255), "\(renderer.name): the child's part in the opaque half")
            // The bottom quarter (y 70 ... 90) has alpha 128: red at 0.5 over white.
            #expect(close(image.rgba(x: 20, y: 80), 255, 128, 128), "\(renderer.name): \(image.rgba(x: 20, y: 80))")
            #expect(close(image.rgba(x: 5, y: 5), 255, 255, 255), "\(renderer.name): outside")
        }
    }

    @Test func changesToTheMaskReachTheNextPlanAndRenderersAgree() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let (root, _, mask) = scene()
        _ = try Planner().plan(root)
        mask.position.x += 20  // the opaque half now covers x 30 ... 70 in the root
        let moved = try CPURenderer().render(root)
        #expect(close(moved.rgba(x: 20, y: 30), 255, 255, 255) && close(moved.rgba(x: 35, y: 30), 255, 0, 0))
        if let gles = GLESAvailability.renderer() {
            let other = try gles.render(root)
            #expect(ImageDifference.meetsParity(moved, other))
        }
    }
}
