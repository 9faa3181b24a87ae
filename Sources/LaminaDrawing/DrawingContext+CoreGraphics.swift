import CCairo
import Foundation
import LaminaCore

// The rest of CGContext's state and drawing API, with its Swift names (the `CoreGraphics` module makes
// DrawingContext Apple's CGContext). Every drawing call goes through `drawing(_:_:)`, which keeps a bitmap
// context's memory in step.
extension DrawingContext {
    /// Runs `body`, which draws within `userBox` (user space; nil: anywhere in the clip). For a bitmap context, the
    /// caller's pixels under the box are loaded into the image first and stored back after, so that what the caller
    /// wrote there in between is drawn over and what was drawn is in their memory on return.
    func drawing(_ userBox: CGRect?, _ body: () -> Void) {
        guard let bitmap else {
            body()
            return
        }
        let box = deviceBox(userBox)
        guard box.x0 < box.x1, box.y0 < box.y1 else {
            body()  // changes no pixel, but clears the path as it must
            return
        }
        cairo_surface_flush(surface)
        bitmap.load(into: image, box: box)
        cairo_surface_mark_dirty_rectangle(surface, Int32(box.x0), Int32(box.y0), Int32(box.x1 - box.x0),
                                           Int32(box.y1 - box.y0))
        body()
        cairo_surface_flush(surface)
        bitmap.store(from: image, box: box)
        image.markModified()
    }

    /// The pixels a drawing within `userBox` and the clip can change, one pixel of margin added for antialiasing;
    /// the whole picture when the box is not finite.
    private func deviceBox(_ userBox: CGRect?) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        var (cx0, cy0, cx1, cy1) = (0.0, 0.0, 0.0, 0.0)
        cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
        var box = CGRect(x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0)
        if let userBox { box = box.intersection(userBox) }
        guard !box.isNull else { return (0, 0, 0, 0) }
        var (minX, minY, maxX, maxY) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for (x, y) in [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)] {
            var (dx, dy) = (Double(x), Double(y))
            cairo_user_to_device(cr, &dx, &dy)
            (minX, minY, maxX, maxY) = (min(minX, dx), min(minY, dy), max(maxX, dx), max(maxY, dy))
        }
        let (w, h) = (Double(image.width), Double(image.height))
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return (0, 0, image.width, image.height) }
        func clamp(_ v: Double, _ limit: Double) -> Int { Int(min(max(v, 0), limit)) }
        return (clamp((minX - 1).rounded(.down), w), clamp((minY - 1).rounded(.down), h),
                clamp((maxX + 1).rounded(.up), w), clamp((maxY + 1).rounded(.up), h))
    }

    // MARK: State

    /// Multiplies the alpha of everything drawn afterwards by `alpha` (clamped to 0...1).
    public func setAlpha(_ alpha: CGFloat) { state.alpha = alpha.isNaN ? 1 : Double(min(max(alpha, 0), 1)) }

    /// How what is drawn afterwards combines with the pixels there (cairo's operators; `plusDarker` draws normally).
    public func setBlendMode(_ mode: BlendMode) {
        let op: cairo_operator_t
        switch mode {
        case .normal, .plusDarker: op = CAIRO_OPERATOR_OVER
        case .multiply: op = CAIRO_OPERATOR_MULTIPLY
        case .screen: op = CAIRO_OPERATOR_SCREEN
        case .overlay: op = CAIRO_OPERATOR_OVERLAY
        case .darken: op = CAIRO_OPERATOR_DARKEN
        case .lighten: op = CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: op = CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: op = CAIRO_OPERATOR_COLOR_BURN
        case .softLight: op = CAIRO_OPERATOR_SOFT_LIGHT
        case .hardLight: op = CAIRO_OPERATOR_HARD_LIGHT
        case .difference: op = CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: op = CAIRO_OPERATOR_EXCLUSION
        case .hue: op = CAIRO_OPERATOR_HSL_HUE
        case .saturation: op = CAIRO_OPERATOR_HSL_SATURATION
        case .color: op = CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: op = CAIRO_OPERATOR_HSL_LUMINOSITY
        case .clear: op = CAIRO_OPERATOR_CLEAR
        case .copy: op = CAIRO_OPERATOR_SOURCE
        case .sourceIn: op = CAIRO_OPERATOR_IN
        case .sourceOut: op = CAIRO_OPERATOR_OUT
        case .sourceAtop: op = CAIRO_OPERATOR_ATOP
        case .destinationOver: op = CAIRO_OPERATOR_DEST_OVER
        case .destinationIn: op = CAIRO_OPERATOR_DEST_IN
        case .destinationOut: op = CAIRO_OPERATOR_DEST_OUT
        case .destinationAtop: op = CAIRO_OPERATOR_DEST_ATOP
        case .xor: op = CAIRO_OPERATOR_XOR
        case .plusLighter: op = CAIRO_OPERATOR_ADD
        }
        cairo_set_operator(cr, op)
    }

    /// Whether shapes are antialiased (when `setAllowsAntialiasing` allows it); part of the graphics state.
    public func setShouldAntialias(_ shouldAntialias: Bool) {
        state.shouldAntialias = shouldAntialias
        applyAntialias()
    }

    /// Whether antialiasing may be used at all; not part of the graphics state in Core Graphics, here saved with it.
    public func setAllowsAntialiasing(_ allowsAntialiasing: Bool) {
        state.allowsAntialiasing = allowsAntialiasing
        applyAntialias()
    }

    private func applyAntialias() {
        let on = state.shouldAntialias && state.allowsAntialiasing
        cairo_set_antialias(cr, on ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
    }

    /// How scaled images are sampled by `draw(_:in:)`.
    public var interpolationQuality: InterpolationQuality {
        get {
            switch state.filter {
            case CAIRO_FILTER_NEAREST: return .none
            case CAIRO_FILTER_FAST: return .low
            case CAIRO_FILTER_BEST: return .high
            default: return .default
            }
        }
        set {
            switch newValue {
            case .none: state.filter = CAIRO_FILTER_NEAREST
            case .low: state.filter = CAIRO_FILTER_FAST
            case .high: state.filter = CAIRO_FILTER_BEST
            case .default, .medium: state.filter = CAIRO_FILTER_BILINEAR
            }
        }
    }

    /// The text matrix (kept for ported code; Lamina's text calls do not use it).
    public var textMatrix: CGAffineTransform {
        get { state.textMatrix }
        set { state.textMatrix = newValue }
    }

    /// Sets the fill colour from sRGB components.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setFillColor(Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha)))
    }

    /// Sets the fill colour to a grey.
    public func setFillColor(gray: CGFloat, alpha: CGFloat) {
        setFillColor(Color(white: Double(gray), alpha: Double(alpha)))
    }

    /// Sets the stroke colour from sRGB components.
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setStrokeColor(Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha)))
    }

    /// Sets the stroke colour to a grey.
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) {
        setStrokeColor(Color(white: Double(gray), alpha: Double(alpha)))
    }

    // MARK: Paths

    /// Lines through `points`: a move to the first, lines to the others.
    public func addLines(between points: [CGPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        for point in points.dropFirst() { addLine(to: point) }
    }

    /// A closed rectangle subpath for each of `rects`.
    public func addRects(_ rects: [CGRect]) { for rect in rects { addRect(rect) } }

    /// A line from the current point towards `tangent1End` and an arc of `radius` tangent to both the line from
    /// the current point to `tangent1End` and the line from there to `tangent2End` (CGContext's arcTo); a line to
    /// `tangent1End` when the three points are in a line or the radius is zero.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        guard cairo_has_current_point(cr) != 0 else {
            move(to: tangent1End)
            return
        }
        var (x0, y0) = (0.0, 0.0)
        cairo_get_current_point(cr, &x0, &y0)
        guard let arc = Path.tangentArc(from: CGPoint(x: x0, y: y0), tangent1End, tangent2End, radius: radius) else {
            addLine(to: tangent1End)
            return
        }
        addLine(to: arc.start)
        addArc(center: arc.center, radius: arc.radius, startAngle: arc.startAngle, endAngle: arc.endAngle,
               clockwise: arc.clockwise)
    }

    /// True when the current path has no elements.
    public var isPathEmpty: Bool {
        guard let path = cairo_copy_path(cr) else { return true }
        defer { cairo_path_destroy(path) }
        return path.pointee.num_data == 0
    }

    /// The current point in user space; .zero when there is none.
    public var currentPointOfPath: CGPoint {
        guard cairo_has_current_point(cr) != 0 else { return .zero }
        var (x, y) = (0.0, 0.0)
        cairo_get_current_point(cr, &x, &y)
        return CGPoint(x: x, y: y)
    }

    /// The box of the current path in user space, curves' control points not included; .null when it is empty.
    public var boundingBoxOfPath: CGRect {
        guard !isPathEmpty else { return .null }
        var (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0)
        cairo_path_extents(cr, &x0, &y0, &x1, &y1)
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The box of the clip in user space (the whole picture when nothing clips it).
    public var boundingBoxOfClipPath: CGRect {
        var (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0)
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Intersects the clip with the union of `rects`.
    public func clip(to rects: [CGRect]) {
        beginPath()
        addRects(rects)
        clip()
    }

    // MARK: Painting

    /// Paints the current path as `mode` says (the fill first), then clears it.
    public func drawPath(using mode: PathDrawingMode) {
        switch mode {
        case .fill: fillPath(using: .winding)
        case .eoFill: fillPath(using: .evenOdd)
        case .stroke: strokePath()
        case .fillStroke, .eoFillStroke:
            setFillRule(mode == .eoFillStroke ? .evenOdd : .winding)
            setSource(state.fillColor)
            drawing(fillExtents) { cairo_fill_preserve(cr) }
            strokePath()
        }
    }

    /// Fills the union of `rects` (non-zero winding).
    public func fill(_ rects: [CGRect]) {
        beginPath()
        addRects(rects)
        fillPath()
    }

    /// Strokes `rect` with line width `width` (the context's width is kept).
    public func stroke(_ rect: CGRect, width: CGFloat) {
        let old = cairo_get_line_width(cr)
        setLineWidth(width)
        stroke(rect)
        cairo_set_line_width(cr, old)
    }

    /// Makes `rect` transparent (within the clip).
    public func clear(_ rect: CGRect) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        beginPath()
        addRect(rect)
        drawing(fillExtents) { cairo_fill(cr) }
        cairo_restore(cr)
    }

    /// Fills the clip with copies of `image`, each the size of `rect`, one of them at `rect` (laid out as
    /// `draw(_:in:)` lays one out).
    public func draw(_ image: Image, in rect: CGRect, byTiling: Bool) {
        guard byTiling else {
            draw(image, in: rect)
            return
        }
        withImageSource(image, in: rect, bottomUp: drawsImagesBottomUp, extend: CAIRO_EXTEND_REPEAT) {
            drawing(nil) { cairo_paint_with_alpha(cr, state.alpha) }
        }
    }
}
