import Foundation
import LaminaCore

/// A tiled layer's properties (CATiledLayer's; docs/semantics.md, "Tiled layers"), as part of its `LayerState`: how
/// its content is cut into tiles and at which levels of detail, and which of its tiles have been marked for drawing
/// again. The values are kept as set; the planner clamps them (`TileLevels`).
public struct TiledStyle: Equatable, Sendable {
    /// The size of a tile in pixels of the backing store at its level of detail: 256 x 256 by default. Each side is
    /// rounded and clamped to 16...2048 pixels when drawn.
    public var tileSize = CGSize(width: 256, height: 256)
    /// The number of levels of detail at and below contentsScale, each half the resolution of the one before: 1 by
    /// default; below 1 counts as 1.
    public var levelsOfDetail = 1
    /// The number of magnified levels above contentsScale (2x, 4x, ...): 0 by default; below 0 counts as 0.
    public var levelsOfDetailBias = 0
    /// Seconds over which a newly drawn tile fades in on live frames: the class's `fadeDuration()` (0.25) unless set.
    public var fadeDuration: Double = 0.25
    /// Which tiles have been marked for drawing again (`setNeedsDisplay()`, `setNeedsDisplay(_:)`).
    public var invalidation = TileInvalidation()
    /// Draws the tiles: the layer itself, held weakly (a snapshot does not keep its layer alive).
    var drawer = TileDrawer(layer: nil)

    public init() {}
}

/// The marks of a tiled layer's tiles for drawing again, numbered: each `setNeedsDisplay()` or
/// `setNeedsDisplay(_:)` that a frame has seen is one generation. A tile remembers the generation it was drawn for and
/// is stale when a later mark covers it.
public struct TileInvalidation: Equatable, Sendable {
    /// One mark of a rectangle (layer space) at a generation.
    struct Mark: Equatable, Sendable {
        var generation: UInt64
        var rect: CGRect
    }

    /// The latest generation (0: never marked).
    public private(set) var generation: UInt64 = 0
    /// Tiles drawn for a generation before this one are all stale (the whole layer was marked, or older marks were
    /// forgotten).
    private(set) var wholeSince: UInt64 = 0
    /// The rectangles marked after `wholeSince`, oldest first, at most `mostMarks`.
    private(set) var marks: [Mark] = []
    /// The most rectangles remembered; an older one is forgotten by marking the whole layer at its generation.
    static let mostMarks = 64

    public init() {}

    /// Marks the whole layer.
    mutating func markAll() {
        generation += 1
        wholeSince = generation
        marks = []
    }

    /// Marks the tiles that `rect` (layer space) meets.
    mutating func mark(_ rect: CGRect) {
        let standard = rect.standardized
        guard !standard.isEmpty, !standard.width.isNaN, !standard.height.isNaN else { return }
        generation += 1
        marks.append(Mark(generation: generation, rect: standard))
        if marks.count > Self.mostMarks {
            wholeSince = marks.removeFirst().generation
        }
    }

    /// Whether a tile covering `rect` drawn for generation `drawn` must be drawn again.
    public func isStale(_ rect: CGRect, drawnAt drawn: UInt64) -> Bool {
        guard drawn < generation else { return false }
        if drawn < wholeSince { return true }
        return marks.contains { $0.generation > drawn && $0.rect.intersects(rect) }
    }
}

/// What draws a tiled layer's tiles: a weak reference to the layer, compared by identity.
final class TileDrawer: @unchecked Sendable, Equatable {
    weak var layer: Layer?

    init(layer: Layer?) {
        self.layer = layer
    }

    static func == (a: TileDrawer, b: TileDrawer) -> Bool { a === b }
}
