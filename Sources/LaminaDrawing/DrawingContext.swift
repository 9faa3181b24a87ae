import CCairo
import Foundation
import LaminaCore

/// A Core Graphics-like drawing context on cairo that draws straight into an Image's memory (cairo's
/// ARGB32 is Lamina's premultiplied BGRA, so nothing is copied). Method names follow CGContext's Swift names,
/// so Core Graphics drawing code ports by changing types (CGContext -> DrawingContext, CGColor -> Color,
/// CGLineCap -> LineCap...).
///
/// A context on an Image (a layer's `draw(in:)`): user space is y-down points, `scale` pixels each. A bitmap
/// context (`init?(bitmap:)`, CoreGraphics' `CGContext(data:width:...)`) is Core Graphics' instead: pixels, y up,
/// the caller's memory kept in step after every drawing call (DrawingContext+CoreGraphics.swift). Angles are radians; `addArc`'s `clockwise` has CGContext's
/// meaning (with `clockwise: false` the angle increases, which on a y-down screen turns clockwise, as in a
/// flipped UIKit context). Call `flush()` (or let the context go) before the image is rendered, so that cairo's
/// writes are complete and texture caches see the change.
public final class DrawingContext {
    /// The image drawn into.
    public let image: Image
    /// The caller's pixel memory of a bitmap context (`init?(bitmap:)`), kept in step with `image` after every
    /// drawing call; nil for a context on an Image.
    public let bitmap: BitmapMemory?
    /// The transform from pixels to the context's base space: identity for a context on an Image, the flip to
    /// y-up for a bitmap context (its `ctm` is reported relative to that y-up base, as Core Graphics reports it).
    let base: CGAffineTransform
    /// True for bitmap contexts: `draw(_:in:)` puts an image's first row at the rectangle's maxY, as
    /// CGContextDrawImage does in Core Graphics' y-up space. False for a context on an Image (a layer's
    /// `draw(in:)`), where user space is y-down and the first row goes at minY so that the image appears upright.
    public let drawsImagesBottomUp: Bool
    let surface: OpaquePointer
    /// The cairo context: internal for the extensions that draw with it (DrawingContext+Extents.swift,
    /// DrawingContext+Text.swift).
    let cr: OpaquePointer

    /// The graphics state kept besides cairo's (saved and restored with it).
    struct State {
        var fillColor = Color.black
        var strokeColor = Color.black
        /// CGContext's setAlpha: multiplies everything drawn.
        var alpha = 1.0
        var shouldAntialias = true
        var allowsAntialiasing = true
        /// cairo's filter for images (CGInterpolationQuality's effect).
        var filter = CAIRO_FILTER_BILINEAR
        var textMatrix = CGAffineTransform.identity
    }
    var state = State()
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
        bitmap = nil
        base = .identity
        drawsImagesBottomUp = false
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

    /// A bitmap context drawing into `bitmap`'s memory (Core Graphics' bitmap context): user space is pixels with the
    /// origin at the bottom-left and y up, so the first row in memory is at user y = height. cairo draws into an
    /// Image of the same size, loaded from the memory at the start; after every drawing call the pixels it may have
    /// changed are converted into the memory. Nil when the image cannot be had (`PixelLimits.default`).
    public init?(bitmap: BitmapMemory) {
        guard let image = try? Image(width: bitmap.width, height: bitmap.height) else { return nil }
        bitmap.load(into: image, box: (0, 0, bitmap.width, bitmap.height))
        let data = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        guard let surface = cairo_image_surface_create_for_data(
            data, CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height), Int32(image.bytesPerRow)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { return nil }
        self.image = image
        self.bitmap = bitmap
        self.surface = surface
        self.cr = cairo_create(surface)
        base = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(bitmap.height))
        drawsImagesBottomUp = true
        cairo_translate(cr, 0, Double(bitmap.height))
        cairo_scale(cr, 1, -1)
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

    /// The current user-space-to-device transform (CGContext's ctm): to pixels for a context on an Image; for a
    /// bitmap context to its y-up base space (identity when nothing was transformed, as in Core Graphics).
    public var ctm: CGAffineTransform {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let pixels = CGAffineTransform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
        return base.isIdentity ? pixels : pixels.concatenating(base.inverted())
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
        drawing(fillExtents) { cairo_fill(cr) }
    }

    /// Strokes the current path with the stroke colour, line width, cap, join and dash, and clears the path.
    public func strokePath() {
        setSource(state.strokeColor)
        drawing(strokeExtents) { cairo_stroke(cr) }
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

    // MARK: Private

    func setFillRule(_ rule: FillRule) {
        cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    }

    /// Makes `c` the source, its alpha multiplied by the context's (setAlpha).
    func setSource(_ c: Color) { cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * state.alpha) }
}
