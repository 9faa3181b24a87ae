import Foundation

/// How a finished group's picture is combined with the buffer below it. Both work on premultiplied pixels, after
/// the group's mask and opacity have scaled the picture: `p` is a pixel of the scaled picture, `d` the pixel below.
public enum GroupComposite: String, Hashable, Sendable, CaseIterable {
    /// Porter-Duff source-over, `p + d x (1 - alpha(p))`: the picture covers what is below it as far as it is opaque.
    /// What every layer group uses.
    case sourceOver
    /// Porter-Duff plus (canvas "lighter", pixman `PIXMAN_OP_ADD`, GL blend ONE, ONE): `min(p + d, 1)` in every
    /// channel, alpha included. For cross-dissolves: inside a transparent buffer, A at opacity 1 - t composited
    /// source-over and then B at opacity t composited with plus give exactly (1 - t) x A + t x B, so two opaque
    /// pictures stay opaque at every t (source-over would let the one below show through). Channels that sum past
    /// 1 are clamped, which keeps every colour channel at or below alpha.
    case plus
    /// A layer's blend mode or compositing operation (`compositingFilter`, docs/semantics.md "Blend modes"): W3C
    /// "Compositing and Blending Level 1" on premultiplied colour, the blend modes composited source-over. Where the
    /// picture is transparent (alpha 0) the pixels below are left as they are, whatever the operation. pixman has
    /// operators for most (`GroupComposite.pixmanOperator` in LaminaCPU); the GLES renderer draws them with
    /// Shaders/blend.frag over a copy of the pixels below, since no GL blend function expresses them.
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight, difference, exclusion
    /// The non-separable modes: hue, saturation, colour or luminosity of the picture on the rest of the pixel below.
    case hue, saturation, color, luminosity
    /// Porter-Duff operations as named (picture p is the source, d the destination).
    case sourceAtop, sourceIn, sourceOut, destinationOver, destinationIn, destinationOut, destinationAtop, xor
    /// `min(p + d, 1)` per channel, alpha included: `plus`'s formula, for a layer's `plusLighter` (kept apart from
    /// `plus` so that a rounded clip treats it as the layer's blend mode).
    case plusLighter
    /// `max(0, 1 - ((1 - p) + (1 - d)))` per channel, alpha included.
    case plusDarker

    /// True for a layer's blend mode or compositing operation (a layer's `compositingFilter`): the group is combined
    /// with what was drawn before it inside its enclosing group, so that enclosing group must be drawn offscreen.
    public var isBlendMode: Bool { self != .sourceOver && self != .plus }
}
