import LaminaCore

/// The pixels of a quad with analytic coverage: boxes covered wholly (drawn like plain boxes, with the quad's
/// opacity), and the partly covered pixels as an 8-bit mask of coverage x opacity over `bounds`, rows of `stride`
/// bytes (pixman wants a multiple of 4), drawn a piece at a time (`pieces`, mask-relative boxes holding every
/// non-zero byte) so that a thin outline does not cost its whole bounding box. Shared read-only by the bands.
final class CPUEdgeCoverage: @unchecked Sendable {
    let full: [PixelBox]
    let fullBounds: PixelBox?
    let mask: [UInt8]
    let bounds: PixelBox
    let stride: Int
    let pieces: [PixelBox]

    init(full: [PixelBox], fullBounds: PixelBox?, mask: [UInt8], bounds: PixelBox, stride: Int, pieces: [PixelBox]) {
        (self.full, self.fullBounds, self.mask, self.bounds, self.stride, self.pieces) =
            (full, fullBounds, mask, bounds, stride, pieces)
    }
}
