import CCairo
import Foundation
import LaminaCore

// DrawingContext's painting beyond paths: images, gradients and cairo's simple text.
extension DrawingContext {
    /// Draws `image` scaled into `rect` (bilinear, edges clamped so the border does not fade).
    public func draw(_ image: Image, in rect: CGRect) {
        draw(image, in: rect, bottomUp: drawsImagesBottomUp)
    }

    /// Draws `image` scaled into `rect` with its first row at `rect.minY` in user space, whatever the context's
    /// orientation: on a bitmap context (y up) the picture lands upside down in memory, as `CALayer.render(in:)`
    /// draws into a Core Graphics bitmap context.
    public func drawTopDown(_ image: Image, in rect: CGRect) {
        draw(image, in: rect, bottomUp: false)
    }

    private func draw(_ image: Image, in rect: CGRect, bottomUp: Bool) {
        withImageSource(image, in: rect, bottomUp: bottomUp, extend: CAIRO_EXTEND_PAD) {
            cairo_new_path(cr)
            cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
            drawing(fillExtents) {
                if state.alpha < 1 {
                    cairo_clip(cr)
                    cairo_paint_with_alpha(cr, state.alpha)
                } else {
                    cairo_fill(cr)
                }
            }
        }
    }

    /// Runs `paint` with `image` as cairo's source, mapped onto `rect` (first row at maxY when `bottomUp`) and
    /// extended with `extend`, in a saved state; nothing for an empty image or rectangle.
    func withImageSource(_ image: Image, in rect: CGRect, bottomUp: Bool, extend: cairo_extend_t,
                         _ paint: () -> Void) {
        guard image.width > 0, image.height > 0, rect.width != 0, rect.height != 0 else { return }
        let data = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        guard let source = cairo_image_surface_create_for_data(
            data, CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height), Int32(image.bytesPerRow))
        else { return }
        defer { cairo_surface_destroy(source) }
        cairo_save(cr)
        if bottomUp {
            cairo_translate(cr, Double(rect.minX), Double(rect.maxY))
            cairo_scale(cr, Double(rect.width) / Double(image.width), -Double(rect.height) / Double(image.height))
        } else {
            cairo_translate(cr, Double(rect.minX), Double(rect.minY))
            cairo_scale(cr, Double(rect.width) / Double(image.width), Double(rect.height) / Double(image.height))
        }
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_pattern_set_extend(cairo_get_source(cr), extend)
        cairo_pattern_set_filter(cairo_get_source(cr), state.filter)
        paint()
        cairo_restore(cr)
    }

    /// Fills the clip with a linear gradient from `start` to `end`.
    public func drawLinearGradient(
        _ gradient: Gradient, start: CGPoint, end: CGPoint, options: GradientDrawingOptions = []
    ) {
        guard let pattern = cairo_pattern_create_linear(Double(start.x), Double(start.y), Double(end.x), Double(end.y))
        else { return }
        paint(gradient, pattern, options: options)
    }

    /// Fills the clip with a radial gradient between two circles.
    public func drawRadialGradient(
        _ gradient: Gradient, startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint, endRadius: CGFloat,
        options: GradientDrawingOptions = []
    ) {
        guard let pattern = cairo_pattern_create_radial(
            Double(startCenter.x), Double(startCenter.y), Double(max(0, startRadius)), Double(endCenter.x),
            Double(endCenter.y), Double(max(0, endRadius)))
        else { return }
        paint(gradient, pattern, options: options)
    }

    /// Fills `rect` with a vertical gradient from `top` to `bottom`.
    public func fillVerticalGradient(_ rect: CGRect, top: Color, bottom: Color) {
        saveGState()
        clip(to: rect)
        drawLinearGradient(
            Gradient(colors: [top, bottom])!, start: CGPoint(x: rect.minX, y: rect.minY),
            end: CGPoint(x: rect.minX, y: rect.maxY), options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        restoreGState()
    }

    // MARK: Text

    /// Draws `text` with its baseline starting at `point`, in the fill colour, with cairo's simple text API
    /// (fontconfig picks the face for `family`).
    public func showText(_ text: String, at point: CGPoint, fontSize: CGFloat, family: String = "sans-serif",
                         bold: Bool = false) {
        selectFont(family: family, size: fontSize, bold: bold)
        setSource(state.fillColor)
        cairo_move_to(cr, Double(point.x), Double(point.y))
        drawing(nil) { cairo_show_text(cr, text) }
        cairo_new_path(cr)
    }

    /// The advance width of `text` in points.
    public func textWidth(_ text: String, fontSize: CGFloat, family: String = "sans-serif", bold: Bool = false)
        -> CGFloat
    {
        selectFont(family: family, size: fontSize, bold: bold)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return CGFloat(extents.x_advance)
    }

    // MARK: Private

    private func selectFont(family: String, size: CGFloat, bold: Bool) {
        cairo_select_font_face(
            cr, family, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, Double(max(0, size)))
    }

    private func paint(_ gradient: Gradient, _ pattern: OpaquePointer, options: GradientDrawingOptions) {
        defer { cairo_pattern_destroy(pattern) }
        // cairo extends both ends (PAD) or neither (NONE). An end that must not be extended gets a transparent stop
        // at the same place, beyond the colour's own: cairo keeps stops of equal offset in the order added, and
        // extends with the outermost one.
        let first = gradient.locations.min() ?? 0, last = gradient.locations.max() ?? 1
        cairo_pattern_set_extend(pattern, options.isEmpty ? CAIRO_EXTEND_NONE : CAIRO_EXTEND_PAD)
        if !options.isEmpty && !options.contains(.drawsBeforeStartLocation) {
            cairo_pattern_add_color_stop_rgba(pattern, Double(first), 0, 0, 0, 0)
        }
        for (color, location) in zip(gradient.colors, gradient.locations) {
            cairo_pattern_add_color_stop_rgba(pattern, Double(location), color.red, color.green, color.blue, color.alpha)
        }
        if !options.isEmpty && !options.contains(.drawsAfterEndLocation) {
            cairo_pattern_add_color_stop_rgba(pattern, Double(last), 0, 0, 0, 0)
        }
        cairo_set_source(cr, pattern)
        drawing(nil) { cairo_paint_with_alpha(cr, state.alpha) }
    }
}
