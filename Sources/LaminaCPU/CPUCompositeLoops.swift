import CComposite
import CPixman
import Foundation

/// Which loops composite the CPU renderer's common cases: source-over of a texture copied 1:1 (with or without a
/// constant opacity), source-over of a texture scaled along the axes and sampled bilinear (nine-slice cells, a
/// stretched image), source-over of a group's buffer through its opacity, solid fills and translucent solid
/// colours. Lamina's own loops (CComposite: AVX2, SSE2 or scalar, chosen once at run time) or pixman's.
///
/// Every form makes the bytes pixman makes (its 8-bit arithmetic and rounding, its 16.16 sample points and 7-bit
/// bilinear weights, docs/benchmarks.md, "CPU compositing loops (2026-11-27)"); everything else (rotated, flipped
/// and projective sampling, nearest filtering, coverage masks, clip regions, blend modes) is pixman's in every
/// form. `LAMINA_CPU_SIMD` (`pixman`, `scalar`,
/// `sse2`, `avx2`) picks the default form; a form the CPU lacks runs the best one below it, and anything else set
/// there is ignored (the best form runs).
public enum CPUCompositeLoops: String, Sendable, CaseIterable {
    /// pixman composites everything (the renderer before its own loops).
    case pixman
    /// Lamina's loops, one pixel at a time.
    case scalar
    /// Lamina's loops, 4 pixels at a time (x86-64).
    case sse2
    /// Lamina's loops, 8 pixels at a time (x86-64 CPUs with AVX2).
    case avx2

    /// The form new renderers use: `LAMINA_CPU_SIMD`'s, else the best this CPU runs where that is SIMD (SSE2 or
    /// AVX2), else pixman's: on a CPU without them (not x86-64) the scalar loops are slower than pixman's own SIMD
    /// (NEON on ARM), 3 to 8 times for bilinear, so they run only when asked for.
    public static let `default`: CPUCompositeLoops = {
        if let name = ProcessInfo.processInfo.environment["LAMINA_CPU_SIMD"], let loops = CPUCompositeLoops(
            rawValue: name.lowercased()) {
            return loops.runnable
        }
        return best == .scalar ? .pixman : best
    }()

    /// The best form of Lamina's loops this CPU runs.
    public static var best: CPUCompositeLoops {
        switch lamina_composite_best_path() {
        case Int32(LAMINA_COMPOSITE_AVX2): .avx2
        case Int32(LAMINA_COMPOSITE_SSE2): .sse2
        default: .scalar
        }
    }

    /// The form that runs when this one is asked for: itself, or the best one below it this CPU runs.
    public var runnable: CPUCompositeLoops {
        guard let path else { return .pixman }
        return lamina_composite_supports(path) != 0 ? self : Self.best
    }

    /// CComposite's number for the form (nil: pixman).
    var path: Int32? {
        switch self {
        case .pixman: nil
        case .scalar: Int32(LAMINA_COMPOSITE_SCALAR)
        case .sse2: Int32(LAMINA_COMPOSITE_SSE2)
        case .avx2: Int32(LAMINA_COMPOSITE_AVX2)
        }
    }
}

/// The memory of a pixman a8r8g8b8 image, for Lamina's loops.
struct CPUPixels {
    var base: UnsafeMutablePointer<UInt32>
    /// In pixels.
    var stride: Int
    var width: Int
    var height: Int

    /// The pixels of `image`, or nil when it is no a8r8g8b8 image with memory (a solid fill).
    init?(_ image: OpaquePointer) {
        guard pixman_image_get_format(image) == PIXMAN_a8r8g8b8, let data = pixman_image_get_data(image) else {
            return nil
        }
        base = data
        stride = Int(pixman_image_get_stride(image)) / 4
        width = Int(pixman_image_get_width(image))
        height = Int(pixman_image_get_height(image))
    }
}

extension CPUCompositeLoops {
    /// Source-over of `source`'s pixels from (sx, sy) through a constant `opacity` (255: none) onto `destination`'s
    /// from (dx, dy), `width` x `height` of them, clipped to the destination as pixman clips it: what
    /// `pixman_image_composite32(PIXMAN_OP_OVER, source, opacity mask, destination, ...)` does for a source without
    /// transform, filter or clip. False (nothing drawn) for pixman's form, or where the rectangle reaches beyond the
    /// source (pixman repeats its edge texels there): the caller asks pixman.
    func over(
        _ source: OpaquePointer, sx: Int, sy: Int, opacity: UInt8, onto destination: OpaquePointer, dx: Int, dy: Int,
        width: Int, height: Int
    ) -> Bool {
        guard let path, let from = CPUPixels(source), let to = CPUPixels(destination) else { return false }
        // The part inside the destination.
        let left = max(0, -dx), top = max(0, -dy)
        let w = min(width, to.width - dx) - left, h = min(height, to.height - dy) - top
        guard w > 0, h > 0 else { return true }
        let (x, y) = (sx + left, sy + top)
        guard x >= 0, y >= 0, x + w <= from.width, y + h <= from.height else { return false }
        lamina_composite_over(
            path, to.base + (dy + top) * to.stride + dx + left, to.stride, from.base + y * from.stride + x,
            from.stride, Int32(w), Int32(h), opacity)
        return true
    }

    /// Source-over of `source` sampled bilinear through `transform` (target pixels to source texels, as pixman's
    /// 16.16 matrix) and a constant `opacity` (255: none) onto `destination`'s pixels from (dx, dy), `width` x
    /// `height` of them, whose first is target pixel (x, y), clipped to the destination as pixman clips it: what
    /// `pixman_image_composite32(PIXMAN_OP_OVER, source, opacity mask, destination, x, y, 0, 0, dx, dy, ...)` does
    /// for a source with PIXMAN_REPEAT_PAD and PIXMAN_FILTER_BILINEAR (a `CPUTextureViews` view: its edge texels
    /// repeated outward) and no clip region. Only scales along the axes that keep the image's direction
    /// (x' = a x + c, y' = d y + f with a, d > 0) are drawn; false (nothing drawn) for any other transform
    /// (rotations, flips, perspective) and for pixman's form: the caller asks pixman. The caller makes sure the map
    /// fits pixman's fixed point (`CPUBandJob.fitsFixedPoint`), as it does before giving pixman the transform.
    func bilinearOver(
        _ source: OpaquePointer, transform: pixman_transform, x: Int, y: Int, opacity: UInt8,
        onto destination: OpaquePointer, dx: Int, dy: Int, width: Int, height: Int
    ) -> Bool {
        let m = transform.matrix
        guard let path, m.0.1 == 0, m.1.0 == 0, m.2.0 == 0, m.2.1 == 0, m.2.2 == 65_536, m.0.0 > 0, m.1.1 > 0,
              let from = CPUPixels(source), let to = CPUPixels(destination), from.width > 0, from.height > 0
        else { return false }
        let left = max(0, -dx), top = max(0, -dy)
        let w = min(width, to.width - dx) - left, h = min(height, to.height - dy) - top
        guard w > 0, h > 0 else { return true }
        return lamina_composite_bilinear_over(
            path, to.base + (dy + top) * to.stride + dx + left, to.stride, Int32(w), Int32(h), from.base, from.stride,
            Int32(from.width), Int32(from.height), m.0.0, m.0.2, m.1.1, m.1.2, Int32(x + left), Int32(y + top),
            opacity) != 0
    }

    /// A solid premultiplied `color` (0xAARRGGBB) over (`opaque` or alpha 255: copied onto) `destination`'s pixels
    /// from (dx, dy), clipped to it: pixman's SRC or OVER of a solid fill. False for pixman's form.
    func fill(_ color: UInt32, onto destination: OpaquePointer, dx: Int, dy: Int, width: Int, height: Int,
              replacing: Bool) -> Bool {
        guard let path, let to = CPUPixels(destination) else { return false }
        let left = max(0, -dx), top = max(0, -dy)
        let w = min(width, to.width - dx) - left, h = min(height, to.height - dy) - top
        guard w > 0, h > 0 else { return true }
        let start = to.base + (dy + top) * to.stride + dx + left
        if replacing {
            lamina_composite_fill(path, start, to.stride, Int32(w), Int32(h), color)
        } else {
            lamina_composite_over_solid(path, start, to.stride, Int32(w), Int32(h), color)
        }
        return true
    }
}
