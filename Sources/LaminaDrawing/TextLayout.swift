import CPango
import Foundation
import LaminaCore

/// A `TextStyle`'s text laid out by Pango (HarfBuzz shaping, fontconfig fallback fonts, bidi) for one box, with
/// each line's place in it. Lives on the thread that made it (`PangoThreadContext`): make, measure and draw it
/// within one call.
///
/// Lines are placed here rather than by Pango's alignment, because Pango flips left and right for right-to-left
/// paragraphs (with auto direction on), while a text layer's "left" and "right" are absolute and only "natural"
/// follows each paragraph's direction.
final class TextLayout {
    /// One line: where its origin (left end of the baseline) lies relative to the box's top-left, and its widths.
    struct Line {
        let line: UnsafeMutablePointer<PangoLayoutLine>
        /// The line's origin, relative to the box's top-left, in points.
        let origin: CGPoint
        /// The line's logical extent (advances), in points, relative to the box's top-left.
        let logical: CGRect
    }

    private let layout: OpaquePointer
    private(set) var lines: [Line] = []
    /// The size the text needs: the widest line's advance and the lines' total height, in points.
    private(set) var size: CGSize = .zero
    /// False when no line has ink (only spaces or line breaks): nothing would be painted.
    private(set) var hasInk = false
    let thread: PangoThreadContext

    /// Lays out `style`'s text for a box `width` points wide (nil: no box, nothing wraps, truncates or aligns) and
    /// `height` points high (nil: unlimited; only used to truncate wrapped text at the last line that fits).
    init(_ style: TextStyle, width: CGFloat?, height: CGFloat?) {
        thread = PangoThreadContext.current
        layout = pango_layout_new(thread.context)
        pango_layout_set_auto_dir(layout, 1)
        pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)

        let font = pango_font_description_new()
        pango_font_description_set_family(font, style.font)
        let size = style.fontSize.isNaN ? 0 : min(max(0, style.fontSize), Self.largestFontSize)
        pango_font_description_set_absolute_size(font, Double(Self.pangoUnits(size)))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        style.string.withCString { pango_layout_set_text(layout, $0, -1) }

        if let width, width.isFinite, width > 0 {
            let units = Int32(Self.pangoUnits(width))
            if style.isWrapped {
                pango_layout_set_width(layout, units)
                pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
                // Wrapped text truncates its last line that fits the height, as Core Animation's does.
                if style.truncationMode != .none, let height, height.isFinite, height > 0 {
                    pango_layout_set_height(layout, Int32(Self.pangoUnits(height)))
                    pango_layout_set_ellipsize(layout, Self.ellipsize(style.truncationMode))
                }
            } else if style.truncationMode != .none {
                // Without wrapping, Pango ellipsizes each paragraph (each explicit line) to one line of this width.
                pango_layout_set_width(layout, units)
                pango_layout_set_ellipsize(layout, Self.ellipsize(style.truncationMode))
            }
            // Pango justifies every line of a paragraph but its last, as Core Text does.
            pango_layout_set_justify(layout, style.alignmentMode == .justified && style.isWrapped ? 1 : 0)
        }
        place(style.alignmentMode, width: width)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// Finds each line's origin: baselines from Pango (the first line's top at y 0), x from the alignment.
    private func place(_ alignment: TextLayerAlignmentMode, width: CGFloat?) {
        guard let iter = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iter) }
        var widest: CGFloat = 0
        var bottom: CGFloat = 0
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_line_get_extents(line, &ink, &logical)
            var top: Int32 = 0, end: Int32 = 0
            pango_layout_iter_get_line_yrange(iter, &top, &end)
            let baseline = Self.points(pango_layout_iter_get_baseline(iter))
            let advance = Self.points(logical.width)
            let box = width ?? advance
            let rightToLeft = pango_layout_line_get_resolved_direction(line) == PANGO_DIRECTION_RTL
            let left: CGFloat
            switch alignment {
            case .left: left = 0
            case .right: left = box - advance
            case .center: left = (box - advance) / 2
            case .natural, .justified: left = rightToLeft ? box - advance : 0
            }
            let origin = CGPoint(x: left - Self.points(logical.x), y: baseline)
            lines.append(Line(
                line: line, origin: origin,
                logical: CGRect(x: left, y: Self.points(top), width: advance, height: Self.points(end - top))))
            hasInk = hasInk || (ink.width > 0 && ink.height > 0)
            widest = max(widest, advance)
            bottom = max(bottom, Self.points(end))
        } while pango_layout_iter_next_line(iter) != 0
        size = CGSize(width: widest, height: bottom)
    }

    /// Draws the lines with `cr`'s current source, the box's top-left at `origin` (user space).
    func draw(on cr: OpaquePointer, at origin: CGPoint) {
        cairo_save(cr)
        cairo_set_font_options(cr, thread.fontOptions)
        for line in lines {
            cairo_move_to(cr, Double(origin.x + line.origin.x), Double(origin.y + line.origin.y))
            pango_cairo_show_layout_line(cr, line.line)
        }
        cairo_new_path(cr)
        cairo_restore(cr)
    }

    private static func ellipsize(_ mode: TextLayerTruncationMode) -> PangoEllipsizeMode {
        switch mode {
        case .none: PANGO_ELLIPSIZE_NONE
        case .start: PANGO_ELLIPSIZE_START
        case .middle: PANGO_ELLIPSIZE_MIDDLE
        case .end: PANGO_ELLIPSIZE_END
        }
    }

    /// Points to Pango units (1/1024), clamped to what an Int32 holds.
    static func pangoUnits(_ points: CGFloat) -> CGFloat {
        min(max((points * CGFloat(PANGO_SCALE)).rounded(), 0), CGFloat(Int32.max / 2))
    }

    /// The largest font size laid out, in points (docs/semantics.md, "Text layers"): larger sizes make FreeType
    /// fail, and no output could show a glyph that large.
    static let largestFontSize: CGFloat = 4096

    static func points(_ units: Int32) -> CGFloat { CGFloat(units) / CGFloat(PANGO_SCALE) }
}
