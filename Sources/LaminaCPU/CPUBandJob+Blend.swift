import CPixman
import Foundation
import LaminaCore

// Blend modes and compositing operations on the CPU (docs/semantics.md, "Blend modes"): pixman's operators where
// its formula is the one Lamina promises (its PDF blend modes are W3C's, on premultiplied colour), and a loop of
// our own for the operations pixman lacks or that must leave the pixels beneath unchanged where the group has no
// pixels (pixman's IN, OUT, IN_REVERSE and ATOP_REVERSE clear them).

extension GroupComposite {
    /// pixman's operator for this composite; nil for those `CPUBlend` draws.
    var pixmanOperator: pixman_op_t? {
        switch self {
        case .sourceOver: PIXMAN_OP_OVER
        case .plus, .plusLighter: PIXMAN_OP_ADD
        case .multiply: PIXMAN_OP_MULTIPLY
        case .screen: PIXMAN_OP_SCREEN
        case .overlay: PIXMAN_OP_OVERLAY
        case .darken: PIXMAN_OP_DARKEN
        case .lighten: PIXMAN_OP_LIGHTEN
        case .colorDodge: PIXMAN_OP_COLOR_DODGE
        case .colorBurn: PIXMAN_OP_COLOR_BURN
        case .hardLight: PIXMAN_OP_HARD_LIGHT
        case .softLight: PIXMAN_OP_SOFT_LIGHT
        case .difference: PIXMAN_OP_DIFFERENCE
        case .exclusion: PIXMAN_OP_EXCLUSION
        case .hue: PIXMAN_OP_HSL_HUE
        case .saturation: PIXMAN_OP_HSL_SATURATION
        case .color: PIXMAN_OP_HSL_COLOR
        case .luminosity: PIXMAN_OP_HSL_LUMINOSITY
        // Where the source is transparent these leave the destination as it is, as Lamina's rule asks.
        case .sourceAtop: PIXMAN_OP_ATOP
        case .destinationOver: PIXMAN_OP_OVER_REVERSE
        case .destinationOut: PIXMAN_OP_OUT_REVERSE
        case .xor: PIXMAN_OP_XOR
        case .sourceIn, .sourceOut, .destinationIn, .destinationAtop, .plusDarker: nil
        }
    }
}

/// The compositing operations pixman cannot draw as Lamina defines them, per pixel, in the arithmetic of
/// Shaders/blend.frag (so the two renderers agree to rounding).
enum CPUBlend {
    /// Combines the `width` x `height` pixels of `picture` (from its (0, 0)), scaled by `opacity` (0-255), with the
    /// pixels of `destination` from (x, y) on by `composite`; pixels outside `destination` are skipped.
    static func composite(
        _ composite: GroupComposite, picture: OpaquePointer, opacity: UInt8, into destination: OpaquePointer, x: Int,
        y: Int, width: Int, height: Int
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
                let s = scaled(from[column], by: m)
                // Where the group has no pixels what is beneath is left as it is.
                guard s >> 24 != 0 else { continue }
                to[column] = combine(composite, s, to[column])
            }
        }
    }

    /// Each channel of `pixel` times m / 255, rounded (pixman's MUL_UN8).
    @inline(__always)
    static func scaled(_ pixel: UInt32, by m: UInt32) -> UInt32 {
        guard m < 255 else { return pixel }
        var result: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) as StrideTo<UInt32> {
            let t = ((pixel >> shift) & 0xff) * m + 0x80
            result |= (((t >> 8) + t) >> 8) << shift
        }
        return result
    }

    /// The operation on premultiplied pixels `s` (source, not transparent) and `d`, per channel, alpha included.
    @inline(__always)
    static func combine(_ composite: GroupComposite, _ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = Float(s >> 24) / 255, da = Float(d >> 24) / 255
        var result: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) as StrideTo<UInt32> {
            let sc = Float((s >> shift) & 0xff) / 255, dc = Float((d >> shift) & 0xff) / 255
            let o: Float
            switch composite {
            case .sourceIn: o = sc * da
            case .sourceOut: o = sc * (1 - da)
            case .destinationIn: o = dc * sa
            case .destinationAtop: o = dc * sa + sc * (1 - da)
            case .plusDarker: o = max(1 - ((1 - sc) + (1 - dc)), 0)
            default: o = sc + dc * (1 - sa)
            }
            result |= UInt32((min(max(o, 0), 1) * 255).rounded()) << shift
        }
        return result
    }
}
