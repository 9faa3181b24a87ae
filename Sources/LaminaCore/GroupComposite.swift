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
}
