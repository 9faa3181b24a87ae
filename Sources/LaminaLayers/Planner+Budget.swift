import Foundation
import LaminaCore
import LaminaDrawing

/// What the planner makes on a renderer's behalf, counted in the renderer's `memoryBudget` before it is made
/// (docs/architecture.md, "Memory budget"): the picture of a gradient, shape, text or drawing layer (4 bytes a
/// pixel, held by the picture's image while the picture cache keeps it) and, for text, the glyph masks cairo
/// rasterises to draw it. The tiles of tiled layers reserve in `TileCache`.
extension Planner {
    /// cairo draws glyphs of up to this many pixels through masks it caches in the font (its show-glyphs limit);
    /// larger ones are filled as paths, with no mask kept.
    static let largestMaskedGlyph: CGFloat = 10240

    /// Reserves the picture of `layer`'s `special` content over `shown` at `density` (the pixel grid the picture
    /// functions use) and, for text, its glyph masks, as one reservation; nil without a budget or a picture. Throws
    /// `MemoryLimitError` naming the part that does not fit.
    static func reservePicture(
        _ special: SpecialContent, layer: LayerSnapshot, shown: CGRect, density: CGFloat, limits: PixelLimits,
        budget: MemoryBudget?
    ) throws(MemoryLimitError) -> MemoryReservation? {
        guard let budget, let grid = VectorPicture.grid(covering: shown, density: density, limits: limits) else {
            return nil
        }
        var parts: [(bytes: Int, what: String)] = []
        if case .text(let style) = special, let glyphs = glyphMasks(style, density: density) {
            parts.append((glyphs.bytes, "the glyph masks of \(layer.debugName) (\(glyphs.count) "
                + "glyph\(glyphs.count == 1 ? "" : "s") of \(glyphs.side)x\(glyphs.side) pixels)"))
        }
        parts.append((grid.width * grid.height * 4,
                      "the \(grid.width)x\(grid.height) picture of \(layer.debugName) (\(special.typeName))"))
        return try budget.reserve(parts)
    }

    /// The masks cairo makes to draw `style`'s text at `density`: one 8-bit mask a distinct glyph (counted as a
    /// distinct character other than white space), an em square and a pixel of antialiasing on each side. An
    /// estimate: a glyph's mask is its ink box, which an em square bounds for the letters of most fonts. nil when
    /// there is none (no ink, or glyphs so large cairo fills them as paths).
    static func glyphMasks(_ style: TextStyle, density: CGFloat) -> (count: Int, side: Int, bytes: Int)? {
        let size = style.fontSize * density
        guard size.isFinite, size > 0, size <= largestMaskedGlyph else { return nil }
        let count = Set(style.string.unicodeScalars.filter { !$0.properties.isWhitespace }).count
        guard count > 0 else { return nil }
        let side = Int(size.rounded(.up)) + 2
        return (count, side, count * side * side)
    }
}
