import CPixman
import Foundation
import LaminaCore

/// Samples a texture under a perspective map into a pixman buffer, pixel by pixel, the way the GLES texture shader
/// does (texture.frag): the pixel centre through the target-to-texel map with a division per pixel, texel
/// centres at i + 0.5, reads clamped to the clamp rectangle, bilinear weights in 7 bits and the result truncated
/// to 8 bits, or the nearest texel with a point exactly on an edge going down (texture.frag evaluates the map at each
/// pixel centre for nearest, in this order, so a map of whole or binary-fraction terms gives both renderers the
/// same points exactly).
///
/// pixman has a projective path, but it steps (u, v, w) across a row in 16.16 fixed point and divides the
/// unsigned numerator, so samples drift by texels across a tilted layer and points a rounding step left of texel
/// 0 come out as garbage. Perspective quads are few (3D transforms), so doing them here costs little and keeps
/// the two renderers' pixels together.
enum CPUProjectiveSampler {
    /// A new a8r8g8b8 buffer for target pixels x0 ..< x1, y0 ..< y1 (its pixel (0, 0) is target (x0, y0)), each
    /// pixel the sample of `image` within `clamp` at `targetToTexel` of its centre; transparent where the map is
    /// behind the eye. nil when pixman cannot make the buffer.
    static func sample(
        _ image: Image, clamp: TexelRect, targetToTexel m: Matrix3, filter: Filter, x0: Int, y0: Int, x1: Int, y1: Int
    ) -> OpaquePointer? {
        let width = x1 - x0, height = y1 - y0
        guard width > 0, height > 0,
            let buffer = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), nil, 0),
            let data = pixman_image_get_data(buffer)
        else { return nil }
        let rowLength = Int(pixman_image_get_stride(buffer)) / 4
        let pixels = image.baseAddress.assumingMemoryBound(to: UInt32.self)
        let rowWords = image.bytesPerRow / 4
        let (lx, ly, hx, hy) = (clamp.x0, clamp.y0, clamp.x1 - 1, clamp.y1 - 1)
        @inline(__always) func texel(_ x: Int, _ y: Int) -> UInt32 {
            pixels[min(max(y, ly), hy) * rowWords + min(max(x, lx), hx)]
        }
        for row in 0..<height {
            let py = Double(y0 + row) + 0.5
            let out = data.advanced(by: row * rowLength)
            for column in 0..<width {
                let px = Double(x0 + column) + 0.5
                let w = px * Double(m.m13) + py * Double(m.m23) + Double(m.m33)
                guard w > 0 else {
                    out[column] = 0
                    continue
                }
                // Beyond 2^24 texels every read clamps to an edge texel anyway (images are at most 16384 wide), so
                // limiting the coordinate there is exact, and keeps far-off points (a huge contentsRect) drawable.
                let far = 16_777_216.0
                let ux = (px * Double(m.m11) + py * Double(m.m21) + Double(m.m31)) / w
                let uy = (px * Double(m.m12) + py * Double(m.m22) + Double(m.m32)) / w
                guard !ux.isNaN, !uy.isNaN else {
                    out[column] = 0
                    continue
                }
                let tx = Float(min(max(ux, -far), far)), ty = Float(min(max(uy, -far), far))
                if filter == .nearest {
                    // The texel whose half-open span (i, i + 1] holds the point, as pixman's nearest filter picks it
                    // (it subtracts its smallest step, 1/65536, then floors): a point exactly on a texel edge takes
                    // the texel before it, at any magnitude (subtracting 1/65536 from a float of 256 or more would
                    // round back to the edge and take the texel after it).
                    out[column] = texel(Int(saturating: tx.rounded(.up)) - 1, Int(saturating: ty.rounded(.up)) - 1)
                    continue
                }
                let sx = tx - 0.5, sy = ty - 0.5
                let fx = sx.rounded(.down), fy = sy.rounded(.down)
                let wx = ((sx - fx) * 128).rounded(.down) / 128, wy = ((sy - fy) * 128).rounded(.down) / 128
                let ix = Int(fx), iy = Int(fy)
                let a = texel(ix, iy), b = texel(ix + 1, iy), c = texel(ix, iy + 1), d = texel(ix + 1, iy + 1)
                var result: UInt32 = 0
                for shift in [0, 8, 16, 24] {
                    func channel(_ word: UInt32) -> Float { Float((word >> UInt32(shift)) & 0xFF) }
                    let top = channel(a) * (1 - wx) + channel(b) * wx
                    let bottom = channel(c) * (1 - wx) + channel(d) * wx
                    let value = (top * (1 - wy) + bottom * wy + 1.0 / 512).rounded(.down)
                    result |= UInt32(min(max(value, 0), 255)) << UInt32(shift)
                }
                out[column] = result
            }
        }
        return buffer
    }
}
