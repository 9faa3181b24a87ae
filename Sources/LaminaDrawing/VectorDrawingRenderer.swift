import CCairo
import Foundation
import LaminaCore

/// A part of a vector drawing's picture being drawn: an image covering the pixels `x0..<x0+width`, `y0..<y0+height`
/// of the whole picture's grid, with a cairo context on it.
final class VectorCanvas {
    let image: Image
    let context: DrawingContext
    let x0: Int
    let y0: Int
    var cr: OpaquePointer { context.cr }
    var surface: OpaquePointer { context.surface }

    init(image: Image, x0: Int, y0: Int) throws {
        self.image = image
        context = try DrawingContext(image: image)
        self.x0 = x0
        self.y0 = y0
    }

    /// Makes `transform` (item space to the whole picture's pixels) the cairo matrix, shifted to this canvas; false
    /// when it cannot be used (not finite or not invertible), and then nothing is to be drawn under it.
    func use(_ transform: CGAffineTransform) -> Bool {
        guard transform.isUsable else { return false }
        var m = cairo_matrix_t(xx: Double(transform.a), yx: Double(transform.b), xy: Double(transform.c),
                               yy: Double(transform.d), x0: Double(transform.tx) - Double(x0),
                               y0: Double(transform.ty) - Double(y0))
        cairo_set_matrix(cr, &m)
        return true
    }

    func finish() { context.flush() }

    /// Tells cairo and the image's caches that the pixels were changed in memory.
    func touched() {
        cairo_surface_mark_dirty(surface)
        image.markModified()
    }

    /// Premultiplied BGRA bytes, row by row (no padding: bytesPerRow is width x 4).
    var pixels: UnsafeMutablePointer<UInt8> { image.baseAddress.assumingMemoryBound(to: UInt8.self) }
    var count: Int { image.width * image.height }
}

/// Draws vector drawings with cairo (docs/semantics.md, "Vector drawings"): items straight onto the canvas, groups
/// that need it into canvases of their own, post-processed in memory and composited with their operator.
final class VectorDrawingRenderer {
    let limits: PixelLimits
    /// Pixels of the canvases alive now (the picture's and its groups').
    private var livePixels = 0

    init(limits: PixelLimits) {
        self.limits = limits
    }

    /// A transparent canvas over the picture's pixels x0..<x1, y0..<y1.
    func canvas(x0: Int, y0: Int, x1: Int, y1: Int) throws -> VectorCanvas {
        let (w, h) = (max(x1 - x0, 1), max(y1 - y0, 1))
        guard livePixels + w * h <= VectorDrawing.mostScratchPixels + limits.maxPixels else {
            throw VectorDrawingError.tooManyGroupPixels(limit: VectorDrawing.mostScratchPixels)
        }
        let image = try Image(width: w, height: h, limits: limits)
        livePixels += w * h
        return try VectorCanvas(image: image, x0: x0, y0: y0)
    }

    /// Gives back a canvas's pixels to the budget.
    private func release(_ canvas: VectorCanvas) {
        livePixels -= canvas.count
    }

    /// Draws `drawing` (items, then its alpha mode) onto `canvas`, which is transparent; `transform` maps the
    /// drawing's space to the picture's pixels.
    func draw(_ drawing: VectorDrawing, on canvas: VectorCanvas, transform: CGAffineTransform, depth: Int) throws {
        try draw(drawing.items, on: canvas, transform: transform, depth: depth)
        canvas.finish()
        switch drawing.alpha {
        case .normal: return
        case .luminance: VectorEffects.luminanceToAlpha(canvas)
        case .inverted, .invertedLuminance:
            if drawing.alpha == .invertedLuminance { VectorEffects.luminanceToAlpha(canvas) }
            // 1 - alpha over the extent (else over what the items paint): the extent's coverage, drawn apart.
            let area = drawing.extent.map { VectorDrawing.finite($0.standardized) }
                ?? VectorDrawing.bounds(of: drawing.items, depth: depth, measure: BoundsMeasure())
            let cover = try self.canvas(x0: canvas.x0, y0: canvas.y0, x1: canvas.x0 + canvas.image.width,
                                        y1: canvas.y0 + canvas.image.height)
            defer { release(cover) }
            if !area.isNull, cover.use(transform), Self.fits(area, transform) {
                cairo_rectangle(cover.cr, Double(area.minX), Double(area.minY), Double(area.width),
                                Double(area.height))
                cairo_set_source_rgba(cover.cr, 1, 1, 1, 1)
                cairo_fill(cover.cr)
            }
            cover.finish()
            VectorEffects.invert(canvas, within: cover)
        }
        canvas.finish()
    }

    /// Whether `rect` mapped by `transform` stays within cairo's range.
    static func fits(_ rect: CGRect, _ transform: CGAffineTransform) -> Bool {
        let box = rect.applying(transform)
        let r = VectorDrawing.cairoRange
        return !box.isNull && box.minX > -r && box.minY > -r && box.maxX < r && box.maxY < r
    }

    func draw(_ items: [VectorDrawing.Item], on canvas: VectorCanvas, transform: CGAffineTransform, depth: Int)
        throws
    {
        guard depth <= VectorDrawing.mostDepth else { throw VectorDrawingError.tooDeep(limit: VectorDrawing.mostDepth) }
        let cr = canvas.cr
        for item in items {
            switch item {
            case .fill(let path, let paint, let rule):
                guard paint.paints else { continue }
                let path = path.finiteElements
                guard !path.isEmpty, Self.fits(path.boundingBox, transform), canvas.use(transform) else { continue }
                canvas.context.beginPath()
                canvas.context.addPath(path)
                cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                setSource(paint, cr)
                cairo_fill(cr)
            case .stroke(let path, let paint, let style):
                guard paint.paints, let width = style.usableWidth else { continue }
                let path = path.finiteElements
                let outset = width * max(style.usableMiterLimit, 1.5)
                guard !path.isEmpty, Self.fits(path.boundingBox.insetBy(dx: -outset, dy: -outset), transform),
                      canvas.use(transform) else { continue }
                canvas.context.setLineWidth(width)
                canvas.context.setLineCap(style.cap)
                canvas.context.setLineJoin(style.join)
                canvas.context.setMiterLimit(style.usableMiterLimit)
                Self.setDash(style, cr)
                canvas.context.beginPath()
                canvas.context.addPath(path)
                setSource(paint, cr)
                cairo_stroke(cr)
                cairo_set_dash(cr, nil, 0, 0)
            case .image(let drawn, let rect, let opacity):
                let rect = rect.standardized
                let image = drawn.image
                guard opacity > 0, image.width > 0, image.height > 0, rect.width > 0, rect.height > 0,
                      Self.fits(rect, transform), canvas.use(transform) else { continue }
                Self.drawImage(image, in: rect, opacity: min(opacity, 1), cr)
            case .text(let run):
                // Text far beyond cairo's coordinates (its origin or box) is not drawn.
                let box = CGRect(origin: run.origin, size: run.boxSize ?? .zero).insetBy(dx: -run.size * 4,
                                                                                      dy: -run.size * 4)
                guard run.size.isFinite, Self.fits(box, transform), canvas.use(transform) else { continue }
                VectorText.draw(run, on: cr)
            case .group(let group):
                try draw(group, on: canvas, transform: transform, depth: depth + 1)
            }
        }
    }

    /// Makes `paint` cairo's source (in the current user space).
    private func setSource(_ paint: VectorDrawing.Paint, _ cr: OpaquePointer) {
        switch paint {
        case .color(let c):
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
        case .linear(let stops, let start, let end, let opacity):
            guard [start.x, start.y, end.x, end.y].allSatisfy(\.isFinite),
                  let pattern = cairo_pattern_create_linear(Double(start.x), Double(start.y), Double(end.x),
                                                            Double(end.y)) else {
                cairo_set_source_rgba(cr, 0, 0, 0, 0)
                return
            }
            Self.addStops(stops, opacity: opacity, to: pattern)
            cairo_set_source(cr, pattern)
            cairo_pattern_destroy(pattern)
        case .radial(let stops, let center, let end, let highlight, let angle, let opacity):
            let focal = Self.focalPoint(center: center, end: end, highlight: highlight, angle: angle)
            let radius = hypot(end.x - center.x, end.y - center.y)
            guard [center.x, center.y, focal.x, focal.y, radius].allSatisfy(\.isFinite),
                  let pattern = cairo_pattern_create_radial(Double(focal.x), Double(focal.y), 0, Double(center.x),
                                                            Double(center.y), Double(radius)) else {
                cairo_set_source_rgba(cr, 0, 0, 0, 0)
                return
            }
            Self.addStops(stops, opacity: opacity, to: pattern)
            cairo_set_source(cr, pattern)
            cairo_pattern_destroy(pattern)
        }
    }

    /// The focal point of a radial gradient with Lottie's highlight, as lottie-web places it: `highlight` clamped
    /// to -0.99...0.99, times the radius, at the angle of end - center plus `angle` degrees.
    static func focalPoint(center: CGPoint, end: CGPoint, highlight: Double, angle: Double) -> CGPoint {
        let radius = hypot(end.x - center.x, end.y - center.y)
        let h = highlight.isFinite ? min(max(highlight, -0.99), 0.99) : 0
        guard h != 0, radius > 0, angle.isFinite else { return center }
        let theta = atan2(Double(end.y - center.y), Double(end.x - center.x)) + angle * .pi / 180
        return CGPoint(x: center.x + CGFloat(h * Double(radius) * cos(theta)),
                       y: center.y + CGFloat(h * Double(radius) * sin(theta)))
    }

    private static func addStops(_ stops: [VectorDrawing.GradientStop], opacity: Double, to pattern: OpaquePointer) {
        let opacity = opacity.isFinite ? min(max(opacity, 0), 1) : 0
        for stop in stops.prefix(4096) {
            let offset = stop.offset.isFinite ? min(max(stop.offset, 0), 1) : 0
            let c = stop.color
            cairo_pattern_add_color_stop_rgba(pattern, offset, c.red, c.green, c.blue, c.alpha * opacity)
        }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    }

    /// cairo's dash for `style`: nil, empty, negative, non-finite or zero-length patterns, and patterns that would
    /// cut a long stroke into too many dashes, stroke solid.
    private static func setDash(_ style: VectorDrawing.StrokeStyle, _ cr: OpaquePointer) {
        guard let dashes = style.dashes, !dashes.isEmpty, dashes.count <= 1024,
              dashes.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            cairo_set_dash(cr, nil, 0, 0)
            return
        }
        // A period shorter than a hundredth of a pixel would make millions of dashes: solid.
        var unit = 1.0, y = 0.0
        cairo_user_to_device_distance(cr, &unit, &y)
        let period = dashes.reduce(0, +) * (dashes.count % 2 == 1 ? 2 : 1)
        guard period * max(abs(unit), 1e-9) > 0.01 else {
            cairo_set_dash(cr, nil, 0, 0)
            return
        }
        let phase = style.dashPhase.isFinite ? style.dashPhase.truncatingRemainder(dividingBy: period) : 0
        dashes.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), phase) }
    }

    private static func drawImage(_ image: Image, in rect: CGRect, opacity: Double, _ cr: OpaquePointer) {
        let data = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        guard let source = cairo_image_surface_create_for_data(
            data, CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height), Int32(image.bytesPerRow))
        else { return }
        defer { cairo_surface_destroy(source) }
        cairo_save(cr)
        cairo_rectangle(cr, Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height))
        cairo_clip(cr)
        cairo_translate(cr, Double(rect.minX), Double(rect.minY))
        cairo_scale(cr, Double(rect.width) / Double(image.width), Double(rect.height) / Double(image.height))
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_paint_with_alpha(cr, opacity)
        cairo_restore(cr)
    }

    /// A group: straight onto the canvas when it is plain, else into a canvas of its own that is filtered,
    /// blurred, shadowed, masked and faded, then composited with its operator.
    private func draw(_ group: VectorDrawing.Group, on canvas: VectorCanvas, transform: CGAffineTransform,
                      depth: Int) throws {
        guard depth <= VectorDrawing.mostDepth else { throw VectorDrawingError.tooDeep(limit: VectorDrawing.mostDepth) }
        let inner = group.transform.concatenating(transform)
        let opacity = group.opacity.isFinite ? min(max(group.opacity, 0), 1) : 0
        let blur = group.blur.isFinite && group.blur > 0 ? group.blur : 0
        let plain = opacity == 1 && group.operator == .over && group.mask == nil && group.colorFilter == nil
            && blur == 0 && group.shadow == nil
        // A faded group of one fill, stroke or image needs no canvas of its own: its paint takes the opacity
        // (the same pixels: nothing inside it overlaps).
        if !plain, opacity > 0, group.operator == .over, group.mask == nil, group.colorFilter == nil, blur == 0,
           group.shadow == nil, group.transform.isUsable, let faded = Self.faded(group.items, by: opacity) {
            try draw(faded, on: canvas, transform: inner, depth: depth)
            return
        }
        if plain {
            guard group.transform.isUsable else { return }
            try draw(group.items, on: canvas, transform: inner, depth: depth)
            return
        }
        // The pixels the group can touch, on this canvas.
        let area = VectorDrawing.bounds(of: .group(group), depth: depth, measure: BoundsMeasure())
        var box: (x0: Int, y0: Int, x1: Int, y1: Int)?
        if !area.isNull {
            let pixels = area.applying(transform)
            let x0 = max(Int(max(pixels.minX.rounded(.down), -1e9)), canvas.x0)
            let y0 = max(Int(max(pixels.minY.rounded(.down), -1e9)), canvas.y0)
            let x1 = min(Int(min(pixels.maxX.rounded(.up), 1e9)), canvas.x0 + canvas.image.width)
            let y1 = min(Int(min(pixels.maxY.rounded(.up), 1e9)), canvas.y0 + canvas.image.height)
            if x1 > x0, y1 > y0 { box = (x0, y0, x1, y1) }
        }
        guard let box, opacity > 0 else {
            // Nothing painted: only an operator that clears where the group is empty has an effect.
            if group.operator.isUnboundedClear {
                cairo_save(canvas.cr)
                cairo_set_operator(canvas.cr, CAIRO_OPERATOR_CLEAR)
                cairo_paint(canvas.cr)
                cairo_restore(canvas.cr)
            }
            return
        }
        let layer = try self.canvas(x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1)
        defer { release(layer) }
        if group.transform.isUsable { try draw(group.items, on: layer, transform: inner, depth: depth) }
        layer.finish()
        if let filter = group.colorFilter { VectorEffects.apply(filter, to: layer) }
        let scale = sqrt(abs(transform.a * transform.d - transform.b * transform.c))
        if blur > 0 { VectorEffects.blur(layer, sigma: Double(blur * scale)) }
        if let shadow = group.shadow, shadow.color.alpha > 0, shadow.offset.width.isFinite,
           shadow.offset.height.isFinite {
            let dx = shadow.offset.width * transform.a + shadow.offset.height * transform.c
            let dy = shadow.offset.width * transform.b + shadow.offset.height * transform.d
            let sigma = shadow.blur.isFinite && shadow.blur > 0 ? Double(shadow.blur * scale) : 0
            let under = try self.canvas(x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1)
            defer { release(under) }
            VectorEffects.shadow(of: layer, into: under, color: shadow.color, dx: Double(dx), dy: Double(dy),
                                 sigma: sigma)
        }
        var matte: VectorCanvas?
        if let mask = group.mask {
            let made = try self.canvas(x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1)
            matte = made
            try draw(mask, on: made, transform: transform, depth: depth)
            if opacity < 1 { VectorEffects.fade(made, by: opacity) }
            made.finish()
        }
        defer { if let matte { release(matte) } }
        layer.finish()
        // cairo composites (source IN mask) OP destination over the whole canvas: the group times its mask and
        // opacity, then the operator (destination-in clears where that is clear).
        let cr = canvas.cr
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, layer.surface, Double(layer.x0 - canvas.x0), Double(layer.y0 - canvas.y0))
        cairo_set_operator(cr, group.operator.cairo)
        if let matte {
            cairo_mask_surface(cr, matte.surface, Double(matte.x0 - canvas.x0), Double(matte.y0 - canvas.y0))
        } else if opacity < 1 {
            cairo_paint_with_alpha(cr, opacity)
        } else {
            cairo_paint(cr)
        }
        cairo_restore(cr)
    }
}

extension VectorDrawingRenderer {
    /// `items` with `opacity` folded into their paint, when they are one fill, stroke or image (inside groups
    /// that only move or fade it); nil otherwise.
    static func faded(_ items: [VectorDrawing.Item], by opacity: Double) -> [VectorDrawing.Item]? {
        guard items.count == 1 else { return nil }
        switch items[0] {
        case .fill(let path, let paint, let rule): return [.fill(path, paint.faded(by: opacity), rule)]
        case .stroke(let path, let paint, let style): return [.stroke(path, paint.faded(by: opacity), style)]
        case .image(let image, let rect, let alpha): return [.image(image, rect: rect, opacity: alpha * opacity)]
        case .group(let inner):
            let innerOpacity = inner.opacity.isFinite ? min(max(inner.opacity, 0), 1) : 0
            guard inner.operator == .over, inner.mask == nil, inner.colorFilter == nil,
                  !(inner.blur.isFinite && inner.blur > 0), inner.shadow == nil,
                  let items = faded(inner.items, by: opacity * innerOpacity) else { return nil }
            return [.group(VectorDrawing.Group(items: items, transform: inner.transform))]
        case .text: return nil
        }
    }
}

extension VectorDrawing.Paint {
    /// The paint at `factor` times its opacity.
    func faded(by factor: Double) -> VectorDrawing.Paint {
        switch self {
        case .color(var c):
            c.alpha *= factor
            return .color(c)
        case .linear(let stops, let start, let end, let opacity):
            return .linear(stops: stops, start: start, end: end, opacity: opacity * factor)
        case .radial(let stops, let center, let end, let highlight, let angle, let opacity):
            return .radial(stops: stops, center: center, end: end, highlight: highlight, angle: angle,
                           opacity: opacity * factor)
        }
    }
}

extension VectorDrawing.Operator {
    var cairo: cairo_operator_t {
        switch self {
        case .over: CAIRO_OPERATOR_OVER
        case .destinationOut: CAIRO_OPERATOR_DEST_OUT
        case .destinationIn: CAIRO_OPERATOR_DEST_IN
        case .xor: CAIRO_OPERATOR_XOR
        case .lighten: CAIRO_OPERATOR_LIGHTEN
        case .darken: CAIRO_OPERATOR_DARKEN
        case .difference: CAIRO_OPERATOR_DIFFERENCE
        case .add: CAIRO_OPERATOR_ADD
        case .multiply: CAIRO_OPERATOR_MULTIPLY
        case .screen: CAIRO_OPERATOR_SCREEN
        case .overlay: CAIRO_OPERATOR_OVERLAY
        case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
        case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
        case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
        case .exclusion: CAIRO_OPERATOR_EXCLUSION
        case .hue: CAIRO_OPERATOR_HSL_HUE
        case .saturation: CAIRO_OPERATOR_HSL_SATURATION
        case .color: CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: CAIRO_OPERATOR_HSL_LUMINOSITY
        }
    }
}
