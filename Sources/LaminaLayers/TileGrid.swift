import Foundation
import LaminaCore

// How a tiled layer is cut into tiles (docs/semantics.md, "Tiled layers"). Level 0 has contentsScale pixels per
// point; level l has contentsScale x 2^-l (negative levels are the magnified ones of levelsOfDetailBias). At every
// level the tiles are tileSize pixels, laid from the bounds' origin: tile (column, row) of level l covers
// [bounds.minX + column x w, + w) x [bounds.minY + row x h, + h) in layer points, w = tileWidth / density, cut by the
// bounds. A tile of level l + 1 covers exactly 2 x 2 tiles of level l.

/// Everything but the level that decides where a tiled layer's tiles lie and how many pixels each has.
struct TileGrid: Hashable, Sendable {
    /// Pixels a side of a tile (tileSize rounded and clamped to 16...2048).
    var tileWidth: Int
    var tileHeight: Int
    /// Pixels per point at level 0.
    var contentsScale: Double
    var originX: Double
    var originY: Double
    var width: Double
    var height: Double

    /// The smallest and largest tile side, in pixels.
    static let tileSides = TiledLayer.tileSides

    init(style: TiledStyle, contentsScale: CGFloat, bounds: CGRect) {
        func side(_ x: CGFloat) -> Int {
            guard x.isFinite else { return 256 }
            return min(max(Int(x.rounded()), Self.tileSides.lowerBound), Self.tileSides.upperBound)
        }
        tileWidth = side(style.tileSize.width)
        tileHeight = side(style.tileSize.height)
        self.contentsScale = contentsScale.isFinite && contentsScale > 0 ? Double(contentsScale) : 1
        originX = Double(bounds.minX)
        originY = Double(bounds.minY)
        width = Double(bounds.width)
        height = Double(bounds.height)
    }

    var bounds: CGRect { CGRect(x: originX, y: originY, width: width, height: height) }

    /// Pixels per point at `level`.
    func density(_ level: Int) -> Double { scalbn(contentsScale, -level) }

    /// The number of columns and rows of tiles at `level` (at least 1 each).
    func columns(_ level: Int) -> Int { Self.count(width * density(level), tileWidth) }
    func rows(_ level: Int) -> Int { Self.count(height * density(level), tileHeight) }

    private static func count(_ pixels: Double, _ side: Int) -> Int {
        let tiles = (pixels / Double(side) - 1e-9).rounded(.up)
        return tiles.isFinite ? Int(min(max(tiles, 1), 1e15)) : 1
    }

    /// The whole tile (column, row) of `level` in layer points (before it is cut by the bounds).
    func tileRect(level: Int, column: Int, row: Int) -> CGRect {
        let d = density(level)
        let w = Double(tileWidth) / d, h = Double(tileHeight) / d
        return CGRect(x: originX + Double(column) * w, y: originY + Double(row) * h, width: w, height: h)
    }

    /// The tile's part of the bounds: what it draws and shows.
    func visibleRect(level: Int, column: Int, row: Int) -> CGRect {
        tileRect(level: level, column: column, row: row).intersection(bounds)
    }

    /// The tile's image size in pixels: the tile size, less what lies beyond the bounds at the right and bottom.
    func pixelSize(level: Int, column: Int, row: Int) -> (width: Int, height: Int) {
        let d = density(level)
        func side(_ extent: Double, _ index: Int, _ tile: Int) -> Int {
            let left = (extent * d - Double(index) * Double(tile) - 1e-9).rounded(.up)
            return Int(min(max(left, 1), Double(tile)))
        }
        return (side(width, column, tileWidth), side(height, row, tileHeight))
    }
}

/// Which tiles of a tiled layer a frame shows: the level, and the visible tiles' columns and rows.
struct TileSelection: Equatable, Sendable {
    var grid: TileGrid
    var level: Int
    /// The visible tiles, the one nearest the middle of what can be seen first.
    var tiles: [TileIndex]
}

/// A tile's column and row at some level.
struct TileIndex: Hashable, Sendable {
    var column: Int
    var row: Int
}

extension TileGrid {
    /// The most tiles one frame shows of one tiled layer: past it the level is made coarser (a documented difference
    /// from Core Animation), so a frame draws and keeps a bounded number of tiles at any zoom.
    static let mostTilesPerFrame = 1024
    /// The most tile pixels one frame shows of one tiled layer (64 Mpx, 256 MiB): past it the level is made coarser.
    static let mostPixelsPerFrame = 64 << 20

    /// The level of detail for a layer shown at `screenDensity` pixels per point (docs/semantics.md, "Tiled
    /// layers"): the coarsest level whose density is at least `screenDensity`, i.e. floor(log2(contentsScale /
    /// screenDensity)), within the layer's levels -levelsOfDetailBias ... levelsOfDetail - 1 (the coarsest limited
    /// to the level where the bounds' shorter side still has a pixel).
    func level(for screenDensity: Double, style: TiledStyle) -> Int {
        let finest = -min(max(style.levelsOfDetailBias, 0), 30)
        var coarsest = min(max(style.levelsOfDetail, 1), 31) - 1
        let shorter = min(width, height) * contentsScale
        if shorter >= 1, shorter.isFinite {
            coarsest = min(coarsest, Int(log2(shorter).rounded(.down)))
        } else {
            coarsest = min(coarsest, 0)
        }
        coarsest = max(coarsest, finest)
        guard screenDensity.isFinite, screenDensity > 0 else { return coarsest }
        let natural = (log2(contentsScale / screenDensity) + 1e-9).rounded(.down)
        guard natural.isFinite else { return natural > 0 ? coarsest : finest }
        return Int(min(max(natural, Double(finest)), Double(coarsest)))
    }

    /// The tiles of `level` that `visible` (layer space) meets, as column and row ranges.
    func range(of visible: CGRect, level: Int) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        let cut = visible.intersection(bounds)
        guard !cut.isNull, cut.width > 0 || cut.height > 0 else { return nil }
        let d = density(level)
        let w = Double(tileWidth) / d, h = Double(tileHeight) / d
        func index(_ x: Double, _ size: Double, _ count: Int) -> Int {
            let i = x.rounded(.down)
            return Int(min(max(i.isFinite ? i : 0, 0), Double(count - 1)))
        }
        let (columns, rows) = (self.columns(level), self.rows(level))
        let c0 = index((Double(cut.minX) - originX) / w, w, columns)
        let c1 = index(((Double(cut.maxX) - originX) / w - 1e-9).rounded(.up) - 1, w, columns)
        let r0 = index((Double(cut.minY) - originY) / h, h, rows)
        let r1 = index(((Double(cut.maxY) - originY) / h - 1e-9).rounded(.up) - 1, h, rows)
        return (c0...max(c0, c1), r0...max(r0, r1))
    }

    /// The level to draw at: `level`, or a coarser one where `level` would show more than `mostTilesPerFrame`
    /// tiles or `mostPixelsPerFrame` pixels of `visible`.
    func boundedLevel(_ level: Int, visible: CGRect) -> Int {
        var level = level
        for _ in 0..<80 {
            guard let (columns, rows) = range(of: visible, level: level) else { return level }
            let count = Double(columns.count) * Double(rows.count)
            if count <= Double(Self.mostTilesPerFrame),
                count * Double(tileWidth) * Double(tileHeight) <= Double(Self.mostPixelsPerFrame)
            {
                return level
            }
            level += 1
        }
        return level
    }
}
