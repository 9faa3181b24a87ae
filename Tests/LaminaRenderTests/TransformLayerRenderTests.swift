import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Transform layers on both renderers (docs/semantics.md, "Transform layers"): the sublayers share the 3D space of
/// the layer above, so depth (transforms, zPosition) and that layer's perspective decide what covers what.
@Suite struct TransformLayerRenderTests {
    static let d: CGFloat = 500
    /// The faces: name, colour, the face's own turn (angle, axis) and its move from the cube's centre. Listed
    /// back-first in a deliberately bad order: only depth sorting shows the right faces.
    static let faces: [(String, RGBA8, CGFloat, (CGFloat, CGFloat, CGFloat), (CGFloat, CGFloat, CGFloat))] = [
        ("back", RGBA8(r: 0, g: 0, b: 255, a: 255), .pi, (0, 1, 0), (0, 0, -50)),
        ("top", RGBA8(r: 0, g: 255, b: 255, a: 255), .pi / 2, (1, 0, 0), (0, -50, 0)),
        ("front", RGBA8(r: 255, g: 0, b: 0, a: 255), 0, (0, 0, 1), (0, 0, 50)),
        ("left", RGBA8(r: 255, g: 255, b: 0, a: 255), -.pi / 2, (0, 1, 0), (-50, 0, 0)),
        ("bottom", RGBA8(r: 255, g: 0, b: 255, a: 255), -.pi / 2, (1, 0, 0), (0, 50, 0)),
        ("right", RGBA8(r: 0, g: 255, b: 0, a: 255), .pi / 2, (0, 1, 0), (50, 0, 0)),
    ]

    /// A 240 x 240 white root; a stage at (20, 20, 200, 200) with perspective; a transform layer (the cube) at the
    /// stage's centre turned `ax` about x then `ay` about y; six 100 x 100 faces, the front one textured.
    func cube(ax: CGFloat, ay: CGFloat, doubleSided: Bool = true) throws -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 240, height: 240)
        root.backgroundColor = .white
        let stage = Layer(frame: CGRect(x: 20, y: 20, width: 200, height: 200))
        stage.sublayerTransform = Transform3D(perspectiveDistance: Self.d)
        let cube = TransformLayer()
        cube.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        cube.transform = Transform3D(rotationAngle: ax, x: 1, y: 0, z: 0)
            .concatenating(Transform3D(rotationAngle: ay, x: 0, y: 1, z: 0))
        // Ignored, as in Core Animation: a transform layer paints nothing itself.
        cube.backgroundColor = Color(red: 0, green: 0, blue: 0)
        cube.borderWidth = 5
        for (name, colour, angle, axis, move) in Self.faces {
            let face = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            face.name = name
            if name == "front" {
                // Textured: a 4 x 4 image of the face's colour.
                let image = try Image(width: 4, height: 4)
                for y in 0..<4 { for x in 0..<4 { image.setRGBA(colour, x: x, y: y) } }
                face.contents = image
            } else {
                face.backgroundColor = Color(red: Double(colour.r) / 255, green: Double(colour.g) / 255,
                                             blue: Double(colour.b) / 255)
            }
            face.isDoubleSided = doubleSided
            face.transform = Transform3D(rotationAngle: angle, x: axis.0, y: axis.1, z: axis.2)
                .concatenating(Transform3D(translationX: move.0, y: move.1, z: move.2))
            cube.addSublayer(face)
        }
        stage.addSublayer(cube)
        root.addSublayer(stage)
        return root
    }

    /// The faces that face the eye clearly (the cosine of the angle to the eye over 0.3), with their projected
    /// centres in root points, worked out from the turns alone (not from the planner).
    func visibleFaces(ax: CGFloat, ay: CGFloat) -> [(String, RGBA8, CGPoint)] {
        let turn = Transform3D(rotationAngle: ax, x: 1, y: 0, z: 0)
            .concatenating(Transform3D(rotationAngle: ay, x: 0, y: 1, z: 0))
        var result: [(String, RGBA8, CGPoint)] = []
        for (name, colour, _, _, move) in Self.faces {
            let c = turn.apply(x: move.0, y: move.1, z: move.2)
            let eye = (x: -c.x, y: -c.y, z: Self.d - c.z)
            let length = (eye.x * eye.x + eye.y * eye.y + eye.z * eye.z).squareRoot()
            let facing = (c.x * eye.x + c.y * eye.y + c.z * eye.z) / 50 / length
            guard facing > 0.3 else { continue }
            let k = Self.d / (Self.d - c.z)
            result.append((name, colour, CGPoint(x: 120 + c.x * k, y: 120 + c.y * k)))
        }
        return result
    }

    @Test func aTexturedCubeShowsItsNearFacesAtEveryAngle() throws {
        let angles: [(CGFloat, CGFloat)] = [
            (0, 0), (25, 35), (-40, 150), (200, -70), (60, 60), (-75, 10), (130, 250), (10, 190), (300, 45),
            (-15, -100), (90.5, 30), (45, 315),
        ]
        for (dx, dy) in angles {
            let (ax, ay) = (dx * .pi / 180, dy * .pi / 180)
            let expected = visibleFaces(ax: ax, ay: ay)
            #expect(!expected.isEmpty)
            for scale in [CGFloat(1), 2] {
                var pictures: [Image] = []
                for renderer in ReferenceScenes.renderers() {
                    for doubleSided in [true, false] {
                        let image = try renderer.render(try cube(ax: ax, ay: ay, doubleSided: doubleSided),
                                                        scale: scale)
                        if doubleSided { pictures.append(image) }
                        for (name, colour, at) in expected {
                            let pixel = image.rgba(x: Int(at.x * scale), y: Int(at.y * scale))
                            #expect(pixel.maxChannelDifference(to: colour) <= 2,
                                    "\(renderer.name) (\(dx), \(dy)) @\(scale)x doubleSided \(doubleSided): \(name) at \(at) is \(pixel)")
                        }
                        let corner = image.rgba(x: 2, y: 2)
                        #expect(corner.maxChannelDifference(to: RGBA8(r: 255, g: 255, b: 255, a: 255)) <= 2)
                    }
                }
                if pictures.count == 2 {
                    #expect(ImageDifference.meetsParity(pictures[0], pictures[1]), "parity (\(dx), \(dy)) @\(scale)x")
                }
            }
        }
    }

    /// A 200 x 200 black root with perspective; a transform layer over it holding 100 x 100 squares centred at
    /// (100, 100), each moved `z` towards the eye.
    func space(_ squares: [(Color, CGFloat)]) -> (Layer, TransformLayer, [Layer]) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.backgroundColor = .black
        root.sublayerTransform = Transform3D(perspectiveDistance: Self.d)
        let space = TransformLayer()
        space.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        var layers: [Layer] = []
        for (colour, z) in squares {
            let layer = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            layer.backgroundColor = colour
            layer.transform = Transform3D(translationX: 0, y: 0, z: z)
            space.addSublayer(layer)
            layers.append(layer)
        }
        root.addSublayer(space)
        return (root, space, layers)
    }

    func close(_ p: RGBA8, _ r: Int, _ g: Int, _ b: Int, tolerance: Int = 2) -> Bool {
        p.maxChannelDifference(to: RGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: 255)) <= tolerance
    }

    @Test func depthDecidesWhatCoversWhatAndPerspectiveSizesIt() throws {
        for scale in [CGFloat(1), 2] {
            var pictures: [Image] = []
            for renderer in ReferenceScenes.renderers() {
                // Red is 40 points nearer but listed first: it covers green, and is magnified by 500 / 460.
                let (root, _, _) = space([(.red, 40), (.green, -40)])
                let image = try renderer.render(root, scale: scale)
                pictures.append(image)
                let s = { (v: CGFloat) in Int(v * scale) }
                #expect(close(image.rgba(x: s(100), y: s(100)), 255, 0, 0), "\(renderer.name): the nearer covers")
                // 100 + 50 x 500 / 460 = 154.3: red reaches past the unmoved square's edge (150).
                #expect(close(image.rgba(x: s(152), y: s(100)), 255, 0, 0), "\(renderer.name): magnified")
                #expect(close(image.rgba(x: s(157), y: s(100)), 0, 0, 0), "\(renderer.name): beyond it")
            }
            if pictures.count == 2 { #expect(ImageDifference.meetsParity(pictures[0], pictures[1])) }
        }
        // The same squares in a plain layer are flattened: array order decides, and no depth magnifies them.
        for renderer in ReferenceScenes.renderers() {
            let (root, space, layers) = space([(.red, 40), (.green, -40)])
            let flat = Layer(frame: space.frame)
            for layer in layers { flat.addSublayer(layer) }
            root.sublayers = [flat]
            let image = try renderer.render(root)
            #expect(close(image.rgba(x: 100, y: 100), 0, 255, 0), "\(renderer.name): flattened, the later covers")
        }
    }

    @Test func zPositionPlacesASublayerInDepth() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, _, layers) = space([(.red, 0), (.green, 0)])
            layers[0].zPosition = 100
            let image = try renderer.render(root)
            // Nearer by 100: covers green and is magnified by 500 / 400 (to 100 + 62.5).
            #expect(close(image.rgba(x: 100, y: 100), 255, 0, 0), "\(renderer.name)")
            #expect(close(image.rgba(x: 160, y: 100), 255, 0, 0), "\(renderer.name): magnified by its depth")
            #expect(close(image.rgba(x: 165, y: 100), 0, 0, 0), "\(renderer.name)")
        }
    }

    @Test func itsOwnPaintIsIgnoredAndItsOpacityFadesEachSublayer() throws {
        var pictures: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            let (root, space, layers) = space([(.red, 0), (.green, 10)])
            // Green covers only the right half of red.
            layers[1].frame = CGRect(x: 50, y: 0, width: 100, height: 100)
            space.backgroundColor = .blue
            space.borderWidth = 10
            space.borderColor = .white
            space.shadowOpacity = 1
            space.masksToBounds = true
            space.opacity = 0.5
            let mask = Layer(frame: CGRect(x: 0, y: 0, width: 1, height: 1))
            mask.backgroundColor = .white
            space.mask = mask
            let image = try renderer.render(root)
            pictures.append(image)
            // Red alone at half strength; where green covers it, green at half over red at half (no group):
            // (0.25, 0.5, 0) rather than the group's (0, 0.5, 0).
            #expect(close(image.rgba(x: 70, y: 100), 128, 0, 0), "\(renderer.name): \(image.rgba(x: 70, y: 100))")
            #expect(close(image.rgba(x: 120, y: 100), 64, 128, 0, tolerance: 3),
                    "\(renderer.name): each sublayer faded on its own: \(image.rgba(x: 120, y: 100))")
            // No background, border or shadow of its own; masksToBounds and the mask do not cut green, which
            // reaches past the transform layer's bounds (150).
            #expect(close(image.rgba(x: 52, y: 52), 128, 0, 0), "\(renderer.name): no border")
            #expect(close(image.rgba(x: 100, y: 40), 0, 0, 0), "\(renderer.name): no background or shadow")
            #expect(close(image.rgba(x: 153, y: 100), 0, 128, 0), "\(renderer.name): not clipped")
        }
        if pictures.count == 2 { #expect(ImageDifference.meetsParity(pictures[0], pictures[1])) }
    }

    @Test func nestedTransformLayersShareOneSpaceAndPlainLayersFlattenTheirOwn() throws {
        for renderer in ReferenceScenes.renderers() {
            // A nested transform layer moved 20 nearer holds red; green, a sibling plane 10 nearer, is listed after
            // it: red is nearer, so it covers green.
            let (root, space, layers) = space([(.green, 10)])
            let inner = TransformLayer()
            inner.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            inner.transform = Transform3D(translationX: 0, y: 0, z: 20)
            let red = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            red.backgroundColor = .red
            inner.addSublayer(red)
            space.insertSublayer(inner, at: 0)
            var image = try renderer.render(root)
            #expect(close(image.rgba(x: 100, y: 100), 255, 0, 0), "\(renderer.name): nested space keeps depth")
            // A plain layer in its place flattens its sublayer: the red square's own 20 points of depth are lost,
            // so green (10) covers it.
            let plain = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            red.removeFromSuperlayer()
            plain.addSublayer(red)
            red.transform = Transform3D(translationX: 0, y: 0, z: 20)
            inner.removeFromSuperlayer()
            space.insertSublayer(plain, at: 0)
            image = try renderer.render(root)
            #expect(close(image.rgba(x: 100, y: 100), 0, 255, 0), "\(renderer.name): a plain layer flattens")
            _ = layers
        }
    }

    @Test func singleSidedSublayersFacingAwayAreCulled() throws {
        for renderer in ReferenceScenes.renderers() {
            for doubleSided in [true, false] {
                let (root, _, layers) = space([(.red, 0)])
                layers[0].transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
                layers[0].isDoubleSided = doubleSided
                let image = try renderer.render(root)
                let pixel = image.rgba(x: 100, y: 100)
                #expect(doubleSided ? close(pixel, 255, 0, 0) : close(pixel, 0, 0, 0), "\(renderer.name) \(doubleSided)")
            }
        }
    }
}

/// Frames drawn one after another by one renderer (its plan cache reusing and patching what did not change) show
/// what a fresh renderer draws, as a cube turns and its faces, depths and perspective change.
@Suite struct TransformLayerFrameTests {
    @Test func cachedFramesMatchFreshOnes() throws {
        let make = { try TransformLayerRenderTests().cube(ax: 0.4, ay: 0.3) }
        let changes: [(String, (Layer) -> Void)] = [
            ("turn the cube", { root in root.sublayers![0].sublayers![0].transform = Transform3D(rotationAngle: 1.1, x: 0, y: 1, z: 0) }),
            ("recolour a face", { root in
                root.sublayers![0].sublayers![0].sublayers!.first { $0.name == "right" }!.backgroundColor = .black
            }),
            ("move a face in depth", { root in
                root.sublayers![0].sublayers![0].sublayers!.first { $0.name == "right" }!.zPosition = 30
            }),
            ("change the perspective", { root in root.sublayers![0].sublayerTransform = Transform3D(perspectiveDistance: 200) }),
            ("hide a face", { root in root.sublayers![0].sublayers![0].sublayers!.first { $0.name == "front" }!.isHidden = true }),
            ("fade the cube", { root in root.sublayers![0].sublayers![0].opacity = 0.6 }),
            ("move the stage", { root in root.sublayers![0].position.x += 7 }),
        ]
        for renderer in ReferenceScenes.renderers() {
            let root = try make()
            Transaction.begin()
            Transaction.setDisableActions(true)
            Transaction.commit()
            _ = try renderer.render(root, at: 0)
            var applied: [(Layer) -> Void] = []
            for (what, change) in changes {
                Transaction.begin()
                Transaction.setDisableActions(true)
                change(root)
                Transaction.commit()
                applied.append(change)
                let cached = try renderer.render(root, at: 0)
                // A fresh tree with every change so far, on a fresh renderer of the same kind.
                let fresh = try make()
                Transaction.begin()
                Transaction.setDisableActions(true)
                for earlier in applied { earlier(fresh) }
                Transaction.commit()
                let other: Renderer = renderer is CPURenderer ? CPURenderer() : try #require(GLESAvailability.renderer())
                let expected = try other.render(fresh, at: 0)
                let difference = try #require(ImageDifference(cached, expected, tolerance: 0, premultiplied: true))
                #expect(difference.pixelsOverTolerance == 0, "\(renderer.name) after \(what)")
            }
        }
    }
}
