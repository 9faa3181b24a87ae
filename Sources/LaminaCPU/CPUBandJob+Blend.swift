import CPixman
import Foundation
import LaminaCore

// Blend modes and compositing operations on the CPU (docs/semantics.md, "Blend modes"): pixman's operators where
// one computes the operation as Lamina defines it and fast (source-over, plus, ATOP, OVER_REVERSE, OUT_REVERSE, XOR:
// each leaves the destination as it is where the source is transparent), and a loop of our own for the rest, in
// the arithmetic of Shaders/blend.frag so that the two renderers agree to rounding. pixman's PDF blend operators
// compute W3C's formulas too, but through generic per-pixel code 5-10 times slower than this loop; its IN, OUT,
// IN_REVERSE and ATOP_REVERSE clear the destination where the source is transparent, which Lamina's rule forbids.

extension GroupComposite {
    /// pixman's operator for this composite; nil for those `CPUBlend` draws.
    var pixmanOperator: pixman_op_t? {
        switch self {
        case .sourceOver: PIXMAN_OP_OVER
        case .plus, .plusLighter: PIXMAN_OP_ADD
        case .sourceAtop: PIXMAN_OP_ATOP
        case .destinationOver: PIXMAN_OP_OVER_REVERSE
        case .destinationOut: PIXMAN_OP_OUT_REVERSE
        case .xor: PIXMAN_OP_XOR
        default: nil
        }
    }
}

/// One operation on a premultiplied source pixel `s` (alpha above 0) and destination pixel `d`, each B, G, R, A in
/// 0...1; the result premultiplied, clamped by the caller.
protocol CPUBlendFormula {
    static func apply(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float>
}

/// W3C's B(Cb, Cs) on straight colours (lanes B, G, R; lane 3 is ignored).
protocol CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float>
}

/// The blend modes composite source-over: co = cs(1 - ad) + cd(1 - as) + as ad B(Cd, Cs), ao = as + ad - as ad.
enum CPUSourceOverBlend<B: CPUBlendFunction>: CPUBlendFormula {
    @inline(__always)
    static func apply(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let sa = s.w, da = d.w
        let cs = s / sa
        let cb = da > 0 ? d / da : SIMD4<Float>()
        let mixed = B.mix(cb, cs).clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 1))
        var o = s * (1 - da) + d * (1 - sa) + (sa * da) * mixed
        o.w = sa + da - sa * da
        return o
    }
}

/// The separable and non-separable blend functions (W3C "Blending"), as Shaders/blend.frag writes them.
enum CPUBlendFunctions {
    @inline(__always)
    static func hardLight(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> {
        let two = s + s, t = two - 1
        return (b * two).replacing(with: b + t - b * t, where: s .> 0.5)
    }

    @inline(__always)
    static func lanes(_ b: SIMD4<Float>, _ s: SIMD4<Float>, _ f: (Float, Float) -> Float) -> SIMD4<Float> {
        SIMD4(f(b.x, s.x), f(b.y, s.y), f(b.z, s.z), 0)
    }

    @inline(__always)
    static func lum(_ c: SIMD4<Float>) -> Float { c.x * 0.11 + c.y * 0.59 + c.z * 0.3 }

    @inline(__always)
    static func sat(_ c: SIMD4<Float>) -> Float { max(c.x, c.y, c.z) - min(c.x, c.y, c.z) }

    @inline(__always)
    static func clipColor(_ c: SIMD4<Float>) -> SIMD4<Float> {
        var c = c
        let l = lum(c), n = min(c.x, c.y, c.z), x = max(c.x, c.y, c.z)
        if n < 0 { c = l + (c - l) * l / (l - n) }
        if x > 1 { c = l + (c - l) * (1 - l) / (x - l) }
        return c
    }

    @inline(__always)
    static func setLum(_ c: SIMD4<Float>, _ l: Float) -> SIMD4<Float> { clipColor(c + (l - lum(c))) }

    @inline(__always)
    static func setSat(_ c: SIMD4<Float>, _ s: Float) -> SIMD4<Float> {
        let n = min(c.x, c.y, c.z), x = max(c.x, c.y, c.z)
        return x > n ? (c - n) * s / (x - n) : SIMD4()
    }
}

enum CPUMultiply: CPUBlendFunction { static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> { b * s } }
enum CPUScreen: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> { b + s - b * s }
}
enum CPUOverlay: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> { CPUBlendFunctions.hardLight(s, b) }
}
enum CPUDarken: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> { pointwiseMin(b, s) }
}
enum CPULighten: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> { pointwiseMax(b, s) }
}
enum CPUColorDodge: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> {
        CPUBlendFunctions.lanes(b, s) { b, s in b == 0 ? 0 : s >= 1 ? 1 : min(1, b / (1 - s)) }
    }
}
enum CPUColorBurn: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> {
        CPUBlendFunctions.lanes(b, s) { b, s in b >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / s) }
    }
}
enum CPUSoftLight: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> {
        CPUBlendFunctions.lanes(b, s) { b, s in
            if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
            let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
            return b + (2 * s - 1) * (d - b)
        }
    }
}
enum CPUHardLight: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> { CPUBlendFunctions.hardLight(b, s) }
}
enum CPUDifference: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> { (b - s).replacing(with: s - b, where: b .< s) }
}
enum CPUExclusion: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> { b + s - 2 * b * s }
}
enum CPUHue: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> {
        typealias F = CPUBlendFunctions
        return F.setLum(F.setSat(s, F.sat(b)), F.lum(b))
    }
}
enum CPUSaturation: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> {
        typealias F = CPUBlendFunctions
        return F.setLum(F.setSat(b, F.sat(s)), F.lum(b))
    }
}
enum CPUColor: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> {
        CPUBlendFunctions.setLum(s, CPUBlendFunctions.lum(b))
    }
}
enum CPULuminosity: CPUBlendFunction {
    static func mix(_ b: SIMD4<Float>, _ s: SIMD4<Float>) -> SIMD4<Float> {
        CPUBlendFunctions.setLum(b, CPUBlendFunctions.lum(s))
    }
}

enum CPUSourceIn: CPUBlendFormula {
    static func apply(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { s * d.w }
}
enum CPUSourceOut: CPUBlendFormula {
    static func apply(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { s * (1 - d.w) }
}
enum CPUDestinationIn: CPUBlendFormula {
    static func apply(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { d * s.w }
}
enum CPUDestinationAtop: CPUBlendFormula {
    static func apply(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { d * s.w + s * (1 - d.w) }
}
enum CPUPlusDarker: CPUBlendFormula {
    static func apply(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> { s + d - 1 }
}

/// The operations drawn by Lamina's own loop, per pixel.
enum CPUBlend {
    /// Combines the `width` x `height` pixels of `picture` (from its (0, 0)), scaled by `opacity` (0-255), with the
    /// pixels of `destination` from (x, y) on by `composite`; pixels outside `destination` are skipped, and so are
    /// those where the scaled picture is transparent (the pixel beneath stays as it is).
    static func composite(
        _ composite: GroupComposite, picture: OpaquePointer, opacity: UInt8, into destination: OpaquePointer, x: Int,
        y: Int, width: Int, height: Int
    ) {
        switch composite {
        case .multiply: run(CPUSourceOverBlend<CPUMultiply>.self, picture, opacity, destination, x, y, width, height)
        case .screen: run(CPUSourceOverBlend<CPUScreen>.self, picture, opacity, destination, x, y, width, height)
        case .overlay: run(CPUSourceOverBlend<CPUOverlay>.self, picture, opacity, destination, x, y, width, height)
        case .darken: run(CPUSourceOverBlend<CPUDarken>.self, picture, opacity, destination, x, y, width, height)
        case .lighten: run(CPUSourceOverBlend<CPULighten>.self, picture, opacity, destination, x, y, width, height)
        case .colorDodge:
            run(CPUSourceOverBlend<CPUColorDodge>.self, picture, opacity, destination, x, y, width, height)
        case .colorBurn: run(CPUSourceOverBlend<CPUColorBurn>.self, picture, opacity, destination, x, y, width, height)
        case .softLight: run(CPUSourceOverBlend<CPUSoftLight>.self, picture, opacity, destination, x, y, width, height)
        case .hardLight: run(CPUSourceOverBlend<CPUHardLight>.self, picture, opacity, destination, x, y, width, height)
        case .difference:
            run(CPUSourceOverBlend<CPUDifference>.self, picture, opacity, destination, x, y, width, height)
        case .exclusion: run(CPUSourceOverBlend<CPUExclusion>.self, picture, opacity, destination, x, y, width, height)
        case .hue: run(CPUSourceOverBlend<CPUHue>.self, picture, opacity, destination, x, y, width, height)
        case .saturation:
            run(CPUSourceOverBlend<CPUSaturation>.self, picture, opacity, destination, x, y, width, height)
        case .color: run(CPUSourceOverBlend<CPUColor>.self, picture, opacity, destination, x, y, width, height)
        case .luminosity:
            run(CPUSourceOverBlend<CPULuminosity>.self, picture, opacity, destination, x, y, width, height)
        case .sourceIn: run(CPUSourceIn.self, picture, opacity, destination, x, y, width, height)
        case .sourceOut: run(CPUSourceOut.self, picture, opacity, destination, x, y, width, height)
        case .destinationIn: run(CPUDestinationIn.self, picture, opacity, destination, x, y, width, height)
        case .destinationAtop: run(CPUDestinationAtop.self, picture, opacity, destination, x, y, width, height)
        case .plusDarker: run(CPUPlusDarker.self, picture, opacity, destination, x, y, width, height)
        default: return
        }
    }

    /// The loop, specialised for each formula.
    private static func run<F: CPUBlendFormula>(
        _ formula: F.Type, _ picture: OpaquePointer, _ opacity: UInt8, _ destination: OpaquePointer, _ x: Int,
        _ y: Int, _ width: Int, _ height: Int
    ) {
        guard let source = pixman_image_get_data(picture), let target = pixman_image_get_data(destination) else {
            return
        }
        let sourceStride = Int(pixman_image_get_stride(picture)) / 4
        let targetStride = Int(pixman_image_get_stride(destination)) / 4
        let (targetWidth, targetHeight) = (Int(pixman_image_get_width(destination)),
                                           Int(pixman_image_get_height(destination)))
        let rows = max(0, -y)..<min(height, targetHeight - y)
        let columns = max(0, -x)..<min(width, targetWidth - x)
        guard !rows.isEmpty, !columns.isEmpty else { return }
        let m = UInt32(opacity)
        for row in rows {
            let from = source + row * sourceStride
            let to = target + (y + row) * targetStride + x
            for column in columns {
                let s = m == 255 ? from[column] : scaled(from[column], by: m)
                guard s >> 24 != 0 else { continue }
                to[column] = pack(F.apply(unpack(s), unpack(to[column])))
            }
        }
    }

    /// Each channel of `p` times m / 255, rounded (pixman's UN8x4_MUL_UN8).
    @inline(__always)
    static func scaled(_ p: UInt32, by m: UInt32) -> UInt32 {
        var low = (p & 0x00ff_00ff) &* m &+ 0x0080_0080
        low = ((low &+ ((low >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
        var high = ((p >> 8) & 0x00ff_00ff) &* m &+ 0x0080_0080
        high = (high &+ ((high >> 8) & 0x00ff_00ff)) & 0xff00_ff00
        return low | high
    }

    /// A pixel's channels (B, G, R, A in memory order) in 0...1.
    @inline(__always)
    static func unpack(_ p: UInt32) -> SIMD4<Float> {
        SIMD4<Float>(SIMD4<UInt32>(p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, p >> 24)) * (1 / 255)
    }

    /// Channels in 0...1 (clamped) as a pixel, each rounded to the nearest byte.
    @inline(__always)
    static func pack(_ c: SIMD4<Float>) -> UInt32 {
        let v = SIMD4<UInt32>(
            (c.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 1)) * 255 + 0.5)
                .rounded(.down))
        return v.x | v.y << 8 | v.z << 16 | v.w << 24
    }
}
