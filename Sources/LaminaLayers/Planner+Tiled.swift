import Foundation
import LaminaCore

// Tiled layers in the planner (docs/semantics.md, "Tiled layers"): the part of the layer that can be seen picks a level
// of detail and the tiles that cover it; the renderer's tile cache (`PlanCache.tiles`) gives the drawn ones (drawing
// the missing ones first on an offline frame, queueing them on a live one), and each is emitted as a texture quad, so
// both renderers draw the same pixels.

extension Planner {
    /// The tiles of a tiled layer shown through `layerToTarget` in a target of `target` pixels, cut by `clip`: the
    /// level of detail for the scale it is shown at (at the middle of the part that can be seen), made coarser where
    /// that level would show more than `TileGrid.mostTilesPerFrame` tiles or `mostPixelsPerFrame` pixels, and the
    /// tiles of that level that the visible part meets, the nearest its middle first. nil when nothing can be seen.
    static func tileSelection(
        _ layer: LayerSnapshot, _ style: TiledStyle, layerToTarget: Matrix3, clip: ConvexPolygon?,
        target: (width: Int, height: Int)
    ) -> TileSelection? {
        let bounds = layer.bounds
        guard bounds.width > 0, bounds.height > 0, bounds.width.isFinite, bounds.height.isFinite,
            bounds.minX.isFinite, bounds.minY.isFinite
        else { return nil }
        let grid = TileGrid(style: style, contentsScale: layer.contentsScale, bounds: bounds)
        // What can be seen, in layer space: the target (cut by the clip's box) mapped back, for an affine map; the
        // whole bounds under perspective.
        var visible = bounds
        if layerToTarget.isAffine {
            var box = CGRect(x: 0, y: 0, width: target.width, height: target.height)
            if let clip {
                let xs = clip.vertices.map(\.x), ys = clip.vertices.map(\.y)
                guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return nil }
                box = box.intersection(CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
                guard !box.isNull, box.width > 0, box.height > 0 else { return nil }
            }
            guard let back = layerToTarget.inverted else { return nil }
            let margin: CGFloat = 1
            let corners = [CGPoint(x: box.minX - margin, y: box.minY - margin),
                           CGPoint(x: box.maxX + margin, y: box.minY - margin),
                           CGPoint(x: box.maxX + margin, y: box.maxY + margin),
                           CGPoint(x: box.minX - margin, y: box.maxY + margin)].map { back.apply($0).projected }
            let xs = corners.map(\.x), ys = corners.map(\.y)
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(),
                [x0, x1, y0, y1].allSatisfy(\.isFinite)
            else { return nil }
            visible = bounds.intersection(CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            guard !visible.isNull, visible.width > 0, visible.height > 0 else { return nil }
        }
        // Pixels per point on screen: the longer axis of the map at the middle of what can be seen.
        let middle = CGPoint(x: visible.midX, y: visible.midY)
        var screenDensity = 0.0
        if let j = jacobian(layerToTarget, at: middle) {
            screenDensity = Double(max((j.a * j.a + j.b * j.b).squareRoot(), (j.c * j.c + j.d * j.d).squareRoot()))
        }
        guard screenDensity.isFinite, screenDensity > 0 else { return nil }
        let level = grid.boundedLevel(grid.level(for: screenDensity, style: style), visible: visible)
        guard let (columns, rows) = grid.range(of: visible, level: level) else { return nil }
        let rectilinear = layerToTarget.isAffine
            && (layerToTarget.m12 == 0 && layerToTarget.m21 == 0 || layerToTarget.m11 == 0 && layerToTarget.m22 == 0)
        var tiles: [TileIndex] = []
        tiles.reserveCapacity(columns.count * rows.count)
        for row in rows {
            for column in columns {
                let index = TileIndex(column: column, row: row)
                if !rectilinear {
                    // Turned or in perspective: only the tiles whose quad covers a pixel of the target.
                    let rect = grid.visibleRect(level: level, column: column, row: row)
                    let quad = Quad(unitToTarget: Matrix3.unitSquare(to: rect).concatenating(layerToTarget),
                                    paint: .solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1)), clip: clip)
                    guard quad.hasFiniteGeometry, quad.coverage(width: target.width, height: target.height) != nil
                    else { continue }
                }
                tiles.append(index)
            }
        }
        // The middle first: the order a live frame queues its missing tiles in.
        let d = grid.density(level)
        let centre = (x: (Double(middle.x) - grid.originX) * d / Double(grid.tileWidth) - 0.5,
                      y: (Double(middle.y) - grid.originY) * d / Double(grid.tileHeight) - 0.5)
        func distance(_ index: TileIndex) -> Double {
            let dx = Double(index.column) - centre.x, dy = Double(index.row) - centre.y
            return dx * dx + dy * dy
        }
        tiles.sort { (distance($0), $0.row, $0.column) < (distance($1), $1.row, $1.column) }
        return TileSelection(grid: grid, level: level, tiles: tiles)
    }

    /// A tiled layer's tiles as texture quads (in place of contents), each over its part of the bounds, clipped as
    /// contents are (to the rounded bounds with masksToBounds), faded in on live frames.
    func emitTiles(
        _ layer: LayerSnapshot, _ style: TiledStyle, layerToTarget: Matrix3, opacity: Float, clip: ConvexPolygon?,
        shaped: Bool, target: (width: Int, height: Int), into quads: inout [Quad]
    ) throws {
        let cache = tiles ?? TileCache(threads: 1)
        if tiles == nil { cache.memoryBudget = memoryBudget }
        guard let selection = Self.tileSelection(layer, style, layerToTarget: layerToTarget, clip: clip,
                                                 target: target)
        else {
            // Nothing to show: the layer's queued tiles are no longer wanted.
            _ = try cache.pieces(layer: layer.id, style: style,
                             selection: TileSelection(grid: TileGrid(style: style, contentsScale: 1, bounds: .zero),
                                                      level: 0, tiles: []))
            return
        }
        let pieces = try cache.pieces(layer: layer.id, style: style, selection: selection)
        guard !pieces.isEmpty,
            let contentsClip = Self.contentsClip(layer, layerToTarget: layerToTarget, clip: clip)
        else { return }
        let rounded = shaped && layer.masksToBounds
            ? layer.roundedBounds.map { CoverageShape(toTarget: layerToTarget, outer: $0) } : nil
        for piece in pieces {
            let unitToTarget = Matrix3.unitSquare(to: piece.rect).concatenating(layerToTarget)
            let unitToTexel = Matrix3.unitSquare(to: piece.texels)
            let (filter, lod) = chooseFilter(layer, unitToTarget: unitToTarget, unitToTexel: unitToTexel)
            let faded = opacity * piece.opacity
            guard faded > 0 else { continue }
            quads.appendDrawable(Quad(
                unitToTarget: unitToTarget,
                paint: .texture(TextureSource(
                    image: piece.image, unitToTexel: unitToTexel,
                    clamp: TexelRect(x0: 0, y0: 0, x1: piece.image.width, y1: piece.image.height), filter: filter,
                    mipLevel: lod)),
                opacity: faded, clip: contentsClip, shape: rounded, layerName: layer.name, layerID: layer.id))
        }
    }
}
