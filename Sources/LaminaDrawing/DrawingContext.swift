import CCairo
import Foundation
import LaminaCore

/// A Core Graphics-like drawing context on cairo that draws straight into an Image's memory (cairo's
/// ARGB32 is Lamina's premultiplied BGRA, so there is no copy). Method names follow CGContext's Swift
/// names so that drawing code ports by changing types.
///
/// User space is y-down points: one point is `scale` pixels. Call `flush()` (or let the context go) before
/// the image is rendered, so that cairo's writes are complete and texture caches see the change.
public final class DrawingContext {
    /// The image drawn into.
    public let image: Image
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    private var fillColor = Color.black
    private var strokeColor = Color.black

    /// A context drawing into `image`, with `scale` pixels per point.
    public init(image: Image, scale: CGFloat = 1) throws {
        self.image = image
        let data = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        let surface = cairo_image_surface_create_for_data(
            data, CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height), Int32(image.bytesPerRow))!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let reason = String(cString: cairo_status_to_string(cairo_surface_status(surface)))
            cairo_surface_destroy(surface)
            throw RenderError.failed("cairo could not wrap \(image): \(reason)")
        }
        self.surface = surface
        self.cr = cairo_create(surface)
        cairo_scale(cr, Double(scale), Double(scale))
    }

    deinit {
        flush()
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// Completes pending drawing and marks the image modified.
    public func flush() {
        cairo_surface_flush(surface)
        image.markModified()
    }

    // MARK: State

    public func saveGState() { cairo_save(cr) }
    public func restoreGState() { cairo_restore(cr) }
    public func translateBy(x: CGFloat, y: CGFloat) { cairo_translate(cr, Double(x), Double(y)) }
    public func scaleBy(x: CGFloat, y: CGFloat) { cairo_scale(cr, Double(x), Double(y)) }
    /// Rotates user space by `angle` radians (clockwise on the y-down screen for a positive angle).
    public func rotate(by angle: CGFloat) { cairo_rotate(cr, Double(angle)) }
    public func setFillColor(_ color: Color) { fillColor = color }
    public func setStrokeColor(_ color: Color) { strokeColor = color }
    public func setLineWidth(_ width: CGFloat) { cairo_set_line_width(cr, Double(width)) }

    // MARK: Paths

    public func beginPath() { cairo_new_path(cr) }
    public func move(to point: CGPoint) { cairo_move_to(cr, Double(point.x), Double(point.y)) }
    public func addLine(to point: CGPoint) { cairo_line_to(cr, Double(point.x), Double(point.y)) }
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        cairo_curve_to(
            cr, Double(control1.x), Double(control1.y), Double(control2.x), Double(control2.y), Double(end.x),
            Double(end.y))
    }
    public func closePath() { cairo_close_path(cr) }
    public func addRect(_ rect: CGRect) {
        cairo_rectangle(cr, Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height))
    }
    public func addEllipse(in rect: CGRect) {
        guard rect.width > 0, rect.height > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, Double(rect.midX), Double(rect.midY))
        cairo_scale(cr, Double(rect.width / 2), Double(rect.height / 2))
        cairo_new_sub_path(cr)
        cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
        cairo_restore(cr)
    }
    /// A rectangle with corners of radius `radius` (clamped to half the shorter side).
    public func addRoundedRect(in rect: CGRect, radius: CGFloat) {
        let r = Double(max(0, min(radius, min(rect.width, rect.height) / 2)))
        let (x0, y0, x1, y1) = (Double(rect.minX), Double(rect.minY), Double(rect.maxX), Double(rect.maxY))
        cairo_new_sub_path(cr)
        cairo_arc(cr, x1 - r, y0 + r, r, -.pi / 2, 0)
        cairo_arc(cr, x1 - r, y1 - r, r, 0, .pi / 2)
        cairo_arc(cr, x0 + r, y1 - r, r, .pi / 2, .pi)
        cairo_arc(cr, x0 + r, y0 + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }

    // MARK: Painting

    /// Fills the current path with the fill colour (non-zero winding) and clears it.
    public func fillPath() {
        setSource(fillColor)
        cairo_fill(cr)
    }

    /// Strokes the current path with the stroke colour and line width, and clears it.
    public func strokePath() {
        setSource(strokeColor)
        cairo_stroke(cr)
    }

    public func fill(_ rect: CGRect) {
        beginPath()
        addRect(rect)
        fillPath()
    }

    public func fillEllipse(in rect: CGRect) {
        beginPath()
        addEllipse(in: rect)
        fillPath()
    }

    public func stroke(_ rect: CGRect) {
        beginPath()
        addRect(rect)
        strokePath()
    }

    public func strokeEllipse(in rect: CGRect) {
        beginPath()
        addEllipse(in: rect)
        strokePath()
    }

    /// Fills `rect` with a vertical gradient from `top` to `bottom`.
    public func fillVerticalGradient(_ rect: CGRect, top: Color, bottom: Color) {
        let pattern = cairo_pattern_create_linear(0, Double(rect.minY), 0, Double(rect.maxY))!
        defer { cairo_pattern_destroy(pattern) }
        cairo_pattern_add_color_stop_rgba(pattern, 0, top.red, top.green, top.blue, top.alpha)
        cairo_pattern_add_color_stop_rgba(pattern, 1, bottom.red, bottom.green, bottom.blue, bottom.alpha)
        beginPath()
        addRect(rect)
        cairo_set_source(cr, pattern)
        cairo_fill(cr)
    }

    /// Draws `text` with its baseline starting at `point`, in the fill colour (cairo's simple text).
    public func showText(_ text: String, at point: CGPoint, fontSize: CGFloat, family: String = "sans-serif",
                         bold: Bool = false) {
        setSource(fillColor)
        cairo_select_font_face(
            cr, family, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, Double(fontSize))
        cairo_move_to(cr, Double(point.x), Double(point.y))
        cairo_show_text(cr, text)
        cairo_new_path(cr)
    }

    /// The advance width of `text` in points.
    public func textWidth(_ text: String, fontSize: CGFloat, family: String = "sans-serif", bold: Bool = false)
        -> CGFloat
    {
        cairo_select_font_face(
            cr, family, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, Double(fontSize))
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return CGFloat(extents.x_advance)
    }

    private func setSource(_ c: Color) { cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha) }
}
