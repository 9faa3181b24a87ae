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
        case .spans(let spans):
            let boxes = Self.boxes(spans)
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
            var pixel = pixman_color_t(
                red: Self.channel(c.red), green: Self.channel(c.green), blue: Self.channel(c.blue),
                alpha: Self.channel(c.alpha))
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
            guard let targetToUnit = quad.unitToTarget.inverted else { return 0 }
            let targetToView = targetToUnit.concatenating(texture.unitToTexel)
                .concatenating(.translation(-CGFloat(texture.clamp.x0), -CGFloat(texture.clamp.y0)))
            var srcX = box.x1, srcY = box.y1
            if let offset = Self.integerTranslation(targetToView) {
                // Whole-pixel placement at 1:1: no transform and no filtering, so pixman takes its fastest path.
                pixman_image_set_transform(view, nil)
                pixman_image_set_filter(view, PIXMAN_FILTER_NEAREST, nil, 0)
                srcX += offset.x
                srcY += offset.y
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
                var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: Self.channel(opacity))
                mask = pixman_image_create_solid_fill(&alpha)
            }
            defer { if let mask { pixman_image_unref(mask) } }
            pixman_image_composite32(
                PIXMAN_OP_OVER, view, mask, destination, srcX, srcY, 0, 0, box.x1, box.y1, width, height)
            return 1
        }
    }

    /// A premultiplied channel 0...1 as pixman's 16-bit value (pixman keeps the top 8 bits).
    private static func channel(_ value: Float) -> UInt16 {
        UInt16(min(max((value * 255).rounded(), 0), 255)) * 257
    }

    /// (dx, dy) when `m` is a translation by whole pixels, else nil.
    private static func integerTranslation(_ m: Matrix3) -> (x: Int32, y: Int32)? {
        let tolerance: CGFloat = 1e-6
        guard m.isAffine, abs(m.m11 - 1) < tolerance, abs(m.m22 - 1) < tolerance, abs(m.m12) < tolerance,
            abs(m.m21) < tolerance
        else { return nil }
        let tx = m.m31.rounded(), ty = m.m32.rounded()
        guard abs(m.m31 - tx) < tolerance, abs(m.m32 - ty) < tolerance, abs(tx) < 1e9, abs(ty) < 1e9 else {
            return nil
        }
        return (Int32(tx), Int32(ty))
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

    /// Runs as boxes, merging consecutive rows with the same extent.
    private static func boxes(_ spans: [PixelSpan]) -> [pixman_box32_t] {
        var boxes: [pixman_box32_t] = []
        for span in spans {
            if let last = boxes.last, last.x1 == Int32(span.x0), last.x2 == Int32(span.x1), last.y2 == Int32(span.y) {
                boxes[boxes.count - 1].y2 += 1
            } else {
                boxes.append(pixman_box32_t(
                    x1: Int32(span.x0), y1: Int32(span.y), x2: Int32(span.x1), y2: Int32(span.y + 1)))
            }
        }
        return boxes
    }
}
