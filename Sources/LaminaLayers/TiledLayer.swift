import Foundation
import LaminaCore
import LaminaDrawing

/// A layer whose content is drawn in tiles, on background threads, only where it can be seen and at the level of
/// detail it is shown at (CATiledLayer; docs/semantics.md, "Tiled layers").
///
/// Each tile is drawn by `draw(in:)` (whose default calls the delegate's `draw(_:in:)`) into a context clipped to the
/// tile and scaled to the tile's level: `context.boundingBoxOfClipPath` is the tile's rectangle in layer points and
/// the context's `ctm` its pixels per point. Several tiles may be drawn at once on different threads, so `draw(in:)`
/// must be safe to call concurrently, as on Apple platforms. `setNeedsDisplay()` marks every tile for drawing again,
/// `setNeedsDisplay(_:)` only the tiles its rectangle meets. Tiles are kept by each renderer under a memory budget
/// (`TileCache`), never on the layer.
///
/// Live frames (`Renderer.livePlan`, `lamina play`) never wait for a tile: a tile not drawn yet shows the coarser level
/// already drawn there, or nothing, and a new tile fades in over `fadeDuration` seconds. Offline frames
/// (`Renderer.render(_:scale:at:limits:)`, `Planner.plan`, `lamina render` and `export`) draw every visible tile first.
open class TiledLayer: Layer, @unchecked Sendable {
    override class var styleKeys: [String: StyleKey] { TiledLayer.ownStyleKeys }

    /// Seconds over which a newly drawn tile fades in: 0.25, as in Core Animation. A subclass overrides it to change
    /// the fade of all its layers; `fadeDuration` (the instance property, a Lamina extension) changes one layer's.
    open class func fadeDuration() -> Double { 0.25 }

    /// The smallest and largest side of a tile, in pixels: `tileSize` is rounded and clamped to it when drawn (a
    /// Lamina limit; a scene file's `tileSize` must lie within it).
    public static let tileSides: ClosedRange<Int> = 16...2048

    /// The marks `setNeedsDisplay()` and `setNeedsDisplay(_:)` made since the last frame saw them (model lock held to
    /// touch them): the whole layer, or these rectangles (at most `TileInvalidation.mostMarks`).
    var pendingWhole = false
    var pendingRects: [CGRect] = []

    public override init() {
        super.init()
        becomeSpecial(.tiled(makeStyle()))
    }

    /// A copy of `layer` (a presentation copy, as Core Animation makes them): its properties and, when it is of the
    /// same kind, its tiling; another kind of layer gives this kind's defaults. The copy draws its own tiles.
    public override init(layer: Any) {
        super.init(layer: layer)
        var style = model.tiled ?? makeStyle()
        style.drawer = TileDrawer(layer: self)
        becomeSpecial(.tiled(style))
    }

    /// NSCoding's initialiser (Lamina does not archive layers): a layer with the defaults.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeSpecial(.tiled(makeStyle()))
    }

    private func makeStyle() -> TiledStyle {
        var style = TiledStyle()
        style.fadeDuration = type(of: self).fadeDuration()
        style.drawer = TileDrawer(layer: self)
        return style
    }

    /// All of the layer's tiling properties at once.
    public var tiledStyle: TiledStyle {
        get { read { $0.tiled ?? TiledStyle() } }
        set {
            writeStyle(key: nil) { state in
                guard var style = state.tiled else { return }
                let drawer = style.drawer
                style = newValue
                style.drawer = drawer
                state.tiled = style
            }
        }
    }
    /// The size of a tile in pixels of its level's backing store: 256 x 256 by default. Each side is rounded and
    /// clamped to 16...2048 pixels when drawn.
    public var tileSize: CGSize {
        get { read { $0.tiled?.tileSize ?? CGSize(width: 256, height: 256) } }
        set { writeStyle(key: nil) { $0.tiled?.tileSize = newValue } }
    }
    /// The number of levels of detail at and below contentsScale, each half the resolution of the one before: 1 by
    /// default (values below 1 count as 1).
    public var levelsOfDetail: Int {
        get { read { $0.tiled?.levelsOfDetail ?? 1 } }
        set { writeStyle(key: nil) { $0.tiled?.levelsOfDetail = newValue } }
    }
    /// The number of magnified levels of detail, at 2x, 4x, ... contentsScale: 0 by default (values below 0 count as
    /// 0).
    public var levelsOfDetailBias: Int {
        get { read { $0.tiled?.levelsOfDetailBias ?? 0 } }
        set { writeStyle(key: nil) { $0.tiled?.levelsOfDetailBias = newValue } }
    }
    /// Lamina extension: this layer's fade-in time in seconds, the class's `fadeDuration()` unless set (how a scene
    /// file's `fadeDuration` key sets it). Negative or non-finite values count as 0 (no fade).
    public var fadeDuration: Double {
        get { read { $0.tiled?.fadeDuration ?? type(of: self).fadeDuration() } }
        set { writeStyle(key: nil) { $0.tiled?.fadeDuration = newValue } }
    }

    /// Takes the marks made since the last frame into the layer's state (a frame calls it, before its snapshot, for a
    /// marked layer that can be seen): the tiles they cover are drawn again. A call with no mark (a frame drawing the
    /// layer for another reason, or a direct call) marks every tile. No backing image is made: the tiles are the
    /// layer's content, and `contents` is not drawn.
    open override func display() {
        let (whole, rects) = ModelLock.shared.withLock { () -> (Bool, [CGRect]) in
            displays += 1
            defer {
                pendingWhole = false
                pendingRects = []
            }
            return (pendingWhole, pendingRects)
        }
        writeStyle(key: nil) { state in
            guard var style = state.tiled else { return }
            if whole || rects.isEmpty {
                style.invalidation.markAll()
            } else {
                for rect in rects { style.invalidation.mark(rect) }
            }
            state.tiled = style
        }
    }

    /// Records a mark (`setNeedsDisplay()`: nil, the whole layer). Model lock held.
    func noteNeedsDisplayLocked(_ rect: CGRect?) {
        guard let rect else {
            pendingWhole = true
            pendingRects = []
            return
        }
        guard !pendingWhole else { return }
        pendingRects.append(rect)
        if pendingRects.count > TileInvalidation.mostMarks {
            pendingWhole = true
            pendingRects = []
        }
    }
}

extension TiledLayer {
    /// The keys of this class for key-value coding (Layer+KeyValueCoding.swift).
    nonisolated(unsafe) static let ownStyleKeys: [String: StyleKey] = [
        "tileSize": StyleKey(\TiledLayer.tileSize),
        "levelsOfDetail": StyleKey(\TiledLayer.levelsOfDetail),
        "levelsOfDetailBias": StyleKey(\TiledLayer.levelsOfDetailBias),
        "fadeDuration": StyleKey(\TiledLayer.fadeDuration),
    ]
}
