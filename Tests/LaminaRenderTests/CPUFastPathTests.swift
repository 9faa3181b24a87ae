import CPixman
import Foundation
import Lamina
import LaminaBench
@testable import LaminaCPU
import LaminaTestSupport
import Testing

/// The CPU renderer's fast paths (whole-pixel copies, scaled copies, rounded copies, skipping transparent texels)
/// against its general path, pixel for pixel: they must make the very same bytes.
@Suite struct CPUFastPathTests {
    /// A 96 x 80 premultiplied image: transparent margins and holes, translucent and opaque texels.
    static func sheet() throws -> Image {
        let image = try Image(width: 96, height: 80)
        var random = SplitMix64(seed: 77)
        for y in 0..<80 {
            for x in 0..<96 {
                let cx = x % 32 - 16, cy = y % 40 - 20
                let d = cx * cx + cy * cy
                let alpha: UInt32 = d > 200 ? 0 : d > 120 ? UInt32(random.below(255)) : 255
                let scale = { (c: UInt32) in c * alpha / 255 }
                let r = scale(UInt32(random.below(256))), g = scale(UInt32(x * 2)), b = scale(UInt32(y * 3))
                image.setWord(alpha << 24 | r << 16 | g << 8 | b, x: x, y: y)
            }
        }
        image.markModified()
        return image
    }

    /// `count` layers showing cells of the sheet: whole-point places (some partly outside), odd sizes, contentsRects
    /// reaching past the image (the clamp's edge texels repeat), opacities below 1, rounded corners, nine-slices.
    static func scene(count: Int, seed: UInt64) throws -> Layer {
        let sheet = try sheet()
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 150)
        root.backgroundColor = Color(hex: "#203040")
        var random = SplitMix64(seed: seed)
        for index in 0..<count {
            let layer = Layer()
            layer.anchorPoint = .zero
            let w = 8 + random.below(60), h = 8 + random.below(50)
            layer.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            layer.position = CGPoint(x: random.below(240) - 30, y: random.below(190) - 30)
            layer.contents = sheet
            switch index % 4 {
            case 0:
                // A 1:1 cell, sometimes reaching past the image's right or bottom edge.
                layer.contentsRect = CGRect(
                    x: CGFloat(random.below(96 - 4)) / 96, y: CGFloat(random.below(80 - 4)) / 80,
                    width: CGFloat(w) / 96, height: CGFloat(h) / 80)
            case 1:
                layer.contentsCenter = CGRect(x: 0.3, y: 0.35, width: 0.4, height: 0.3)
            case 2:
                layer.contentsRect = CGRect(x: 0, y: 0, width: 32 / 96.0, height: 40 / 80.0)
                layer.bounds = CGRect(x: 0, y: 0, width: 32, height: 40)
            default:
                layer.contentsRect = CGRect(x: 1 / 3.0, y: 0.5, width: 32 / 96.0, height: 40 / 80.0)
                layer.bounds = CGRect(x: 0, y: 0, width: 32 + random.below(3), height: 40)
            }
            if random.below(3) == 0 { layer.opacity = [0.5, 0.25, 0.8][random.below(3)] }
            if random.below(2) == 0 {
                layer.cornerRadius = CGFloat([4, 9, 16, 40][random.below(4)])
                layer.masksToBounds = true
            }
            root.addSublayer(layer)
        }
        return root
    }

    func renderBoth(_ root: Layer, threads: Int) throws -> (fast: Image, general: Image) {
        let plan = try Planner().plan(root)
        let fast = CPURenderer(threads: threads)
        let general = CPURenderer(threads: threads)
        general.usesFastPaths = false
        return (try fast.render(plan), try general.render(plan))
    }

    @Test(arguments: [1, 2, 5])
    func fastPathsMakeTheGeneralPathsBytes(threads: Int) throws {
        for seed in 1...6 {
            let (fast, general) = try renderBoth(Self.scene(count: 60, seed: UInt64(seed)), threads: threads)
            let difference = try #require(ImageDifference(fast, general))
            #expect(difference.differingPixels == 0,
                    """
                    seed \(seed), \(threads) threads: \(difference.differingPixels) pixels differ, \
                    max \(difference.maxChannelDifference)
                    """)
        }
    }

    @Test func theSceneTakesEveryFastPath() throws {
        // The comparison above means something only if the fast forms are taken: count them in a frame's quads.
        let plan = try Planner().plan(Self.scene(count: 60, seed: 3))
        let slots = CPUTextureSlots()
        let quads = CPUPreparedQuads(plan.quads, slots: slots) {
            CPUPreparedQuad($0, width: plan.width, height: plan.height, slots: slots)
        }
        var kinds: [CPUFastQuad.Kind: Int] = [:]
        for index in quads.indices { kinds[quads.fast(index).kind, default: 0] += 1 }
        #expect(kinds[.blitBox, default: 0] > 5 && kinds[.blitEdges, default: 0] > 5
                    && kinds[.scaledBox, default: 0] > 5, "\(kinds)")
    }

    /// A texture quad that covers no pixel centre (between centres, or beyond the target) or whose opacity rounds
    /// to nothing is prepared empty, without a copy worked out for it: it takes no slot. The frame's bytes are the
    /// general path's.
    @Test func texturesThatCoverNoPixelCentreArePreparedEmpty() throws {
        let sheet = try Self.sheet()
        // Each a different cell of the sheet (a slot of its own where a copy is made), shown 1:1 but the first.
        func sprite(_ rect: CGRect, cell: Int, opacity: Float = 1) -> Quad {
            let texels = CGRect(x: CGFloat(cell % 3) * 32, y: CGFloat(cell / 3) * 40, width: 32, height: 40)
            return Quad(unitToTarget: .unitSquare(to: rect),
                        paint: .texture(TextureSource(
                            image: sheet, unitToTexel: .unitSquare(to: texels),
                            clamp: TexelRect(x0: Int(texels.minX), y0: Int(texels.minY), x1: Int(texels.maxX),
                                             y1: Int(texels.maxY)),
                            filter: .linear)),
                        opacity: opacity)
        }
        let quads = [
            sprite(CGRect(x: 3.6, y: 2.6, width: 0.8, height: 0.8), cell: 0),
            sprite(CGRect(x: 52, y: 3, width: 32, height: 40), cell: 1),
            sprite(CGRect(x: 4, y: -6, width: 32, height: 40), cell: 2, opacity: 0.001),
            sprite(CGRect(x: 10, y: 10, width: 32, height: 40), cell: 3),
        ]
        let slots = CPUTextureSlots()
        let prepared = CPUPreparedQuads(quads, slots: slots) {
            CPUPreparedQuad($0, width: 40, height: 30, slots: slots)
        }
        let kinds = prepared.indices.map { prepared.fast($0).kind }
        #expect(kinds == [.empty, .empty, .empty, .blitBox], "\(kinds)")
        #expect(slots.count == 1)
        let plan = RenderPlan(width: 40, height: 30, quads: quads)
        let general = CPURenderer()
        general.usesFastPaths = false
        let difference = try #require(ImageDifference(try CPURenderer().render(plan), try general.render(plan)))
        #expect(difference.differingPixels == 0)
    }

    @Test func texelCoverageTrimsToTheTexelsThatAreNotClear() throws {
        // 8 x 6 texels, clear but for a block at columns 2..<5, rows 1..<4, and one texel at (6, 4).
        let image = try Image(width: 10, height: 8)
        for y in 1..<4 { for x in 2..<5 { image.setWord(0x8040_2010, x: x + 1, y: y + 1) } }
        image.setWord(0x0100_0000, x: 7, y: 5)
        let texels = try #require(CPUTexelCoverage(image, clamp: TexelRect(x0: 1, y0: 1, x1: 9, y1: 7)))
        #expect(texels.bounds == PixelBox(x0: 2, y0: 1, x1: 7, y1: 5))
        #expect(texels.trimmed(x0: 0, y0: 0, x1: 8, y1: 6)! == (2, 1, 7, 5))
        #expect(texels.trimmed(x0: 0, y0: 0, x1: 4, y1: 3)! == (2, 1, 4, 3))
        #expect(texels.trimmed(x0: 5, y0: 0, x1: 8, y1: 4) == nil, "clear: only (6, 4) is not, outside")
        #expect(texels.trimmed(x0: 5, y0: 4, x1: 8, y1: 6)! == (6, 4, 7, 5))
        // Reaching past the clamp, pixels sample its edge texels (PAD): left as given.
        #expect(texels.trimmed(x0: -2, y0: 0, x1: 3, y1: 2)! == (-2, 0, 3, 2))
        // A clamp too large to scan has no coverage.
        let large = try Image(width: 300, height: 300)
        #expect(CPUTexelCoverage(large, clamp: TexelRect(x0: 0, y0: 0, x1: 300, y1: 300)) == nil)
    }

    /// The scaled copies' 16.16 matrices are converted in Swift; they must be pixman's own conversion, term for term,
    /// and refused where pixman refuses them.
    @Test func fixedPointMatricesArePixmansOwn() {
        var random = SplitMix64(seed: 31)
        func term() -> CGFloat {
            switch random.below(6) {
            case 0: CGFloat(random.below(200)) - 100
            // Halves of 1/65536 exactly, where rounding half up shows, and their neighbours.
            case 1: (CGFloat(random.below(2_000_001)) - 1_000_000 + 0.5) / 65536
            case 2: (CGFloat(random.below(2_000_001)) - 1_000_000 + 0.5).nextUp / 65536
            case 3: (CGFloat(random.below(65_535 * 2 + 1)) - 65_535) / 2 + CGFloat(random.below(1_000_000)) / 1e6 * 1e-6
            // Past the ±32767 pixman accepts.
            case 4: [-32767.5, 32767.000001, -32767, 32767, 40_000, -1e9][random.below(6)]
            default: (CGFloat(random.below(1_000_000)) / 1e6 - 0.5) * 300
            }
        }
        var refused = 0, converted = 0
        for _ in 0..<20_000 {
            let m = Matrix3(m11: term(), m12: term(), m13: random.below(8) == 0 ? term() : 0,
                            m21: term(), m22: term(), m23: random.below(8) == 0 ? term() : 0,
                            m31: term(), m32: term(), m33: random.below(8) == 0 ? term() : 1)
            var expected = pixman_transform()
            var f = CPUBandJob.pixmanMatrix(m)
            let accepted = pixman_transform_from_pixman_f_transform(&expected, &f) != 0
            let ours = CPUBandJob.fixedPoint(m)
            #expect(accepted == (ours != nil), "\(m)")
            guard accepted, var ours else {
                refused += 1
                continue
            }
            converted += 1
            #expect(withUnsafeBytes(of: &ours) { Array($0) } == withUnsafeBytes(of: &expected) { Array($0) }, "\(m)")
        }
        #expect(refused > 1000 && converted > 1000)
    }

    @Test func repeatedFramesKeepTheirBytes() throws {
        // Frames after the first reuse the renderer's kept texel coverage and slot tables.
        let root = try Self.scene(count: 40, seed: 9)
        let plan = try Planner().plan(root)
        let renderer = CPURenderer(threads: 2)
        let first = try renderer.render(plan)
        for _ in 0..<3 {
            #expect(try #require(ImageDifference(renderer.render(plan), first)).differingPixels == 0)
        }
    }

    @Test func aChangedImageIsSeenThroughItsNewTexels() throws {
        // The texels' transparency is kept per image generation: filling the sheet's clear texels after a frame
        // must show them in the next.
        let root = try Self.scene(count: 40, seed: 5)
        let plan = try Planner().plan(root)
        let fast = CPURenderer(threads: 2), general = CPURenderer(threads: 2)
        general.usesFastPaths = false
        _ = try fast.render(plan)
        guard case .texture(let texture) = plan.quads.first(where: {
            if case .texture = $0.paint { return true } else { return false }
        })?.paint else { Issue.record("no textured quad"); return }
        let sheet = texture.image
        for y in 0..<sheet.height {
            for x in 0..<sheet.width where sheet.word(x: x, y: y) >> 24 == 0 { sheet.setWord(0xFF80_4020, x: x, y: y) }
        }
        sheet.markModified()
        let after = try fast.render(plan), expected = try general.render(plan)
        #expect(try #require(ImageDifference(after, expected)).differingPixels == 0)
    }
}
