import CCairo
import Foundation
import LaminaCore

/// A Core Graphics-like drawing context on cairo that draws straight into an Image's memory (cairo's
/// ARGB32 is Lamina's premultiplied BGRA, so nothing is copied). Method names follow CGContext's Swift names,
/// so Core Graphics drawing code ports by changing types (CGContext -> DrawingContext, CGColor -> Color,
/// CGLineCap -> LineCap...).
///
/// User space is y-down points, `scale` pixels each. Angles are radians; `addArc`'s `clockwise` has CGContext's
/// meaning (with `clockwise: false` the angle increases, which on a y-down screen turns clockwise, as in a
/// flipped UIKit context). Call `flush()` (or let the context go) before the image is rendered, so that cairo's
/// writes are complete and texture caches see the change.
public final class DrawingContext {
    /// The image drawn into.
    public let image: Image
    private let surface: OpaquePointer
    /// The cairo context: internal for the extensions that draw with it (DrawingContext+Extents.swift,
    /// DrawingContext+Text.swift).
    let cr: OpaquePointer

    private struct State {
        var fillColor = Color.black
        var strokeColor = Color.black
    }
    private var state = State()
    private var saved: [State] = []

    /// nil, or why something asked of this context was not drawn (the first such thing): an arc or ellipse whose
    /// radius on the image is beyond the range cairo draws. `Layer.displayIntoBackingImage` turns it into the
    /// layer's named drawing error.
    public private(set) var failure: String?

    /// The largest radius on the image, in pixels, that an arc may have: cairo's coordinates are 24.8 fixed point,
    /// and it flattens an arc into segments whose number grows with the radius (an ellipse 1e300 points wide took
    /// minutes).
    public static let largestArcRadius: Double = 8_388_608

    /// True when a circle of radii `rx`, `ry` in user space fits `largestArcRadius` on the image; otherwise records
    /// the failure.
    private func arcFits(_ rx: Double, _ ry: Double, what: String) -> Bool {
        var (ax, ay, bx, by) = (rx, 0.0, 0.0, ry)
        cairo_user_to_device_distance(cr, &ax, &ay)
        cairo_user_to_device_distance(cr, &bx, &by)
        let radius = max(hypot(ax, ay), hypot(bx, by))
        guard radius.isFinite, radius <= Self.largestArcRadius else {
            if failure == nil {
                failure = String(format: "%@ of radius %g pixels is beyond the largest drawable radius (%.0f pixels)",
                                 what, radius, Self.largestArcRadius)
            }
            return false
        }
        return true
    }

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

    /// Nil while drawing works; otherwise cairo's reason (for example, an invalid matrix from scaleBy(x: 0, ...)).
    public var error: String? {
        let status = cairo_status(cr)
        return status == CAIRO_STATUS_SUCCESS ? nil : String(cString: cairo_status_to_string(status))
    }

    // MARK: Graphics state

    public func saveGState() {
        cairo_save(cr)
        saved.append(state)
    }

    public func restoreGState() {
        guard let last = saved.popLast() else { return }
        cairo_restore(cr)
        state = last
    }

    public func translateBy(x: CGFloat, y: CGFloat) { cairo_translate(cr, Double(x), Double(y)) }
    public func scaleBy(x: CGFloat, y: CGFloat) { cairo_scale(cr, Double(x), Double(y)) }
    /// Rotates user space by `angle` radians (clockwise on the y-down screen for a positive angle).
    public func rotate(by angle: CGFloat) { cairo_rotate(cr, Double(angle)) }
    /// Applies `transform` to user space before the current transform (CGContext's concatenate).
    public func concatenate(_ transform: CGAffineTransform) {
        var matrix = cairo_matrix_t(
            xx: Double(transform.a), yx: Double(transform.b), xy: Double(transform.c), yy: Double(transform.d),
            x0: Double(transform.tx), y0: Double(transform.ty))
        cairo_transform(cr, &matrix)
    }

    /// The current user-space-to-pixel transform (CGContext's ctm).
    public var ctm: CGAffineTransform {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        return CGAffineTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
    }

    public func setFillColor(_ color: Color) { state.fillColor = color }
    public func setStrokeColor(_ color: Color) { state.strokeColor = color }
    public func setLineWidth(_ width: CGFloat) { cairo_set_line_width(cr, Double(max(0, width))) }
    public func setMiterLimit(_ limit: CGFloat) { cairo_set_miter_limit(cr, Double(limit)) }

    public func setLineCap(_ cap: LineCap) {
        switch cap {
        case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
        }
    }

    public func setLineJoin(_ join: LineJoin) {
        switch join {
        case .miter: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
        }
    }

    /// Dashes of alternating on and off lengths, starting `phase` points into the pattern; no lengths: solid.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        let dashes = lengths.map { Double($0) }
        cairo_set_dash(cr, dashes, Int32(dashes.count), Double(phase))
    }

    // MARK: Paths

    public func beginPath() { cairo_new_path(cr) }
    public func move(to point: CGPoint) { cairo_move_to(cr, Double(point.x), Double(point.y)) }

    public func addLine(to point: CGPoint) {
        if cairo_has_current_point(cr) == 0 { move(to: point) } else { cairo_line_to(cr, Double(point.x), Double(point.y)) }
    }

    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        if cairo_has_current_point(cr) == 0 { move(to: control1) }
        cairo_curve_to(cr, Double(control1.x), Double(control1.y), Double(control2.x), Double(control2.y),
                       Double(end.x), Double(end.y))
    }

    /// A quadratic Bézier from the current point (cairo draws it as the equivalent cubic).
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        if cairo_has_current_point(cr) == 0 { move(to: control) }
        var x0 = 0.0, y0 = 0.0
        cairo_get_current_point(cr, &x0, &y0)
        let (cx, cy, x, y) = (Double(control.x), Double(control.y), Double(end.x), Double(end.y))
        cairo_curve_to(cr, x0 + 2 / 3 * (cx - x0), y0 + 2 / 3 * (cy - y0), x + 2 / 3 * (cx - x), y + 2 / 3 * (cy - y), x, y)
    }

    /// An arc of a circle, joined to the current point by a line as in CGContext.
    /// Angles of any size are accepted: see `DrawingContext.arcAngles`.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        let (x, y, r) = (Double(center.x), Double(center.y), Double(max(0, radius)))
        guard x.isFinite, y.isFinite, r.isFinite, arcFits(r, r, what: "an arc"),
            let (a0, a1) = Self.arcAngles(start: Double(startAngle), end: Double(endAngle), clockwise: clockwise)
        else { return }
        if clockwise {
            cairo_arc_negative(cr, x, y, r, a0, a1)
        } else {
            cairo_arc(cr, x, y, r, a0, a1)
        }
    }

    /// The angles cairo is given for an arc: the same circle and end point, with the sweep in the arc's direction
    /// reduced to less than two turns (more only retraces the circle) and a start beyond a million radians reduced
    /// to one turn. cairo steps an arc turn by turn (and, for an end on the wrong side, adds a turn until it passes
    /// the start), so a sweep of 1e9 radians took it tens of seconds and 1e300 forever. Nil when an angle is not
    /// finite.
    public static func arcAngles(start: Double, end: Double, clockwise: Bool) -> (Double, Double)? {
        guard start.isFinite, end.isFinite else { return nil }
        let turn = 2 * Double.pi
        let a0 = abs(start) > 1e6 ? start.truncatingRemainder(dividingBy: turn) : start
        // The sweep in the arc's direction (positive), as cairo would find it, without overflow.
        var sweep = clockwise ? start / 2 - end / 2 : end / 2 - start / 2
        sweep = sweep.isFinite ? 2 * sweep : .greatestFiniteMagnitude
        if a0 == start, sweep >= 0, sweep <= 2 * turn { return (start, end) }
        if sweep < 0 {
            // cairo adds turns to the end until it passes the start: the remainder, in [0, one turn).
            sweep = sweep.truncatingRemainder(dividingBy: turn)
            if sweep < 0 { sweep += turn }
        } else if sweep > 2 * turn || !sweep.isFinite {
            sweep = turn + sweep.truncatingRemainder(dividingBy: turn)
        }
        return (a0, clockwise ? a0 - sweep : a0 + sweep)
    }

    public func closePath() { cairo_close_path(cr) }

    public func addRect(_ rect: CGRect) {
        let r = rect.standardized
        cairo_rectangle(cr, Double(r.minX), Double(r.minY), Double(r.width), Double(r.height))
    }

    public func addEllipse(in rect: CGRect) {
        let r = rect.standardized
        guard r.width > 0, r.height > 0, arcFits(Double(r.width / 2), Double(r.height / 2), what: "an ellipse")
        else { return }
        cairo_save(cr)
        cairo_translate(cr, Double(r.midX), Double(r.midY))
        cairo_scale(cr, Double(r.width / 2), Double(r.height / 2))
        cairo_new_sub_path(cr)
        cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
        cairo_close_path(cr)
        cairo_restore(cr)
    }

    /// A rectangle with corners of radius `radius` (clamped to half the shorter side).
    public func addRoundedRect(in rect: CGRect, radius: CGFloat) {
        let rect = rect.standardized
        let r = Double(max(0, min(radius, min(rect.width, rect.height) / 2)))
        guard arcFits(r, r, what: "a rounded corner") else { return }
        let (x0, y0, x1, y1) = (Double(rect.minX), Double(rect.minY), Double(rect.maxX), Double(rect.maxY))
        cairo_new_sub_path(cr)
        cairo_arc(cr, x1 - r, y0 + r, r, -.pi / 2, 0)
        cairo_arc(cr, x1 - r, y1 - r, r, 0, .pi / 2)
        cairo_arc(cr, x0 + r, y1 - r, r, .pi / 2, .pi)
        cairo_arc(cr, x0 + r, y0 + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }

    /// The rounded rectangle of CGPath's `addRoundedRect(in:cornerWidth:cornerHeight:)` with equal radii.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat) {
        addRoundedRect(in: rect, radius: min(cornerWidth, cornerHeight))
    }

    // MARK: Painting

    /// Fills the current path with the fill colour and clears the path.
    public func fillPath(using rule: FillRule = .winding) {
        setFillRule(rule)
        setSource(state.fillColor)
        cairo_fill(cr)
    }

    /// Strokes the current path with the stroke colour, line width, cap, join and dash, and clears the path.
    public func strokePath() {
        setSource(state.strokeColor)
        cairo_stroke(cr)
    }

    /// Intersects the clip with the current path and clears the path.
    public func clip(using rule: FillRule = .winding) {
        setFillRule(rule)
        cairo_clip(cr)
    }

    /// Intersects the clip with a rectangle.
    public func clip(to rect: CGRect) {
        beginPath()
        addRect(rect)
        clip()
    }

    public func fill(_ rect: CGRect) {
        beginPath()
        addRect(rect)
        fillPath()
    }

    public func stroke(_ rect: CGRect) {
        beginPath()
        addRect(rect)
        strokePath()
    }

    public func fillEllipse(in rect: CGRect) {
        beginPath()
        addEllipse(in: rect)
        fillPath()
    }

    public func strokeEllipse(in rect: CGRect) {
        beginPath()
        addEllipse(in: rect)
        strokePath()
    }

    /// Draws `image` scaled into `rect` (bilinear, edges clamped so the border does not fade).
    public func draw(_ image: Image, in rect: CGRect) {
        guard image.width > 0, image.height > 0, rect.width != 0, rect.height != 0 else { return }
        let data = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        guard let source = cairo_image_surface_create_for_data(
            data, CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height), Int32(image.bytesPerRow))
        else { return }
        defer { cairo_surface_destroy(source) }
        cairo_save(cr)
        cairo_translate(cr, Double(rect.minX), Double(rect.minY))
        cairo_scale(cr, Double(rect.width) / Double(image.width), Double(rect.height) / Double(image.height))
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
        cairo_fill(cr)
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
        cairo_show_text(cr, text)
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
        cairo_paint(cr)
    }

    private func setFillRule(_ rule: FillRule) {
        cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    }

    private func setSource(_ c: Color) { cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha) }
}
