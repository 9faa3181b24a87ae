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
            let calls = try draw(quad, coverage: quad.pixelCoverage(width: plan.width, height: plan.height),
                                 into: destination)
            if calls > 0 {
                stats.quadsDrawn += 1
                stats.drawCalls += calls
            }
        }
        statistics = stats
    }

    /// Draws one quad; returns the number of pixman composites made.
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
        let width = box.x2 - box.x1, height = box.y2 - box.y1
        switch quad.paint {
        case .solid(let color):
            let c = color.scaled(by: min(max(quad.opacity, 0), 1))
            guard c.alpha > 0 else { return 0 }
            let bytes = c.quantized
            var pixel = pixman_color_t(
                red: UInt16(bytes.red) * 257, green: UInt16(bytes.green) * 257, blue: UInt16(bytes.blue) * 257,
                alpha: UInt16(bytes.alpha) * 257)
            guard let source = pixman_image_create_solid_fill(&pixel) else {
                throw RenderError.failed("pixman could not make a solid fill")
            }
            defer { pixman_image_unref(source) }
            let op = c.alpha >= 1 ? PIXMAN_OP_SRC : PIXMAN_OP_OVER
            pixman_image_composite32(op, source, nil, destination, 0, 0, 0, 0, box.x1, box.y1, width, height)
            return 1
        case .texture(let texture):
            let opacity = min(max(quad.opacity, 0), 1)
            guard opacity > 0 else { return 0 }
            guard let view = views.view(of: texture.image, clamp: texture.clamp) else {
                throw RenderError.failed("pixman could not wrap \(texture.image)")
            }
            guard let targetToTexel = quad.targetToTexel(texture) else { return 0 }
            let targetToView = targetToTexel
                .concatenating(.translation(-CGFloat(texture.clamp.x0), -CGFloat(texture.clamp.y0)))
            var srcX = box.x1, srcY = box.y1
            if let offset = targetToView.integerTranslation {
                // Whole-pixel placement at 1:1: no transform and no filtering, so pixman takes its fastest path.
                pixman_image_set_transform(view, nil)
                pixman_image_set_filter(view, PIXMAN_FILTER_NEAREST, nil, 0)
                srcX += Int32(offset.x)
                srcY += Int32(offset.y)
            } else {
                var transform = pixman_transform()
                var f = Self.pixmanMatrix(targetToView)
                guard pixman_transform_from_pixman_f_transform(&transform, &f) != 0 else { return 0 }
                pixman_image_set_transform(view, &transform)
                let filter = texture.filter == .nearest ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR
                pixman_image_set_filter(view, filter, nil, 0)
            }
            var mask: OpaquePointer?
            if opacity < 1 {
                var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(PremultipliedColor.byte(opacity)) * 257)
                mask = pixman_image_create_solid_fill(&alpha)
            }
            defer { if let mask { pixman_image_unref(mask) } }
            pixman_image_composite32(
                PIXMAN_OP_OVER, view, mask, destination, srcX, srcY, 0, 0, box.x1, box.y1, width, height)
            return 1
        }
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
