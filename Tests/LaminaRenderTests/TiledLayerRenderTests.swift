import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Fills every 50-point cell of the layer red or blue, as a checker (red where column + row is even).
final class CheckerDrawing: LayerDelegate, @unchecked Sendable {
    static let cell: CGFloat = 50

    func draw(_ layer: Layer, in context: DrawingContext) {
        let box = context.boundingBoxOfClipPath
        var y = (box.minY / Self.cell).rounded(.down) * Self.cell
        while y < box.maxY {
            var x = (box.minX / Self.cell).rounded(.down) * Self.cell
            while x < box.maxX {
                context.setFillColor(Self.color(column: Int((x / Self.cell).rounded()), row: Int((y / Self.cell).rounded())))
                context.fill(CGRect(x: x, y: y, width: Self.cell, height: Self.cell))
                x += Self.cell
            }
            y += Self.cell
        }
    }

    static func color(column: Int, row: Int) -> Color {
        (column + row) % 2 == 0 ? Color(red: 1, green: 0, blue: 0) : Color(red: 0, green: 0, blue: 1)
    }
}

/// Tiled layers on both renderers (docs/semantics.md, "Tiled layers"): the tiles' pixels at several zooms and scales,
/// offline frames that wait for every tile, live frames that fill in and fade, and parity.
@Suite struct TiledLayerRenderTests {
    /// A 200 x 200 white root over a 400 x 400 tiled layer of 64-pixel tiles, zoomed by `zoom` about the origin.
    func scene(zoom: CGFloat, contentsScale: CGFloat = 1) -> (Layer, TiledLayer, CheckerDrawing) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.backgroundColor = .white
        let tiled = TiledLayer()
        tiled.anchorPoint = .zero
        tiled.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
        tiled.transform = Transform3D(scaleX: zoom, y: zoom)
        tiled.tileSize = CGSize(width: 64, height: 64)
        tiled.levelsOfDetail = 3
        tiled.levelsOfDetailBias = 2
        tiled.contentsScale = contentsScale
        let drawing = CheckerDrawing()
        tiled.ownedDelegate = drawing
        root.addSublayer(tiled)
        return (root, tiled, drawing)
    }

    /// The checker's colour at each cell centre that lands well inside the target.
    func checkCells(_ image: Image, zoom: CGFloat, scale: CGFloat, _ what: String) {
        let size = CheckerDrawing.cell * zoom * scale
        for row in 0..<8 {
            for column in 0..<8 {
                let x = (CGFloat(column) + 0.5) * size, y = (CGFloat(row) + 0.5) * size
                guard x < CGFloat(image.width) - 2, y < CGFloat(image.height) - 2 else { continue }
                let c = CheckerDrawing.color(column: column, row: row)
                let pixel = image.rgba(x: Int(x), y: Int(y))
                #expect(near(pixel, Int(c.red * 255), 0, Int(c.blue * 255)), "\(what) cell (\(column), \(row)): \(pixel)")
            }
        }
    }

    @Test func tilesShowTheDrawingAtSeveralZoomsAndScales() throws {
        for scale in [CGFloat(1), 2] {
            for zoom in [CGFloat(0.3), 0.5, 1, 2.5] {
                var pictures: [Image] = []
                for renderer in ReferenceScenes.renderers() {
                    let (root, _, _) = scene(zoom: zoom)
                    let image = try renderer.render(root, scale: scale)
                    checkCells(image, zoom: zoom, scale: scale, "\(renderer.name) zoom \(zoom) scale \(scale)")
                    #expect(renderer.planCache(for: root).tiles.statistics.tilesDrawnNow > 0)
                    pictures.append(image)
                }
                if pictures.count == 2 {
                    #expect(ImageDifference.meetsParity(pictures[0], pictures[1]), "zoom \(zoom) scale \(scale)")
                }
            }
        }
    }

    @Test func offlineRendersWaitForEveryVisibleTile() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, _, _) = scene(zoom: 1, contentsScale: 2)
            let image = try renderer.render(root, scale: 2)
            // Level 0 at 2 pixels per point: 32-point tiles, 7 x 7 of them cover the 200-point view.
            let statistics = renderer.planCache(for: root).tiles.statistics
            #expect(statistics.tilesVisible == 49, "\(renderer.name)")
            #expect(statistics.tilesDrawnNow == 49, "\(renderer.name)")
            checkCells(image, zoom: 1, scale: 2, renderer.name)
        }
    }

    @Test func liveFramesFillInAndFadeOverFadeDuration() throws {
        var halves: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            let (root, _, _) = scene(zoom: 1)
            let tiles = renderer.planCache(for: root).tiles
            // Nothing drawn yet: the background shows; the frame loop is told to keep drawing.
            let (empty, animated) = try renderer.livePlan(root, scale: 1, at: 5)
            #expect(animated, "\(renderer.name)")
            #expect(near(try renderer.render(empty).rgba(x: 25, y: 25), 255, 255, 255), "\(renderer.name)")
            #expect(tiles.waitUntilIdle())
            // The first frame with the tiles shows them at opacity 0; 0.125 s later at 0.5 (fadeDuration 0.25).
            _ = try renderer.livePlan(root, scale: 1, at: 6)
            let (half, fading) = try renderer.livePlan(root, scale: 1, at: 6.125)
            #expect(fading, "\(renderer.name)")
            let image = try renderer.render(half)
            halves.append(image)
            #expect(near(image.rgba(x: 25, y: 25), 255, 128, 128, tolerance: 3), "\(renderer.name): \(image.rgba(x: 25, y: 25))")
            #expect(near(image.rgba(x: 75, y: 25), 128, 128, 255, tolerance: 3), "\(renderer.name)")
            let (full, _) = try renderer.livePlan(root, scale: 1, at: 6.25)
            checkCells(try renderer.render(full), zoom: 1, scale: 1, renderer.name)
            let (_, still) = try renderer.livePlan(root, scale: 1, at: 7)
            #expect(!still, "\(renderer.name): nothing left to draw or fade")
        }
        if halves.count == 2 { #expect(ImageDifference.meetsParity(halves[0], halves[1])) }
    }

    @Test func liveFramesRedrawOnlyTheMarkedTiles() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, tiled, _) = scene(zoom: 1)
            tiled.fadeDuration = 0
            _ = try renderer.render(root)
            let before = renderer.planCache(for: root).tiles.totalTilesDrawn
            tiled.setNeedsDisplay(CGRect(x: 10, y: 10, width: 4, height: 4))
            _ = try renderer.livePlan(root, scale: 1, at: 1)
            #expect(renderer.planCache(for: root).tiles.waitUntilIdle())
            _ = try renderer.livePlan(root, scale: 1, at: 2)
            #expect(renderer.planCache(for: root).tiles.totalTilesDrawn == before + 1, "\(renderer.name)")
        }
    }
}
