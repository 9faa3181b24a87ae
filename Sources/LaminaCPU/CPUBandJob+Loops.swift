import CPixman
import LaminaCore

// Where the bands hand the common cases to Lamina's own loops (`CPUCompositeLoops`) instead of pixman: 1:1 copies
// of a texture (CPUBandJob+Blit.swift, and the general path's whole-pixel textures), a source-over group's
// buffer through its opacity, and solid quads without a mask. The callers check what the loops cannot see: no
// coverage mask, no clip region on the destination, no transform on the source. pixman's form
// (`LAMINA_CPU_SIMD=pixman`) draws everything through pixman, as before.

extension CPUBandJob {
    /// Draws a solid quad's pixels x0..<x1, y0..<y1 (no mask, no clip region) with the loops, as `composite` would
    /// through pixman: SRC of an opaque colour, else OVER. False when the loops are pixman's or the quad needs an
    /// opacity mask (an analytic quad's colour is not scaled by its opacity): the caller draws it.
    func fillSolid(
        _ item: CPUPreparedQuad, x0: Int, y0: Int, x1: Int, y1: Int, origin: (x: Int32, y: Int32),
        _ destination: OpaquePointer
    ) -> Bool {
        guard loops != .pixman, item.blit == nil, case .solid = item.quad.paint else { return false }
        let scaledSolid = item.solid != nil && !item.quad.hasAnalyticCoverage
        guard scaledSolid || item.opacityMask == 255 else { return false }
        let q = (item.solid ?? PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)).quantized
        let color = UInt32(q.alpha) << 24 | UInt32(q.red) << 16 | UInt32(q.green) << 8 | UInt32(q.blue)
        return loops.fill(color, onto: destination, dx: x0 - Int(origin.x), dy: y0 - Int(origin.y), width: x1 - x0,
                          height: y1 - y0, replacing: q.alpha == 255)
    }

    /// True when a quad's boxes are drawn one by one rather than through a clip region: a solid colour's pixels do
    /// not depend on where a fill starts, and the loops fill a box without pixman's region.
    func drawsBoxesOneByOne(_ item: CPUPreparedQuad) -> Bool {
        guard loops != .pixman, item.blit == nil, item.mip == nil, case .solid = item.quad.paint else { return false }
        return true
    }
}
