import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Large blurs at reduced resolution (`ShadowBlur`): both renderers agree at every radius, the reduced blur stays
/// close to the exact one, and a huge radius costs a bounded buffer however large the layer.
@Suite struct ShadowBlurScaleTests {
    /// A 200 x 200 white output with one red layer (the scene: 100 x 100 at (50, 50)) casting a black
    /// shadow.
    static func scene(radius: CGFloat, _ configure: (Layer) -> Void = { _ in }) -> Layer {
        ShadowTests.scene(size: 200, frame: CGRect(x: 50, y: 50, width: 100, height: 100), color: .red) {
            $0.shadowRadius = radius
            $0.shadowOffset = .zero
            configure($0)
        }.root
    }

    /// The shadow sources of a planned tree.
    static func shadows(_ plan: RenderPlan) -> [ShadowSource] {
        plan.quads.compactMap { if case .shadow(let source) = $0.paint { return source } else { return nil } }
    }

    /// The top-left `width` x `height` pixels of `image`.
    static func topLeft(of image: Image, width: Int, height: Int) throws -> Image {
        let result = try Image(width: width, height: height)
        for y in 0..<height {
            result.baseAddress.advanced(by: y * result.bytesPerRow)
                .copyMemory(from: image.baseAddress.advanced(by: y * image.bytesPerRow), byteCount: width * 4)
        }
        result.markModified()
        return result
    }

    @Test func theFactorKeepsTheReducedSigmaAtMostSixteen() {
        #expect(ShadowBlur(sigma: 16).factor == 1 && ShadowBlur(sigma: 16).kernel == GaussianKernel(sigma: 16))
        let thirty = ShadowBlur(sigma: 30)
        #expect(thirty.factor == 2)
        // The box average (f^2 / 12) and bilinear magnification (f^2 / 6) add f^2 / 4 of variance.
        #expect(abs(thirty.kernel.sigma - (900 - 1).squareRoot() / 2) < 1e-4)
        #expect(thirty.spread == 2 * (thirty.kernel.radius + 3))
        #expect(ShadowBlur(sigma: 300).factor == 32 && ShadowBlur(sigma: 1000).factor == 32)
        #expect(ShadowBlur(sigma: 1000).sigma == GaussianKernel.maximumSigma)
        for sigma: Float in [17, 40, 100, 257, 500] {
            let blur = ShadowBlur(sigma: sigma)
            let limit = ShadowBlur.exactSigmaLimit
            #expect(blur.kernel.sigma <= limit && blur.kernel.sigma > limit / 2 - 1)
            #expect(abs(ShadowBlur(kernel: blur.kernel, factor: blur.factor).sigma - sigma) < 1e-2 * sigma)
        }
    }

    @Test func theBoxAverageRoundsHalfUpInWholeNumbers() throws {
        let quad = Quad(unitToTarget: .unitSquare(to: CGRect(x: 0, y: 0, width: 4, height: 4)),
                        paint: .solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1)))
        let source = ShadowSource(silhouette: RenderPlan(width: 8, height: 4, quads: [quad]),
                                  blur: ShadowBlur(kernel: GaussianKernel(sigma: 1), factor: 4),
                                  color: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1))
        let silhouette = try Image(width: 8, height: 4)
        // Block 0: alphas summing to 8 (8 / 16 = 0.5, rounds up to 1); block 1: 16 x 255 (255).
        silhouette.setRGBA(RGBA8(r: 0, g: 0, b: 0, a: 5), x: 0, y: 0)
        silhouette.setRGBA(RGBA8(r: 0, g: 0, b: 0, a: 3), x: 3, y: 3)
        for y in 0..<4 { for x in 4..<8 { silhouette.setRGBA(RGBA8(r: 0, g: 0, b: 0, a: 255), x: x, y: y) } }
        let reduced = try source.downsampled(silhouette)
        #expect(reduced.width == 2 && reduced.height == 1)
        #expect(reduced.rgba(x: 0, y: 0).a == 1 && reduced.rgba(x: 1, y: 0).a == 255)
        #expect(try source.blurred(from: silhouette).width == 2)
    }

    @Test func everyRadiusAgreesAcrossRenderers() throws {
        guard let gles = GLESAvailability.renderer() else { return }
        let cpu = CPURenderer()
        let variants: [(String, (Layer) -> Void)] = [
            ("square", { _ in }),
            ("wide, offset", {
                $0.frame = CGRect(x: 30, y: 80, width: 150, height: 30)
                $0.shadowOffset = CGSize(width: 7.5, height: -12.25)
            }),
            ("rotated, scaled, rounded", {
                $0.transform = Transform3D(rotationAngle: 0.4).concatenating(Transform3D(scaleX: 1.5, y: 0.75, z: 1))
                $0.cornerRadius = 12
                $0.shadowColor = Color(red: 0.1, green: 0.3, blue: 0.8, alpha: 1)
                $0.shadowOpacity = 0.8
            }),
            ("larger than the output", { $0.frame = CGRect(x: -150, y: 20, width: 500, height: 60) }),
        ]
        for radius: CGFloat in [3, 30, 300, 1000] {
            for (name, configure) in variants {
                let root = Self.scene(radius: radius, configure)
                for scale: CGFloat in radius >= 300 ? [1] : [1, 2] {
                    let a = try cpu.render(root, scale: scale), b = try gles.render(root, scale: scale)
                    let difference = String(describing: ImageDifference(a, b, tolerance: 2))
                    #expect(ImageDifference.meetsParity(a, b), "radius \(radius), \(name) @\(scale): \(difference)")
                }
            }
        }
    }

    /// Radius 40 (factor 4, 10 texels) computed at reduced resolution against the same silhouette blurred exactly
    /// (sigma 40 at full resolution, a 241-tap kernel): within 1/255 at probes across the edge, the corner and the
    /// centre, and within 2/255 everywhere (measured: 1 and 2 on both renderers).
    @Test func theReducedBlurMatchesTheExactOneWithinTwoLevels() throws {
        let root = Self.scene(radius: 40) { $0.frame = CGRect(x: 60, y: 70, width: 80, height: 50) }
        let reducedPlan = try Planner().plan(root)
        let reduced = try #require(Self.shadows(reducedPlan).first)
        #expect(reduced.blur.factor == 4)
        var exactPlan = reducedPlan
        for index in exactPlan.quads.indices {
            guard case .shadow(let source) = exactPlan.quads[index].paint else { continue }
            exactPlan.quads[index].paint = .shadow(ShadowSource(
                silhouette: source.silhouette, kernel: GaussianKernel(sigma: 40), color: source.color))
        }
        for renderer in ReferenceScenes.renderers() {
            let a = try renderer.render(reducedPlan), b = try renderer.render(exactPlan)
            for (x, y) in [(100, 95), (100, 60), (100, 40), (100, 10), (50, 95), (20, 95), (0, 0), (150, 130),
                           (199, 199), (145, 65)] {
                let (p, q) = (a.rgba(x: x, y: y), b.rgba(x: x, y: y))
                #expect(p.maxChannelDifference(to: q) <= 1, "\(renderer.name) (\(x), \(y)): \(p) reduced, \(q) exact")
            }
            let difference = try #require(ImageDifference(a, b, tolerance: 2))
            #expect(difference.maxChannelDifference <= 2, "\(renderer.name): \(difference)")
        }
    }

    /// Sigma 500 (radius 1000 is capped there) over a 100-pixel square: the shadow at a point is
    /// 255 x (Phi((x1 - x) / sigma) - Phi((x0 - x) / sigma)) x (the same in y), about 1.6 levels: the white
    /// around the square reads 253 or 254 on both renderers.
    @Test func aHugeRadiusGivesTheFaintWideShadowItShould() throws {
        let root = Self.scene(radius: 1000)
        func phi(_ z: Double) -> Double { 0.5 * (1 + erf(z / 2.squareRoot())) }
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root)
            for (x, y) in [(0, 0), (25, 100), (199, 30), (100, 199)] {
                let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
                let a = (phi((150 - cx) / 500) - phi((50 - cx) / 500)) * (phi((150 - cy) / 500) - phi((50 - cy) / 500))
                let expected = Int((255 * (1 - a)).rounded())
                #expect(ShadowTests.grey(image.rgba(x: x, y: y), expected), "\(renderer.name) (\(x), \(y))")
            }
            #expect(image.rgba(x: 100, y: 100) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        }
    }

    @Test func aHugeRadiusCostsABoundedBuffer() throws {
        // Radius 1000 (sigma 500: factor 32, 15.6 texels, radius 47, spread 32 x 50 = 1600 pixels). Uncut the
        // buffer would be 100 + 2 x 1600 = 3300 pixels a side; what can be seen is the 200-pixel output plus 3 +
        // 33 pixels each side, 272, and the square lies inside it: 272 rounded up to 288 (9 blocks).
        let plan = try Planner().plan(Self.scene(radius: 1000))
        let source = try #require(Self.shadows(plan).first)
        #expect(source.blur.factor == 32 && source.blur.spread == 1600)
        #expect(source.width == 288 && source.height == 288)
        #expect(source.blurWidth == 9 && source.blurHeight == 9)
        // A layer far larger than the output: the buffer is what can be seen plus the silhouette that still
        // reaches it, at most 272 + 2 x 1600 a side, never the layer's 20,000.
        let wide = Self.scene(radius: 1000) { $0.frame = CGRect(x: -10_000, y: -10_000, width: 20_000, height: 20_000) }
        let huge = try #require(Self.shadows(try Planner().plan(wide)).first)
        #expect(huge.width <= 272 + 3200 + 32 && huge.height <= 272 + 3200 + 32)
        #expect(huge.width % 32 == 0 && huge.blurWidth == huge.width / 32)
        // Scaled 2x the output is 400 pixels and sigma is still capped at 500.
        let twice = try #require(Self.shadows(try Planner(scale: 2).plan(Self.scene(radius: 1000))).first)
        #expect(twice.width == 480 && twice.height == 480)
    }

    /// A shadow cut to the output draws the same pixels as the same shadow uncut: the 200 x 200 output against the
    /// top-left of a 1,000 x 1,000 one holding the same layers (cut elsewhere or not at all). The reduced blocks fall
    /// elsewhere in the two buffers, so they agree within the parity bound rather than exactly.
    @Test func aShadowCutToTheOutputDrawsWhatTheWholeOneWould() throws {
        for radius: CGFloat in [12, 300] {
            let small = Self.scene(radius: radius) { $0.frame = CGRect(x: 120, y: -400, width: 200, height: 500) }
            let large = Self.scene(radius: radius) { $0.frame = CGRect(x: 120, y: -400, width: 200, height: 500) }
            large.bounds = CGRect(x: 0, y: 0, width: 1000, height: 1000)
            for renderer in ReferenceScenes.renderers() {
                let cut = try renderer.render(small)
                let whole = try Self.topLeft(of: renderer.render(large), width: 200, height: 200)
                let difference = String(describing: ImageDifference(cut, whole, tolerance: 2))
                #expect(ImageDifference.meetsParity(cut, whole), "\(renderer.name) radius \(radius): \(difference)")
            }
        }
    }

    /// A cut shadow depends on its offset (which part can be seen): moving only the offset draws what a fresh
    /// renderer draws for the new offset, on every renderer, reusing nothing stale.
    @Test func movingTheOffsetOfACutShadowDrawsTheNewOne() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let root = Self.scene(radius: 300) { $0.frame = CGRect(x: -300, y: 40, width: 700, height: 40) }
        let layer = root.sublayers![0]
        for renderer in ReferenceScenes.renderers() {
            _ = try renderer.render(root)
            layer.shadowOffset = CGSize(width: 0, height: 90)
            let moved = try renderer.render(root)
            layer.shadowOffset = .zero
            let fresh = Self.scene(radius: 300) {
                $0.frame = CGRect(x: -300, y: 40, width: 700, height: 40)
                $0.shadowOffset = CGSize(width: 0, height: 90)
            }
            let expected = try (renderer is CPURenderer ? CPURenderer() as Renderer : renderer).render(fresh)
            #expect(ImageDifference(moved, expected, tolerance: 0)?.maxChannelDifference == 0, "\(renderer.name)")
            // The shadow moved: darker below the layer than above it.
            #expect(moved.rgba(x: 100, y: 150).r < moved.rgba(x: 100, y: 20).r, "\(renderer.name)")
        }
    }
}
