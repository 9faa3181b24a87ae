import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// Coverage in the shader (docs/semantics.md, "Coverage in the shader"): rounded rectangles, rounded borders,
/// continuous corners and turned rounded quads at their edge pixels, on both renderers, against coverage values
/// worked out by hand (clamp(0.5 - the pixel centre's distance to the outline, 0, 1), rounded to n / 255) and against
/// `ShapeCoverage`, the formula the GLES fragment shader evaluates; and a rounded sprite drawn as one GL instance.
@Suite struct ShapeCoverageTests {
    /// A transparent root of `width` x `height` holding `layer`: a white layer's pixels then hold its coverage in
    /// every channel (premultiplied white x coverage).
    static func tree(_ layer: Layer, width: CGFloat = 100, height: CGFloat = 100) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.addSublayer(layer)
        return root
    }

    /// The coverage `ShapeCoverage` gives pixel (x, y) of the plan's only shaped quad.
    static func formula(_ root: Layer, _ x: Int, _ y: Int) throws -> Int {
        let plan = try Planner(scale: 1).plan(root)
        let quad = try #require(plan.quads.first { $0.shape != nil })
        let shape = try #require(quad.shape.flatMap(ShapeCoverage.init))
        return Int(shape.coverageByte(x, y))
    }

    /// Checks the alpha of pixel (x, y) on every renderer: exactly `expected` on the CPU renderer, within 1 of it on
    /// GLES (the GPU's float operations may round a last bit differently).
    static func expectCoverage(_ root: Layer, _ x: Int, _ y: Int, _ expected: Int, _ what: String) throws {
        for renderer in ReferenceScenes.renderers() {
            let alpha = Int(try renderer.render(root).rgba(x: x, y: y).a)
            let tolerance = renderer is CPURenderer ? 0 : 1
            #expect(abs(alpha - expected) <= tolerance, "\(renderer.name), \(what) (\(x), \(y)): \(alpha), not \(expected)")
        }
    }

    @Test func roundedRectangleEdgePixelsHaveTheirCoverage() throws {
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        layer.backgroundColor = .white
        layer.cornerRadius = 20
        let root = Self.tree(layer)
        // Centre (5.5, 6.5), 19.81 from the corner's centre (20, 20): 0.1884 inside, coverage 0.688 -> 176.
        try Self.expectCoverage(root, 5, 6, 176, "corner")
        // (1.5, 12.5): 19.96 from the centre, 0.0375 inside: 0.5375 -> 137.
        try Self.expectCoverage(root, 1, 12, 137, "corner")
        // (3.5, 8.5): 20.11 from the centre, 0.112 outside: 0.388 -> 99.
        try Self.expectCoverage(root, 3, 8, 99, "corner")
        try Self.expectCoverage(root, 0, 0, 0, "outside the corner")
        try Self.expectCoverage(root, 2, 12, 255, "inside the corner")
        try Self.expectCoverage(root, 0, 50, 255, "the straight edge stays sharp")
        for (x, y, value) in [(5, 6, 176), (1, 12, 137), (3, 8, 99), (0, 0, 0), (94, 93, 176)] {
            #expect(try Self.formula(root, x, y) == value, "ShapeCoverage at (\(x), \(y))")
        }
    }

    @Test func everyCornerRadiusAndOpacity() throws {
        let layer = Layer(frame: CGRect(x: 10, y: 10, width: 80, height: 60))
        layer.backgroundColor = Color(red: 0.2, green: 0.6, blue: 1, alpha: 1)
        layer.cornerRadius = 30  // limited to half the shorter side: a capsule
        layer.opacity = 0.6
        let root = Self.tree(layer)
        let cpu = try CPURenderer().render(root)
        let plan = try Planner(scale: 1).plan(root)
        let shape = try #require(plan.quads.first?.shape.flatMap(ShapeCoverage.init))
        // Every pixel: coverage in 8 bits, times the opacity, in 8 bits (PartialPixel.alpha).
        for y in 0..<100 {
            for x in 0..<100 {
                let coverage = Int(shape.coverageByte(x, y))
                let alpha = Int(PartialPixel.alpha(UInt8(coverage), opacity: 0.6))
                if Int(cpu.rgba(x: x, y: y).a) != alpha {
                    Issue.record("(\(x), \(y)): \(cpu.rgba(x: x, y: y).a), not \(alpha)")
                    return
                }
            }
        }
        if let gles = GLESAvailability.renderer() {
            let image = try gles.render(root)
            let difference = try #require(ImageDifference(cpu, image, tolerance: 1))
            #expect(difference.pixelsOverTolerance == 0, "max \(difference.maxChannelDifference)")
        }
    }

    @Test func aRoundedBorderIsARingWithBothEdgesAntialiased() throws {
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        layer.borderWidth = 10
        layer.borderColor = .white
        layer.cornerRadius = 20
        let root = Self.tree(layer)
        try Self.expectCoverage(root, 50, 9, 255, "inside the ring")
        try Self.expectCoverage(root, 50, 10, 0, "the hole")
        try Self.expectCoverage(root, 50, 50, 0, "the hole's middle")
        // (12.5, 13.5) is 9.92 from the inner corner's centre (20, 20), radius 10: the hole covers 0.575 of it,
        // the ring 0.425 -> 108. (14.5, 11.5): 10.12 away, the hole covers 0.376, the ring 0.624 -> 159.
        try Self.expectCoverage(root, 12, 13, 108, "the inner corner")
        try Self.expectCoverage(root, 14, 11, 159, "the inner corner")
        try Self.expectCoverage(root, 5, 6, 176, "the outer corner")
    }

    @Test func continuousCornersFollowTheirCurve() throws {
        func layer(_ curve: CornerCurve) -> Layer {
            let layer = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            layer.backgroundColor = .white
            layer.cornerRadius = 20
            layer.cornerCurve = curve
            return layer
        }
        let root = Self.tree(layer(.continuous))
        // The continuous corner leaves the edge 1.5287 x 20 = 30.6 from the corner: (0, 25) is on the curve, where
        // the circular corner's edge is straight.
        try Self.expectCoverage(Self.tree(layer(.circular)), 0, 25, 255, "circular: a straight edge")
        let onCurve = try Self.formula(root, 0, 25)
        #expect(onCurve > 0 && onCurve < 255)
        // Against the exact corner in doubles (ContinuousCorner): within one step at every pixel of the corner.
        let plan = try Planner(scale: 1).plan(root)
        let shape = try #require(plan.quads.first?.shape)
        let parameters = try #require(ShapeCoverage(shape))
        let cpu = try CPURenderer().render(root)
        let gles = try GLESAvailability.renderer().map { try $0.render(root) }
        for y in 0..<34 {
            for x in 0..<34 {
                let (d, _, _) = shape.outer.signedDistance(CGFloat(x) + 0.5, CGFloat(y) + 0.5)
                let exact = Int((min(max(0.5 - d, 0), 1) * 255).rounded())
                let formula = Int(parameters.coverageByte(x, y))
                #expect(abs(formula - exact) <= 1, "(\(x), \(y)): \(formula) against \(exact)")
                #expect(Int(cpu.rgba(x: x, y: y).a) == formula, "cpu (\(x), \(y))")
                if let gles { #expect(abs(Int(gles.rgba(x: x, y: y).a) - formula) <= 1, "gles (\(x), \(y))") }
            }
        }
        try Self.expectCoverage(root, 0, 40, 255, "past the curve")
        try Self.expectCoverage(root, 0, 0, 0, "the corner")
    }

    @Test func turnedRoundedQuadsHaveTheirCoverage() throws {
        let layer = Layer(frame: CGRect(x: 30, y: 30, width: 60, height: 40))
        layer.backgroundColor = .white
        layer.cornerRadius = 10
        layer.transform = Transform3D(rotationAngle: 0.5)
        let root = Self.tree(layer, width: 120, height: 120)
        let plan = try Planner(scale: 1).plan(root)
        let shape = try #require(plan.quads.first?.shape)
        let parameters = try #require(ShapeCoverage(shape))
        let cpu = try CPURenderer().render(root)
        let gles = try GLESAvailability.renderer().map { try $0.render(root) }
        var partial = 0
        for y in 0..<120 {
            for x in 0..<120 {
                // The distance in target pixels: the shape's plane is the layer's, turned, at scale 1.
                let centre = CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)
                let local = try #require(shape.toTarget.inverted).apply(centre)
                let (d, _, _) = shape.outer.signedDistance(local.x, local.y)
                let exact = Int((min(max(0.5 - d, 0), 1) * 255).rounded())
                let value = Int(parameters.coverageByte(x, y))
                #expect(abs(value - exact) <= 1, "(\(x), \(y)): \(value) against \(exact)")
                #expect(Int(cpu.rgba(x: x, y: y).a) == value, "cpu (\(x), \(y))")
                if let gles { #expect(abs(Int(gles.rgba(x: x, y: y).a) - value) <= 1, "gles (\(x), \(y))") }
                if value > 0, value < 255 { partial += 1 }
            }
        }
        #expect(partial > 150, "the whole outline is antialiased: \(partial) edge pixels")
    }

    @Test func aRoundedSpriteIsOneInstance() throws {
        guard let gles = GLESAvailability.renderer() else { return }
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = .black
        let image = TestImages.quadrants(width: 64, height: 64)
        for i in 0..<12 {
            let sprite = Layer(frame: CGRect(x: 10 + 75 * (i % 4), y: 10 + 75 * (i / 4), width: 64, height: 64))
            sprite.contents = image
            sprite.cornerRadius = 16
            sprite.masksToBounds = true
            if i % 3 == 1 { sprite.cornerCurve = .continuous }
            if i % 4 == 3 { sprite.opacity = 0.7 }
            root.addSublayer(sprite)
        }
        let picture = try gles.render(root)
        // The background is the clear colour; each sprite one instance over its 64 x 64 pixels.
        #expect(gles.statistics.instances == 12)
        #expect(gles.statistics.quadsDrawn == 13)
        let cpu = try CPURenderer().render(root)
        let difference = try #require(ImageDifference(cpu, picture, tolerance: 1))
        #expect(difference.pixelsOverTolerance == 0, "max \(difference.maxChannelDifference)")
        #expect(ImageDifference.meetsParity(cpu, picture))
        // Corners cut: the first sprite's corner pixel is the black background, its middle the picture.
        #expect(picture.rgba(x: 10, y: 10) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(picture.rgba(x: 42, y: 42) == cpu.rgba(x: 42, y: 42))
    }

    @Test func roundedBackgroundsAndBordersAreAFewInstances() throws {
        guard let gles = GLESAvailability.renderer() else { return }
        let layer = Layer(frame: CGRect(x: 10, y: 10, width: 100, height: 80))
        layer.backgroundColor = .red
        layer.borderWidth = 4
        layer.borderColor = .blue
        layer.cornerRadius = 18
        let root = Self.tree(layer, width: 120, height: 100)
        let picture = try gles.render(root)
        // The background: one box. The border: its box less the inside of its hole (GLESBatchEncoder.withoutHole),
        // four boxes around it.
        #expect(gles.statistics.instances == 5)
        let cpu = try CPURenderer().render(root)
        let difference = try #require(ImageDifference(cpu, picture, tolerance: 1))
        #expect(difference.pixelsOverTolerance == 0, "max \(difference.maxChannelDifference)")
    }

    /// Each batch's shape program compiles in only what its shapes need (GLESProgram.ShapeFeatures): upright rounded
    /// sprites take neither the hole, the perspective division, the Jacobian nor the span table; a border adds the
    /// hole, continuous corners their curve, a perspective transform the division and the Jacobian, a non-uniform
    /// scale the Jacobian, and a turned quad drawn by coverage beside them the span table; and each variant draws
    /// what the CPU renderer draws.
    @Test func shapeProgramsCompileOnlyWhatTheirShapesNeed() throws {
        guard let gles = GLESAvailability.renderer() else { return }
        func sprite(_ x: CGFloat, _ y: CGFloat) -> Layer {
            let layer = Layer(frame: CGRect(x: x, y: y, width: 40, height: 30))
            layer.backgroundColor = Color(red: 0.9, green: 0.4, blue: 0.1, alpha: 0.8)
            layer.cornerRadius = 9
            return layer
        }
        func features(_ root: Layer) throws -> [GLESProgram.ShapeFeatures] {
            let encoder = try gles.encodedSerially(Planner(scale: 1).plan(root))
            let cpu = try CPURenderer().render(root)
            let picture = try gles.render(root)
            let difference = try #require(ImageDifference(cpu, picture, tolerance: 1))
            #expect(difference.pixelsOverTolerance == 0, "max \(difference.maxChannelDifference)")
            return encoder.batches.compactMap(\.shape)
        }
        let plain = Self.tree(sprite(10, 10), width: 120, height: 100)
        #expect(try features(plain) == [[]])

        let bordered = sprite(10, 10)
        bordered.borderWidth = 3
        bordered.borderColor = .blue
        #expect(try features(Self.tree(bordered, width: 120, height: 100)) == [[.hole]])

        let continuous = sprite(10, 10)
        continuous.cornerCurve = .continuous
        #expect(try features(Self.tree(continuous, width: 120, height: 100)) == [[.continuous]])

        let tilted = sprite(40, 30)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 200
        tilted.transform = perspective.rotated(by: 0.6, x: 0, y: 1, z: 0)
        #expect(try features(Self.tree(tilted, width: 120, height: 100)) == [[.projective, .jacobian]])

        // A turn and a uniform scale keep the map a similarity: the distance is divided by its scale. A
        // non-uniform scale needs the Jacobian.
        let turned = sprite(30, 20)
        turned.transform = Transform3D(rotationAngle: 0.3).scaledBy(x: 1.5, y: 1.5)
        let turnedRoot = Self.tree(turned, width: 120, height: 100)
        #expect(try features(turnedRoot) == [[]])
        let turnedShape = try #require(Planner(scale: 1).plan(turnedRoot).quads.first?.shape.flatMap(ShapeCoverage.init))
        #expect(abs(try #require(turnedShape.similarityScale) - 1 / 1.5) < 1e-6)
        let stretched = sprite(30, 20)
        stretched.transform = Transform3D(scaleX: 1.5, y: 1)
        #expect(try features(Self.tree(stretched, width: 120, height: 100)) == [[.jacobian]])

        // A sharp-edged turned quad is drawn by the span table, in the same batch as the rounded sprite.
        let root = Self.tree(sprite(10, 10), width: 120, height: 100)
        let sharp = Layer(frame: CGRect(x: 60, y: 40, width: 30, height: 30))
        sharp.backgroundColor = Color(red: 0.9, green: 0.4, blue: 0.1, alpha: 0.8)
        sharp.transform = Transform3D(rotationAngle: 0.4)
        root.addSublayer(sharp)
        let batches = try features(root)
        #expect(batches == [[]], "the program adds the span table from the batch's coverage: \(batches)")
    }

    /// Rounded quads inside a group (its offscreen buffer starts elsewhere than the target's corner) and in a plan
    /// large enough to be encoded on every core keep their coverage.
    @Test func shapesInGroupsAndParallelEncodingsMatchTheCPU() throws {
        guard let gles = GLESAvailability.renderer() else { return }
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        let group = Layer(frame: CGRect(x: 37, y: 23, width: 300, height: 240))
        group.opacity = 0.8
        let child = Layer(frame: CGRect(x: 5, y: 7, width: 90, height: 70))
        child.backgroundColor = .green
        child.cornerRadius = 25
        child.borderWidth = 3
        child.borderColor = .white
        group.addSublayer(child)
        let other = Layer(frame: CGRect(x: 120, y: 40, width: 80, height: 80))
        other.backgroundColor = .blue
        group.addSublayer(other)
        root.addSublayer(group)
        // No groups, and more quads than GLESBatchEncoder.parallelMinimumQuads: encoded in chunks, whose shape table
        // entries are renumbered when joined.
        let many = Layer()
        many.bounds = root.bounds
        var random = SplitMix64(seed: 7)
        let sheet = TestImages.quadrants(width: 16, height: 16)
        for index in 0..<4200 {
            let sprite = Layer(frame: CGRect(x: random.below(380), y: random.below(280), width: 16, height: 16))
            if index % 2 == 0 {
                sprite.backgroundColor = Color(red: 1, green: 0.5, blue: 0, alpha: 0.5)
            } else {
                sprite.contents = sheet
                sprite.masksToBounds = true
            }
            sprite.cornerRadius = CGFloat(2 + index % 7)
            many.addSublayer(sprite)
        }
        for tree in [root, many] {
            let cpu = try CPURenderer().render(tree)
            let picture = try gles.render(tree)
            let difference = try #require(ImageDifference(cpu, picture, tolerance: 2))
            #expect(ImageDifference.meetsParity(cpu, picture),
                    "max \(difference.maxChannelDifference), \(difference.pixelsOverTolerance) over 2")
        }
        let plan = try Planner(scale: 1).plan(many)
        #expect(GLESBatchEncoder.encodesInParallel(plan))
    }
}
