import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Transforms, single-sided layers and edge antialiasing on every renderer, at pixels derived by hand.
@Suite struct GeometryRenderTests {
    let red = RGBA8(r: 255, g: 0, b: 0, a: 255), green = RGBA8(r: 0, g: 255, b: 0, a: 255)
    let blue = RGBA8(r: 0, g: 0, b: 255, a: 255), white = RGBA8(r: 255, g: 255, b: 255, a: 255)

    func root(_ w: CGFloat, _ h: CGFloat) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        root.backgroundColor = .white
        return root
    }

    func close(_ p: RGBA8, _ q: RGBA8, _ tolerance: Int = 2) -> Bool { p.maxChannelDifference(to: q) <= tolerance }

    @Test func edgeAntialiasingGivesExactAreaCoverage() throws {
        let r = root(40, 10)
        let layer = Layer(frame: CGRect(x: 10.25, y: 0, width: 10.5, height: 10))
        layer.backgroundColor = .red
        layer.allowsEdgeAntialiasing = true
        r.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(r)
            // Pixels 10 and 20 are three quarters covered: red over white at 0.75 = (255, 64, 64).
            #expect(close(image.rgba(x: 10, y: 5), RGBA8(r: 255, g: 64, b: 64, a: 255)), "\(renderer.name)")
            #expect(close(image.rgba(x: 20, y: 5), RGBA8(r: 255, g: 64, b: 64, a: 255)), "\(renderer.name)")
            #expect(image.rgba(x: 15, y: 5) == red && image.rgba(x: 9, y: 5) == white && image.rgba(x: 21, y: 5) == white)
        }
        // Without antialiasing the centres decide: 10.5 and 20.5 lie in 10.25 ..< 20.75, 21.5 does not.
        layer.allowsEdgeAntialiasing = false
        let sharp = try CPURenderer().render(r)
        #expect(sharp.rgba(x: 10, y: 5) == red && sharp.rgba(x: 20, y: 5) == red && sharp.rgba(x: 21, y: 5) == white)
    }

    @Test func rotatedSpritesWithAndWithoutAntialiasing() throws {
        let r = root(100, 100)
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
        layer.position = CGPoint(x: 50, y: 50)
        layer.contents = try Image(width: 4, height: 4, color: .blue)
        layer.transform = Transform3D(rotationAngle: .pi / 4)
        r.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let sharp = try renderer.render(r)
            // Every pixel is pure white or pure blue.
            for x in 0..<100 {
                let p = sharp.rgba(x: x, y: 40)
                #expect(p == white || p == blue, "\(renderer.name) sharp at x \(x): \(p)")
            }
            layer.allowsEdgeAntialiasing = true
            let smooth = try renderer.render(r)
            layer.allowsEdgeAntialiasing = false
            // The diamond's half-diagonal is 35.355: its upper-left edge is x + y = 64.645. A turned quad's edges take
            // the shape formula (docs/semantics.md, "Coverage in the shader"): pixel (24, 40)'s centre (24.5, 40.5)
            // lies (65 - 64.645) / sqrt 2 = 0.251 inside, coverage 0.751 -> 192, so blue over white leaves
            // 255 - 192 = 63 in red and green. (The exact area, 0.792, gave 53 before.)
            let edge = smooth.rgba(x: 24, y: 40)
            #expect(close(edge, RGBA8(r: 63, g: 63, b: 255, a: 255)), "\(renderer.name) smooth edge \(edge)")
            #expect(smooth.rgba(x: 50, y: 40) == blue && smooth.rgba(x: 20, y: 40) == white)
        }
    }

    @Test func antialiasedNineSlicesHaveNoInnerSeams() throws {
        let r = root(120, 60)
        let layer = Layer(frame: CGRect(x: 0.5, y: 0.5, width: 99.3, height: 49.6))
        layer.contents = TestImages.nineSlice(cell: 10)
        layer.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        layer.allowsEdgeAntialiasing = true
        r.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(r)
            // Inner cell edges at x = 10.5 and y = 10.5 stay sharp: no background shows through the seams.
            for y in [5, 10, 11, 25] {
                for x in [9, 10, 11, 50, 89, 90] {
                    #expect(image.rgba(x: x, y: y).r != 255 || image.rgba(x: x, y: y).g != 255,
                            "\(renderer.name) seam at (\(x), \(y)): \(image.rgba(x: x, y: y))")
                }
            }
            // The outer edge is smooth: pixel 0 is half covered, blue over white.
            #expect(close(image.rgba(x: 0, y: 25), RGBA8(r: 128, g: 255, b: 128, a: 255), 3), "\(renderer.name)")
        }
    }

    /// The book's cube: six faces around a container whose sublayerTransform has perspective.
    func cube(doubleSided: Bool) -> Layer {
        let r = root(300, 300)
        let container = Layer(frame: CGRect(x: 50, y: 50, width: 200, height: 200))
        container.sublayerTransform = Transform3D(perspectiveDistance: 500)
        let faces: [(Transform3D, Color)] = [
            (Transform3D(translationX: 0, y: 0, z: 50), .red),
            (Transform3D(translationX: 50, y: 0, z: 0).rotated(by: .pi / 2, x: 0, y: 1, z: 0), .green),
            (Transform3D(translationX: 0, y: -50, z: 0).rotated(by: .pi / 2, x: 1, y: 0, z: 0), .cyan),
            (Transform3D(translationX: 0, y: 50, z: 0).rotated(by: -.pi / 2, x: 1, y: 0, z: 0), .magenta),
            (Transform3D(translationX: -50, y: 0, z: 0).rotated(by: -.pi / 2, x: 0, y: 1, z: 0), .yellow),
            (Transform3D(translationX: 0, y: 0, z: -50).rotated(by: .pi, x: 0, y: 1, z: 0), .blue),
        ]
        for (transform, colour) in faces {
            let face = Layer(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
            face.transform = transform
            face.backgroundColor = colour
            face.isDoubleSided = doubleSided
            container.addSublayer(face)
        }
        r.addSublayer(container)
        return r
    }

    @Test func cubeFacesBehindAreCulledWhenSingleSided() throws {
        for renderer in ReferenceScenes.renderers() {
            let solid = try renderer.render(cube(doubleSided: false))
            // The front face at z = 50 is magnified by 500 / 450: it spans 150 -+ 55.6 pixels.
            #expect(solid.rgba(x: 150, y: 150) == red, "\(renderer.name)")
            #expect(solid.rgba(x: 200, y: 150) == red && solid.rgba(x: 150, y: 100) == red, "\(renderer.name)")
            // Every other face turns its back to the eye (it looks straight at the front face): nothing outside.
            #expect(solid.rgba(x: 210, y: 150) == white && solid.rgba(x: 150, y: 90) == white, "\(renderer.name)")
            let open = try renderer.render(cube(doubleSided: true))
            // Double-sided, the back face (painted last, no depth buffer) covers the centre, and the right face
            // (x = 50, from 500 / 550 to 500 / 450 of 50 points out) shows between 195.5 and 205.6.
            #expect(open.rgba(x: 150, y: 150) == blue && open.rgba(x: 202, y: 150) == green, "\(renderer.name)")
        }
    }

    @Test func rotatedNineSliceMatchesItsUnrotatedCells() throws {
        let r = root(200, 200)
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 120, height: 60)
        layer.position = CGPoint(x: 100, y: 100)
        layer.contents = TestImages.nineSlice(cell: 10)
        layer.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        layer.transform = Transform3D(rotationAngle: .pi / 2)
        r.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(r)
            // A quarter turn clockwise: the layer's top-left corner cell goes to the top-right, (125...130, 40...50).
            #expect(image.rgba(x: 127, y: 45) == blue && image.rgba(x: 100, y: 100) == red, "\(renderer.name)")
            // The layer's left edge cell (x 0...10, y 10...50) now runs along the top: y 40...50, x 80...120.
            #expect(image.rgba(x: 100, y: 45) == green && image.rgba(x: 75, y: 45) == blue, "\(renderer.name)")
            #expect(image.rgba(x: 100, y: 35) == white && image.rgba(x: 135, y: 100) == white, "\(renderer.name)")
        }
    }
}

/// Perspective sampling far from the target's origin: pixman's own projective path steps a 16.16 fixed-point w and
/// drifted by texels there (differences up to 140 on fine detail); the CPU renderer now samples perspective quads
/// as the GLES shader does. (Nearest sampling under perspective can still pick the neighbouring texel on a rare
/// pixel whose sample point lies within float rounding of a texel edge: docs/semantics.md.)
@Suite struct PerspectiveParityTests {
    @Test(arguments: [1.0, 2.0])
    func tiltedDetailedLayersAgreeEverywhere(scale: Double) throws {
        guard let gles = GLESAvailability.renderer() else { return }
        let detail = try Image(width: 301, height: 203)
        for y in 0..<203 {
            for x in 0..<301 {
                detail.setRGBA(RGBA8(r: UInt8(255 * x / 300), g: UInt8(255 * y / 202),
                                     b: UInt8((x / 4 + y / 4) % 2 * 200 + 40), a: 255), x: x, y: y)
            }
        }
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = .white
        let stage = Layer(frame: root.bounds)
        stage.sublayerTransform = Transform3D(perspectiveDistance: 120)
        root.addSublayer(stage)
        for (frame, filter) in [(CGRect(x: 300, y: 200, width: 50, height: 40), Filter.linear),
                                (CGRect(x: 20, y: 20, width: 50, height: 40), .linear),
                                (CGRect(x: 250, y: 30, width: 60, height: 50), .linear)] {
            let layer = Layer(frame: frame)
            layer.contents = detail
            layer.magnificationFilter = filter
            layer.minificationFilter = filter
            layer.transform = Transform3D(rotationAngle: 50 * .pi / 180, x: 0, y: 1, z: 0)
            stage.addSublayer(layer)
        }
        let a = try CPURenderer().render(root, scale: scale), b = try gles.render(root, scale: scale)
        let difference = try #require(ImageDifference(a, b, tolerance: 2))
        #expect(difference.maxChannelDifference <= 3, "\(difference.maxChannelDifference) \(difference.pixelsOverTolerance)")
        #expect(ImageDifference.meetsParity(a, b))
        // The layers are there: the far one's middle is not the background.
        #expect(a.rgba(x: Int(325 * scale), y: Int(220 * scale)) != RGBA8(r: 255, g: 255, b: 255, a: 255))
    }
}
