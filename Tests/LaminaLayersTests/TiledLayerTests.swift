import Foundation
import LaminaCore
import LaminaDrawing
@testable import LaminaLayers
import Testing

/// Records every tile drawn (the clip's box in layer points and the context's pixels per point) and fills the tile
/// with a checker of 100-point cells, red and blue.
final class TileRecorder: LayerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(rect: CGRect, scale: CGFloat)] = []

    var draws: [(rect: CGRect, scale: CGFloat)] { lock.withLock { recorded } }
    var count: Int { lock.withLock { recorded.count } }
    func reset() { lock.withLock { recorded = [] } }

    func draw(_ layer: Layer, in context: DrawingContext) {
        let box = context.boundingBoxOfClipPath
        lock.withLock { recorded.append((box, context.ctm.a)) }
        let cell: CGFloat = 100
        guard box.width < 2000, box.height < 2000 else {
            // A tile of a far zoomed-out level: one colour.
            context.setFillColor(Color(red: 0, green: 1, blue: 0))
            context.fill(box)
            return
        }
        var y = (box.minY / cell).rounded(.down) * cell
        while y < box.maxY {
            var x = (box.minX / cell).rounded(.down) * cell
            while x < box.maxX {
                let even = (Int((x / cell).rounded()) + Int((y / cell).rounded())) % 2 == 0
                context.setFillColor(even ? Color(red: 1, green: 0, blue: 0) : Color(red: 0, green: 0, blue: 1))
                context.fill(CGRect(x: x, y: y, width: cell, height: cell))
                x += cell
            }
            y += cell
        }
    }
}

/// Tiled layers in the model and the planner (docs/semantics.md, "Tiled layers"): the level of detail for a scale,
/// the tiles a view shows and draws, offline and live frames, invalidation and the memory budget.
@Suite struct TiledLayerTests {
    /// A root of `size` points over a tiled layer with `bounds`, drawn by a recorder; the tiled layer's `transform`
    /// zooms it about the root's origin.
    func scene(size: CGSize = CGSize(width: 300, height: 200), bounds: CGSize = CGSize(width: 1000, height: 1000),
               zoom: CGFloat = 1, offset: CGPoint = .zero) -> (root: Layer, tiled: TiledLayer, recorder: TileRecorder) {
        let root = Layer()
        root.bounds = CGRect(origin: .zero, size: size)
        let tiled = TiledLayer()
        tiled.anchorPoint = .zero
        tiled.bounds = CGRect(origin: .zero, size: bounds)
        tiled.position = offset
        tiled.transform = Transform3D(scaleX: zoom, y: zoom, z: 1)
        let recorder = TileRecorder()
        tiled.delegate = recorder
        root.addSublayer(tiled)
        return (root, tiled, recorder)
    }

    func plan(_ root: Layer, scale: CGFloat = 1, cache: PlanCache? = nil, live: Double? = nil) throws -> RenderPlan {
        var planner = Planner(scale: scale)
        planner.liveTileTime = live
        return try planner.plan(root.presentationForFrame(at: 0), cache: cache)
    }

    @Test func defaultsAreCoreAnimations() {
        let layer = TiledLayer()
        #expect(layer.tileSize == CGSize(width: 256, height: 256))
        #expect(layer.levelsOfDetail == 1)
        #expect(layer.levelsOfDetailBias == 0)
        #expect(TiledLayer.fadeDuration() == 0.25)
        #expect(layer.fadeDuration == 0.25)
        class SlowFade: TiledLayer, @unchecked Sendable {
            override class func fadeDuration() -> Double { 2 }
        }
        #expect(SlowFade().fadeDuration == 2)
        layer.fadeDuration = 0
        #expect(layer.fadeDuration == 0)
        #expect(layer.value(forKey: "levelsOfDetail") as? Int == 1)
        layer.setValue(3, forKey: "levelsOfDetailBias")
        #expect(layer.levelsOfDetailBias == 3)
    }

    @Test func theLevelIsTheCoarsestAtLeastAsDenseAsTheScreen() {
        var style = TiledStyle()
        style.levelsOfDetail = 4
        style.levelsOfDetailBias = 2
        let grid = TileGrid(style: style, contentsScale: 1, bounds: CGRect(x: 0, y: 0, width: 10_000, height: 10_000))
        // Levels -2 (4x) ... 3 (1/8x).
        let cases: [(Double, Int)] = [(1, 0), (0.6, 0), (0.5, 1), (0.3, 1), (0.25, 2), (0.13, 2), (0.125, 3),
                                      (0.01, 3), (1.5, -1), (2, -1), (3, -2), (4, -2), (100, -2)]
        for (density, level) in cases {
            #expect(grid.level(for: density, style: style) == level, "at \(density) pixels per point")
        }
        // contentsScale 2: level 0 is 2 pixels per point.
        let retina = TileGrid(style: style, contentsScale: 2, bounds: grid.bounds)
        #expect(retina.level(for: 2, style: style) == 0)
        #expect(retina.level(for: 1, style: style) == 1)
        #expect(retina.density(1) == 1)
        // Defaults: one level, contentsScale, whatever the zoom.
        let plain = TileGrid(style: TiledStyle(), contentsScale: 1, bounds: grid.bounds)
        #expect(plain.level(for: 0.1, style: TiledStyle()) == 0)
        #expect(plain.level(for: 8, style: TiledStyle()) == 0)
        // The coarsest level keeps a pixel on the shorter side: 100 points have 7 halvings.
        let small = TileGrid(style: style, contentsScale: 1, bounds: CGRect(x: 0, y: 0, width: 100, height: 3))
        #expect(small.level(for: 0.01, style: style) == 1)
    }

    @Test func theVisibleTilesAreDrawnClippedAndScaledToTheirLevel() throws {
        let (root, tiled, recorder) = scene()
        let plan = try plan(root)
        // 300 x 200 of a 1000 x 1000 layer: tiles (0, 0) and (1, 0) of 256 points.
        let rects = recorder.draws.map(\.rect).sorted { $0.minX < $1.minX }
        #expect(rects == [CGRect(x: 0, y: 0, width: 256, height: 256), CGRect(x: 256, y: 0, width: 256, height: 256)])
        #expect(recorder.draws.allSatisfy { $0.scale == 1 })
        #expect(plan.quads.filter { $0.layerID == tiled.id }.count == 2)

        // Moved by (-300, -300): the view is layer (300...600, 300...500): columns 1...2, row 1.
        recorder.reset()
        tiled.position = CGPoint(x: -300, y: -300)
        _ = try self.plan(root)
        #expect(Set(recorder.draws.map(\.rect.origin)) == [CGPoint(x: 256, y: 256), CGPoint(x: 512, y: 256)])

        // The last column and row are cut by the bounds.
        recorder.reset()
        tiled.position = CGPoint(x: -900, y: -900)
        _ = try self.plan(root)
        #expect(recorder.draws.map(\.rect).contains(CGRect(x: 768, y: 768, width: 232, height: 232)))
    }

    @Test func zoomingOutDrawsCoarserLevelsAndInFinerOnes() throws {
        for (zoom, density, side) in [(CGFloat(0.25), CGFloat(0.25), CGFloat(1024)), (0.4, 0.5, 512), (3, 2, 128)] {
            let (root, tiled, recorder) = scene(zoom: zoom)
            tiled.levelsOfDetail = 3
            tiled.levelsOfDetailBias = 1
            _ = try plan(root)
            #expect(recorder.count > 0)
            #expect(recorder.draws.allSatisfy { $0.scale == density }, "zoom \(zoom): \(recorder.draws)")
            #expect(recorder.draws.contains { $0.rect.origin == .zero && $0.rect.width == min(side, 1000) },
                    "zoom \(zoom): \(recorder.draws)")
        }
        // Scale 2 with contentsScale 2 is level 0 at 2 pixels per point: 128-point tiles.
        let (root, tiled, recorder) = scene()
        tiled.contentsScale = 2
        _ = try plan(root, scale: 2)
        #expect(recorder.draws.allSatisfy { $0.scale == 2 })
        #expect(recorder.draws.count == 3 * 2)
    }

    @Test func aMillionPointLayerDrawsABoundedNumberOfTilesAtAnyZoom() throws {
        for zoom in [1e-6, 1e-4, 1e-3, 0.1, 1, 40, 1e4] as [CGFloat] {
            let (root, tiled, recorder) = scene(size: CGSize(width: 200, height: 200),
                                                bounds: CGSize(width: 1_000_000, height: 1_000_000), zoom: zoom,
                                                offset: CGPoint(x: -123_456 * zoom, y: -654_321 * zoom))
            tiled.tileSize = CGSize(width: 16, height: 16)
            _ = try plan(root)
            #expect(recorder.count >= 1, "zoom \(zoom)")
            #expect(recorder.count <= TileGrid.mostTilesPerFrame, "zoom \(zoom): \(recorder.count) tiles")
        }
        // With levels to spare, zoomed far out: one level a few tiles cover.
        let (root, tiled, recorder) = scene(size: CGSize(width: 200, height: 200),
                                            bounds: CGSize(width: 1_000_000, height: 1_000_000), zoom: 1e-4)
        tiled.levelsOfDetail = 30
        _ = try plan(root)
        #expect(recorder.count == 1, "\(recorder.draws)")
    }

    @Test func setNeedsDisplayInRectRedrawsOnlyTheTilesItMeets() throws {
        let (root, tiled, recorder) = scene(size: CGSize(width: 600, height: 600))
        let cache = PlanCache()
        _ = try plan(root, cache: cache)
        #expect(recorder.count == 9)
        recorder.reset()
        _ = try plan(root, cache: cache)
        #expect(recorder.count == 0, "kept tiles are not drawn again")
        tiled.setNeedsDisplay(CGRect(x: 250, y: 10, width: 10, height: 10))
        _ = try plan(root, cache: cache)
        #expect(recorder.draws.map(\.rect.origin).sorted { $0.x < $1.x } == [.zero, CGPoint(x: 256, y: 0)])
        recorder.reset()
        tiled.setNeedsDisplay()
        _ = try plan(root, cache: cache)
        #expect(recorder.count == 9)
    }

    @Test func liveFramesQueueMissingTilesAndFadeThemIn() throws {
        let (root, tiled, recorder) = scene()
        let cache = PlanCache()
        // Nothing drawn yet: nothing shown, both tiles queued.
        let first = try plan(root, cache: cache, live: 10)
        #expect(first.quads.filter { $0.layerID == tiled.id }.isEmpty)
        #expect(cache.tiles.statistics.tilesQueued == 2)
        #expect(cache.tiles.needsFrames)
        #expect(cache.tiles.waitUntilIdle())
        #expect(recorder.count == 2)
        // The first frame that has them shows them at opacity 0, then they rise over fadeDuration (0.25 s).
        let arrived = try plan(root, cache: cache, live: 11)
        #expect(cache.tiles.statistics.tilesArrived == 2)
        #expect(arrived.quads.filter { $0.layerID == tiled.id }.isEmpty)
        let half = try plan(root, cache: cache, live: 11.125)
        let halfQuads = half.quads.filter { $0.layerID == tiled.id }
        #expect(halfQuads.count == 2)
        #expect(halfQuads.allSatisfy { abs($0.opacity - 0.5) < 1e-6 })
        let done = try plan(root, cache: cache, live: 11.25)
        #expect(done.quads.filter { $0.layerID == tiled.id }.allSatisfy { $0.opacity == 1 })
        _ = try plan(root, cache: cache, live: 11.3)
        #expect(!cache.tiles.needsFrames)
        #expect(recorder.count == 2)
    }

    @Test func aMissingTileShowsTheCoarserLevelAlreadyDrawn() throws {
        let (root, tiled, _) = scene(zoom: 0.5)
        tiled.levelsOfDetail = 2
        tiled.fadeDuration = 0
        let cache = PlanCache()
        // Level 1 (half resolution: 512-point tiles) drawn offline.
        _ = try plan(root, cache: cache)
        // Zoomed to 1: level 0 is missing; each of its tiles shows the part of the level-1 tile over it.
        tiled.transform = .identity
        let live = try plan(root, cache: cache, live: 1)
        let quads = live.quads.filter { $0.layerID == tiled.id }
        #expect(cache.tiles.statistics.tilesShownCoarser == 2)
        #expect(quads.count == 2)
        for quad in quads {
            guard case .texture(let source) = quad.paint else {
                Issue.record("not a texture")
                continue
            }
            #expect(source.image.width == 256, "a level-1 tile: 512 points in 256 pixels")
        }
        #expect(cache.tiles.waitUntilIdle())
        let filled = try plan(root, cache: cache, live: 2).quads.filter { $0.layerID == tiled.id }
        #expect(filled.count == 2)
        #expect(cache.tiles.statistics.tilesShownCoarser == 0)
    }

    @Test func offlineFramesDrawWhatALiveFrameMissed() throws {
        let (root, tiled, recorder) = scene()
        let cache = PlanCache()
        _ = try plan(root, cache: cache, live: 0)
        #expect(cache.tiles.waitUntilIdle())
        // The tiles arrived but no live frame showed them: the offline plan shows them whole.
        let offline = try plan(root, cache: cache)
        let quads = offline.quads.filter { $0.layerID == tiled.id }
        #expect(quads.count == 2)
        #expect(quads.allSatisfy { $0.opacity == 1 })
        #expect(recorder.count == 2)
    }

    @Test func tilesBeyondTheBudgetAreLetGoLeastRecentlyUsedFirst() throws {
        let (root, tiled, recorder) = scene(size: CGSize(width: 256, height: 256), bounds: CGSize(width: 4096, height: 256))
        let cache = PlanCache()
        cache.tiles.budget = 3 * 256 * 256 * 4
        for step in 0..<16 {
            tiled.position = CGPoint(x: -256 * CGFloat(step), y: 0)
            _ = try plan(root, cache: cache)
            #expect(cache.tiles.byteCount <= 3 * 256 * 256 * 4)
        }
        #expect(recorder.count == 16)
        #expect(cache.tiles.tileCount == 3)
        // Back one step: still kept; back to the start: drawn again.
        recorder.reset()
        tiled.position = CGPoint(x: -256 * 14, y: 0)
        _ = try plan(root, cache: cache)
        #expect(recorder.count == 0)
        tiled.position = .zero
        _ = try plan(root, cache: cache)
        #expect(recorder.count == 2)
        #expect(cache.tiles.statistics.tilesEvicted == 2)
        #expect(cache.tiles.tileCount == 3)
    }

    @Test func tileStyleChangesAreCommittedAndInvalidationIsBounded() {
        var invalidation = TileInvalidation()
        invalidation.markAll()
        let tile = CGRect(x: 0, y: 0, width: 256, height: 256)
        #expect(!invalidation.isStale(tile, drawnAt: 1))
        invalidation.mark(CGRect(x: 300, y: 0, width: 10, height: 10))
        #expect(!invalidation.isStale(tile, drawnAt: 1))
        invalidation.mark(CGRect(x: 100, y: 100, width: 1, height: 1))
        #expect(invalidation.isStale(tile, drawnAt: 1))
        #expect(!invalidation.isStale(tile, drawnAt: 3))
        for i in 0..<(TileInvalidation.mostMarks + 1) {
            invalidation.mark(CGRect(x: 1000 + CGFloat(i), y: 0, width: 1, height: 1))
        }
        // Forgotten marks count as the whole layer for tiles drawn before them.
        #expect(invalidation.isStale(tile, drawnAt: 3))
        #expect(!invalidation.isStale(tile, drawnAt: invalidation.generation))
    }
}
