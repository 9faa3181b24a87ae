import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// The shelf packer of the GLES atlas, on its own (no GL).
struct GLESShelfPackerTests {
    @Test func boxesKeepAOneTexelGapAndFillTheWholePage() throws {
        var packer = GLESShelfPacker(side: 64)
        // 16 + 1 texel gap: three boxes and a fourth whose gap falls off the right edge.
        let row = (0..<4).compactMap { _ in packer.allocate(width: 15, height: 15) }
        #expect(row.map(\.x) == [0, 16, 32, 48] && row.allSatisfy { $0.y == 0 })
        let next = packer.allocate(width: 15, height: 15)
        #expect(next?.x == 0 && next?.y == 16)
        // A box of exactly the page's side fits an empty page, one texel more does not.
        var empty = GLESShelfPacker(side: 64)
        let tooWide = empty.allocate(width: 65, height: 1)
        let whole = empty.allocate(width: 64, height: 64)
        let more = empty.allocate(width: 1, height: 1)
        #expect(tooWide == nil && whole?.x == 0 && whole?.y == 0 && more == nil)
    }

    @Test func randomAllocationsNeverOverlapAndFreeingEverythingEmptiesThePage() throws {
        var packer = GLESShelfPacker(side: 256)
        var random = SplitMix64(seed: 3)
        var placed: [(x: Int, y: Int, w: Int, h: Int)] = []
        var failures = 0
        for step in 0..<5_000 {
            if !placed.isEmpty, random.below(3) == 0 || step % 500 > 450 {
                let box = placed.remove(at: random.below(placed.count))
                packer.free(x: box.x, y: box.y, width: box.w)
                continue
            }
            let w = 1 + random.below(40), h = 1 + random.below(40)
            guard let corner = packer.allocate(width: w, height: h) else {
                failures += 1
                continue
            }
            #expect(corner.x >= 0 && corner.y >= 0 && corner.x + w <= 256 && corner.y + h <= 256)
            for other in placed {
                // Boxes with their gaps never overlap.
                let apart = corner.x + w + 1 <= other.x || other.x + other.w + 1 <= corner.x
                    || corner.y + h + 1 <= other.y || other.y + other.h + 1 <= corner.y
                #expect(apart, "\(corner) \(w)x\(h) overlaps \(other)")
            }
            placed.append((corner.x, corner.y, w, h))
        }
        #expect(packer.live == placed.count)
        #expect(failures < 2_500)
        for box in placed { packer.free(x: box.x, y: box.y, width: box.w) }
        #expect(packer.live == 0 && packer.shelves.isEmpty && packer.top == 0)
        let whole = packer.allocate(width: 256, height: 256)
        #expect(whole != nil)
    }

    @Test func aGrownPageKeepsItsBoxesAndFillsOnToTheRightAndBelow() throws {
        var packer = GLESShelfPacker(side: 64)
        var boxes: [(x: Int, y: Int)] = []
        while let corner = packer.allocate(width: 20, height: 20) { boxes.append(corner) }
        #expect(boxes.count == 9)
        packer.grow(to: 128)
        #expect(packer.side == 128)
        // The first shelf goes on right after its third box's gap.
        let right = packer.allocate(width: 20, height: 20)
        #expect(right?.x == 63 && right?.y == 0)
        var more = 0
        while packer.allocate(width: 20, height: 20) != nil { more += 1 }
        // 6 x 6 boxes of 21 texels fit in 129: 36 in all.
        #expect(boxes.count + 1 + more == 36)
    }

    @Test func emptiedShelvesAreSplitForShorterBoxes() throws {
        var packer = GLESShelfPacker(side: 100)
        let tall = try #require(packer.allocate(width: 50, height: 40) as (x: Int, y: Int)?)
        let beside = try #require(packer.allocate(width: 40, height: 40) as (x: Int, y: Int)?)
        #expect(tall.y == 0 && beside.y == 0 && beside.x == 51)
        let bottom = packer.allocate(width: 90, height: 40)
        #expect(bottom?.y == 41)
        packer.free(x: tall.x, y: tall.y, width: 50)
        packer.free(x: beside.x, y: beside.y, width: 40)
        // The first shelf (41 texels) is empty: two 20-texel shelves fit in it.
        let a = packer.allocate(width: 99, height: 19)
        let b = packer.allocate(width: 99, height: 19)
        #expect(a?.y == 0 && b?.y == 20)
    }
}

/// Small images packed into atlas pages by the GLES renderer. Skipped, with the reason, only when no EGL display
/// opens. One test at a time, to keep this suite's memory low: a test elsewhere measures the process's memory
/// while others run.
@Suite(.serialized,
       .enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct GLESAtlasTests {
    /// nil background: pixels drawn 1:1 read back as the image's own texels.
    func root(_ w: CGFloat, _ h: CGFloat, _ background: Color? = Color(red: 0.1, green: 0.15, blue: 0.2)) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        root.backgroundColor = background
        return root
    }

    /// A w x h image of random texels, opaque or (`translucent`) half of them translucent: any texel read from
    /// the wrong place shows. (Magnified translucent noise is where the two renderers' bilinear filters differ
    /// most, by up to 8 on most pixels: fine for comparing GLES with GLES, not with the CPU renderer.)
    func noise(_ w: Int, _ h: Int, seed: UInt64, translucent: Bool = false) -> Image {
        let image = try! Image(width: w, height: h)
        var random = SplitMix64(seed: seed)
        for y in 0..<h {
            for x in 0..<w {
                let a = !translucent || random.below(2) == 0 ? 255 : 64 + random.below(192)
                // Premultiplied: no channel above alpha.
                let r = random.below(a + 1), g = random.below(a + 1), b = random.below(a + 1)
                image.setWord(UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b), x: x, y: y)
            }
        }
        image.markModified()
        return image
    }

    func flat(_ w: Int, _ h: Int, _ colour: Color) -> Image {
        try! Image(width: w, height: h, color: colour)
    }

    /// How the layers of `thousandImages` are placed.
    enum Placement {
        /// 1:1 at whole pixels (every fifth at opacity 0.6): the texel-copying path, as in drawn-1k.
        case wholePixels
        /// Nearest filtering: 1:1, doubled, quadrupled at half a pixel and halved, the last two sampling exactly
        /// on texel edges (which round down), some translucent.
        case nearest
        /// Bilinear at any scale and fraction of a pixel, rotated (some with antialiased edges), and 1:1.
        case any
    }

    /// 1,000 layers, each with its own small image of 4...40 texels a side.
    func thousandImages(_ placement: Placement, translucent: Bool = false) -> Layer {
        let r = root(640, 480)
        var random = SplitMix64(seed: 11)
        for index in 0..<1_000 {
            let w = 4 + random.below(37), h = 4 + random.below(37)
            let (sw, sh) = (CGFloat(w), CGFloat(h))
            let layer = Layer()
            layer.contents = noise(w, h, seed: UInt64(index) + 100, translucent: translucent)
            let x = CGFloat(random.below(600)), y = CGFloat(random.below(440))
            layer.frame = CGRect(x: x, y: y, width: sw, height: sh)
            switch (placement, index % 5) {
            case (.wholePixels, 4):
                layer.opacity = 0.6
            case (.wholePixels, _):
                break
            case (.nearest, let kind):
                layer.magnificationFilter = .nearest
                layer.minificationFilter = .nearest
                let sizes = [(sw, sh), (2 * sw, 2 * sh), (4 * sw, 4 * sh), (sw / 2, sh / 2), (2 * sw, sh)]
                layer.frame = CGRect(x: kind == 2 ? x + 0.5 : x, y: y, width: sizes[kind].0, height: sizes[kind].1)
                layer.opacity = kind == 4 ? 0.6 : 1
            case (.any, 0):
                layer.frame = CGRect(x: x + 0.3, y: y + 0.7, width: 1.37 * sw, height: 2.9 * sh)
            case (.any, 1):
                layer.frame = CGRect(x: x + 0.1, y: y, width: 0.7 * sw, height: 0.45 * sh)
                layer.opacity = 0.6
            case (.any, 2):
                layer.transform = Transform3D(rotationAngle: 0.3 + CGFloat(index % 7) * 0.2)
                layer.allowsEdgeAntialiasing = index % 10 == 2
            case (.any, 3):
                layer.frame = CGRect(x: x + 0.5, y: y + 0.125, width: 1.5 * sw, height: 1.5 * sh)
            case (.any, _):
                break
            }
            r.addSublayer(layer)
        }
        return r
    }

    /// Fails with the images left under .build/test-failures when `a` and `b` differ at all.
    func expectIdentical(_ a: Image, _ b: Image, _ name: String) {
        let difference = ImageDifference(a, b, tolerance: 0)
        let same = difference.map { $0.maxChannelDifference == 0 } ?? false
        if !same { FailureArtifacts.write(test: name, images: ["atlas": a, "own-textures": b]) }
        let largest = difference?.maxChannelDifference ?? -1, count = difference?.pixelsOverTolerance ?? -1
        #expect(same, "\(name): max \(largest), \(count) pixels differ")
    }

    func expectParity(_ cpu: Image, _ gles: Image, _ name: String) {
        let parity = ImageDifference.meetsParity(cpu, gles)
        if !parity { FailureArtifacts.write(test: name, images: ["cpu": cpu, "gles": gles]) }
        #expect(parity, "\(name): max \(ImageDifference(cpu, gles, tolerance: 2)?.maxChannelDifference ?? -1)")
    }

    /// `plan` drawn with every image in a texture of its own, 100 quads a frame over the last frame's pixels (the
    /// same pixels: the target holds the same bytes between frames), keeping only those 100 textures: 1,000
    /// textures at once would take llvmpipe some 54 MB, and tests that measure the process's memory run alongside.
    func renderWithoutAtlas(_ plan: RenderPlan, _ own: GLESRenderer) throws -> Image {
        let target = try Image(width: plan.width, height: plan.height)
        for start in stride(from: 0, to: plan.quads.count, by: 100) {
            let part = RenderPlan(width: plan.width, height: plan.height,
                                  quads: Array(plan.quads[start..<min(start + 100, plan.quads.count)]))
            try own.render(part, into: target)
        }
        return target
    }

    @Test func thousandSmallImagesAreAHandfulOfDrawCallsWithTheSamePixels() throws {
        let atlased = try #require(GLESAvailability.renderer())
        let own = try #require(GLESAvailability.renderer(options: .init(textureBudget: 1, atlasMaxImageSize: 0)))
        // A frame with nothing to draw gives back what the last scene's images (gone by then) held. Each renderer
        // keeps the plan it drew last until its next frame (to reuse its instances), and the two share images, so
        // each draws two empty frames: the first lets go of the plans, the second frees what they held.
        func release() throws {
            for _ in 0..<2 {
                for renderer in [atlased, own] { _ = try renderer.render(RenderPlan(width: 1, height: 1)) }
            }
        }
        do {
            let plan = try Planner().plan(thousandImages(.wholePixels))
            let image = try atlased.render(plan)
            #expect(atlased.statistics.quads == 1_001)
            #expect(atlased.statistics.drawCalls <= 4, "\(atlased.statistics.drawCalls) draw calls")
            #expect(atlased.textureUploads == 1_000 && atlased.cachedTextureCount == 1_000)
            // One page, grown from 512 texels while the frame's images were uploaded (quads encoded before it
            // grew draw from its old texture).
            #expect(atlased.atlasPageCount == 1 && atlased.textures.atlas.pages[0].side > GLESAtlas.initialPageSide)
            let reference = try renderWithoutAtlas(plan, own)
            #expect(own.atlasPageCount == 0)
            expectIdentical(image, reference, "gles-atlas-1k")
            expectParity(try CPURenderer().render(plan), image, "gles-atlas-1k-parity")
            // The next frame uploads nothing and draws the same.
            expectIdentical(try atlased.render(plan), reference, "gles-atlas-1k-again")
            #expect(atlased.textureUploads == 1_000 && atlased.statistics.bytesUploaded == 0)
        }
        try release()
        do {
            // Translucent texels.
            let plan = try Planner().plan(thousandImages(.wholePixels, translucent: true))
            expectIdentical(try atlased.render(plan), try renderWithoutAtlas(plan, own), "gles-atlas-1k-translucent")
        }
        try release()
        do {
            let plan = try Planner().plan(thousandImages(.nearest))
            let image = try atlased.render(plan)
            #expect(atlased.statistics.drawCalls <= 4, "\(atlased.statistics.drawCalls) draw calls")
            expectIdentical(image, try renderWithoutAtlas(plan, own), "gles-atlas-nearest")
            expectParity(try CPURenderer().render(plan), image, "gles-atlas-nearest-parity")
        }
        try release()
        do {
            let plan = try Planner().plan(thousandImages(.nearest, translucent: true))
            let image = try atlased.render(plan)
            expectIdentical(image, try renderWithoutAtlas(plan, own), "gles-atlas-nearest-translucent")
        }
        try release()
        do {
            // Bilinear at any scale and rotation: float texel coordinates then round differently at an atlas
            // slot's offset than near a texture's origin (on llvmpipe, the interpolated coordinate's small errors
            // vanish at the larger magnitude), so a bilinear weight exactly on a 1/128 step may land one step
            // away; the renders agree within the parity bound rather than exactly, both with the CPU renderer's.
            let plan = try Planner().plan(thousandImages(.any))
            let image = try atlased.render(plan)
            #expect(atlased.statistics.drawCalls <= 4, "\(atlased.statistics.drawCalls) draw calls")
            let reference = try renderWithoutAtlas(plan, own)
            let cpu = try CPURenderer().render(plan)
            expectParity(cpu, image, "gles-atlas-any-parity")
            expectParity(cpu, reference, "gles-atlas-any-own-parity")
            expectParity(reference, image, "gles-atlas-any-vs-own")
        }
        try release()
        #expect(atlased.cachedTextureCount == 0 && atlased.atlasPageCount == 0 && own.cachedTextureCount == 0)
    }

    /// 1:1 quads at whole pixels drawn in one batch with scaled quads (so with the bilinear program) still copy
    /// their texels exactly.
    @Test func wholePixelImagesBatchedWithScaledOnesCopyTheirTexels() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let r = root(600, 600, nil)
        var copies: [(Image, Int, Int)] = []
        for index in 0..<100 {
            let image = noise(5 + index % 23, 4 + index % 19, seed: UInt64(index), translucent: true)
            let (x, y) = (index % 10 * 60, index / 10 * 60)
            let layer = Layer(frame: CGRect(x: x, y: y, width: image.width, height: image.height))
            if index % 2 == 1 {
                layer.frame = CGRect(x: CGFloat(x) + 0.3, y: CGFloat(y), width: 1.7 * CGFloat(image.width),
                                     height: 1.3 * CGFloat(image.height))
            } else {
                copies.append((image, x, y))
            }
            layer.contents = image
            r.addSublayer(layer)
        }
        let out = try renderer.render(r)
        #expect(renderer.statistics.drawCalls == 1)
        for (image, x0, y0) in copies {
            var wrong = 0
            for y in 0..<image.height {
                for x in 0..<image.width where out.word(x: x0 + x, y: y0 + y) != image.word(x: x, y: y) { wrong += 1 }
            }
            #expect(wrong == 0, "\(wrong) texels of the \(image.width)x\(image.height) image at (\(x0), \(y0))")
        }
    }

    @Test func aChangedImageIsUploadedAgainIntoItsSlot() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let r = root(64, 32)
        let images = [flat(8, 8, .red), TestImages.quadrants(width: 8, height: 8), flat(8, 8, .blue)]
        for (index, image) in images.enumerated() {
            let layer = Layer(frame: CGRect(x: index * 20, y: 0, width: 8, height: 8))
            layer.contents = image
            r.addSublayer(layer)
        }
        _ = try renderer.render(r)
        #expect(renderer.textureUploads == 3 && renderer.statistics.bytesUploaded == 3 * 8 * 8 * 4)
        let changed = images[1]
        let before = try #require(renderer.textures.slot(for: changed))
        #expect(before.x > 0 && before.y == 0)
        changed.setRGBA(RGBA8(r: 0, g: 0, b: 0, a: 255), x: 0, y: 0)
        changed.markModified()
        let image = try renderer.render(r)
        #expect(renderer.textureUploads == 4 && renderer.statistics.bytesUploaded == 8 * 8 * 4)
        let after = try #require(renderer.textures.slot(for: changed))
        #expect(after.page === before.page && after.x == before.x && after.y == before.y)
        #expect(image.rgba(x: 20, y: 0) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(image.rgba(x: 21, y: 0) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(image.rgba(x: 27, y: 7) == RGBA8(r: 255, g: 255, b: 0, a: 255))
        // The neighbours in the page are untouched.
        #expect(image.rgba(x: 7, y: 7) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(image.rgba(x: 40, y: 0) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        _ = try renderer.render(r)
        #expect(renderer.textureUploads == 4 && renderer.statistics.bytesUploaded == 0)
        #expect(renderer.statistics.pixelsRedrawn == 0, "nothing changed: a live frame redraws nothing")
    }

    @Test func slotsOfGoneImagesAreReusedSoPagesDoNotPileUp() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        // 256-texel pages hold 49 images of 32 x 32 (33 with the gap); every frame brings 40 new ones.
        let renderer = try #require(GLESAvailability.renderer(options: .init(atlasPageSize: 256)))
        let r = root(320, 320, nil)
        let layers = (0..<40).map { Layer(frame: CGRect(x: $0 % 8 * 40, y: $0 / 8 * 40, width: 32, height: 32)) }
        r.sublayers = layers
        var random = SplitMix64(seed: 5)
        for frame in 0..<30 {
            for (index, layer) in layers.enumerated() {
                // Sizes vary from frame to frame, so slots are freed and reused across shelves of several heights.
                let side = frame < 10 ? 32 : 8 + random.below(25)
                layer.contents = noise(side, side, seed: UInt64(frame * 100 + index), translucent: true)
            }
            let image = try renderer.render(r)
            #expect(renderer.atlasPageCount <= 2, "frame \(frame): \(renderer.atlasPageCount) pages")
            #expect(renderer.cachedTextureCount == 40)
            if frame < 10 {
                // With the images all 32 x 32, one page is enough.
                #expect(renderer.atlasPageCount == 1)
                let probe = try #require(layers[7].contentsImage)
                #expect(image.rgba(x: 7 * 40 + 31, y: 31) == probe.rgba(x: 31, y: 31))
            }
        }
        #expect(renderer.textureUploads == 30 * 40)
        // Every image gone: every page is deleted.
        for layer in layers { layer.contents = nil }
        _ = try renderer.render(r)
        #expect(renderer.atlasPageCount == 0 && renderer.cachedTextureCount == 0)
    }

    @Test func imagesEvictedOverBudgetGiveTheirSlotsBack() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let renderer = try #require(GLESAvailability.renderer(options: .init(textureBudget: 1, atlasPageSize: 128)))
        let r = root(64, 64, nil)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        r.addSublayer(layer)
        // Kept alive, but each unused (and over budget) the frame after: evicted, and the page reused.
        let kept = (0..<20).map { noise(40, 40, seed: UInt64($0), translucent: true) }
        for (index, image) in kept.enumerated() {
            layer.contents = image
            let out = try renderer.render(r)
            #expect(out.rgba(x: 39, y: 39) == image.rgba(x: 39, y: 39), "image \(index)")
            #expect(renderer.cachedTextureCount == 1 && renderer.atlasPageCount == 1)
        }
    }

    @Test func imagesUpToTheLimitAreAtlasedAndLargerOnesNot() throws {
        let renderer = try #require(GLESAvailability.renderer())
        // A limit of 29 atlases none of these images (the smallest is 30 x 20).
        let own = try #require(GLESAvailability.renderer(options: .init(atlasMaxImageSize: 29)))
        let small = noise(30, 20, seed: 1)
        let limit = noise(256, 256, seed: 2)
        let wide = noise(257, 40, seed: 3)
        let tall = noise(40, 257, seed: 4)
        let r = root(640, 420)
        var x = 0
        for image in [small, limit, wide, tall] {
            // 1:1, and halved at a quarter pixel (the same pixels from the atlas as from a texture of its own).
            let copy = Layer(frame: CGRect(x: 10 + x, y: 10, width: image.width, height: image.height))
            copy.contents = image
            r.addSublayer(copy)
            let half = Layer(frame: CGRect(x: 10.25 + CGFloat(x), y: 280, width: CGFloat(image.width) / 2,
                                           height: CGFloat(image.height) / 2))
            half.contents = image
            r.addSublayer(half)
            x += image.width + 10
        }
        let plan = try Planner().plan(r)
        let image = try renderer.render(plan)
        let slots = [small, limit, wide, tall].map { renderer.textures.slot(for: $0) }
        #expect(slots[0] != nil && slots[1] != nil && slots[2] == nil && slots[3] == nil)
        #expect(slots[1].map { $0.width == 256 && $0.height == 256 } == true)
        #expect(renderer.cachedTextureCount == 4 && renderer.textureUploads == 4)
        expectIdentical(image, try own.render(plan), "gles-atlas-limit")
        #expect(own.cachedTextureCount == 4 && own.textures.slot(for: small) == nil && own.atlasPageCount == 0)
        expectParity(try CPURenderer().render(plan), image, "gles-atlas-limit-parity")
    }

    @Test func spritesFromAnAtlasedSheetDoNotBleed() throws {
        let renderer = try #require(GLESAvailability.renderer())
        // Bright neighbours in the page: the sheet lands between them, away from the page's corner.
        let neighbours = [flat(20, 32, .white), flat(20, 32, .white)]
        let sheet = TestImages.quadrants(width: 32, height: 32)
        let r = root(300, 300)
        let first = Layer(frame: CGRect(x: 0, y: 0, width: 4, height: 4))
        first.contents = neighbours[0]
        r.addSublayer(first)
        // Each quadrant of the sheet at 1:1, magnified (bilinear, up to 7.5x) and minified.
        var sprites: [(frame: CGRect, colour: RGBA8)] = []
        let colours = [RGBA8(r: 255, g: 0, b: 0, a: 255), RGBA8(r: 0, g: 255, b: 0, a: 255),
                       RGBA8(r: 0, g: 0, b: 255, a: 255), RGBA8(r: 255, g: 255, b: 0, a: 255)]
        for quadrant in 0..<4 {
            for (index, size) in [16, 64, 7, 33].enumerated() {
                let frame = CGRect(x: 10 + index * 70, y: 10 + quadrant * 70, width: size, height: size)
                let sprite = Layer(frame: frame)
                sprite.contents = sheet
                sprite.contentsRect = CGRect(x: CGFloat(quadrant % 2) / 2, y: CGFloat(quadrant / 2) / 2, width: 0.5,
                                             height: 0.5)
                r.addSublayer(sprite)
                sprites.append((frame, colours[quadrant]))
            }
        }
        let last = Layer(frame: CGRect(x: 296, y: 296, width: 4, height: 4))
        last.contents = neighbours[1]
        r.addSublayer(last)
        let plan = try Planner().plan(r)
        let image = try renderer.render(plan)
        let slot = try #require(renderer.textures.slot(for: sheet))
        #expect(slot.x > 0)
        #expect(renderer.statistics.drawCalls <= 2)
        // Every texel a sprite reads is of its own quadrant: every pixel, edges included, is its flat colour.
        for (f, expected) in sprites {
            var wrong = 0
            for y in Int(f.minY)..<Int(f.maxY) {
                for x in Int(f.minX)..<Int(f.maxX) where image.rgba(x: x, y: y) != expected { wrong += 1 }
            }
            #expect(wrong == 0, "\(wrong) pixels of the sprite at \(f) are not \(expected)")
        }
        expectParity(try CPURenderer().render(plan), image, "gles-atlas-sprites-parity")
    }
}
