import LaminaCore

/// What to copy into the back one of two scanout buffers that take turns (DRM dumb buffers, fbdev's two halves).
/// The back buffer last got the frame before the previous one, so it lacks this frame's damage and the previous
/// frame's: the union of the two is copied. A buffer never filled gets the whole frame.
struct AlternatingBufferDamage {
    private var previous = DamageRegion()
    private var filled = [false, false]

    /// The region to copy into `buffer` (0 or 1) for a frame of `size` whose damage is `damage`.
    mutating func region(for buffer: Int, damage: DamageRegion, size: PixelSize) -> DamageRegion {
        var region: DamageRegion
        if filled[buffer] {
            region = damage
            region.formUnion(previous)
        } else {
            region = .full(width: size.width, height: size.height)
            filled[buffer] = true
        }
        previous = damage
        return region.clipped(to: PixelBox(x0: 0, y0: 0, x1: size.width, y1: size.height))
    }
}
