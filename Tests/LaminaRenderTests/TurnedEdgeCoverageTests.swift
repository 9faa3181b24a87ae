import Foundation
import Lamina
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// Turned and sheared quads with antialiased edges take their coverage from the shape formula of their own outline
/// (`Quad.edgesAsShape`, docs/semantics.md "Coverage in the shader"): on the CPU renderer every pixel is the formula's
/// value, and so is every pixel of a perspective quad's; upright and partly antialiased quads keep the exact area.
@Suite struct TurnedEdgeFormulaTests {
    /// A white `size` layer at (x, y) turned by `angle` (and sheared by `shear`), antialiased, on a transparent root:
    /// each pixel's alpha is its coverage.
    static func tree(angle: CGFloat, shear: CGFloat = 0, size: CGSize = CGSize(width: 40, height: 26)) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let layer = Layer(frame: CGRect(x: 50 - size.width / 2, y: 50 - size.height / 2, width: size.width,
                                        height: size.height))
        layer.backgroundColor = .white
        layer.allowsEdgeAntialiasing = true
        layer.transform = Transform3D(affine: 1, 0, shear, 1, 0, 0).rotated(by: angle)
        root.addSublayer(layer)
        return root
    }

    @Test(arguments: [0.1, 0.5, 0.7854, 1.3, 2.2, -0.4] as [CGFloat])
    func everyPixelIsTheFormula(angle: CGFloat) throws {
        for shear in [0, 0.35] as [CGFloat] {
            let root = Self.tree(angle: angle, shear: shear)
            let plan = try Planner(scale: 1).plan(root)
            let quad = try #require(plan.quads.first)
            #expect(quad.shape == nil && quad.antialiasedEdges == .all, "the plan keeps the quad as it is")
            let outlined = quad.edgesAsShape
            let shape = try #require(outlined.shape)
            #expect(shape.outlinesQuad && outlined.antialiasedEdges.isEmpty)
            let formula = try #require(ShapeCoverage(shape))
            let image = try CPURenderer().render(plan)
            var partial = 0
            for y in 0..<100 {
                for x in 0..<100 {
                    let alpha = image.rgba(x: x, y: y).a
                    let expected = formula.coverageByte(x, y)
                    #expect(alpha == expected, "angle \(angle), shear \(shear), (\(x), \(y)): \(alpha), not \(expected)")
                    if alpha > 0, alpha < 255 { partial += 1 }
                }
            }
            // The whole outline is smooth (about 2 x (40 + 26) edge pixels).
            #expect(partial > 100, "angle \(angle), shear \(shear): \(partial) edge pixels")
        }
    }

    @Test func aFortyFiveDegreeEdgePixel() throws {
        // A 40 x 40 square turned 45 degrees about (50, 50): its upper-left edge is x + y = 100 - 28.284 = 71.716,
        // inside to the lower right. Pixel (30, 41)'s centre (30.5, 41.5) lies (72 - 71.716) / sqrt 2 = 0.2008 pixels
        // inside it: coverage 0.7008 -> 179 (its exact area, 0.744, gave 190 before). (30, 40): 0.506 outside -> 0.
        // (36, 36): 0.908 inside -> 255.
        let root = Self.tree(angle: .pi / 4, size: CGSize(width: 40, height: 40))
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            let tolerance = renderer is CPURenderer ? 0 : 1
            #expect(abs(Int(image.rgba(x: 30, y: 41).a) - 179) <= tolerance, "\(renderer.name): \(image.rgba(x: 30, y: 41))")
            #expect(image.rgba(x: 36, y: 36).a == 255 && image.rgba(x: 30, y: 40).a == 0, "\(renderer.name)")
        }
    }

    /// A layer turned about its y axis in perspective: its outline is the unit square's plane scaled by its longest
    /// projected sides, and every pixel is the formula (the Jacobian making each distance target pixels); the
    /// far edge is shorter than the near one, so its pixels are smoothed over less than a plane unit.
    @Test(arguments: [0.4, 0.9, -1.2] as [CGFloat])
    func perspectiveQuadsAreTheFormula(angle: CGFloat) throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let layer = Layer(frame: CGRect(x: 25, y: 30, width: 50, height: 40))
        layer.backgroundColor = .white
        layer.allowsEdgeAntialiasing = true
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 120
        layer.transform = perspective.rotated(by: angle, x: 0, y: 1, z: 0).rotated(by: 0.2)
        root.addSublayer(layer)
        let plan = try Planner(scale: 1).plan(root)
        let quad = try #require(plan.quads.first)
        #expect(!quad.unitToTarget.isAffine && quad.antialiasedEdges == .all)
        let shape = try #require(quad.edgesAsShape.shape)
        #expect(shape.outlinesQuad && !shape.toTarget.isAffine)
        let formula = try #require(ShapeCoverage(shape))
        #expect(formula.similarityScale == nil)
        let image = try CPURenderer().render(plan)
        // The formula within a pixel of the projected quad; nothing beyond (near the horizon, far off, the
        // first-order distance shrinks towards 0, and the pixels the quad touches bound what is drawn).
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1), CGPoint(x: 0, y: 1)]
            .map { quad.unitToTarget.apply($0).projected }
        let x0 = Int(corners.map(\.x).min()!) - 1, x1 = Int(corners.map(\.x).max()!.rounded(.up)) + 1
        let y0 = Int(corners.map(\.y).min()!) - 1, y1 = Int(corners.map(\.y).max()!.rounded(.up)) + 1
        var partial = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let alpha = image.rgba(x: x, y: y).a
                if (x0...x1).contains(x), (y0...y1).contains(y) {
                    #expect(alpha == formula.coverageByte(x, y), "angle \(angle), (\(x), \(y))")
                } else {
                    #expect(alpha == 0, "angle \(angle), (\(x), \(y)) is off the quad")
                }
                if alpha > 0, alpha < 255 { partial += 1 }
            }
        }
        #expect(partial > 80, "angle \(angle): \(partial) edge pixels")
        // Inside by more than a pixel everywhere is full; the quad's projected centre is inside.
        let centre = quad.unitToTarget.apply(CGPoint(x: 0.5, y: 0.5)).projected
        #expect(image.rgba(x: Int(centre.x), y: Int(centre.y)).a == 255)
    }

    @Test func uprightBehindTheEyeAndPartlySmoothQuadsKeepTheExactArea() throws {
        let turned = Quad(unitToTarget: .affine(a: 30, b: 10, c: -10, d: 30, tx: 20, ty: 5),
                          paint: .solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)), antialiasedEdges: .all)
        #expect(turned.edgesAsShape.shape?.outlinesQuad == true)
        var upright = turned
        upright.unitToTarget = .affine(a: 30.5, b: 0, c: 0, d: 20.25, tx: 3.25, ty: 4.5)
        #expect(upright.edgesAsShape == upright)
        var perspective = turned
        perspective.unitToTarget.m13 = 0.001
        #expect(perspective.edgesAsShape.shape?.outlinesQuad == true)
        // Partly behind the eye (w <= 0 at a corner): left to the exact area.
        var behind = turned
        behind.unitToTarget.m13 = -2
        #expect(behind.edgesAsShape == behind)
        var cell = turned
        cell.antialiasedEdges = [.top, .left]
        #expect(cell.edgesAsShape == cell)
        var sharp = turned
        sharp.antialiasedEdges = []
        #expect(sharp.edgesAsShape == sharp)
        // Degenerate: nothing to outline.
        var flat = turned
        flat.unitToTarget = .affine(a: 30, b: 10, c: 0, d: 0, tx: 0, ty: 0)
        #expect(flat.edgesAsShape == flat)
    }
}

/// The GLES renderer draws those quads through the shape table: one instance each, no span table, within parity of
/// the CPU renderer at many angles, scales and shears.
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct TurnedEdgeCoverageTests {
    /// Antialiased layers turned by `angle`: solid (opaque, translucent), textured (bilinear, nearest), at opacity
    /// 0.6, sheared, scaled down and up, and in perspective.
    func scene(angle: CGFloat) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 240, height: 180)
        root.backgroundColor = Color(red: 0.95, green: 0.95, blue: 0.9, alpha: 1)
        let image = TestImages.quadrants(width: 16, height: 16)
        func add(_ frame: CGRect, _ transform: Transform3D = .identity, _ configure: (Layer) -> Void) {
            let layer = Layer(frame: frame)
            layer.transform = transform.rotated(by: angle)
            layer.allowsEdgeAntialiasing = true
            configure(layer)
            root.addSublayer(layer)
        }
        add(CGRect(x: 10, y: 10, width: 50, height: 30)) { $0.backgroundColor = .red }
        add(CGRect(x: 80, y: 12, width: 48, height: 40)) { $0.contents = image }
        // Its centre off every pixel centre at scales 1, 2 and 0.75: at (182, 30) a pixel centre at scale 0.75 would
        // sample the image's middle texel corner, under any turn, where floats and doubles take different texels
        // (docs/semantics.md, "Parity": nearest sampling at texel edges; not an edge of the quad).
        add(CGRect(x: 150.3, y: 14.2, width: 64, height: 32)) {
            $0.contents = image
            $0.magnificationFilter = .nearest
        }
        add(CGRect(x: 12, y: 80, width: 60, height: 36)) {
            $0.backgroundColor = Color(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.8)
        }
        add(CGRect(x: 90, y: 84, width: 56, height: 44)) {
            $0.contents = image
            $0.opacity = 0.6
        }
        add(CGRect(x: 165, y: 88, width: 52, height: 40), Transform3D(affine: 1, 0.3, -0.4, 1, 0, 0)) {
            $0.backgroundColor = Color(red: 0.2, green: 0.7, blue: 0.3, alpha: 1)
        }
        add(CGRect(x: 20, y: 140, width: 80, height: 24), Transform3D(scaleX: 0.3, y: 0.45)) { $0.contents = image }
        add(CGRect(x: 150, y: 140, width: 12, height: 9), Transform3D(scaleX: 2.7, y: 2.7)) { $0.backgroundColor = .blue }
        // In perspective (turned about the y axis, then in the plane by `angle`): solid and textured.
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 150
        add(CGRect(x: 110, y: 130, width: 40, height: 34), perspective.rotated(by: 0.7, x: 0, y: 1, z: 0)) {
            $0.backgroundColor = Color(red: 0.8, green: 0.2, blue: 0.6, alpha: 0.9)
        }
        add(CGRect(x: 196, y: 128, width: 36, height: 40), perspective.rotated(by: -0.6, x: 1, y: 0, z: 0)) {
            $0.contents = image
        }
        return root
    }

    /// Not 0.7854 (45 degrees to 4 digits): there the nearest-filtered image's samples fall within a float step of
    /// texel edges along a whole diagonal (GLESCoverageTests).
    @Test(arguments: [0.02, 0.15, 0.3, 0.55, 0.78, 1.0, 1.2, 1.57, 2.0, 2.6, 3.0, -0.6, -1.9] as [CGFloat])
    func turnedAntialiasedQuadsMatchTheCPU(angle: CGFloat) throws {
        let gles = try #require(GLESAvailability.renderer())
        let root = scene(angle: angle)
        for scale in [1.0, 2.0, 0.75] {
            let a = try CPURenderer().render(root, scale: scale)
            let b = try gles.render(root, scale: scale)
            let difference = try #require(ImageDifference(a, b, tolerance: 2))
            #expect(ImageDifference.meetsParity(a, b),
                    "angle \(angle), scale \(scale): max \(difference.maxChannelDifference), \(difference.pixelsOverTolerance) over 2, worst \(Self.worst(a, b))")
            #expect(gles.statistics.spanTableRows == 0, "angle \(angle), scale \(scale)")
        }
    }

    /// The pixel that differs most between `a` and `b`, with both values (for failure messages).
    static func worst(_ a: Image, _ b: Image) -> String {
        var best = (0, 0, 0)
        for y in 0..<a.height {
            for x in 0..<a.width {
                let d = a.rgba(x: x, y: y).maxChannelDifference(to: b.rgba(x: x, y: y))
                if d > best.2 { best = (x, y, d) }
            }
        }
        return "(\(best.0), \(best.1)): \(a.rgba(x: best.0, y: best.1)) against \(b.rgba(x: best.0, y: best.1))"
    }

    @Test func aFrameOfTurnedSpritesUploadsNoSpanTable() throws {
        let gles = try #require(GLESAvailability.renderer())
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = .black
        let image = TestImages.quadrants(width: 32, height: 32)
        var sprites: [Layer] = []
        for i in 0..<40 {
            let sprite = Layer(frame: CGRect(x: 10 + 38 * (i % 8), y: 10 + 45 * (i / 8), width: 30, height: 30))
            if i % 2 == 0 { sprite.contents = image } else { sprite.backgroundColor = .red }
            sprite.transform = Transform3D(rotationAngle: 0.1 + 0.15 * CGFloat(i))
            sprite.allowsEdgeAntialiasing = true
            root.addSublayer(sprite)
            sprites.append(sprite)
        }
        let smooth = try gles.render(root)
        // The background is the clear colour; each sprite one instance over its box, one shape-table entry.
        #expect(gles.statistics.spanTableRows == 0)
        #expect(gles.statistics.shapeTableEntries == 40)
        #expect(gles.statistics.instances == 40)
        #expect(ImageDifference.meetsParity(try CPURenderer().render(root), smooth))
        // Without antialiasing the same sprites are drawn by the span table (the counter counts).
        for sprite in sprites { sprite.allowsEdgeAntialiasing = false }
        _ = try gles.render(root)
        #expect(gles.statistics.spanTableRows > 40 * 20)
        #expect(gles.statistics.shapeTableEntries == 0)
    }

    @Test func turnedSpritesUnderAnUprightAndATurnedClip() throws {
        let gles = try #require(GLESAvailability.renderer())
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 120)
        root.backgroundColor = .white
        for (i, turn) in [0, 0.4].enumerated() {
            let clip = Layer(frame: CGRect(x: 10 + 100 * CGFloat(i), y: 20, width: 70, height: 70))
            clip.masksToBounds = true
            clip.transform = Transform3D(rotationAngle: turn)
            let sprite = Layer(frame: CGRect(x: 20, y: -10, width: 60, height: 40))
            sprite.contents = TestImages.quadrants(width: 16, height: 16)
            sprite.transform = Transform3D(rotationAngle: 0.6)
            sprite.allowsEdgeAntialiasing = true
            clip.addSublayer(sprite)
            root.addSublayer(clip)
        }
        for scale in [1.0, 2.0] {
            let a = try CPURenderer().render(root, scale: scale)
            let b = try gles.render(root, scale: scale)
            let difference = try #require(ImageDifference(a, b, tolerance: 2))
            #expect(ImageDifference.meetsParity(a, b),
                    "scale \(scale): max \(difference.maxChannelDifference), \(difference.pixelsOverTolerance) over 2")
            // The clip's edges stay sharp: nothing of the sprite right of the upright clip's edge (x = 80).
            #expect(b.rgba(x: Int(81 * scale), y: Int(40 * scale)) == RGBA8(r: 255, g: 255, b: 255, a: 255))
        }
    }
}
