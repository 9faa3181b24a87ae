import CCairo
import Foundation
import LaminaCore

extension DrawingContext {
    /// Draws `style`'s text laid out in `rect` (user space) as a text layer would, shaped by Pango: lines from the
    /// top-left of `rect`, wrapped, truncated and aligned as the style says, cut off at `rect`.
    public func draw(_ style: TextStyle, in rect: CGRect) {
        let rect = rect.standardized
        guard !style.string.isEmpty, style.foregroundColor.alpha > 0, rect.width > 0, rect.height > 0,
              rect.width.isFinite, rect.height.isFinite else { return }
        draw(TextLayout(style, width: rect.width, height: rect.height), color: style.foregroundColor, in: rect)
    }

    /// Draws `layout` (made for `rect`'s size) in `rect`, cut off at it.
    func draw(_ layout: TextLayout, color c: Color, in rect: CGRect) {
        saveGState()
        clip(to: rect)
        if isOnPixelGrid(rect) {
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
            layout.draw(on: cr, at: rect.origin)
        } else {
            // cairo's glyph compositing reduces an unaligned clip to whole pixels, so edge pixels would hold more
            // than the part inside: draw into a group (bounded by the clip) and fill the exact rectangle with it.
            cairo_push_group(cr)
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
            layout.draw(on: cr, at: rect.origin)
            cairo_pop_group_to_source(cr)
            cairo_reset_clip(cr)
            addRect(rect)
            cairo_fill(cr)
        }
        restoreGState()
    }

    /// True when `rect` (user space) is a rectangle of whole pixels on the image.
    private func isOnPixelGrid(_ rect: CGRect) -> Bool {
        let m = ctm
        guard m.b == 0, m.c == 0 else { return false }
        let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.maxY)]
            .map { $0.applying(m) }
        return corners.allSatisfy { abs($0.x - $0.x.rounded()) < 1e-6 && abs($0.y - $0.y.rounded()) < 1e-6 }
    }

    /// Draws one unwrapped, unclipped run of text (explicit newlines start new lines) with Pango, the top-left of
    /// its first line at `point`; `font` is a family name resolved with fontconfig, `fontSize` in points.
    public func drawText(_ string: String, at point: CGPoint, font: String, fontSize: CGFloat, color: Color) {
        guard !string.isEmpty, color.alpha > 0 else { return }
        var style = TextStyle()
        style.string = string
        style.font = font
        style.fontSize = fontSize
        let layout = TextLayout(style, width: nil, height: nil)
        cairo_save(cr)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        layout.draw(on: cr, at: point)
        cairo_restore(cr)
    }
}
