import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// anchorPointZ and isGeometryFlipped (docs/semantics.md, "Geometry"): in the geometry conversion and hit testing
/// use, and in the pixels the planner draws.
@Suite struct GeometryPropertyRenderTests {
    let renderer = CPURenderer()
    let red = RGBA8(r: 255, g: 0, b: 0, a: 255), white = RGBA8(r: 255, g: 255, b: 255, a: 255)

    func root(_ size: CGFloat) -> Layer {
        // A root placed at the origin of the top space, so hit-test points are in its own space.
        let root = Layer(frame: CGRect(x: 0, y: 0, width: size, height: size))
        root.backgroundColor = .white
        return root
    }

    @Test func aGeometryFlippedLayerPutsItsSublayersYUpward() throws {
        let root = root(100)
        root.isGeometryFlipped = true
        let child = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 20))
        child.backgroundColor = .red
        root.addSublayer(child)
        // The child's top-left corner (0, 0) sits at the root's bottom-left: y runs up from the bottom edge.
        let corner = root.convert(CGPoint(x: 0, y: 0), from: child)
        #expect(corner == CGPoint(x: 0, y: 100))
        #expect(root.convert(CGPoint(x: 5, y: 20), from: child) == CGPoint(x: 5, y: 80))
        #expect(root.hitTest(CGPoint(x: 5, y: 90)) === child)
        #expect(root.hitTest(CGPoint(x: 5, y: 10)) === root)
        let image = try renderer.render(root, scale: 1)
        #expect(image.rgba(x: 5, y: 85) == red)
        #expect(image.rgba(x: 5, y: 95) == red)
        #expect(image.rgba(x: 5, y: 5) == white)
        #expect(image.rgba(x: 5, y: 75) == white)
        // Off again: the child is back at the top.
        root.isGeometryFlipped = false
        let unflipped = try renderer.render(root, scale: 1)
        #expect(unflipped.rgba(x: 5, y: 5) == red)
        #expect(unflipped.rgba(x: 5, y: 95) == white)
    }

    @Test func aFlipIsWithinTheBoundsWhateverTheirOrigin() throws {
        let root = root(100)
        let flipped = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        flipped.bounds = CGRect(x: 0, y: 50, width: 100, height: 100)
        flipped.isGeometryFlipped = true
        root.addSublayer(flipped)
        let child = Layer(frame: CGRect(x: 0, y: 50, width: 10, height: 10))
        flipped.addSublayer(child)
        // In the flipped layer's space y -> 50 + 150 - y: the child's top-left corner (50) is at 150, the bottom edge.
        #expect(flipped.convert(CGPoint(x: 0, y: 0), from: child) == CGPoint(x: 0, y: 150))
        #expect(root.convert(CGPoint(x: 0, y: 0), from: child) == CGPoint(x: 0, y: 100))
    }

    @Test func anchorPointZMovesTheCentreOfATurn() throws {
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.position = CGPoint(x: 50, y: 50)
        layer.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0)
        // Edge-on about the anchor point: a line at x = 50.
        #expect(abs(layer.frame.midX - 50) < 1e-9 && abs(layer.frame.width) < 1e-9)
        layer.anchorPointZ = 10
        // Turned about (50, 50, 10): the plane z = 0 lies 10 behind the axis and swings 10 to the side.
        #expect(abs(abs(layer.frame.midX - 50) - 10) < 1e-9)
        #expect(abs(layer.frame.width) < 1e-9)
        // Without a transform the anchor's z changes nothing in 2D.
        layer.transform = .identity
        #expect(layer.frame == CGRect(x: 0, y: 0, width: 100, height: 100))
    }

    @Test func anchorPointZPushesALayerBackUnderPerspective() throws {
        func render(anchorZ: CGFloat) throws -> Image {
            let root = root(200)
            var perspective = Transform3D.identity
            perspective.m34 = -1 / 500
            root.sublayerTransform = perspective
            let card = Layer(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
            card.backgroundColor = .red
            card.anchorPointZ = anchorZ
            root.addSublayer(card)
            return try renderer.render(root, scale: 1)
        }
        let flat = try render(anchorZ: 0)
        #expect(flat.rgba(x: 55, y: 100) == red)
        // 100 points deep: seen at 500 / 600 of its size (about 83 points wide, 58.3...141.7).
        let deep = try render(anchorZ: 100)
        #expect(deep.rgba(x: 55, y: 100) == white)
        #expect(deep.rgba(x: 62, y: 100) == red)
        #expect(deep.rgba(x: 100, y: 100) == red)
        #expect(deep.rgba(x: 145, y: 100) == white)
    }

    @Test func hintsChangeNoPixel() throws {
        func render(_ configure: (Layer) -> Void) throws -> Image {
            let root = root(40)
            let layer = Layer(frame: CGRect(x: 5.5, y: 5.25, width: 20, height: 20))
            layer.backgroundColor = .red
            layer.cornerRadius = 6
            layer.allowsEdgeAntialiasing = true
            layer.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
            configure(layer)
            root.addSublayer(layer)
            return try renderer.render(root, scale: 1)
        }
        let plain = try render { _ in }
        let hinted = try render { layer in
            layer.isOpaque = true
            layer.drawsAsynchronously = true
            layer.contentsFormat = .rgba16Float
            layer.edgeAntialiasingMask = [.layerTopEdge]
        }
        var differing = 0
        for y in 0..<plain.height {
            for x in 0..<plain.width where plain.rgba(x: x, y: y) != hinted.rgba(x: x, y: y) { differing += 1 }
        }
        #expect(differing == 0)
        // The picture is not trivial: the layer's antialiased edge is there.
        #expect(plain.rgba(x: 15, y: 15) == red)
    }
}
