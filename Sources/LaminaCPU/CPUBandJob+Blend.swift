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

/// Four channels (B, G, R, A in memory order) as plain floats: the compiler keeps these in registers, where
/// Swift's generic SIMD operations cost a call each in this loop.
struct Channels {
    var b: Float, g: Float, r: Float, a: Float

    @inline(__always) init(_ b: Float, _ g: Float, _ r: Float, _ a: Float) {
        self.b = b
        self.g = g
        self.r = r
        self.a = a
    }

    @inline(__always) func map(_ f: (Float) -> Float) -> Channels { Channels(f(b), f(g), f(r), f(a)) }
    @inline(__always) static func + (x: Channels, y: Channels) -> Channels {
        Channels(x.b + y.b, x.g + y.g, x.r + y.r, x.a + y.a)
    }
    @inline(__always) static func * (x: Channels, k: Float) -> Channels { Channels(x.b * k, x.g * k, x.r * k, x.a * k) }
}

/// One operation on a premultiplied source pixel `s` (alpha above 0) and destination pixel `d`, channels in 0...1;
/// the result premultiplied, clamped by the caller.
protocol CPUBlendFormula {
    static func apply(_ s: Channels, _ d: Channels) -> Channels
}

/// W3C's B(Cb, Cs) on straight colours (alpha ignored).
protocol CPUBlendFunction {
    static func mix(_ b: Channels, _ s: Channels) -> Channels
}

/// A separable B: the same function of each colour channel.
protocol CPUSeparableBlend: CPUBlendFunction {
    static func channel(_ b: Float, _ s: Float) -> Float
}

extension CPUSeparableBlend {
    @inline(__always)
    static func mix(_ b: Channels, _ s: Channels) -> Channels {
        Channels(channel(b.b, s.b), channel(b.g, s.g), channel(b.r, s.r), 0)
    }
}

/// The blend modes composite source-over: co = cs(1 - ad) + cd(1 - as) + as ad B(Cd, Cs), ao = as + ad - as ad.
enum CPUSourceOverBlend<B: CPUBlendFunction>: CPUBlendFormula {
    @inline(__always)
    static func apply(_ s: Channels, _ d: Channels) -> Channels {
        let sa = s.a, da = d.a
        let cs = s * (1 / sa)
        let cb = da > 0 ? d * (1 / da) : Channels(0, 0, 0, 0)
        let mixed = B.mix(cb, cs).map { min(max($0, 0), 1) }
        var o = s * (1 - da) + d * (1 - sa) + mixed * (sa * da)
        o.a = sa + da - sa * da
        return o
    }
}

/// The non-separable helpers (W3C "Blending"), as Shaders/blend.frag writes them; Lum weighs B, G, R.
enum CPUBlendFunctions {
    @inline(__always) static func lum(_ c: Channels) -> Float { c.b * 0.11 + c.g * 0.59 + c.r * 0.3 }
    @inline(__always) static func low(_ c: Channels) -> Float { min(c.b, c.g, c.r) }
    @inline(__always) static func high(_ c: Channels) -> Float { max(c.b, c.g, c.r) }
    @inline(__always) static func sat(_ c: Channels) -> Float { high(c) - low(c) }

    @inline(__always)
    static func clipColor(_ c: Channels) -> Channels {
        var c = c
        let l = lum(c), n = low(c), x = high(c)
        if n < 0 { c = c.map { l + ($0 - l) * l / (l - n) } }
        if x > 1 { c = c.map { l + ($0 - l) * (1 - l) / (x - l) } }
        return c
    }

    @inline(__always)
    static func setLum(_ c: Channels, _ l: Float) -> Channels {
        let d = l - lum(c)
        return clipColor(c.map { $0 + d })
    }

    @inline(__always)
    static func setSat(_ c: Channels, _ s: Float) -> Channels {
        let n = low(c), x = high(c)
        return x > n ? c.map { ($0 - n) * s / (x - n) } : Channels(0, 0, 0, 0)
    }

    @inline(__always)
    static func hardLight(_ b: Float, _ s: Float) -> Float {
        s <= 0.5 ? b * 2 * s : b + (2 * s - 1) - b * (2 * s - 1)
    }
}

enum CPUMultiply: CPUSeparableBlend { static func channel(_ b: Float, _ s: Float) -> Float { b * s } }
enum CPUScreen: CPUSeparableBlend { static func channel(_ b: Float, _ s: Float) -> Float { b + s - b * s } }
enum CPUOverlay: CPUSeparableBlend {
    static func channel(_ b: Float, _ s: Float) -> Float { CPUBlendFunctions.hardLight(s, b) }
}
enum CPUDarken: CPUSeparableBlend { static func channel(_ b: Float, _ s: Float) -> Float { min(b, s) } }
enum CPULighten: CPUSeparableBlend { static func channel(_ b: Float, _ s: Float) -> Float { max(b, s) } }
enum CPUColorDodge: CPUSeparableBlend {
    static func channel(_ b: Float, _ s: Float) -> Float { b == 0 ? 0 : s >= 1 ? 1 : min(1, b / (1 - s)) }
}
enum CPUColorBurn: CPUSeparableBlend {
    static func channel(_ b: Float, _ s: Float) -> Float { b >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / s) }
}
enum CPUSoftLight: CPUSeparableBlend {
    static func channel(_ b: Float, _ s: Float) -> Float {
        if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
        let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
        return b + (2 * s - 1) * (d - b)
    }
}
enum CPUHardLight: CPUSeparableBlend {
    static func channel(_ b: Float, _ s: Float) -> Float { CPUBlendFunctions.hardLight(b, s) }
}
enum CPUDifference: CPUSeparableBlend { static func channel(_ b: Float, _ s: Float) -> Float { abs(b - s) } }
enum CPUExclusion: CPUSeparableBlend { static func channel(_ b: Float, _ s: Float) -> Float { b + s - 2 * b * s } }
enum CPUHue: CPUBlendFunction {
    static func mix(_ b: Channels, _ s: Channels) -> Channels {
        typealias F = CPUBlendFunctions
        return F.setLum(F.setSat(s, F.sat(b)), F.lum(b))
    }
}
enum CPUSaturation: CPUBlendFunction {
    static func mix(_ b: Channels, _ s: Channels) -> Channels {
        typealias F = CPUBlendFunctions
        return F.setLum(F.setSat(b, F.sat(s)), F.lum(b))
    }
}
enum CPUColor: CPUBlendFunction {
    static func mix(_ b: Channels, _ s: Channels) -> Channels { CPUBlendFunctions.setLum(s, CPUBlendFunctions.lum(b)) }
}
enum CPULuminosity: CPUBlendFunction {
    static func mix(_ b: Channels, _ s: Channels) -> Channels { CPUBlendFunctions.setLum(b, CPUBlendFunctions.lum(s)) }
}

enum CPUSourceIn: CPUBlendFormula {
    static func apply(_ s: Channels, _ d: Channels) -> Channels { s * d.a }
}
enum CPUSourceOut: CPUBlendFormula {
    static func apply(_ s: Channels, _ d: Channels) -> Channels { s * (1 - d.a) }
}
enum CPUDestinationIn: CPUBlendFormula {
    static func apply(_ s: Channels, _ d: Channels) -> Channels { d * s.a }
}
enum CPUDestinationAtop: CPUBlendFormula {
    static func apply(_ s: Channels, _ d: Channels) -> Channels { d * s.a + s * (1 - d.a) }
}
enum CPUPlusDarker: CPUBlendFormula {
    static func apply(_ s: Channels, _ d: Channels) -> Channels { (s + d).map { $0 - 1 } }
}

/// What runs with a formula of `CPUBlend.dispatch`, specialised for it.
protocol CPUBlendBody {
    func run<F: CPUBlendFormula>(_ formula: F.Type)
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
        _ = dispatch(composite, PictureBody(picture: picture, opacity: opacity, destination: destination, x: x, y: y,
                                            width: width, height: height))
    }

    /// True when this loop draws `composite` (and `dispatch` calls its body).
    static func draws(_ composite: GroupComposite) -> Bool { composite.pixmanOperator == nil }

    /// Calls `body` with the formula of `composite`, specialised; false for an operation pixman draws.
    @inline(__always)
    static func dispatch<Body: CPUBlendBody>(_ composite: GroupComposite, _ body: Body) -> Bool {
        switch composite {
        case .multiply: body.run(CPUSourceOverBlend<CPUMultiply>.self)
        case .screen: body.run(CPUSourceOverBlend<CPUScreen>.self)
        case .overlay: body.run(CPUSourceOverBlend<CPUOverlay>.self)
        case .darken: body.run(CPUSourceOverBlend<CPUDarken>.self)
        case .lighten: body.run(CPUSourceOverBlend<CPULighten>.self)
        case .colorDodge: body.run(CPUSourceOverBlend<CPUColorDodge>.self)
        case .colorBurn: body.run(CPUSourceOverBlend<CPUColorBurn>.self)
        case .softLight: body.run(CPUSourceOverBlend<CPUSoftLight>.self)
        case .hardLight: body.run(CPUSourceOverBlend<CPUHardLight>.self)
        case .difference: body.run(CPUSourceOverBlend<CPUDifference>.self)
        case .exclusion: body.run(CPUSourceOverBlend<CPUExclusion>.self)
        case .hue: body.run(CPUSourceOverBlend<CPUHue>.self)
        case .saturation: body.run(CPUSourceOverBlend<CPUSaturation>.self)
        case .color: body.run(CPUSourceOverBlend<CPUColor>.self)
        case .luminosity: body.run(CPUSourceOverBlend<CPULuminosity>.self)
        case .sourceIn: body.run(CPUSourceIn.self)
        case .sourceOut: body.run(CPUSourceOut.self)
        case .destinationIn: body.run(CPUDestinationIn.self)
        case .destinationAtop: body.run(CPUDestinationAtop.self)
        case .plusDarker: body.run(CPUPlusDarker.self)
        default: return false
        }
        return true
    }

    /// A group's picture (a buffer) combined with the pixels beneath.
    private struct PictureBody: CPUBlendBody {
        let picture: OpaquePointer, opacity: UInt8, destination: OpaquePointer, x: Int, y: Int, width: Int,
            height: Int
        func run<F: CPUBlendFormula>(_ formula: F.Type) {
            CPUBlend.run(formula, picture, opacity, destination, x, y, width, height)
        }
    }

    /// One row of a one-quad group's picture, worked out on the fly, combined with the pixels beneath
    /// (CPUBandJob+BlendFastPath.swift): `count` pixels from `to`, each the picture pixel `pixel`, or, with `coverage`,
    /// `pixel` times coverage[i] / 255 (pixman's rounding, as drawing the quad into a cleared buffer gives); then
    /// scaled by `opacity` as `composite` scales a picture.
    struct SpanBody: CPUBlendBody {
        let pixel: UInt32, coverage: UnsafePointer<UInt8>?, opacity: UInt8, to: UnsafeMutablePointer<UInt32>,
            count: Int
        func run<F: CPUBlendFormula>(_ formula: F.Type) {
            CPUBlend.span(formula, pixel, coverage, opacity, to, count)
        }
    }

    /// SpanBody's loop, specialised for each formula.
    private static func span<F: CPUBlendFormula>(
        _ formula: F.Type, _ pixel: UInt32, _ coverage: UnsafePointer<UInt8>?, _ opacity: UInt8,
        _ to: UnsafeMutablePointer<UInt32>, _ count: Int
    ) {
        let m = UInt32(opacity)
        guard let coverage else {
            // A constant picture: only the pixel beneath changes.
            let s = m == 255 ? pixel : scaled(pixel, by: m)
            guard s >> 24 != 0 else { return }
            let source = unpack(s)
            var lastBeneath: UInt32 = 0, lastResult: UInt32 = 0, remembered = false
            for column in 0..<count {
                let beneath = to[column]
                if remembered, beneath == lastBeneath {
                    to[column] = lastResult
                    continue
                }
                let result = pack(F.apply(source, unpack(beneath)))
                to[column] = result
                (lastBeneath, lastResult, remembered) = (beneath, result, true)
            }
            return
        }
        var lastCover: UInt8 = 0, lastBeneath: UInt32 = 0, lastResult: UInt32 = 0, remembered = false
        for column in 0..<count {
            let cover = coverage[column], beneath = to[column]
            if remembered, cover == lastCover, beneath == lastBeneath {
                to[column] = lastResult
                continue
            }
            let raw = cover == 255 ? pixel : scaled(pixel, by: UInt32(cover))
            let s = m == 255 ? raw : scaled(raw, by: m)
            guard s >> 24 != 0 else { continue }
            let result = pack(F.apply(unpack(s), unpack(beneath)))
            to[column] = result
            (lastCover, lastBeneath, lastResult, remembered) = (cover, beneath, result, true)
        }
    }

    /// The loop, specialised for each formula.
    fileprivate static func run<F: CPUBlendFormula>(
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
        // Pictures and what lies beneath them are mostly flat (a card's colour over another's): the last pixel pair
        // and its result are remembered, so a run of equal pairs costs a comparison a pixel, not the formula. The
        // result is the formula's for every pixel all the same.
        // Pairs that come back later (a sprite's colours over a card, a rounded corner's edge row after row) are
        // found in a small table, keyed by the whole pair: key 0 (a transparent source) is never looked up.
        let slots = 1_024
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: slots) { keys in
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: slots) { results in
        keys.initialize(repeating: 0)
        var lastSource: UInt32 = 0, lastBeneath: UInt32 = 0, lastResult: UInt32 = 0, remembered = false
        for row in rows {
            let from = source + row * sourceStride
            let to = target + (y + row) * targetStride + x
            for column in columns {
                let raw = from[column], beneath = to[column]
                guard raw >> 24 != 0 else { continue }
                if remembered, raw == lastSource, beneath == lastBeneath {
                    to[column] = lastResult
                    continue
                }
                let key = UInt64(raw) << 32 | UInt64(beneath)
                let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 54)
                let result: UInt32
                if keys[slot] == key {
                    result = results[slot]
                } else {
                    let s = m == 255 ? raw : scaled(raw, by: m)
                    guard s >> 24 != 0 else { continue }
                    result = pack(F.apply(unpack(s), unpack(beneath)))
                    keys[slot] = key
                    results[slot] = result
                }
                to[column] = result
                (lastSource, lastBeneath, lastResult, remembered) = (raw, beneath, result, true)
            }
        }
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
    static func unpack(_ p: UInt32) -> Channels {
        let k: Float = 1 / 255
        return Channels(Float(p & 0xff) * k, Float((p >> 8) & 0xff) * k, Float((p >> 16) & 0xff) * k,
                        Float(p >> 24) * k)
    }

    /// Channels in 0...1 (clamped) as a pixel, each rounded to the nearest byte.
    @inline(__always)
    static func pack(_ c: Channels) -> UInt32 {
        @inline(__always) func byte(_ x: Float) -> UInt32 { UInt32(min(max(x, 0), 1) * 255 + 0.5) }
        return byte(c.b) | byte(c.g) << 8 | byte(c.r) << 16 | byte(c.a) << 24
    }
}
