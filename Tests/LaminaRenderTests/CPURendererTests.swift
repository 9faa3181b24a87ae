import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

/// Scenes built in code and rendered by the CPU renderer, checked at exact pixels derived from docs/semantics.md.
@Suite struct CPURendererTests {
    let renderer = CPURenderer()

    func root(_ w: CGFloat, _ h: CGFloat, _ colour: Color? = .white) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        root.backgroundColor = colour
        return root
    }

    func px(_ image: Image, _ x: Int, _ y: Int) -> RGBA8 { image.rgba(x: x, y: y) }
    let red = RGBA8(r: 255, g: 0, b: 0, a: 255), green = RGBA8(r: 0, g: 255, b: 0, a: 255)
    let blue = RGBA8(r: 0, g: 0, b: 255, a: 255), yellow = RGBA8(r: 255, g: 255, b: 0, a: 255)
    let white = RGBA8(r: 255, g: 255, b: 255, a: 255)

    @Test func readmeExampleRendersAtScaleTwo() throws {
        let root = root(100, 50)
        let layer = Layer()
        layer.frame = CGRect(x: 10, y: 10, width: 40, height: 30)
        layer.contents = TestImages.quadrants(width: 40, height: 30)
        root.addSublayer(layer)
        let frame = try renderer.render(root, scale: 2)
        #expect(frame.width == 200 && frame.height == 100)
        #expect(frame.rgba(x: 25, y: 25) == red)
        #expect(frame.rgba(x: 95, y: 75) == yellow)
        #expect(frame.rgba(x: 5, y: 5) == white)
    }

    @Test func pixelCentresDecideCoverageWithTheTopLeftRule() throws {
        let root = root(40, 40, nil)
        let layer = Layer(frame: CGRect(x: 10.5, y: 10.5, width: 10, height: 10))
        layer.backgroundColor = .red
        root.addSublayer(layer)
        let image = try renderer.render(root)
        // Centres 10.5 ... 19.5 lie in [10.5, 20.5): the left/top edge includes its centre, the right/bottom not.
        #expect(px(image, 10, 10) == red)
        #expect(px(image, 19, 19) == red)
        #expect(px(image, 20, 15).a == 0)
        #expect(px(image, 15, 20).a == 0)
        #expect(px(image, 9, 15).a == 0)
    }

    @Test func opacityBlendsPremultipliedSourceOver() throws {
        let root = root(10, 10)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        layer.backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        layer.opacity = 0.5
        root.addSublayer(layer)
        let image = try renderer.render(root)
        // 0.25 blue over white: (191, 191, 255).
        let p = px(image, 5, 5)
        #expect(abs(Int(p.r) - 191) <= 1 && abs(Int(p.g) - 191) <= 1 && p.b == 255 && p.a == 255)
    }

    @Test func transparentOutputKeepsStraightAlpha() throws {
        let root = root(10, 10, nil)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        layer.backgroundColor = Color(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        root.addSublayer(layer)
        let p = px(try renderer.render(root), 3, 3)
        #expect(p.a == 128 && p.r == 255 && abs(Int(p.g) - 128) <= 1 && p.b == 0)
    }

    @Test func nearestAndLinearMagnification() throws {
        let image = TestImages.stripes([.black, .white], stripe: 1, height: 1)
        func render(_ filter: Filter) throws -> Image {
            let root = root(100, 10, nil)
            let layer = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 10))
            layer.contents = image
            layer.magnificationFilter = filter
            root.addSublayer(layer)
            return try renderer.render(root)
        }
        let nearest = try render(.nearest), linear = try render(.linear)
        // Texel centres sit at 25 and 75: nearest switches at 50; linear is flat outside the centres, a ramp between.
        #expect(px(nearest, 49, 5).r == 0 && px(nearest, 50, 5).r == 255)
        #expect(px(linear, 10, 5).r == 0 && px(linear, 90, 5).r == 255)
        #expect(abs(Int(px(linear, 50, 5).r) - 128) <= 3)
        #expect(abs(Int(px(linear, 37, 5).r) - 63) <= 4)
    }

    @Test func spritesDoNotBleedUnderHeavyMagnification() throws {
        // 2x2 sheet of one-pixel sprites; each shown 40x magnified with bilinear filtering.
        let sheet = try Image(width: 2, height: 2)
        sheet.setRGBA(red, x: 0, y: 0)
        sheet.setRGBA(green, x: 1, y: 0)
        sheet.setRGBA(blue, x: 0, y: 1)
        sheet.setRGBA(yellow, x: 1, y: 1)
        let root = root(160, 40, nil)
        let cuts = [(0.0, 0.0, red), (0.5, 0.0, green), (0.0, 0.5, blue), (0.5, 0.5, yellow)]
        for (i, cut) in cuts.enumerated() {
            let sprite = Layer(frame: CGRect(x: CGFloat(i) * 40, y: 0, width: 40, height: 40))
            sprite.contents = sheet
            sprite.contentsRect = CGRect(x: cut.0, y: cut.1, width: 0.5, height: 0.5)
            root.addSublayer(sprite)
        }
        let image = try renderer.render(root)
        for (i, cut) in cuts.enumerated() {
            for (x, y) in [(0, 0), (39, 0), (0, 39), (39, 39), (20, 20)] {
                #expect(px(image, i * 40 + x, y) == cut.2, "sprite \(i) at (\(x), \(y))")
            }
        }
    }

    @Test func nineSliceWithFullCentreEqualsPlainResize() throws {
        let image = TestImages.quadrants(width: 30, height: 20)
        func render(_ centre: CGRect) throws -> Image {
            let root = root(100, 60)
            let layer = Layer(frame: CGRect(x: 5, y: 5, width: 90, height: 50))
            layer.contents = image
            layer.contentsCenter = centre
            root.addSublayer(layer)
            return try renderer.render(root, scale: 1.5)
        }
        let sliced = try render(CGRect(x: 0, y: 0, width: 1, height: 1))
        let plain = try render(CGRect(x: 0, y: 0, width: 1, height: 1).insetBy(dx: 0, dy: 0))
        #expect(ImageDifference(sliced, plain)?.maxChannelDifference == 0)
    }

    @Test func nineSliceCellsKeepCornersAndStretchTheRest() throws {
        let root = root(200, 100)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        layer.contents = TestImages.nineSlice(cell: 10)
        layer.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        root.addSublayer(layer)
        let image = try renderer.render(root)
        // Corners stay 10 points: pixel 9 is corner, pixel 10 is edge; the centre spans 10 ..< 190.
        #expect(px(image, 9, 9) == blue && px(image, 10, 9) == green && px(image, 9, 10) == green)
        #expect(px(image, 189, 50) == red && px(image, 190, 50) == green && px(image, 190, 90) == blue)
        // No smearing between cells: the last centre pixel and the first edge pixel are pure colours.
        #expect(px(image, 10, 10) == red && px(image, 189, 89) == red)
    }

    @Test func nineSliceShrinksBordersWhenTheyDoNotFit() throws {
        let root = root(16, 12)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 16, height: 12))
        layer.contents = TestImages.nineSlice(cell: 10)
        layer.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        root.addSublayer(layer)
        let image = try renderer.render(root, scale: 2)
        // Borders of 10 + 10 points shrink to 8 + 8 (x) and 6 + 6 (y): only corners and edges-of-nothing remain.
        #expect(px(image, 15, 11) == blue && px(image, 16, 12) == blue && px(image, 0, 23) == blue)
        for x in stride(from: 0, to: 32, by: 3) {
            for y in stride(from: 0, to: 24, by: 3) { #expect(px(image, x, y) == blue, "(\(x), \(y))") }
        }
    }

    @Test func onePixelCentreStretchesFlat() throws {
        let image = try Image(width: 3, height: 3, color: .blue)
        image.setRGBA(red, x: 1, y: 1)
        image.setRGBA(green, x: 1, y: 0)
        let root = root(60, 60)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 60, height: 60))
        layer.contents = image
        layer.contentsCenter = CGRect(x: 0.5, y: 0.5, width: 0, height: 0)
        root.addSublayer(layer)
        let out = try renderer.render(root)
        // Fixed ends of 1.5 points each; the one-pixel centre fills the rest with one flat colour.
        #expect(px(out, 2, 30) == red && px(out, 30, 30) == red && px(out, 57, 30) == red)
        #expect(px(out, 30, 0) == green && px(out, 0, 0) == blue && px(out, 59, 59) == blue)
    }

    @Test func rotationTurnsClockwiseOnScreen() throws {
        let root = root(100, 100)
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        layer.position = CGPoint(x: 50, y: 50)
        layer.contents = TestImages.stripes([.red, .blue], stripe: 20, height: 20)
        layer.contentsGravity = .resize
        layer.transform = Transform3D(rotationAngle: .pi / 2)
        root.addSublayer(layer)
        let image = try renderer.render(root)
        // The red left half turns to the top; the quad becomes 20 wide, 40 tall.
        #expect(px(image, 50, 35) == red && px(image, 50, 65) == blue)
        #expect(px(image, 35, 50) == white && px(image, 65, 50) == white && px(image, 55, 31) == red)
    }

    @Test func masksToBoundsClipsToARotatedParent() throws {
        let root = root(100, 100)
        let parent = Layer()
        parent.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        parent.position = CGPoint(x: 50, y: 50)
        parent.transform = Transform3D(rotationAngle: .pi / 4)
        parent.masksToBounds = true
        let child = Layer(frame: CGRect(x: -100, y: -100, width: 300, height: 300))
        child.backgroundColor = .red
        parent.addSublayer(child)
        root.addSublayer(parent)
        let image = try renderer.render(root)
        // A diamond of half-diagonal 28.28 about (50, 50).
        #expect(px(image, 50, 50) == red && px(image, 50, 23) == red && px(image, 76, 50) == red)
        #expect(px(image, 50, 20) == white && px(image, 30, 30) == white && px(image, 72, 72) == white)
    }

    @Test func perspectiveMagnifiesLayersNearerTheEye() throws {
        let root = root(200, 200)
        root.sublayerTransform = Transform3D(perspectiveDistance: 500)
        let face = Layer(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        face.backgroundColor = .blue
        face.transform = Transform3D(translationX: 0, y: 0, z: 100)
        root.addSublayer(face)
        let image = try renderer.render(root)
        // 500 / 400 = 1.25: the face spans 37.5 ..< 162.5; centres on the left edge are in, on the right out.
        #expect(px(image, 37, 100) == blue && px(image, 36, 100) == white && px(image, 161, 161) == blue)
        #expect(px(image, 162, 100) == white && px(image, 100, 162) == white)
    }

    @Test func halfTurnAboutYFacesAwayButStillPaints() throws {
        let root = root(100, 100)
        root.sublayerTransform = Transform3D(perspectiveDistance: 300)
        let layer = Layer(frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        layer.contents = TestImages.stripes([.red, .blue], stripe: 10, height: 10)
        layer.transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
        root.addSublayer(layer)
        let image = try renderer.render(root)
        // Seen from behind the image is mirrored: blue on the left (doubleSided defaults to true).
        #expect(px(image, 30, 50) == blue && px(image, 70, 50) == red)
    }

    @Test func aQuadCrossingTheEyePlaneIsCutNotInverted() throws {
        let root = root(100, 100)
        root.sublayerTransform = Transform3D(perspectiveDistance: 100)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        layer.backgroundColor = .red
        // Tilted about x so the bottom comes past the eye (z > 100).
        layer.transform = Transform3D(rotationAngle: -.pi / 3, x: 1, y: 0, z: 0).concatenating(
            Transform3D(translationX: 0, y: 0, z: 80))
        root.addSublayer(layer)
        let image = try renderer.render(root)
        #expect(px(image, 50, 45) == red)
    }

    @Test func scaleTwoDoublesEveryCoordinate() throws {
        let root = root(20, 10)
        let layer = Layer(frame: CGRect(x: 5, y: 2, width: 4, height: 3))
        layer.backgroundColor = .green
        root.addSublayer(layer)
        let image = try renderer.render(root, scale: 2)
        #expect(image.width == 40 && image.height == 20)
        #expect(px(image, 10, 4) == green && px(image, 17, 9) == green && px(image, 18, 9) == white)
        #expect(px(image, 9, 4) == white && px(image, 10, 10) == white)
    }

    @Test func noContentsOrEmptyImagePaintsNothing() throws {
        let root = root(10, 10, nil)
        let a = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        a.contents = try Image(width: 0, height: 0)
        let b = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        b.contents = TestImages.quadrants(width: 2, height: 2)
        b.contentsRect = CGRect(x: 0, y: 0, width: 0, height: 1)
        root.sublayers = [a, b]
        let image = try renderer.render(root)
        #expect(px(image, 5, 5).a == 0)
        #expect(renderer.statistics.quadsDrawn == 0)
    }

    @Test func renderIntoRejectsATargetOfTheWrongSize() throws {
        let plan = try Planner().plan(root(10, 10))
        let target = try Image(width: 5, height: 5)
        #expect(throws: RenderError.targetMismatch("plan is 10x10, target is 5x5")) {
            try renderer.render(plan, into: target)
        }
    }

    @Test func rotatedSpriteFramesAreTurnedBack() throws {
        // A 2x1 sprite (red, green) stored turned clockwise in a 1x2 sheet: red on top... sprite's left column
        // becomes the stored top row, read right to left.
        let sheet = try Image(width: 1, height: 2)
        sheet.setRGBA(red, x: 0, y: 0)
        sheet.setRGBA(green, x: 0, y: 1)
        let root = root(40, 20)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
        layer.contents = sheet
        layer.contentsAreRotated = true
        layer.magnificationFilter = .nearest
        root.addSublayer(layer)
        let image = try renderer.render(root)
        #expect(px(image, 5, 10) == red && px(image, 35, 10) == green)
    }

    @Test func deepTreesRender() throws {
        let root = root(10, 10)
        var parent = root
        for _ in 0..<10_000 {
            let layer = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            parent.addSublayer(layer)
            parent = layer
        }
        parent.backgroundColor = .blue
        #expect(px(try renderer.render(root), 5, 5) == blue)
    }

    @Test func statisticsCountQuadsAndDrawCalls() throws {
        let root = root(50, 50)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        layer.contents = TestImages.nineSlice(cell: 4)
        layer.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        root.addSublayer(layer)
        _ = try renderer.render(root)
        #expect(renderer.statistics.quads == 10 && renderer.statistics.drawCalls == 10)
    }

    @Test func bandsInParallelGiveTheSinglethreadedPixels() throws {
        // Everything at once: sprites at fractional positions, rotation, perspective, a rotated clip,
        // antialiased edges, opacity and a nine-slice.
        let root = root(301, 203)
        let sheet = TestImages.quadrants(width: 32, height: 32)
        var random = SplitMix64(seed: 3)
        for index in 0..<300 {
            let sprite = Layer(frame: CGRect(x: CGFloat(random.below(2800)) / 10, y: CGFloat(random.below(1800)) / 10,
                                             width: 17.5, height: 13.25))
            sprite.contents = sheet
            sprite.contentsRect = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
            sprite.opacity = index % 3 == 0 ? 0.6 : 1
            sprite.transform = Transform3D(rotationAngle: CGFloat(index) * 0.1)
            sprite.allowsEdgeAntialiasing = index % 2 == 0
            root.addSublayer(sprite)
        }
        let clipper = Layer(frame: CGRect(x: 40, y: 40, width: 120, height: 90))
        clipper.transform = Transform3D(rotationAngle: 0.3)
        clipper.masksToBounds = true
        clipper.sublayerTransform = Transform3D(perspectiveDistance: 300)
        let face = Layer(frame: CGRect(x: -20, y: -10, width: 160, height: 110))
        face.contents = TestImages.nineSlice(cell: 6)
        face.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        face.transform = Transform3D(rotationAngle: 0.5, x: 0, y: 1, z: 0)
        clipper.addSublayer(face)
        root.addSublayer(clipper)
        let single = try CPURenderer(threads: 1).render(root, scale: 1.5)
        for threads in [2, 3, 8] {
            let parallel = try CPURenderer(threads: threads).render(root, scale: 1.5)
            #expect(ImageDifference(single, parallel)?.differingPixels == 0, "\(threads) threads")
        }
    }
}

