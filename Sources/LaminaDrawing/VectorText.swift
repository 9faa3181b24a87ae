import CCairo
import CPango
import Foundation
import LaminaCore

/// A vector drawing's text run laid out by Pango (docs/semantics.md, "Vector drawings"): the font by family and size
/// (points) through a font description, tracking as letter spacing, lines `lineHeight` apart (baseline to
/// baseline), each placed by the justification. Point text: the first baseline starts at `origin` (left), is
/// centred on it or ends at it; box text: lines wrap at the box's width, the first line's top at the box's top,
/// justified within the box. Lives within one call on one thread (`PangoThreadContext`).
final class VectorText {
    struct Line {
        let line: UnsafeMutablePointer<PangoLayoutLine>
        /// The left end of its baseline.
        let origin: CGPoint
        /// Its ink box, relative to `origin`.
        let ink: CGRect
    }

    private let layout: OpaquePointer
    let thread: PangoThreadContext
    private(set) var lines: [Line] = []

    /// The most characters of a run laid out (a documented limit).
    static let mostCharacters = 65_536

    init?(_ run: VectorDrawing.TextRun) {
        let text = String(run.text.prefix(Self.mostCharacters))
        guard !text.isEmpty, run.size.isFinite, run.size > 0, run.origin.x.isFinite, run.origin.y.isFinite
        else { return nil }
        thread = PangoThreadContext.current
        layout = pango_layout_new(thread.context)
        pango_layout_set_auto_dir(layout, 1)
        pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        let size = min(run.size, TextLayout.largestFontSize)
        let font = pango_font_description_from_string(run.font.isEmpty ? "sans-serif" : run.font)
        pango_font_description_set_absolute_size(font, Double(TextLayout.pangoUnits(size)))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if run.tracking.isFinite, run.tracking != 0 {
            let spacing = min(max(run.tracking / 1000 * Double(size), -1e5), 1e5)
            let list = pango_attr_list_new()
            pango_attr_list_insert(list, pango_attr_letter_spacing_new(Int32(spacing * Double(PANGO_SCALE))))
            pango_layout_set_attributes(layout, list)
            pango_attr_list_unref(list)
        }
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .withCString { pango_layout_set_text(layout, $0, -1) }
        var boxWidth: CGFloat?
        if let box = run.boxSize, box.width.isFinite, box.width > 0 {
            boxWidth = box.width
            pango_layout_set_width(layout, Int32(TextLayout.pangoUnits(box.width)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        place(run, boxWidth: boxWidth)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    private func place(_ run: VectorDrawing.TextRun, boxWidth: CGFloat?) {
        guard let iter = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iter) }
        let lineHeight = run.lineHeight.isFinite && run.lineHeight > 0 ? run.lineHeight : run.size * 1.2
        var firstBaseline: CGFloat?
        var index = 0
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_line_get_extents(line, &ink, &logical)
            let baseline = TextLayout.points(pango_layout_iter_get_baseline(iter))
            if firstBaseline == nil { firstBaseline = baseline }
            let advance = TextLayout.points(logical.width)
            let y: CGFloat
            let x: CGFloat
            if let boxWidth {
                y = run.origin.y + (firstBaseline ?? 0) + CGFloat(index) * lineHeight
                switch run.justification {
                case .left: x = run.origin.x
                case .center: x = run.origin.x + (boxWidth - advance) / 2
                case .right: x = run.origin.x + boxWidth - advance
                }
            } else {
                y = run.origin.y + CGFloat(index) * lineHeight
                switch run.justification {
                case .left: x = run.origin.x
                case .center: x = run.origin.x - advance / 2
                case .right: x = run.origin.x - advance
                }
            }
            let origin = CGPoint(x: x - TextLayout.points(logical.x), y: y)
            let inkBox = CGRect(x: TextLayout.points(ink.x), y: TextLayout.points(ink.y),
                                width: TextLayout.points(ink.width), height: TextLayout.points(ink.height))
            lines.append(Line(line: line, origin: origin, ink: inkBox))
            index += 1
        } while pango_layout_iter_next_line(iter) != 0
    }

    /// The ink of the run in the drawing's space (the stroke's half width added); .null when nothing is painted.
    static func inkBounds(_ run: VectorDrawing.TextRun) -> CGRect {
        let fills = (run.fill?.alpha ?? 0) > 0
        let strokes = (run.stroke?.alpha ?? 0) > 0 && run.strokeWidth > 0 && run.strokeWidth.isFinite
        guard fills || strokes, let text = VectorText(run) else { return .null }
        var box = CGRect.null
        for line in text.lines where line.ink.width > 0 && line.ink.height > 0 {
            box = box.union(line.ink.offsetBy(dx: line.origin.x, dy: line.origin.y))
        }
        guard !box.isNull else { return .null }
        // A pixel of slack for antialiasing of glyph edges, and the stroke's half width.
        let outset = (strokes ? run.strokeWidth / 2 : 0) + 1
        return box.insetBy(dx: -outset, dy: -outset)
    }

    /// Draws the run with `cr`'s matrix: the stroke under the fill, or over it with `strokeOverFill`.
    static func draw(_ run: VectorDrawing.TextRun, on cr: OpaquePointer) {
        let fill = run.fill.flatMap { $0.alpha > 0 ? $0 : nil }
        let stroke = run.stroke.flatMap { $0.alpha > 0 && run.strokeWidth > 0 && run.strokeWidth.isFinite ? $0 : nil }
        guard fill != nil || stroke != nil, let text = VectorText(run) else { return }
        cairo_save(cr)
        cairo_set_font_options(cr, text.thread.fontOptions)
        func paintFill() {
            guard let c = fill else { return }
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
            for line in text.lines {
                cairo_move_to(cr, Double(line.origin.x), Double(line.origin.y))
                pango_cairo_show_layout_line(cr, line.line)
            }
            cairo_new_path(cr)
        }
        func paintStroke() {
            guard let c = stroke else { return }
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
            cairo_set_line_width(cr, Double(run.strokeWidth))
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_dash(cr, nil, 0, 0)
            cairo_new_path(cr)
            for line in text.lines {
                cairo_move_to(cr, Double(line.origin.x), Double(line.origin.y))
                pango_cairo_layout_line_path(cr, line.line)
            }
            cairo_stroke(cr)
        }
        if run.strokeOverFill {
            paintFill()
            paintStroke()
        } else {
            paintStroke()
            paintFill()
        }
        cairo_restore(cr)
    }
}
