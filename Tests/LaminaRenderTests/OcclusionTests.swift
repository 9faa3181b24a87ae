import Foundation
import Lamina
import LaminaTestSupport
import Testing

@testable import LaminaCPU
@testable import LaminaGLES

/// Occlusion (RenderPlan+Occlusion.swift): what an opaque quad over a whole band (CPU) or the whole target (GLES)
/// hides is not drawn, and the pictures are byte for byte those of drawing everything.
struct OcclusionTests {
    func bytes(_ image: Image) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: image.baseAddress, count: image.byteCount))
    }

    /// Two CPU renderers of `threads` threads: one that leaves out what opaque quads hide, one that draws every quad.
    static func cpuPair(threads: Int) -> (culling: CPURenderer, drawing: CPURenderer) {
        let drawing = CPURenderer(threads: threads)
        drawing.usesOcclusion = false
        return (CPURenderer(threads: threads), drawing)
    }

    /// An opaque picture: a gradient with every alpha 255.
    static func opaquePicture(width: Int, height: Int) -> Image {
        let image = try! Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image.setWord(0xFF00_0000 | UInt32(x * 255 / max(1, width - 1)) << 16
                              | UInt32(y * 255 / max(1, height - 1)) << 8 | 0x40, x: x, y: y)
            }
        }
        image.markModified()
        return image
    }

    /// A tree with sprites, a translucent group and a masked group under a full-screen layer showing `cover`, and
    /// sprites above it.
    static func scene(cover: Image?, coverColor: Color? = nil, coverOpacity: Float = 1,
                      size: CGSize = CGSize(width: 96, height: 64)) -> Layer {
        let root = Layer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = Color(hex: "#203040")
        for index in 0..<5 {
            let sprite = Layer(frame: CGRect(x: 4 + index * 17, y: 6 + index * 9, width: 20, height: 14))
            sprite.contents = TestImages.quadrants(width: 4, height: 4)
            root.addSublayer(sprite)
        }
        let group = Layer(frame: CGRect(x: 10, y: 10, width: 40, height: 30))
        group.opacity = 0.5
        group.backgroundColor = .red
        let inner = Layer(frame: CGRect(x: 5, y: 5, width: 20, height: 10))
        inner.backgroundColor = .blue
        group.addSublayer(inner)
        root.addSublayer(group)
        let masked = Layer(frame: CGRect(x: 40, y: 20, width: 30, height: 30))
        masked.backgroundColor = .green
        let mask = Layer(frame: CGRect(x: 0, y: 0, width: 30, height: 30))
        mask.backgroundColor = .white
        mask.cornerRadius = 10
        masked.mask = mask
        root.addSublayer(masked)
        let full = Layer(frame: root.bounds)
        full.contents = cover
        full.backgroundColor = coverColor
        full.opacity = coverOpacity
        root.addSublayer(full)
        for index in 0..<3 {
            let top = Layer(frame: CGRect(x: 8 + index * 25, y: 30, width: 18, height: 18))
            top.contents = TestImages.quadrants(width: 6, height: 6)
            top.opacity = 0.75
            root.addSublayer(top)
        }
        return root
    }

    @Test func anOpaquePictureOverEverythingHidesWhatIsUnderItOnTheCPU() throws {
        for size in [CGSize(width: 96, height: 64), CGSize(width: 40, height: 200)] {
            for picture in [Self.opaquePicture(width: 48, height: 32), Self.opaquePicture(width: 300, height: 200)] {
                let plan = try Planner(scale: 1).plan(Self.scene(cover: picture, size: size))
                for threads in [1, 2, 4] {
                    let (culling, drawing) = Self.cpuPair(threads: threads)
                    // The first frame finds the picture's pixels new: nothing hidden yet, the same picture.
                    let first = try culling.render(plan)
                    #expect(culling.statistics.quadsHidden == 0)
                    let culled = try culling.render(plan)
                    #expect(bytes(culled) == bytes(try drawing.render(plan)), "\(size), \(picture.width) px, \(threads)")
                    #expect(bytes(first) == bytes(culled))
                    // The background, five sprites and two groups' quads are hidden; the picture and 3 sprites drawn.
                    #expect(culling.statistics.quadsHidden == plan.quads.count - 4)
                    #expect(drawing.statistics.quadsHidden == 0)
                    if size.width == 96 {
                        #expect(culling.statistics.quadsDrawn == 4)
                        #expect(drawing.statistics.quadsDrawn == plan.quads.count)
                    }
                }
            }
        }
    }

    @Test func whatIsNotOpaqueOverEverythingHidesNothing() throws {
        let translucentTexel = Self.opaquePicture(width: 48, height: 32)
        translucentTexel.setWord(0x8040_2010, x: 47, y: 31)
        translucentTexel.markModified()
        let cases: [(String, Layer)] = [
            ("a translucent texel", Self.scene(cover: translucentTexel)),
            ("opacity 0.99", Self.scene(cover: Self.opaquePicture(width: 48, height: 32), coverOpacity: 0.99)),
            ("a translucent colour", Self.scene(cover: nil, coverColor: Color(red: 1, green: 0, blue: 0, alpha: 0.9))),
            ("a picture smaller than the target", {
                let root = Self.scene(cover: Self.opaquePicture(width: 48, height: 32))
                root.sublayers?.last { $0.bounds.width == 96 }?.frame = CGRect(x: 0, y: 1, width: 96, height: 63)
                return root
            }()),
            ("a turned picture", {
                let root = Self.scene(cover: Self.opaquePicture(width: 48, height: 32))
                let full = root.sublayers!.last { $0.bounds.width == 96 }!
                full.transform = Transform3D(rotationAngle: 0.05)
                full.frame = CGRect(x: -20, y: -20, width: 136, height: 104)
                return root
            }()),
            ("antialiased edges", {
                let root = Self.scene(cover: Self.opaquePicture(width: 48, height: 32))
                root.sublayers!.last { $0.bounds.width == 96 }!.allowsEdgeAntialiasing = true
                return root
            }()),
            ("rounded corners", {
                let root = Self.scene(cover: Self.opaquePicture(width: 48, height: 32))
                // Contents are cut by the corners only where the layer masks to its bounds.
                root.sublayers!.last { $0.bounds.width == 96 }!.cornerRadius = 4
                root.sublayers!.last { $0.bounds.width == 96 }!.masksToBounds = true
                return root
            }()),
        ]
        for (name, root) in cases {
            let plan = try Planner(scale: 1).plan(root)
            let (culling, drawing) = Self.cpuPair(threads: 2)
            _ = try culling.render(plan)
            let culled = try culling.render(plan)
            #expect(bytes(culled) == bytes(try drawing.render(plan)), "\(name)")
            // Only the background (an opaque colour over everything, the first quad) could hide anything: nothing.
            #expect(culling.statistics.quadsHidden == 0, "\(name)")
            #expect(culling.statistics.quadsDrawn == drawing.statistics.quadsDrawn, "\(name)")
        }
    }

    /// An opaque colour over everything hides what is under it as a picture does; an opaque layer over one band
    /// hides what is under it in that band only.
    @Test func opaqueColoursAndBandsHideWhatTheyCover() throws {
        let plan = try Planner(scale: 1).plan(Self.scene(cover: nil, coverColor: .white))
        let (culling, drawing) = Self.cpuPair(threads: 1)
        // A colour needs no scan: hidden from the first frame.
        #expect(bytes(try culling.render(plan)) == bytes(try drawing.render(plan)))
        #expect(culling.statistics.quadsHidden == plan.quads.count - 4)

        // The lower half covered (2 threads, 64 rows: 4 bands of 16 rows): the bands above start at the background,
        // the first quad, so no quad is hidden in all of them.
        let half = Self.scene(cover: Self.opaquePicture(width: 48, height: 32))
        half.sublayers!.last { $0.bounds.width == 96 }!.frame = CGRect(x: 0, y: 32, width: 96, height: 32)
        let halfPlan = try Planner(scale: 1).plan(half)
        let (bands, everything) = Self.cpuPair(threads: 2)
        for _ in 0..<2 {
            #expect(bytes(try bands.render(halfPlan)) == bytes(try everything.render(halfPlan)))
            #expect(bands.statistics.quadsHidden == 0)
        }
        let areas = (0..<4).map { PixelBox(x0: 0, y0: $0 * 16, x1: 96, y1: ($0 + 1) * 16) }
        let images = OpaqueImages()
        #expect(halfPlan.lastOpaqueQuads(covering: areas, opaqueImages: images) == [0, 0, 0, 0])
        images.endFrame()
        let first = halfPlan.lastOpaqueQuads(covering: areas, opaqueImages: images)
        let cover = try #require(halfPlan.quads.lastIndex { $0.unitToTarget.m32 == 32 && $0.unitToTarget.m22 == 32 })
        #expect(first == [0, 0, cover, cover])
    }

    /// A damaged region under an opaque picture is neither cleared nor drawn under it, with the picture of a full
    /// frame.
    @Test func aRedrawnRegionUnderAnOpaquePictureIsThePictureOfAFullFrame() throws {
        let plan = try Planner(scale: 1).plan(Self.scene(cover: Self.opaquePicture(width: 48, height: 32)))
        let renderer = CPURenderer(threads: 2)
        _ = try renderer.render(plan)
        let full = try renderer.render(plan)
        let target = try Image(width: plan.width, height: plan.height, color: .red)
        try renderer.render(plan, into: target, redrawing: DamageRegion(PixelBox(x0: 5, y0: 7, x1: 60, y1: 50)))
        #expect(renderer.statistics.quadsHidden > 0)
        for y in 7..<50 {
            for x in 5..<60 { #expect(target.word(x: x, y: y) == full.word(x: x, y: y)) }
        }
    }

    /// An image is scanned once per generation, on the second frame that finds it unchanged, and again once its
    /// pixels change and hold still; a picture changed every frame (a video) is never scanned.
    @Test func anImageIsScannedOncePerGenerationOnceItHoldsStill() throws {
        let picture = Self.opaquePicture(width: 48, height: 32)
        let plan = try Planner(scale: 1).plan(Self.scene(cover: picture))
        let (renderer, drawing) = Self.cpuPair(threads: 1)
        var hidden: [Int] = []
        for _ in 0..<3 {
            _ = try renderer.render(plan)
            hidden.append(renderer.statistics.quadsHidden)
        }
        #expect(hidden == [0, plan.quads.count - 4, plan.quads.count - 4])
        #expect(renderer.opaqueImages.scans == 1)
        // Changed every frame, still opaque: never scanned, nothing hidden, the pictures of drawing everything.
        for frame in 0..<4 {
            picture.setWord(0xFF00_0000 | UInt32(frame), x: 3, y: 3)
            picture.markModified()
            let changing = try renderer.render(plan)
            #expect(renderer.statistics.quadsHidden == 0)
            #expect(bytes(changing) == bytes(try drawing.render(plan)))
        }
        #expect(renderer.opaqueImages.scans == 1)
        // Translucent, then holding still: scanned once more, and hides nothing.
        picture.setWord(0x7F00_0000, x: 3, y: 3)
        picture.markModified()
        for _ in 0..<3 {
            let translucent = try renderer.render(plan)
            #expect(renderer.statistics.quadsHidden == 0)
            #expect(bytes(translucent) == bytes(try drawing.render(plan)))
        }
        #expect(renderer.opaqueImages.scans == 2)
    }

    /// Decoders say what they know: a JPEG and a PNG whose alphas are all 255 are opaque from their first frame (no
    /// scan, so a one-frame render gains too); a PNG with a translucent pixel is not; a change forgets it.
    @Test func decodedOpaquePicturesHideFromTheFirstFrame() throws {
        let picture = Self.opaquePicture(width: 48, height: 32)
        let png = try Image(data: picture.pngData(), name: "opaque.png")
        let jpeg = try Image(data: picture.jpegData(quality: 0.9), name: "opaque.jpg")
        picture.setWord(0x8040_2010, x: 5, y: 5)
        let translucent = try Image(data: picture.pngData(), name: "translucent.png")
        #expect(png.isKnownOpaque && jpeg.isKnownOpaque && !translucent.isKnownOpaque)
        for (name, image, hides) in [("png", png, true), ("jpeg", jpeg, true), ("translucent", translucent, false)] {
            let plan = try Planner(scale: 1).plan(Self.scene(cover: image))
            let (culling, drawing) = Self.cpuPair(threads: 2)
            #expect(bytes(try culling.render(plan)) == bytes(try drawing.render(plan)), "\(name)")
            #expect(culling.statistics.quadsHidden == (hides ? plan.quads.count - 4 : 0), "\(name)")
            #expect(culling.opaqueImages.scans == 0, "\(name)")
        }
        // Drawn into after decoding: no longer vouched for.
        png.setWord(0x0000_0000, x: 0, y: 0)
        png.markModified()
        #expect(!png.isKnownOpaque)
        let plan = try Planner(scale: 1).plan(Self.scene(cover: png))
        let (culling, drawing) = Self.cpuPair(threads: 2)
        for _ in 0..<2 {
            #expect(bytes(try culling.render(plan)) == bytes(try drawing.render(plan)))
            #expect(culling.statistics.quadsHidden == 0)
        }
    }

    @Test(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
    func anOpaquePictureOverEverythingHidesWhatIsUnderItOnGLES() throws {
        let translucent = Self.opaquePicture(width: 48, height: 32)
        translucent.setWord(0x8040_2010, x: 0, y: 0)
        translucent.markModified()
        let scenes: [(String, Layer, hidden: Bool)] = [
            ("picture", Self.scene(cover: Self.opaquePicture(width: 48, height: 32)), true),
            ("large picture", Self.scene(cover: Self.opaquePicture(width: 300, height: 200)), true),
            ("colour", Self.scene(cover: nil, coverColor: .white), true),
            ("translucent picture", Self.scene(cover: translucent), false),
        ]
        for (name, root, hidden) in scenes {
            let plan = try Planner(scale: 1).plan(root)
            let culling = try #require(GLESAvailability.renderer())
            let drawing = try #require(GLESAvailability.renderer())
            drawing.encoder.usesOcclusion = false
            _ = try culling.render(plan)
            let culled = try culling.render(plan)
            #expect(bytes(culled) == bytes(try drawing.render(plan)), "\(name)")
            #expect(culling.statistics.quadsHidden == (hidden ? plan.quads.count - 4 : 0), "\(name)")
            #expect(drawing.statistics.quadsHidden == 0)
            // The first frame met the picture's new pixels and was encoded again; the third reuses the second's.
            #expect(culling.encodedFramesReused == (name == "colour" ? 1 : 0), "\(name)")
            #expect(bytes(try culling.render(plan)) == bytes(culled), "\(name)")
            #expect(culling.encodedFramesReused == (name == "colour" ? 2 : 1), "\(name)")
            #expect(culling.statistics.quadsHidden == (hidden ? plan.quads.count - 4 : 0), "\(name)")
            // And the CPU renderer's picture, within the parity bound.
            #expect(ImageDifference.meetsParity(culled, try CPURenderer().render(plan)), "\(name)")
        }
    }

    /// Large plans are encoded in chunks on every core (GLESPass+Parallel.swift): those start at the hiding quad too.
    @Test(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
    func aLargePlanIsEncodedFromItsHidingQuad() throws {
        for covered in [GLESBatchEncoder.parallelMinimumQuads + 100, 10] {
            let root = Layer()
            root.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
            root.backgroundColor = .black
            let sprite = TestImages.quadrants(width: 4, height: 4)
            func addSprites(_ count: Int) {
                for index in 0..<count {
                    let layer = Layer(frame: CGRect(x: index % 70, y: (index / 70) % 50, width: 8, height: 8))
                    layer.contents = sprite
                    root.addSublayer(layer)
                }
            }
            addSprites(covered)
            let full = Layer(frame: root.bounds)
            full.contents = Self.opaquePicture(width: 40, height: 30)
            root.addSublayer(full)
            addSprites(GLESBatchEncoder.parallelMinimumQuads + 10)
            let plan = try Planner(scale: 1).plan(root)
            #expect(GLESBatchEncoder.encodesInParallel(plan))
            let culling = try #require(GLESAvailability.renderer())
            let drawing = try #require(GLESAvailability.renderer())
            drawing.encoder.usesOcclusion = false
            _ = try culling.render(plan)
            #expect(bytes(try culling.render(plan)) == bytes(try drawing.render(plan)), "\(covered)")
            #expect(culling.statistics.quadsHidden == covered + 1, "\(covered)")
        }
    }
}
