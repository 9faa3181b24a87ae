import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Trilinear minification and minificationFilterBias (docs/semantics.md, "Contents": Sampling), on every renderer,
/// with expected pixels worked out from the mip chain by hand, and CPU/GLES parity.
@Suite struct TrilinearTests {
    /// A checkerboard of 4-texel squares shifted by 2: texel (x, y) white when exactly one of (x + 2) mod 8 < 4
    /// and (y + 2) mod 8 < 4 holds, else black. Every texel at 8i + 3 or 8i + 4 on both axes is black, so
    /// bilinear sampling 8x smaller (which reads exactly those) sees black everywhere; level 1 is a checker of
    /// 2-texel squares shifted by 1, and from level 2 on every texel averages two white and two black: 128.
    static func checker(width: Int, height: Int) -> Image {
        let image = try! Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let white = ((x + 2) % 8 < 4) != ((y + 2) % 8 < 4)
                image.setWord(white ? 0xFFFF_FFFF : 0xFF00_0000, x: x, y: y)
            }
        }
        return image
    }

    /// An image white on its left half, black on its right.
    static func halves(width: Int, height: Int) -> Image {
        let image = try! Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image.setWord(x < width / 2 ? 0xFFFF_FFFF : 0xFF00_0000, x: x, y: y) }
        }
        return image
    }

    func root(_ w: CGFloat, _ h: CGFloat) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        root.backgroundColor = .white
        return root
    }

    /// The smallest and largest red value over the pixels of `image`.
    func redRange(_ image: Image) -> ClosedRange<Int> {
        var lo = 255, hi = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let r = Int(image.rgba(x: x, y: y).r)
                lo = min(lo, r)
                hi = max(hi, r)
            }
        }
        return lo...hi
    }

    @Test(arguments: ReferenceScenes.renderers().map(\.name))
    func minifyingEightTimesAveragesWhereLinearAliases(_ name: String) throws {
        let renderer = try #require(ReferenceScenes.renderers().first { $0.name == name })
        let image = Self.checker(width: 512, height: 512)
        for filter in [Filter.linear, .trilinear] {
            let root = root(64, 64)
            let layer = Layer(frame: CGRect(x: 0, y: 0, width: 64, height: 64))
            layer.contents = image
            layer.minificationFilter = filter
            root.addSublayer(layer)
            let frame = try renderer.render(root)
            if filter == .linear {
                // Every sample falls between two black texels on both axes: the checker aliases to black.
                #expect(redRange(frame) == 0...0, "\(name) linear")
            } else {
                // Level 3 (lod log2 8 = 3, no fraction): every texel is the average grey 128, on every pixel.
                #expect(redRange(frame) == 128...128, "\(name) trilinear")
                #expect(frame.rgba(x: 31, y: 17) == RGBA8(r: 128, g: 128, b: 128, a: 255))
            }
        }
    }

    /// halves(256 x 8) on 32 x 1 pixels: pixel 15's centre is texel 124 of level 0, where bilinear at level 3 reads
    /// level-3 texel 15 (120 ... 127, white) exactly; level 4 (lod 4) reads at 7.75, 0.25 into black: 255 x 0.75 =
    /// 191.25 -> 191 (truncated as pixman truncates); level 5 at 3.875: 255 x (1 - 48 / 128) = 159.375 -> 159.
    @Test(arguments: ReferenceScenes.renderers().map(\.name))
    func biasMovesTheLevel(_ name: String) throws {
        let renderer = try #require(ReferenceScenes.renderers().first { $0.name == name })
        let image = Self.halves(width: 256, height: 8)
        func probe(bias: Float) throws -> (Int, Int) {
            let root = root(32, 1)
            let layer = Layer(frame: CGRect(x: 0, y: 0, width: 32, height: 1))
            layer.contents = image
            layer.minificationFilter = .trilinear
            layer.minificationFilterBias = bias
            root.addSublayer(layer)
            let frame = try renderer.render(root)
            return (Int(frame.rgba(x: 14, y: 0).r), Int(frame.rgba(x: 15, y: 0).r))
        }
        // lod 3: both pixels read white texels only.
        #expect(try probe(bias: 0) == (255, 255))
        // lod 5: pixel 14 (level-5 coordinate 3.625, weight 16 / 128 of black): 223.125 -> 223; pixel 15: 159.
        #expect(try probe(bias: 2) == (223, 159))
        // lod 4.25: level 4 weighs 255 - 64, level 5 weighs 64 (of 255): round(191 x 191 / 255) +
        // round(159 x 64 / 255) = 143 + 40 = 183 at pixel 15; pixel 14 (level 4 at 7.25: white, 255):
        // round(255 x 191 / 255) + round(223 x 64 / 255) = 191 + 56 = 247.
        #expect(try probe(bias: 1.25) == (247, 183))
        // A negative bias below lod 0 samples level 0 as linear: texels 123 and 124 are white, 131 and 132 black.
        #expect(try probe(bias: -4) == (255, 255))
    }

    @Test(arguments: ReferenceScenes.renderers().map(\.name))
    func aChangedImageIsMippedAgain(_ name: String) throws {
        let renderer = try #require(ReferenceScenes.renderers().first { $0.name == name })
        let image = Self.checker(width: 256, height: 256)
        let root = root(32, 32)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 32, height: 32))
        layer.contents = image
        layer.minificationFilter = .trilinear
        root.addSublayer(layer)
        #expect(try renderer.render(root).rgba(x: 9, y: 9) == RGBA8(r: 128, g: 128, b: 128, a: 255))
        // fill marks the image modified: the chain (and the GLES mip texture) is made again from the new pixels.
        image.fill(.red)
        #expect(try renderer.render(root).rgba(x: 9, y: 9) == RGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func thePlannerCarriesTheLevelOfDetailAndBias() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let root = root(64, 64)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 64, height: 64))
        layer.contents = try Image(width: 512, height: 256)
        layer.minificationFilter = .trilinear
        layer.minificationFilterBias = -0.5
        root.addSublayer(layer)
        func texture(scale: CGFloat) throws -> TextureSource {
            let quads = try Planner(scale: scale).plan(root).quads
            guard case .texture(let texture) = quads.last?.paint else { throw RenderError.failed("no texture quad") }
            return texture
        }
        // 8 x 4 texels per pixel at scale 1: area 32, lod log2(sqrt 32) = 2.5, bias -0.5: 2.
        let one = try texture(scale: 1)
        #expect(one.filter == .trilinear)
        #expect(abs(one.mipLevel - 2) < 1e-5)
        // Scale 2: a quarter of the texels per pixel, one level less.
        #expect(abs(try texture(scale: 2).mipLevel - 1) < 1e-5)
        layer.minificationFilter = .linear
        #expect(try texture(scale: 1).filter == .linear)
        // Magnified: the magnification filter, never trilinear.
        layer.minificationFilter = .trilinear
        layer.contents = try Image(width: 16, height: 16)
        #expect(try texture(scale: 1).filter == .linear)
    }
}

/// CPU and GLES agree on trilinear quads of every kind: odd sizes, fractions between levels, biases, rotation,
/// perspective, antialiased edges, opacity, groups, contentsRect and nine-slice clamps.
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct TrilinearParityTests {
    /// A colourful image with alpha: red and green ramps, blue checks of 16 texels, alpha in blocks of 32 x 24
    /// (photograph-like content; per-texel noise would make any two samplers' float rounding visible).
    static func pattern(width: Int, height: Int) -> Image {
        let image = try! Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt8(255 * x / (width - 1)), g = UInt8(255 * y / (height - 1))
                let b = UInt8((x / 16 + y / 16) % 2 * 200 + 40), a = UInt8(160 + (x / 32 + y / 24) % 2 * 95)
                image.setRGBA(RGBA8(r: r, g: g, b: b, a: a), x: x, y: y)
            }
        }
        return image
    }

    static func scene() -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 120)
        root.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.4, alpha: 1)
        let big = pattern(width: 301, height: 203)
        let checker = TrilinearTests.checker(width: 256, height: 256)
        func add(_ frame: CGRect, _ image: Image, to parent: Layer = root, _ configure: (Layer) -> Void = { _ in }) {
            let layer = Layer(frame: frame)
            layer.contents = image
            layer.minificationFilter = .trilinear
            configure(layer)
            parent.addSublayer(layer)
        }
        add(CGRect(x: 2, y: 2, width: 37.3, height: 25.1), big)
        add(CGRect(x: 42, y: 2, width: 23, height: 61), big) { $0.minificationFilterBias = 0.7 }
        add(CGRect(x: 70, y: 2, width: 40, height: 40), checker) {
            $0.transform = Transform3D(rotationAngle: 0.5)
            $0.allowsEdgeAntialiasing = true
            $0.opacity = 0.8
        }
        // Under perspective the CPU's sample points drift from the GPU's with the distance from the target's origin
        // (pixman steps a 16.16 fixed-point w; linear drifts as much, more at level 0), so this layer sits near the
        // origin and shows flat quadrants, whose levels are flat but for the seams between colours.
        add(CGRect(x: 2, y: 65, width: 50, height: 40), TestImages.quadrants(width: 300, height: 200)) {
            $0.transform = Transform3D(rotationAngle: 0.9, x: 0, y: 1, z: 0)
                .concatenating(Transform3D(perspectiveDistance: 120))
            $0.minificationFilterBias = -0.4
        }
        add(CGRect(x: 168, y: 2, width: 30, height: 30), big) {
            $0.contentsRect = CGRect(x: 0.31, y: 0.2, width: 0.5, height: 0.43)
        }
        add(CGRect(x: 115, y: 2, width: 50, height: 40), TestImages.nineSlice(cell: 60)) {
            $0.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
            $0.contentsScale = 4
        }
        let group = Layer(frame: CGRect(x: 100, y: 50, width: 95, height: 65))
        group.opacity = 0.6
        root.addSublayer(group)
        add(CGRect(x: 0, y: 0, width: 60, height: 40), checker, to: group) { $0.minificationFilterBias = 1.5 }
        add(CGRect(x: 30, y: 20, width: 64, height: 44), big, to: group) { $0.opacity = 0.5 }
        return root
    }

    /// The documented gap: an image larger than the largest texture has no GLES mip texture and is sampled as
    /// linear there (the checker aliases to black), while the CPU renderer still averages it (128).
    @Test func imagesLargerThanTheLargestTextureAreLinearOnGLES() throws {
        let gles = try #require(GLESAvailability.renderer(options: .init(maxTextureSize: 128)))
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 32, height: 32)
        let layer = Layer(frame: root.bounds)
        layer.contents = TrilinearTests.checker(width: 256, height: 256)
        layer.minificationFilter = .trilinear
        root.addSublayer(layer)
        #expect(try gles.render(root).rgba(x: 9, y: 9) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(try CPURenderer().render(root).rgba(x: 9, y: 9) == RGBA8(r: 128, g: 128, b: 128, a: 255))
    }

    /// At scale 1 and 2, with the texture maps interpolated (llvmpipe's default) and evaluated per pixel (a GPU's).
    @Test(arguments: [1.0, 2.0], [false, true])
    func cpuAndGLESAgree(scale: Double, perPixelMaps: Bool) throws {
        var options = GLESRenderer.Options()
        options.evaluatesTextureMapsPerPixel = perPixelMaps
        let gles = try #require(GLESAvailability.renderer(options: options))
        let root = Self.scene()
        let plan = try Planner(scale: scale).plan(root)
        // The scene exercises what it claims: trilinear quads between two levels, and on one level alone.
        let selections = plan.quads.compactMap { quad -> MipSelection? in
            guard case .texture(let texture) = quad.paint else { return nil }
            return texture.mipSelection
        }
        #expect(selections.contains { $0.fraction > 0 })
        #expect(selections.contains { $0.level > 0 })
        let a = try CPURenderer().render(root, scale: scale)
        let b = try gles.render(root, scale: scale)
        let difference = try #require(ImageDifference(a, b, tolerance: 2))
        if !ImageDifference.meetsParity(a, b) {
            var images = ["cpu": a, "gles": b]
            images["diff"] = try ImageDifference.visualize(a, b)
            let folder = FailureArtifacts.write(
                test: "trilinear-parity\(perPixelMaps ? "-pixel-maps" : "")@\(Int(scale))x", images: images)
            Issue.record("max \(difference.maxChannelDifference), \(difference.pixelsOverTolerance) pixels over 2 of \(difference.pixelCount); images in \(folder)")
        }
        print("trilinear parity at scale \(scale)\(perPixelMaps ? ", maps per pixel" : ""): max \(difference.maxChannelDifference), \(difference.pixelsOverTolerance) pixels over 2")
    }
}
