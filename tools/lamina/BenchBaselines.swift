import CCairo
import Foundation
import Lamina
import LaminaBench

/// The memcpy floor: the time to copy the bytes a frame must at least read and write, had compositing no
/// cost beyond moving them.
enum MemcpyFloor {
    /// Timed copies; the figure is their median.
    static let runs = 11
    /// The largest single copy: bigger than this machine's 32 MiB L3, so the floor runs at memory speed; a larger
    /// total is copied in pieces between the same two buffers.
    static let piece = 64 << 20

    /// The bytes counted: `FrameBytes` (per quad, the target pixels it covers written and the texels it samples
    /// read).
    static func bytes(for plan: RenderPlan) -> (read: Int, written: Int) {
        let bytes = FrameBytes(plan: plan)
        return (bytes.read, bytes.written)
    }

    static func measure(_ plan: RenderPlan, label: String) -> BaselineFigures {
        let (read, written) = bytes(for: plan)
        let total = read + written
        let size = min(total, piece)
        let source = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        let destination = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        defer {
            source.deallocate()
            destination.deallocate()
        }
        // Touch every page first, so that no run pays for page faults.
        memset(source, 1, size)
        memset(destination, 2, size)
        func copy() {
            var left = total
            while left > 0 {
                let n = min(left, size)
                memcpy(destination, source, n)
                left -= n
            }
        }
        copy()
        var times: [Double] = []
        let progress = Progress(label: label, total: runs)
        defer { progress.finish() }
        for run in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            copy()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            progress.update(run + 1)
        }
        var figures = BaselineFigures(frame: FrameStats(times), note: nil, skipped: nil)
        figures.bytesRead = read
        figures.bytesWritten = written
        return figures
    }
}

/// The plan's quads drawn with plain cairo calls into an image surface of the output's size: what a Linux
/// program without Lamina would write. The draw list is made once from the plan (geometry only); a frame is
/// the cairo calls.
final class CairoBaseline {
    static var version: String { String(cString: cairo_version_string()) }

    private enum Shape {
        case rect(CGRect)
        case polygon([CGPoint])
    }

    private enum Operation {
        /// An opaque colour over the whole target.
        case background(r: Double, g: Double, b: Double)
        case solid(Shape, r: Double, g: Double, b: Double, a: Double, antialias: cairo_antialias_t)
        /// A 1:1 image at a whole-pixel offset: set_source_surface(x, y), rectangle, fill.
        case translated(OpaquePointer, x: Double, y: Double, Shape, opacity: Double, antialias: cairo_antialias_t)
        /// A scaled or turned image: the source locked to the texel-to-target matrix, its clamp rectangle as a
        /// subsurface with EXTEND_PAD (so bilinear filtering cannot bleed in neighbouring cells), then the shape
        /// filled in target pixels.
        case transformed(
            OpaquePointer, matrix: cairo_matrix_t, origin: CGPoint, Shape, filter: cairo_filter_t, opacity: Double,
            antialias: cairo_antialias_t)
        /// An operation seen through a rounded shape (cornerRadius): clipped to its antialiased path.
        indirect case rounded(CoverageShape, Operation)
        /// A 1:1 image at a whole-pixel offset filling a rounded shape that is its own rectangle (a rounded
        /// sprite): set_source_surface(x, y), the rounded path, fill; what a cairo program would write, with no clip.
        case roundedImage(CoverageShape, OpaquePointer, x: Double, y: Double, opacity: Double)
    }

    private let target: OpaquePointer
    private let cr: OpaquePointer
    private var images: [ObjectIdentifier: (image: Image, surface: OpaquePointer, generation: UInt64)] = [:]
    private var subsurfaces: [String: OpaquePointer] = [:]
    private var operations: [Operation] = []
    /// Blurred shadows, made once at setup.
    private var shadows: [ShadowSource: Image] = [:]
    /// The distinct shadows in plan order, for `blurShadowAgain`.
    private var shadowOrder: [ShadowSource] = []
    /// Where the baseline does less or other than Lamina.
    private(set) var notes: [String] = []

    init(plan: RenderPlan) throws {
        target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(plan.width), Int32(plan.height))
        cr = cairo_create(target)
        guard cairo_status(cr) == CAIRO_STATUS_SUCCESS else { throw RenderError.failed("cairo: cannot make a target") }
        var perspective = false
        for (index, quad) in plan.quads.enumerated() {
            guard let visible = quad.coverage(width: plan.width, height: plan.height) else { continue }
            let shape: Shape = visible.axisAlignedRect.map { .rect($0) } ?? .polygon(visible.vertices)
            let antialias = quad.antialiasedEdges.isEmpty ? CAIRO_ANTIALIAS_NONE : CAIRO_ANTIALIAS_DEFAULT
            let count = operations.count
            defer {
                if let rounded = quad.shape, operations.count > count {
                    if case .translated(let surface, let x, let y, _, let opacity, _) = operations[count],
                       rounded.inner == nil, Self.shape(rounded, isTheRectangleOf: quad) {
                        operations[count] = .roundedImage(rounded, surface, x: x, y: y, opacity: opacity)
                    } else {
                        operations[count] = .rounded(rounded, operations[count])
                    }
                }
            }
            var paint = quad.paint
            if case .shadow(let source) = paint {
                // cairo has no blur: the shadow is blurred once here (with Lamina's CPU blur, as a program would
                // use some blur of its own) and drawn as an image every frame.
                if shadows[source] == nil {
                    shadows[source] = try source.blurred(from: CPURenderer(threads: 1).render(source.silhouette))
                    shadowOrder.append(source)
                }
                paint = .texture(source.texture(of: shadows[source]!))
                if !notes.contains(where: { $0.hasPrefix("shadows") }) {
                    notes.append("shadows blurred once at setup, then drawn as images")
                }
            }
            switch paint {
            case .shadow:
                continue
            case .solid(let premultiplied):
                let c = premultiplied.scaled(by: quad.opacity)
                guard c.alpha > 0 else { continue }
                let a = Double(c.alpha)
                let whole = visible.axisAlignedRect == CGRect(x: 0, y: 0, width: plan.width, height: plan.height)
                if index == 0, whole, a >= 1 {
                    operations.append(.background(r: Double(c.red), g: Double(c.green), b: Double(c.blue)))
                } else {
                    operations.append(.solid(shape, r: Double(c.red) / a, g: Double(c.green) / a,
                                             b: Double(c.blue) / a, a: a, antialias: antialias))
                }
            case .texture(let texture):
                var unitToTarget = quad.unitToTarget
                if !unitToTarget.isAffine {
                    // cairo has no projective sources; the affine map through three corners is what a cairo
                    // program could do.
                    perspective = true
                    let p = quad.corners.map(\.projected)
                    unitToTarget = .affine(a: p[1].x - p[0].x, b: p[1].y - p[0].y, c: p[3].x - p[0].x,
                                           d: p[3].y - p[0].y, tx: p[0].x, ty: p[0].y)
                }
                guard let texelToUnit = texture.unitToTexel.inverted else { continue }
                let m = texelToUnit.concatenating(unitToTarget)
                guard m.isFinite, abs(m.determinant) > 1e-12 else { continue }
                let surface = try source(texture.image)
                let opacity = Double(quad.opacity)
                let (x, y) = (m.m31.rounded(), m.m32.rounded())
                let unscaled = abs(m.m11 - 1) < 1e-9 && abs(m.m22 - 1) < 1e-9 && abs(m.m12) < 1e-9 && abs(m.m21) < 1e-9
                if unscaled, abs(m.m31 - x) < 1e-6, abs(m.m32 - y) < 1e-6 {
                    operations.append(.translated(surface, x: Double(x), y: Double(y), shape, opacity: opacity,
                                                  antialias: antialias))
                } else {
                    let clamp = texture.clamp
                    let sub = try subsurface(texture.image, surface, clamp)
                    let matrix = cairo_matrix_t(xx: Double(m.m11), yx: Double(m.m12), xy: Double(m.m21),
                                                yy: Double(m.m22), x0: Double(m.m31), y0: Double(m.m32))
                    operations.append(.transformed(
                        sub, matrix: matrix, origin: CGPoint(x: clamp.x0, y: clamp.y0), shape,
                        filter: texture.filter == .nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR,
                        opacity: opacity, antialias: antialias))
                }
            }
        }
        if perspective { notes.append("perspective quads drawn as affine") }
    }

    deinit {
        for surface in subsurfaces.values { cairo_surface_destroy(surface) }
        for entry in images.values { cairo_surface_destroy(entry.surface) }
        cairo_destroy(cr)
        cairo_surface_destroy(target)
    }

    /// An image surface on the Image's own memory (premultiplied BGRA words are CAIRO_FORMAT_ARGB32), made once.
    private func source(_ image: Image) throws -> OpaquePointer {
        if let entry = images[ObjectIdentifier(image)] { return entry.surface }
        let surface = cairo_image_surface_create_for_data(
            image.baseAddress.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(image.width),
            Int32(image.height), Int32(image.bytesPerRow))!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw RenderError.failed("cairo: cannot wrap \(image)")
        }
        images[ObjectIdentifier(image)] = (image, surface, image.generation)
        return surface
    }

    private func subsurface(_ image: Image, _ surface: OpaquePointer, _ clamp: TexelRect) throws -> OpaquePointer {
        if clamp == TexelRect(x0: 0, y0: 0, x1: image.width, y1: image.height) { return surface }
        let key = "\(ObjectIdentifier(image).hashValue) \(clamp)"
        if let sub = subsurfaces[key] { return sub }
        guard let sub = cairo_surface_create_for_rectangle(
            surface, Double(clamp.x0), Double(clamp.y0), Double(clamp.width), Double(clamp.height))
        else { throw RenderError.failed("cairo: cannot cut \(clamp) from \(image)") }
        subsurfaces[key] = sub
        return sub
    }

    private func path(_ shape: Shape) {
        switch shape {
        case .rect(let r):
            cairo_rectangle(cr, Double(r.minX), Double(r.minY), Double(r.width), Double(r.height))
        case .polygon(let points):
            for (index, p) in points.enumerated() {
                if index == 0 {
                    cairo_move_to(cr, Double(p.x), Double(p.y))
                } else {
                    cairo_line_to(cr, Double(p.x), Double(p.y))
                }
            }
            cairo_close_path(cr)
        }
    }

    /// Fills the current path with the current source, at `opacity`.
    private func fill(opacity: Double) {
        if opacity >= 1 {
            cairo_fill(cr)
        } else {
            cairo_clip(cr)
            cairo_paint_with_alpha(cr, opacity)
            cairo_reset_clip(cr)
        }
    }

    /// The path of a rounded shape (its hole, if any, as a second sub-path for the even-odd rule), in target
    /// pixels through the shape's affine map (cairo has no projective paths: a perspective shape uses its
    /// affine part).
    private func roundedPath(_ shape: CoverageShape) {
        let m = shape.toTarget
        var matrix = cairo_matrix_t(xx: Double(m.m11 / m.m33), yx: Double(m.m12 / m.m33), xy: Double(m.m21 / m.m33),
                                    yy: Double(m.m22 / m.m33), x0: Double(m.m31 / m.m33), y0: Double(m.m32 / m.m33))
        cairo_save(cr)
        cairo_transform(cr, &matrix)
        for rounded in [shape.outer] + (shape.inner.map { [$0] } ?? []) {
            let b = rounded.rect, r = rounded.radii
            cairo_new_sub_path(cr)
            cairo_arc(cr, Double(b.maxX - r.topRight), Double(b.minY + r.topRight), Double(r.topRight), -.pi / 2, 0)
            cairo_arc(cr, Double(b.maxX - r.bottomRight), Double(b.maxY - r.bottomRight), Double(r.bottomRight), 0,
                      .pi / 2)
            cairo_arc(cr, Double(b.minX + r.bottomLeft), Double(b.maxY - r.bottomLeft), Double(r.bottomLeft), .pi / 2,
                      .pi)
            cairo_arc(cr, Double(b.minX + r.topLeft), Double(b.minY + r.topLeft), Double(r.topLeft), .pi,
                      3 * .pi / 2)
            cairo_close_path(cr)
        }
        cairo_restore(cr)
    }

    /// True when `shape`'s outer rectangle, in target pixels, is `quad`'s own rectangle (axis-aligned): filling the
    /// shape's path draws exactly the quad seen through it.
    private static func shape(_ shape: CoverageShape, isTheRectangleOf quad: Quad) -> Bool {
        let m = shape.toTarget, u = quad.unitToTarget
        guard m.isAffine, u.isAffine, abs(m.m12) < 1e-9, abs(m.m21) < 1e-9, abs(u.m12) < 1e-9, abs(u.m21) < 1e-9
        else { return false }
        let r = shape.outer.rect
        let a = m.apply(CGPoint(x: r.minX, y: r.minY)).projected, b = m.apply(CGPoint(x: r.maxX, y: r.maxY)).projected
        let c = u.apply(CGPoint(x: 0, y: 0)).projected, d = u.apply(CGPoint(x: 1, y: 1)).projected
        let shapeRect = CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
        let quadRect = CGRect(x: min(c.x, d.x), y: min(c.y, d.y), width: abs(d.x - c.x), height: abs(d.y - c.y))
        return [shapeRect.minX - quadRect.minX, shapeRect.minY - quadRect.minY, shapeRect.maxX - quadRect.maxX,
                shapeRect.maxY - quadRect.maxY].allSatisfy { abs($0) < 1e-6 }
    }

    /// Distinct shadows blurred at setup.
    var shadowCount: Int { shadowOrder.count }

    /// Draws the silhouette of the `index`-th distinct shadow (wrapping round) and blurs it again, as a program
    /// would for a card it resized; the picture drawn stays the one made at setup (the same pixels).
    func blurShadowAgain(_ index: Int) throws {
        guard !shadowOrder.isEmpty else { return }
        let source = shadowOrder[index % shadowOrder.count]
        _ = try source.blurred(from: CPURenderer(threads: 1).render(source.silhouette))
    }

    /// A copy of the last frame's pixels (premultiplied BGRA, as Lamina's images), for comparing the baseline's
    /// picture with Lamina's.
    func snapshot() throws -> Image {
        cairo_surface_flush(target)
        let width = Int(cairo_image_surface_get_width(target)), height = Int(cairo_image_surface_get_height(target))
        let stride = Int(cairo_image_surface_get_stride(target))
        let image = try Image(width: width, height: height)
        let pixels = UnsafeRawPointer(cairo_image_surface_get_data(target)!)
        for y in 0..<height {
            memcpy(image.baseAddress + y * image.bytesPerRow, pixels + y * stride, width * 4)
        }
        image.markModified()
        return image
    }

    func drawFrame() throws {
        // Images changed since the last frame (upload, redrawn badges): cairo must be told, as any program must.
        for (key, entry) in images where entry.image.generation != entry.generation {
            cairo_surface_mark_dirty(entry.surface)
            images[key]?.generation = entry.image.generation
        }
        var antialias = CAIRO_ANTIALIAS_DEFAULT
        cairo_set_antialias(cr, antialias)
        func use(_ wanted: cairo_antialias_t) {
            if wanted != antialias {
                antialias = wanted
                cairo_set_antialias(cr, wanted)
            }
        }
        func perform(_ operation: Operation) {
            switch operation {
            case .rounded(let shape, let inner):
                cairo_save(cr)
                cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
                roundedPath(shape)
                cairo_clip(cr)
                cairo_set_antialias(cr, antialias)
                perform(inner)
                cairo_restore(cr)
            case .roundedImage(let shape, let surface, let x, let y, let opacity):
                use(CAIRO_ANTIALIAS_DEFAULT)
                cairo_set_source_surface(cr, surface, x, y)
                roundedPath(shape)
                fill(opacity: opacity)
            case .background(let r, let g, let b):
                cairo_set_source_rgb(cr, r, g, b)
                cairo_paint(cr)
            case .solid(let shape, let r, let g, let b, let a, let wanted):
                use(wanted)
                cairo_set_source_rgba(cr, r, g, b, a)
                path(shape)
                cairo_fill(cr)
            case .translated(let surface, let x, let y, let shape, let opacity, let wanted):
                use(wanted)
                cairo_set_source_surface(cr, surface, x, y)
                path(shape)
                fill(opacity: opacity)
            case .transformed(let surface, var matrix, let origin, let shape, let filter, let opacity, let wanted):
                use(wanted)
                cairo_save(cr)
                cairo_transform(cr, &matrix)
                cairo_set_source_surface(cr, surface, Double(origin.x), Double(origin.y))
                let pattern = cairo_get_source(cr)
                cairo_pattern_set_filter(pattern, filter)
                cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
                // The source stays locked to the texel space it was set in; the shape is in target pixels.
                cairo_identity_matrix(cr)
                path(shape)
                fill(opacity: opacity)
                cairo_restore(cr)
            }
        }
        for operation in operations { perform(operation) }
        cairo_surface_flush(target)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.failed("cairo: \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

/// The minimal instanced GL loop (GLESBaseline) over the plan's textured quads.
enum GLESInstancedBaseline {
    /// The baseline and a note on what it leaves out; nil when the plan does not suit it (see `whyNot`).
    static func make(for plan: RenderPlan) throws -> (GLESBaseline, String?)? {
        guard whyNot(plan).isEmpty else { return nil }
        var image: Image?
        var images = Set<ObjectIdentifier>()
        var solids = 0
        var quads: [(destination: CGRect, source: CGRect)] = []
        var rounded: [GLESBaseline.RoundedRect] = []
        for (index, quad) in plan.quads.enumerated() {
            guard let visible = quad.coverage(width: plan.width, height: plan.height) else { continue }
            guard case .texture(let texture) = quad.paint else {
                if index > 0 { solids += 1 }  // the background is the baseline's clear
                continue
            }
            image = image ?? texture.image
            images.insert(ObjectIdentifier(texture.image))
            // The visible rectangle, and the texels under it.
            let d = visible.axisAlignedRect!
            let toTexel = quad.unitToTarget.inverted!.concatenating(texture.unitToTexel)
            let a = toTexel.apply(CGPoint(x: d.minX, y: d.minY)).projected
            let b = toTexel.apply(CGPoint(x: d.maxX, y: d.maxY)).projected
            quads.append((d, CGRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)))
            // A quad without a shape is a rounded rectangle of radius 0 round its own pixels.
            rounded.append(quad.shape.flatMap(roundedRect) ?? GLESBaseline.RoundedRect(rect: d, radius: 0))
        }
        var notes: [String] = []
        if images.count > 1 { notes.append("one texture (the first of \(images.count)) for every quad") }
        if solids > 0 { notes.append("\(solids) solid quads left out") }
        let anyRounded = plan.quads.contains { $0.shape != nil }
        let baseline = try GLESBaseline(image: image!, quads: quads, rounded: anyRounded ? rounded : nil,
                                        width: plan.width, height: plan.height)
        return (baseline, notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// A quad's shape as the baseline's rounded rectangle in target pixels; nil unless it is axis-aligned, unscaled
    /// between the axes, with one radius at every corner and no hole.
    static func roundedRect(_ shape: CoverageShape) -> GLESBaseline.RoundedRect? {
        let m = shape.toTarget, radii = shape.outer.radii
        guard shape.inner == nil, m.isAffine, abs(m.m12) < 1e-9, abs(m.m21) < 1e-9, abs(abs(m.m11) - abs(m.m22)) < 1e-9,
              radii.topRight == radii.topLeft, radii.bottomRight == radii.topLeft, radii.bottomLeft == radii.topLeft
        else { return nil }
        let r = shape.outer.rect
        let a = m.apply(CGPoint(x: r.minX, y: r.minY)).projected, b = m.apply(CGPoint(x: r.maxX, y: r.maxY)).projected
        return GLESBaseline.RoundedRect(
            rect: CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y)),
            radius: radii.topLeft * abs(m.m11))
    }

    /// Why the plan does not suit the baseline, or "" when it does: it needs textured quads, every one of them an
    /// axis-aligned rectangle on screen with an axis-aligned source, and no more solid quads (which it leaves out)
    /// than textured ones besides the background.
    static func whyNot(_ plan: RenderPlan) -> String {
        var textured = 0, solids = 0
        for (index, quad) in plan.quads.enumerated() {
            guard let visible = quad.coverage(width: plan.width, height: plan.height) else { continue }
            guard case .texture(let texture) = quad.paint else {
                if index > 0 { solids += 1 }
                continue
            }
            textured += 1
            let m = quad.unitToTarget, t = texture.unitToTexel
            guard visible.axisAlignedRect != nil, m.isAffine, abs(m.m12) < 1e-9, abs(m.m21) < 1e-9,
                  abs(t.m12) < 1e-9, abs(t.m21) < 1e-9, m.inverted != nil
            else { return "the baseline draws axis-aligned quads only" }
            if let shape = quad.shape, roundedRect(shape) == nil {
                return "the baseline draws rounded rectangles only axis-aligned, with one radius and no hole"
            }
        }
        if textured == 0 { return "no textured quads" }
        return solids > textured ? "mostly solid quads, which the baseline does not draw" : ""
    }
}
