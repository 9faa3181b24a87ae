import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Fills a tile with opaque red.
private final class RedTiles: LayerDelegate, @unchecked Sendable {
    func draw(_ layer: Layer, in context: DrawingContext) {
        context.setFillColor(Color(red: 1, green: 0, blue: 0))
        context.fill(layer.bounds)
    }
}

/// Every buffer in the memory budget (issue 29, item 2; docs/architecture.md, "Memory budget"): CPU mip chains,
/// the silhouettes of shadows with their own group buffers, the blurred pictures and the blur's scratch, vector
/// pictures, the glyph masks of text and tiles each reserve their bytes before they are made, so a scene over the
/// budget is refused with `MemoryLimitError`, naming the buffer, before it is allocated. A scene that needs exactly
/// the budget still draws, with the pixels of an unlimited one.
@Suite struct MemoryBudgetKindsTests {
    /// A GLES renderer, unless `LAMINA_RENDERER=cpu` (the ThreadSanitizer run) or no EGL display opens.
    func gles() -> GLESRenderer? {
        ProcessInfo.processInfo.environment["LAMINA_RENDERER"] == "cpu" ? nil : GLESAvailability.renderer()
    }

    func refusal(_ body: () throws -> Image) -> MemoryLimitError? {
        do {
            let image = try body()
            Issue.record("rendered \(image) within the budget")
        } catch let error as MemoryLimitError {
            return error
        } catch {
            Issue.record("threw \(error), not MemoryLimitError")
        }
        return nil
    }

    /// A 16x16 root showing `image` (256x256) at 16x16, minified trilinearly: the renderers sample its mip chain.
    func mipScene(_ image: Image) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
        let picture = Layer(frame: root.bounds)
        picture.contents = image
        picture.minificationFilter = .trilinear
        root.addSublayer(picture)
        return root
    }

    @Test func cpuMipChainsAreReservedBeforeTheyAreBuilt() throws {
        let chain = MipChain.chainBytes(width: 256, height: 256)
        #expect(chain == 4 * (128 * 128 + 64 * 64 + 32 * 32 + 16 * 16 + 8 * 8 + 4 * 4 + 2 * 2 + 1))
        let renderer = CPURenderer(threads: 1)
        let image = TestImages.quadrants(width: 256, height: 256)
        renderer.memoryBudget = MemoryBudget(limit: 16 * 16 * 4 + chain - 1)
        let error = refusal { try renderer.render(mipScene(image)) }
        #expect(error == MemoryLimitError(limit: 16 * 16 * 4 + chain - 1, requested: chain, inUse: 16 * 16 * 4,
                                          what: "the CPU mip chain of Image(256x256) (levels 1 to 8)"))
        #expect(error?.description.hasPrefix("memory limit 86.3 KiB exceeded: the CPU mip chain of Image(256x256) "
            + "(levels 1 to 8) needs 85.3 KiB, 1 KiB already in use") == true, "\(String(describing: error))")
        #expect(renderer.memoryBudget.inUse == 0)

        // Exactly enough: it draws, and the chain's bytes stay held while the image keeps its chain.
        let budget = MemoryBudget(limit: 16 * 16 * 4 + chain)
        renderer.memoryBudget = budget
        do {
            // A plan drawn into a new image, which is let go (`render(root)` keeps a live frame's image).
            let picture = try renderer.render(renderer.plan(mipScene(image)))
            #expect(picture.rgba(x: 3, y: 3) == TestImages.quadrants(width: 256, height: 256).rgba(x: 60, y: 60))
            #expect(budget.inUse == 16 * 16 * 4 + chain)
        }
        #expect(budget.inUse == chain)
    }

    @Test func glesMipChainsAreReserved() throws {
        guard let renderer = gles() else { return }
        // Unlimited first: what the frame reserves at its peak, the CPU chain among it.
        let budget = MemoryBudget(limit: 1 << 30)
        renderer.memoryBudget = budget
        _ = try renderer.render(mipScene(TestImages.quadrants(width: 256, height: 256)))
        let peak = budget.peak
        #expect(peak >= 16 * 16 * 4 + 2 * MipChain.chainBytes(width: 256, height: 256), "\(peak)")
        let fresh = try #require(gles())
        fresh.memoryBudget = MemoryBudget(limit: peak - 1)
        let error = refusal { try fresh.render(mipScene(TestImages.quadrants(width: 256, height: 256))) }
        // The GPU texture of the chain fits; the CPU levels it is uploaded from do not.
        #expect(error?.what == "the CPU mip chain of Image(256x256) (levels 1 to 8)", "\(String(describing: error))")
    }

    /// A 60x60 root with a 30x30 layer casting a shadow; its content is a group (a half-opaque layer with two
    /// overlapping sublayers), so the shadow's silhouette has a group buffer of its own.
    func shadowScene() -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
        let casting = Layer(frame: CGRect(x: 15, y: 15, width: 30, height: 30))
        casting.shadowOpacity = 1
        casting.shadowRadius = 2
        casting.shadowOffset = .zero
        let group = Layer(frame: casting.bounds)
        group.opacity = 0.5
        let a = Layer(frame: CGRect(x: 0, y: 0, width: 20, height: 30))
        a.backgroundColor = .red
        let b = Layer(frame: CGRect(x: 10, y: 0, width: 20, height: 30))
        b.backgroundColor = .blue
        group.sublayers = [a, b]
        casting.addSublayer(group)
        root.addSublayer(casting)
        return root
    }

    @Test func cpuShadowSilhouettesTheirGroupsAndBlursAreReserved() throws {
        let plan = try CPURenderer(threads: 1).plan(shadowScene())
        let source = try #require(plan.quads.lazy.compactMap { quad -> ShadowSource? in
            if case .shadow(let source) = quad.paint { return source } else { return nil }
        }.first)
        let group = try #require(source.silhouette.groups.first, "the silhouette draws a group")
        let output = 60 * 60 * 4
        let (sw, sh) = (source.silhouette.width, source.silhouette.height)
        let silhouette = sw * sh * 4
        let groupBytes = (group.bounds.x1 - group.bounds.x0) * (group.bounds.y1 - group.bounds.y0) * 4
        let (bw, bh) = (source.blurWidth, source.blurHeight)
        let blurred = bw * bh * 4
        let scratch = blurred * (source.blur.factor == 1 ? 1 : 2)
        // In the order they are made, each with what is held when it asks: the output, then the silhouette (held
        // until it is blurred), its group buffer (given back once the silhouette is drawn), the blurred picture and
        // the blur's scratch.
        let steps: [(bytes: Int, held: Int, what: String)] = [
            (silhouette, output, "the \(sw)x\(sh) silhouette of a shadow"),
            (groupBytes, output + silhouette, "the offscreen memory of 1 group and masks (nested 1 deep, the largest "
                + "\(group.bounds.x1 - group.bounds.x0)x\(group.bounds.y1 - group.bounds.y0))"),
            (blurred, output + silhouette, "the blurred picture of a \(bw)x\(bh) shadow"),
            (scratch, output + silhouette + blurred, "the blur buffers of a \(bw)x\(bh) shadow"),
        ]
        // Each buffer in turn is the one that does not fit, the budget just short of it.
        for step in steps {
            let renderer = CPURenderer(threads: 1)
            let limit = step.held + step.bytes - 1
            renderer.memoryBudget = MemoryBudget(limit: limit)
            let error = refusal { try renderer.render(renderer.plan(shadowScene())) }
            #expect(error == MemoryLimitError(limit: limit, requested: step.bytes, inUse: step.held, what: step.what),
                    "\(String(describing: error))")
            #expect(renderer.memoryBudget.inUse == 0)
        }
        // Exactly the most held at once: it draws as without a limit, and the blurred picture stays reserved while
        // it is cached.
        let peak = steps.map { $0.held + $0.bytes }.max()!
        let renderer = CPURenderer(threads: 1)
        let budget = MemoryBudget(limit: peak)
        renderer.memoryBudget = budget
        let limited = try renderer.render(renderer.plan(shadowScene()))
        #expect(ImageDifference(limited, try CPURenderer(threads: 1).render(shadowScene()), tolerance: 0)?
            .pixelsOverTolerance == 0)
        #expect(budget.peak == peak)
        #expect(budget.inUse == output + blurred)
        #expect(renderer.cachedShadowCount == 1)
    }

    @Test func glesShadowsAreReserved() throws {
        guard let renderer = gles() else { return }
        let budget = MemoryBudget(limit: 1 << 30)
        renderer.memoryBudget = budget
        _ = try renderer.render(shadowScene())
        let fresh = try #require(gles())
        fresh.memoryBudget = MemoryBudget(limit: budget.peak - 1)
        let error = refusal { try fresh.render(shadowScene()) }
        #expect(error?.what == "a 44x44 shadow", "\(String(describing: error))")
    }

    /// A 100x100 root over a shape layer named "star": a filled 80x80 square.
    func shapeScene() -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let shape = ShapeLayer()
        shape.name = "star"
        shape.frame = root.bounds
        shape.path = CGPath(rect: CGRect(x: 10, y: 10, width: 80, height: 80), transform: nil)
        shape.fillColor = .red
        root.addSublayer(shape)
        return root
    }

    @Test func vectorPicturesAreReservedBeforeTheyAreDrawn() throws {
        for renderer in ReferenceScenes.renderers() {
            renderer.memoryBudget = MemoryBudget(limit: 1000)
            let error = refusal { try renderer.render(shapeScene()) }
            // Planned before the output is reserved: nothing is in use yet.
            #expect(error == MemoryLimitError(limit: 1000, requested: 80 * 80 * 4, inUse: 0,
                                              what: "the 80x80 picture of layer \"star\" (shape)"),
                    "\(renderer.name): \(String(describing: error))")
        }
    }

    /// A 50x50 root over a text layer named "label": "ABC" at 200 points, mostly outside its bounds.
    func textScene() -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
        let text = TextLayer()
        text.name = "label"
        text.frame = root.bounds
        text.string = "ABC"
        text.fontSize = 200
        root.addSublayer(text)
        return root
    }

    @Test func glyphMasksAreReservedWithTheirText() throws {
        for renderer in ReferenceScenes.renderers() {
            // Three glyphs of a 200-pixel em, a pixel of antialiasing each side, one byte a pixel.
            renderer.memoryBudget = MemoryBudget(limit: 100_000)
            let error = refusal { try renderer.render(textScene()) }
            #expect(error == MemoryLimitError(limit: 100_000, requested: 3 * 202 * 202, inUse: 0,
                                              what: "the glyph masks of layer \"label\" (3 glyphs of 202x202 pixels)"),
                    "\(renderer.name): \(String(describing: error))")
        }
    }

    /// A 100x100 root over a tiled layer of 64-point tiles, drawn red.
    func tiledScene(_ delegate: LayerDelegate) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let tiled = TiledLayer()
        tiled.frame = root.bounds
        tiled.tileSize = CGSize(width: 64, height: 64)
        tiled.delegate = delegate
        root.addSublayer(tiled)
        return root
    }

    @Test func tilesAreReservedBeforeTheyAreDrawn() throws {
        let delegate = RedTiles()
        for renderer in ReferenceScenes.renderers() {
            renderer.memoryBudget = MemoryBudget(limit: 20_000)
            let error = refusal { try renderer.render(tiledScene(delegate)) }
            // The tiles nearest the middle of the view are drawn first: all four are reserved before any is drawn.
            #expect(error?.what == "a 36x64 tile (level 0, column 1, row 0)", "\(renderer.name): \(String(describing: error))")
            #expect(error?.requested == 36 * 64 * 4)
            #expect(renderer.memoryBudget.inUse == 0)
        }
    }

    @Test func aLiveTileThatDoesNotFitFailsTheNextFrame() throws {
        let delegate = RedTiles()
        let renderer = CPURenderer(threads: 1)
        renderer.memoryBudget = MemoryBudget(limit: 20_000)
        let root = tiledScene(delegate)
        // A live frame never waits: it queues the tiles for the background threads and shows none.
        let (first, animated) = try renderer.livePlan(root, scale: 1, at: 1)
        #expect(animated && first.quads.isEmpty)
        let tiles = renderer.planCache(for: root).tiles
        #expect(tiles.waitUntilIdle())
        // Some tile could not be reserved there and was not drawn: the next frame throws its error.
        #expect(throws: MemoryLimitError.self) { try renderer.livePlan(root, scale: 1, at: 2) }
        #expect(tiles.byteCount <= 20_000)
        // With room, the frames after it draw the tiles.
        renderer.memoryBudget = MemoryBudget(limit: 1 << 20)
        _ = try renderer.livePlan(root, scale: 1, at: 3)
        #expect(tiles.waitUntilIdle())
        _ = try renderer.livePlan(root, scale: 1, at: 4)
        let (full, _) = try renderer.livePlan(root, scale: 1, at: 10)
        #expect(try renderer.render(full).rgba(x: 90, y: 90) == RGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    /// Every kind at once: the mip chain, the shadow with its group, the shape, the text and the tiles.
    func everything(_ delegate: LayerDelegate) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 160, height: 120)
        for (index, scene) in [mipScene(TestImages.quadrants(width: 256, height: 256)), shadowScene(), shapeScene(),
                               textScene(), tiledScene(delegate)].enumerated() {
            for layer in scene.sublayers ?? [] {
                layer.removeFromSuperlayer()
                layer.position.x += CGFloat(index % 3) * 50
                layer.position.y += CGFloat(index / 3) * 60
                root.addSublayer(layer)
            }
        }
        return root
    }

    @Test func aSceneThatNeedsExactlyTheBudgetDraws() throws {
        let delegate = RedTiles()
        let makers: [() throws -> Renderer?] = [{ CPURenderer(threads: 1) }, { gles() }]
        for make in makers {
            guard let unlimited = try make(), let exact = try make(), let over = try make() else { continue }
            let budget = MemoryBudget(limit: 1 << 30)
            unlimited.memoryBudget = budget
            let reference = try unlimited.render(everything(delegate))
            let peak = budget.peak
            exact.memoryBudget = MemoryBudget(limit: peak)
            let drawn = try exact.render(everything(delegate))
            #expect(ImageDifference(drawn, reference, tolerance: 0)?.pixelsOverTolerance == 0, "\(exact.name)")
            #expect(exact.memoryBudget.peak == peak, "\(exact.name)")
            over.memoryBudget = MemoryBudget(limit: peak - 1)
            #expect(refusal { try over.render(everything(delegate)) } != nil, "\(over.name)")
        }
    }
}
