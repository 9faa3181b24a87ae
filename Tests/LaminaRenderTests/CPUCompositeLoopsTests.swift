import CPixman
import Foundation
import Lamina
import LaminaBench
@testable import LaminaCPU
import LaminaTestSupport
import Testing

/// Lamina's own compositing loops (`CPUCompositeLoops`: scalar, SSE2, AVX2) against pixman, byte for byte: the
/// loops alone on random rectangles (sizes, strides, alignments, tails shorter than a vector, opacities, clear,
/// opaque, translucent and even invalid texels, rectangles reaching past the destination; for the bilinear loop,
/// scales up and down, fractional offsets and samples past the clamp rectangle's edges), then whole frames of the
/// renderer drawn with each form against the frames of pixman's form.
@Suite struct CPUCompositeLoopsTests {
    static let forms: [CPUCompositeLoops] = [.scalar, .sse2, .avx2]

    /// A premultiplied pixel of kind 0 (clear), 1 (opaque), 2 (translucent) or 3 (any bytes at all, even colour
    /// above alpha, which pixman's saturating addition handles).
    static func pixel(_ kind: Int, _ random: inout SplitMix64) -> UInt32 {
        switch kind {
        case 0: return 0
        case 3: return UInt32(truncatingIfNeeded: random.next())
        default:
            let a = kind == 1 ? 255 : UInt32(random.below(256))
            let channel = { (r: inout SplitMix64) in UInt32(r.below(Int(a) + 1)) }
            return a << 24 | channel(&random) << 16 | channel(&random) << 8 | channel(&random)
        }
    }

    /// Pixels in runs of one kind (as sprites have them: clear margins, opaque middles, translucent rims), or mixed.
    static func pixels(_ count: Int, _ random: inout SplitMix64) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(count)
        let mixed = random.below(4) == 0
        while out.count < count {
            let kind = random.below(10) == 0 ? 3 : random.below(3)
            let run = mixed ? 1 : 1 + random.below(13)
            for _ in 0..<min(run, count - out.count) { out.append(pixel(kind, &random)) }
        }
        return out
    }

    /// A pixman a8r8g8b8 image over `words` (width x height, `stride` words a row).
    static func image(_ words: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int) -> OpaquePointer {
        pixman_image_create_bits_no_clear(PIXMAN_a8r8g8b8, Int32(width), Int32(height), words, Int32(stride * 4))!
    }

    @Test(arguments: forms)
    func overMakesPixmansBytes(loops: CPUCompositeLoops) throws {
        var random = SplitMix64(seed: 27)
        for case_ in 0..<2_000 {
            // Source and destination with rows longer than the rectangle (strides of any alignment).
            let width = 1 + random.below(case_ % 3 == 0 ? 9 : 70), height = 1 + random.below(6)
            let sourceStride = width + random.below(9), sourceHeight = height + random.below(3)
            let targetStride = width + random.below(9), targetHeight = height + random.below(3)
            var source = Self.pixels(sourceStride * sourceHeight, &random)
            let before = Self.pixels(targetStride * targetHeight, &random)
            var expected = before, actual = before
            let sx = random.below(sourceStride - width + 1), sy = random.below(sourceHeight - height + 1)
            // Sometimes partly outside the destination: both clip it.
            let dx = random.below(targetStride - width + 1) - (random.below(5) == 0 ? random.below(width) : 0)
            let dy = random.below(targetHeight - height + 1) + (random.below(5) == 0 ? random.below(height) : 0)
            let opacity: UInt8 = random.below(3) == 0 ? UInt8(random.below(256)) : random.below(2) == 0 ? 255 : 0
            let drawn = source.withUnsafeMutableBufferPointer { s in
                expected.withUnsafeMutableBufferPointer { e in
                    actual.withUnsafeMutableBufferPointer { a in
                        let from = Self.image(s.baseAddress!, width: sourceStride, height: sourceHeight,
                                              stride: sourceStride)
                        pixman_image_set_repeat(from, PIXMAN_REPEAT_PAD)
                        let reference = Self.image(e.baseAddress!, width: targetStride, height: targetHeight,
                                                   stride: targetStride)
                        let target = Self.image(a.baseAddress!, width: targetStride, height: targetHeight,
                                                stride: targetStride)
                        defer { [from, reference, target].forEach { pixman_image_unref($0) } }
                        var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(opacity) * 257)
                        let mask = opacity < 255 ? pixman_image_create_solid_fill(&color) : nil
                        defer { if let mask { pixman_image_unref(mask) } }
                        pixman_image_composite32(PIXMAN_OP_OVER, from, mask, reference, Int32(sx), Int32(sy), 0, 0,
                                                 Int32(dx), Int32(dy), Int32(width), Int32(height))
                        return loops.over(from, sx: sx, sy: sy, opacity: opacity, onto: target, dx: dx, dy: dy,
                                          width: width, height: height)
                    }
                }
            }
            #expect(drawn)
            guard expected == actual else {
                let index = expected.indices.first { expected[$0] != actual[$0] }!
                Issue.record("""
                    case \(case_): \(width)x\(height) from (\(sx), \(sy)) to (\(dx), \(dy)), opacity \(opacity): \
                    pixel \(index) is \(String(actual[index], radix: 16)), pixman made \
                    \(String(expected[index], radix: 16)) over \(String(before[index], radix: 16))
                    """)
                return
            }
        }
    }

    @Test(arguments: forms)
    func solidColoursMakePixmansBytes(loops: CPUCompositeLoops) throws {
        var random = SplitMix64(seed: 2_027)
        for case_ in 0..<1_500 {
            let width = 1 + random.below(case_ % 3 == 0 ? 9 : 70), height = 1 + random.below(5)
            let stride = width + random.below(9)
            let before = Self.pixels(stride * height, &random)
            var expected = before, actual = before
            let color = Self.pixel(random.below(4), &random)
            let replacing = random.below(2) == 0
            let dx = random.below(stride - width + 1) - (random.below(5) == 0 ? random.below(width) : 0)
            let drawn = expected.withUnsafeMutableBufferPointer { e in
                actual.withUnsafeMutableBufferPointer { a in
                    let reference = Self.image(e.baseAddress!, width: stride, height: height, stride: stride)
                    let target = Self.image(a.baseAddress!, width: stride, height: height, stride: stride)
                    defer { [reference, target].forEach { pixman_image_unref($0) } }
                    var fill = pixman_color_t(
                        red: UInt16(color >> 16 & 0xff) * 257, green: UInt16(color >> 8 & 0xff) * 257,
                        blue: UInt16(color & 0xff) * 257, alpha: UInt16(color >> 24) * 257)
                    let solid = pixman_image_create_solid_fill(&fill)!
                    defer { pixman_image_unref(solid) }
                    pixman_image_composite32(replacing ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, solid, nil, reference,
                                             0, 0, 0, 0, Int32(dx), 0, Int32(width), Int32(height))
                    return loops.fill(color, onto: target, dx: dx, dy: 0, width: width, height: height,
                                      replacing: replacing)
                }
            }
            #expect(drawn)
            #expect(expected == actual, "case \(case_): \(width)x\(height) at \(dx), colour \(String(color, radix: 16))")
            if expected != actual { return }
        }
    }

    /// A 16.16 scale term: 1 (a fractional offset only), exactly 2 (an image at half its size, which the AVX2 loop
    /// reads whole), magnifying (down to 1/8 texel a pixel) or minifying (up to 8 texels a pixel).
    static func scaleTerm(_ random: inout SplitMix64) -> Int32 {
        switch random.below(6) {
        case 0: 65_536
        case 5: 131_072
        case 1, 2: Int32(8_192 + random.below(65_536 - 8_192))
        default: Int32(65_537 + random.below(7 * 65_536))
        }
    }

    @Test(arguments: forms)
    func bilinearOverMakesPixmansBytes(loops: CPUCompositeLoops) throws {
        try compareBilinear(loops: loops, seed: 7_027, cases: 1_500, halfSize: false)
    }

    /// Images shown at half their size (two texels a pixel across, any scale down the rows), wide enough that the
    /// AVX2 loop's whole loads of 16 texels run, at every fraction of a texel.
    @Test(arguments: forms)
    func bilinearOverAtHalfSizeMakesPixmansBytes(loops: CPUCompositeLoops) throws {
        try compareBilinear(loops: loops, seed: 2_202, cases: 600, halfSize: true)
    }

    func compareBilinear(loops: CPUCompositeLoops, seed: UInt64, cases: Int, halfSize: Bool) throws {
        var random = SplitMix64(seed: seed)
        for case_ in 0..<cases {
            // A clamp rectangle (the view) somewhere inside a larger image.
            let imageWidth = halfSize ? 20 + random.below(80) : 1 + random.below(40)
            let imageHeight = 1 + random.below(30)
            var texels = Self.pixels(imageWidth * imageHeight, &random)
            let cx = random.below(imageWidth), cy = random.below(imageHeight)
            let cw = 1 + random.below(imageWidth - cx), ch = 1 + random.below(imageHeight - cy)
            // The destination rectangle, sometimes partly outside the destination, and the target pixel it starts at.
            let width = 1 + random.below(case_ % 3 == 0 ? 9 : 70), height = 1 + random.below(6)
            let stride = width + random.below(9), rows = height + random.below(3)
            let before = Self.pixels(stride * rows, &random)
            var expected = before, actual = before
            let dx = random.below(stride - width + 1) - (random.below(5) == 0 ? random.below(width) : 0)
            let dy = random.below(rows - height + 1) + (random.below(5) == 0 ? random.below(height) : 0)
            let x = random.below(300) - 100, y = random.below(300) - 100
            // x' = a x + c: the first pixel lands from 3 texels before the clamp to 3 after it (the edge texels
            // repeat there), at any fraction of a texel.
            let a = halfSize ? 131_072 : Self.scaleTerm(&random)
            let d = halfSize && random.below(2) == 0 ? 131_072 : Self.scaleTerm(&random)
            let c = Int32(random.below((cw + 6) * 65_536)) - 3 * 65_536 - a * Int32(x)
            let f = Int32(random.below((ch + 6) * 65_536)) - 3 * 65_536 - d * Int32(y)
            var transform = pixman_transform()
            transform.matrix = ((a, 0, c), (0, d, f), (0, 0, 65_536))
            let opacity: UInt8 = random.below(3) == 0 ? UInt8(random.below(256)) : random.below(8) == 0 ? 0 : 255
            let drawn = texels.withUnsafeMutableBufferPointer { s in
                expected.withUnsafeMutableBufferPointer { e in
                    actual.withUnsafeMutableBufferPointer { t in
                        let view = Self.image(s.baseAddress! + cy * imageWidth + cx, width: cw, height: ch,
                                              stride: imageWidth)
                        pixman_image_set_repeat(view, PIXMAN_REPEAT_PAD)
                        pixman_image_set_filter(view, PIXMAN_FILTER_BILINEAR, nil, 0)
                        pixman_image_set_transform(view, &transform)
                        let reference = Self.image(e.baseAddress!, width: stride, height: rows, stride: stride)
                        let target = Self.image(t.baseAddress!, width: stride, height: rows, stride: stride)
                        defer { [view, reference, target].forEach { pixman_image_unref($0) } }
                        var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(opacity) * 257)
                        let mask = opacity < 255 ? pixman_image_create_solid_fill(&color) : nil
                        defer { if let mask { pixman_image_unref(mask) } }
                        pixman_image_composite32(PIXMAN_OP_OVER, view, mask, reference, Int32(x), Int32(y), 0, 0,
                                                 Int32(dx), Int32(dy), Int32(width), Int32(height))
                        return loops.bilinearOver(view, transform: transform, x: x, y: y, opacity: opacity,
                                                  onto: target, dx: dx, dy: dy, width: width, height: height)
                    }
                }
            }
            #expect(drawn)
            guard expected == actual else {
                let index = expected.indices.first { expected[$0] != actual[$0] }!
                Issue.record("""
                    case \(case_): \(width)x\(height) at (\(dx), \(dy)) from target (\(x), \(y)), clamp \(cw)x\(ch), \
                    map (\(a), \(c), \(d), \(f)), opacity \(opacity): pixel \(index) is \
                    \(String(actual[index], radix: 16)), pixman made \(String(expected[index], radix: 16)) over \
                    \(String(before[index], radix: 16))
                    """)
                return
            }
        }
    }

    @Test func bilinearOverLeavesOtherMapsToPixman() throws {
        // Turned, flipped or projective maps, and pixman's form: nothing drawn, false (pixman draws them).
        var texels = [UInt32](repeating: 0xff00_ff00, count: 8 * 8), target = [UInt32](repeating: 0, count: 8 * 8)
        let maps: [pixman_transform] = [
            pixman_transform(matrix: ((60_000, 3_000, 0), (0, 60_000, 0), (0, 0, 65_536))),
            pixman_transform(matrix: ((60_000, 0, 0), (-3_000, 60_000, 0), (0, 0, 65_536))),
            pixman_transform(matrix: ((-60_000, 0, 8 << 16), (0, 60_000, 0), (0, 0, 65_536))),
            pixman_transform(matrix: ((60_000, 0, 0), (0, -60_000, 8 << 16), (0, 0, 65_536))),
            pixman_transform(matrix: ((60_000, 0, 0), (0, 60_000, 0), (100, 0, 65_536))),
        ]
        let scale = pixman_transform(matrix: ((60_000, 0, 0), (0, 60_000, 0), (0, 0, 65_536)))
        let results = texels.withUnsafeMutableBufferPointer { s in
            target.withUnsafeMutableBufferPointer { t in
                let view = Self.image(s.baseAddress!, width: 8, height: 8, stride: 8)
                let to = Self.image(t.baseAddress!, width: 8, height: 8, stride: 8)
                defer { [view, to].forEach { pixman_image_unref($0) } }
                return maps.map {
                    CPUCompositeLoops.best.bilinearOver(view, transform: $0, x: 0, y: 0, opacity: 255, onto: to, dx: 0,
                                                        dy: 0, width: 8, height: 8)
                } + [CPUCompositeLoops.pixman.bilinearOver(view, transform: scale, x: 0, y: 0, opacity: 255, onto: to,
                                                           dx: 0, dy: 0, width: 8, height: 8)]
            }
        }
        #expect(results == [false, false, false, false, false, false])
        #expect(target == [UInt32](repeating: 0, count: 8 * 8))
    }

    /// Images drawn scaled: stretched and shrunk along the axes at whole-pixel places (the scaled-copy fast path),
    /// at fractional ones and with rounded corners (the general path's interior boxes), through opacities,
    /// contentsRects (clamp rectangles, some reaching past the image) and nine-slices; and flipped or turned ones,
    /// which stay pixman's.
    static func scaledScene(seed: UInt64) throws -> Layer {
        let sheet = try CPUFastPathTests.sheet()
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 150)
        root.backgroundColor = Color(hex: "#203040")
        var random = SplitMix64(seed: seed)
        for index in 0..<40 {
            let layer = Layer()
            layer.anchorPoint = .zero
            let w = CGFloat(6 + random.below(120)), h = CGFloat(6 + random.below(90))
            layer.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            let fraction = index % 3 == 2 ? CGFloat(random.below(8)) / 8 : 0
            layer.position = CGPoint(x: CGFloat(random.below(220) - 20) + fraction,
                                     y: CGFloat(random.below(170) - 20) + fraction)
            layer.contents = sheet
            switch index % 5 {
            case 0: break
            case 1:
                layer.contentsRect = CGRect(x: CGFloat(random.below(60)) / 96, y: CGFloat(random.below(50)) / 80,
                                            width: 0.1 + CGFloat(random.below(8)) / 10,
                                            height: 0.1 + CGFloat(random.below(8)) / 10)
            case 2:
                layer.contentsCenter = CGRect(x: 0.3, y: 0.35, width: 0.4, height: 0.3)
            case 3:
                layer.transform = index % 2 == 0 ? Transform3D(scaleX: -1, y: 1) : Transform3D(rotationAngle: 0.3)
            default:
                layer.contentsRect = CGRect(x: 0.5, y: 0.5, width: 0.25, height: 0.3)
            }
            if random.below(3) == 0 { layer.opacity = [0.5, 0.25, 0.8][random.below(3)] }
            if index % 4 == 1 {
                // Rounded corners: the general path draws the interior box (no mask) with the loop, the rest pixman.
                layer.cornerRadius = CGFloat([4, 9, 16][random.below(3)])
                layer.masksToBounds = true
            }
            root.addSublayer(layer)
        }
        return root
    }

    @Test func scaledImagesMakePixmansFrames() throws {
        for seed in 1...3 {
            let plan = try Planner().plan(Self.scaledScene(seed: UInt64(seed)))
            try Self.expectSameFrames(plan, "scaled-image scene \(seed)")
            // The comparison means something only if scaled copies are drawn: count them in the frame's quads.
            let slots = CPUTextureSlots()
            let quads = CPUPreparedQuads(plan.quads, slots: slots) {
                CPUPreparedQuad($0, width: plan.width, height: plan.height, slots: slots)
            }
            let scaled = quads.indices.filter { quads.fast($0).kind == .scaledBox }.count
            #expect(scaled > 10, "seed \(seed): \(scaled) scaled copies")
        }
    }

    @Test func aRectangleReachingPastTheSourceIsLeftToPixman() throws {
        // pixman repeats the edge texels there (the no-bleed clamp); the loops read only memory inside the view.
        var source = [UInt32](repeating: 0xff00_00ff, count: 8 * 8), target = [UInt32](repeating: 0, count: 8 * 8)
        let before = target
        let (outside, inside, pixmansForm) = source.withUnsafeMutableBufferPointer { s in
            target.withUnsafeMutableBufferPointer { t in
                let from = Self.image(s.baseAddress!, width: 8, height: 8, stride: 8)
                let to = Self.image(t.baseAddress!, width: 8, height: 8, stride: 8)
                defer { [from, to].forEach { pixman_image_unref($0) } }
                let outside = CPUCompositeLoops.best.over(from, sx: 4, sy: 0, opacity: 255, onto: to, dx: 0, dy: 0,
                                                          width: 5, height: 2)
                let pixmansForm = CPUCompositeLoops.pixman.over(from, sx: 0, sy: 0, opacity: 255, onto: to, dx: 0,
                                                                dy: 0, width: 2, height: 2)
                let inside = CPUCompositeLoops.best.over(from, sx: 0, sy: 6, opacity: 255, onto: to, dx: 0, dy: 0,
                                                         width: 8, height: 2)
                return (outside, inside, pixmansForm)
            }
        }
        #expect(!outside && !pixmansForm && inside)
        #expect(Array(target[0..<16]) == [UInt32](repeating: 0xff00_00ff, count: 16))
        #expect(Array(target[16...]) == Array(before[16...]))
    }

    @Test func formsFallBackToWhatTheCPURuns() {
        #expect(CPUCompositeLoops.pixman.runnable == .pixman)
        #expect(CPUCompositeLoops.scalar.runnable == .scalar)
        #expect(CPUCompositeLoops.best.runnable == .best)
        #expect(CPUCompositeLoops(rawValue: "avx2") == .avx2 && CPUCompositeLoops(rawValue: "neon") == nil)
        #expect(CPURenderer().compositeLoops == CPUCompositeLoops.default)
    }

    /// `root` drawn whole, then its middle redrawn as damage, by a renderer with `loops`.
    static func frames(_ plan: RenderPlan, loops: CPUCompositeLoops, threads: Int) throws -> [Image] {
        let renderer = CPURenderer(threads: threads)
        renderer.compositeLoops = loops
        let whole = try renderer.render(plan)
        let redrawn = try renderer.render(plan)
        var region = DamageRegion()
        region.add(PixelBox(x0: plan.width / 5, y0: plan.height / 4, x1: plan.width / 2 + 3, y1: plan.height * 3 / 4))
        region.add(PixelBox(x0: plan.width * 2 / 3, y0: 1, x1: plan.width - 1, y1: plan.height / 3))
        try renderer.render(plan, into: redrawn, redrawing: region)
        return [whole, redrawn]
    }

    static func expectSameFrames(_ plan: RenderPlan, _ name: String) throws {
        for threads in [1, 2] {
            let expected = try frames(plan, loops: .pixman, threads: threads)
            for loops in forms {
                let actual = try frames(plan, loops: loops, threads: threads)
                for (a, b) in zip(actual, expected) {
                    let same = a.width == b.width && a.height == b.height
                        && memcmp(a.baseAddress, b.baseAddress, a.byteCount) == 0
                    #expect(same, "\(name), \(loops), \(threads) threads")
                }
            }
        }
    }

    @Test func benchScenesMakePixmansFrames() throws {
        let size = CGSize(width: 320, height: 180)
        // Copies, scaled cells, a mip level's 1:1 copy, solid quads and source-over groups (the cards' rounded clips).
        for scene in [BenchScene.sprites1k, .nineslice2k, .bigimage, .blend500Normal] {
            let root = try scene.makeRoot(size: size)
            try Self.expectSameFrames(try Planner().plan(root), scene.rawValue)
        }
    }

    @Test func fastPathScenesMakePixmansFrames() throws {
        for seed in 1...4 {
            let root = try CPUFastPathTests.scene(count: 60, seed: UInt64(seed))
            try Self.expectSameFrames(try Planner().plan(root), "fast-path scene \(seed)")
        }
    }

    @Test func randomTreesMakePixmansFrames() throws {
        let base = RandomScenes.baseSeed(fallback: 27_000)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-loops-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<max(RandomScenes.count(fallback: 500) / 20, 1) {
            let scene = RandomScenes.valid(seed: base &+ UInt64(index))
            let loaded = try Scene.load(contentsOf: try scene.write(to: folder))
            let plan = try Planner(scale: loaded.scale).plan(loaded.root)
            let expected = try CPURenderer(threads: 2).render(plan, loops: .pixman)
            for loops in Self.forms {
                let actual = try CPURenderer(threads: 2).render(plan, loops: loops)
                #expect(memcmp(actual.baseAddress, expected.baseAddress, expected.byteCount) == 0,
                        "seed \(scene.seed), \(loops)")
            }
        }
    }
}

extension CPURenderer {
    fileprivate func render(_ plan: RenderPlan, loops: CPUCompositeLoops) throws -> Image {
        compositeLoops = loops
        return try render(plan)
    }
}
