import CPixman
import Foundation
import LaminaCore

/// The CPU renderer: rasterises a RenderPlan with pixman (SIMD fast paths, as cairo and Weston use) on
/// premultiplied BGRA memory, following SEMANTICS.md: pixel-centre coverage with the top-left rule
/// (ConvexPolygon.spans), texel centres at i + 0.5, the no-bleed clamp (CPUTextureViews), bilinear or
/// nearest sampling and premultiplied source-over.
///
/// A renderer belongs to the thread that uses it; it keeps no GPU or shared state.
public final class CPURenderer: Renderer {
    public let name = "cpu"
    public private(set) var statistics = RenderStatistics()
    private let views = CPUTextureViews()

    public init() {}

    /// The pixman library's version, e.g. "0.42.2".
    public static var pixmanVersion: String { String(cString: pixman_version_string()) }

    public func render(_ plan: RenderPlan, into target: Image) throws {
        try plan.validate()
        guard target.width == plan.width, target.height == plan.height else {
            throw RenderError.targetMismatch(
                "plan is \(plan.width)x\(plan.height), target is \(target.width)x\(target.height)")
        }
        guard let destination = pixman_image_create_bits_no_clear(
            PIXMAN_a8r8g8b8, Int32(target.width), Int32(target.height),
            target.baseAddress.assumingMemoryBound(to: UInt32.self), Int32(target.bytesPerRow))
        else { throw RenderError.failed("pixman could not wrap the \(target.width)x\(target.height) target") }
        defer {
            pixman_image_unref(destination)
            views.removeAll()
            target.markModified()
        }
        var stats = RenderStatistics()
        stats.quads = plan.quads.count
        for quad in plan.quads {
            let calls = quad.antialiasedEdges.isEmpty
                ? try draw(quad, coverage: quad.pixelCoverage(width: plan.width, height: plan.height), into: destination)
                : try drawAntialiased(quad, into: destination, width: plan.width, height: plan.height)
            if calls > 0 {
                stats.quadsDrawn += 1
                stats.drawCalls += calls
            }
        }
        statistics = stats
    }

    /// A pixman source for a quad's paint: `offset` is added to target coordinates to get source coordinates.
    private struct Source {
        var image: OpaquePointer
        var offset: (x: Int32, y: Int32)
        var owned: Bool
    }

    /// Sets up the quad's source: a solid fill of `color`, or the texture view with the quad's transform and
    /// filter. Nil when the quad cannot be drawn (degenerate mapping).
    private func source(for quad: Quad, solid color: PremultipliedColor?) throws -> Source? {
        switch quad.paint {
        case .solid:
            let bytes = (color ?? PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)).quantized
            var pixel = pixman_color_t(
                red: UInt16(bytes.red) * 257, green: UInt16(bytes.green) * 257, blue: UInt16(bytes.blue) * 257,
                alpha: UInt16(bytes.alpha) * 257)
            guard let fill = pixman_image_create_solid_fill(&pixel) else {
                throw RenderError.failed("pixman could not make a solid fill")
            }
            return Source(image: fill, offset: (0, 0), owned: true)
        case .texture(let texture):
            guard let view = views.view(of: texture.image, clamp: texture.clamp) else {
                throw RenderError.failed("pixman could not wrap \(texture.image)")
            }
            guard let targetToTexel = quad.targetToTexel(texture) else { return nil }
            let targetToView = targetToTexel
                .concatenating(.translation(-CGFloat(texture.clamp.x0), -CGFloat(texture.clamp.y0)))
            if let offset = targetToView.integerTranslation {
                // Whole-pixel placement at 1:1: no transform and no filtering, so pixman takes its fastest path.
                pixman_image_set_transform(view, nil)
                pixman_image_set_filter(view, PIXMAN_FILTER_NEAREST, nil, 0)
                return Source(image: view, offset: (Int32(offset.x), Int32(offset.y)), owned: false)
            }
            var transform = pixman_transform()
            var f = Self.pixmanMatrix(targetToView)
            guard pixman_transform_from_pixman_f_transform(&transform, &f) != 0 else { return nil }
            pixman_image_set_transform(view, &transform)
            let filter = texture.filter == .nearest ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR
            pixman_image_set_filter(view, filter, nil, 0)
            return Source(image: view, offset: (0, 0), owned: false)
        }
    }

    /// Draws one quad under the pixel-centre rule; returns the number of pixman composites made.
    private func draw(_ quad: Quad, coverage: PixelCoverage, into destination: OpaquePointer) throws -> Int {
        // The covered pixels: a box for an axis-aligned rectangle, else a clip region of one box per run.
        let box: pixman_box32_t
        var region = pixman_region32_t()
        var clipped = false
        switch coverage {
        case .none:
            return 0
        case .rect(let x0, let y0, let x1, let y1):
            box = pixman_box32_t(x1: Int32(x0), y1: Int32(y0), x2: Int32(x1), y2: Int32(y1))
        case .spans:
            let boxes = coverage.boxes.map {
                pixman_box32_t(x1: Int32($0.x0), y1: Int32($0.y0), x2: Int32($0.x1), y2: Int32($0.y1))
            }
            _ = boxes.withUnsafeBufferPointer { pixman_region32_init_rects(&region, $0.baseAddress, Int32($0.count)) }
            box = pixman_region32_extents(&region).pointee
            pixman_image_set_clip_region32(destination, &region)
            clipped = true
        }
        defer {
            if clipped {
                pixman_image_set_clip_region32(destination, nil)
                pixman_region32_fini(&region)
            }
        }
        let opacity = min(max(quad.opacity, 0), 1)
        var solid: PremultipliedColor?
        if case .solid(let color) = quad.paint { solid = color.scaled(by: opacity) }
        guard PremultipliedColor.byte(solid?.alpha ?? opacity) > 0,
            let source = try source(for: quad, solid: solid)
        else { return 0 }
        defer { if source.owned { pixman_image_unref(source.image) } }
        var mask: OpaquePointer?
        if solid == nil, opacity < 1 {
            var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(PremultipliedColor.byte(opacity)) * 257)
            mask = pixman_image_create_solid_fill(&alpha)
        }
        defer { if let mask { pixman_image_unref(mask) } }
        let op = solid.map { $0.quantized.alpha == 255 } == true ? PIXMAN_OP_SRC : PIXMAN_OP_OVER
        pixman_image_composite32(
            op, source.image, mask, destination, box.x1 + source.offset.x, box.y1 + source.offset.y, 0, 0, box.x1,
            box.y1, box.x2 - box.x1, box.y2 - box.y1)
        return 1
    }

    /// Draws one quad with antialiased edges: its source through an 8-bit mask holding each pixel's coverage
    /// times the opacity (the same values the GLES renderer draws with).
    private func drawAntialiased(_ quad: Quad, into destination: OpaquePointer, width: Int, height: Int) throws -> Int {
        let coverage = quad.antialiasedCoverage(width: width, height: height)
        guard !coverage.isEmpty else { return 0 }
        var x0 = Int32.max, y0 = Int32.max, x1 = Int32.min, y1 = Int32.min
        for box in coverage.full {
            x0 = min(x0, Int32(box.x0)); y0 = min(y0, Int32(box.y0))
            x1 = max(x1, Int32(box.x1)); y1 = max(y1, Int32(box.y1))
        }
        for pixel in coverage.partial {
            x0 = min(x0, pixel.x); y0 = min(y0, pixel.y)
            x1 = max(x1, pixel.x + 1); y1 = max(y1, pixel.y + 1)
        }
        let opacity = min(max(quad.opacity, 0), 1)
        var solid: PremultipliedColor?
        if case .solid(let color) = quad.paint { solid = color }
        guard let source = try source(for: quad, solid: solid) else { return 0 }
        defer { if source.owned { pixman_image_unref(source.image) } }
        guard let mask = pixman_image_create_bits(PIXMAN_a8, x1 - x0, y1 - y0, nil, 0) else {
            throw RenderError.failed("pixman could not make a \(x1 - x0)x\(y1 - y0) coverage mask")
        }
        defer { pixman_image_unref(mask) }
        let bytes = UnsafeMutableRawPointer(pixman_image_get_data(mask)!).assumingMemoryBound(to: UInt8.self)
        let stride = Int(pixman_image_get_stride(mask))
        let full = PremultipliedColor.byte(opacity)
        for box in coverage.full {
            for y in box.y0..<box.y1 {
                memset(bytes + (y - Int(y0)) * stride + (box.x0 - Int(x0)), Int32(full), box.x1 - box.x0)
            }
        }
        for pixel in coverage.partial {
            bytes[Int(pixel.y - y0) * stride + Int(pixel.x - x0)] = PartialPixel.alpha(pixel.coverage, opacity: opacity)
        }
        pixman_image_composite32(
            PIXMAN_OP_OVER, source.image, mask, destination, x0 + source.offset.x, y0 + source.offset.y, 0, 0, x0, y0,
            x1 - x0, y1 - y0)
        return 1
    }

    /// Lamina's row-vector Matrix3 as pixman's column-vector double matrix, normalised so the w row is
    /// well scaled for pixman's 16.16 fixed point.
    private static func pixmanMatrix(_ m: Matrix3) -> pixman_f_transform {
        var k: CGFloat = 1
        if !m.isAffine {
            let largest = max(abs(m.m13), abs(m.m23), abs(m.m33))
            if largest > 0 { k = 1 / largest }
        }
        return pixman_f_transform(m: (
            (Double(m.m11 * k), Double(m.m21 * k), Double(m.m31 * k)),
            (Double(m.m12 * k), Double(m.m22 * k), Double(m.m32 * k)),
            (Double(m.m13 * k), Double(m.m23 * k), Double(m.m33 * k))))
    }
}
