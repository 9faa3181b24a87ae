import CCairo
import CPango
import Foundation
import LaminaCore
import LaminaDrawing

/// Pixel measures of a text picture, and a Pango reference made straight through the C API, for the text tests.
enum TextProbe {
    /// |a - b| <= tolerance.
    static func near<T: Numeric & Comparable>(_ a: T, _ b: T, _ tolerance: T) -> Bool {
        a > b ? a - b <= tolerance : b - a <= tolerance
    }

    /// The box of pixels with any alpha: (minX, minY, maxX, maxY) as pixel columns/rows, maxX/maxY exclusive.
    static func inkBox(_ image: Image) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)?
        let bytes = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        for y in 0..<image.height {
            for x in 0..<image.width where bytes[y * image.bytesPerRow + x * 4 + 3] > 0 {
                if let b = box {
                    box = (min(b.0, x), min(b.1, y), max(b.2, x + 1), max(b.3, y + 1))
                } else {
                    box = (x, y, x + 1, y + 1)
                }
            }
        }
        return box.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
    }

    /// The sum of alpha over the image, in whole pixels' worth (255 = one opaque pixel).
    static func ink(_ image: Image) -> Double {
        let bytes = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        var sum = 0
        for y in 0..<image.height {
            for x in 0..<image.width { sum += Int(bytes[y * image.bytesPerRow + x * 4 + 3]) }
        }
        return Double(sum) / 255
    }

    /// Alpha of pixel (x, y).
    static func alpha(_ image: Image, _ x: Int, _ y: Int) -> UInt8 {
        image.baseAddress.assumingMemoryBound(to: UInt8.self)[y * image.bytesPerRow + x * 4 + 3]
    }

    static func bytes(_ image: Image) -> [UInt8] {
        Array(UnsafeBufferPointer(start: image.baseAddress.assumingMemoryBound(to: UInt8.self), count: image.byteCount))
    }

    /// Pango's own ink and logical pixel extents of one unwrapped layout of `string` in `family` at `size` pixels,
    /// relative to the layout's top-left, made with a font map of its own at 72 dpi without hinting.
    static func reference(_ string: String, family: String, size: Double)
        -> (ink: PangoRectangle, logical: PangoRectangle)
    {
        let fontMap = pango_cairo_font_map_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(fontMap)) }
        let context = pango_font_map_create_context(fontMap)!
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        pango_cairo_context_set_resolution(context, 72)
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        pango_context_set_round_glyph_positions(context, 0)
        let layout = pango_layout_new(context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = pango_font_description_new()
        pango_font_description_set_family(font, family)
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_text(layout, string, -1)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        return (ink, logical)
    }

    static func style(_ string: String, font: String = "DejaVu Sans", size: CGFloat = 24,
                      alignment: TextLayerAlignmentMode = .natural, wrapped: Bool = false,
                      truncation: TextLayerTruncationMode = .none, color: Color = .white) -> TextStyle
    {
        var style = TextStyle()
        style.string = string
        style.font = font
        style.fontSize = size
        style.alignmentMode = alignment
        style.isWrapped = wrapped
        style.truncationMode = truncation
        style.foregroundColor = color
        return style
    }
}
