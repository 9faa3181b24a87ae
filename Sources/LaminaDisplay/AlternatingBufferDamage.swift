import LaminaCore

/// What to copy into the back one of two scanout buffers that take turns (DRM dumb buffers, fbdev's two halves):
/// the damage of the frames since the frame the buffer last got, from the output's `DamageRing` (the frame before the
/// previous one, so this frame's damage and the previous frame's). A buffer never filled gets the whole frame.
struct AlternatingBufferDamage {
    private var ring = DamageRing(limit: 4)
    /// The frame each buffer holds.
    private var held: [UInt64?] = [nil, nil]

    /// The region to copy into `buffer` (0 or 1) for a frame of `size` whose damage is `damage`.
    mutating func region(for buffer: Int, damage: DamageRegion, size: PixelSize) -> DamageRegion {
        let frame = ring.add(damage, width: size.width, height: size.height)
        let region = ring.damage(since: held[buffer])
        held[buffer] = frame
        return region
    }
}
