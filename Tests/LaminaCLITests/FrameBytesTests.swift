import Foundation
import LaminaBench
import LaminaCore
import Testing

/// The memcpy floor's byte count (`FrameBytes`) on a small scene whose every figure is worked out by hand.
@Suite struct FrameBytesTests {
    /// A quad showing texels (tx, ty, tw, th) of `image` in target pixels (x, y, w, h).
    static func textured(_ image: Image, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat,
                         texels: (CGFloat, CGFloat, CGFloat, CGFloat)) -> Quad {
        Quad(unitToTarget: .affine(a: w, b: 0, c: 0, d: h, tx: x, ty: y),
             paint: .texture(TextureSource(
                image: image, unitToTexel: .affine(a: texels.2, b: 0, c: 0, d: texels.3, tx: texels.0, ty: texels.1),
                clamp: TexelRect(x0: Int(texels.0), y0: Int(texels.1), x1: Int(texels.0 + texels.2),
                                 y1: Int(texels.1 + texels.3)),
                filter: .linear)))
    }

    @Test func countsCoveredPixelsWrittenAndSampledTexelsRead() throws {
        let image = try Image(width: 64, height: 64)
        let plan = RenderPlan(width: 100, height: 80, quads: [
            // The background: 100 x 80 pixels written, nothing read.
            Quad(unitToTarget: .affine(a: 100, b: 0, c: 0, d: 80, tx: 0, ty: 0),
                 paint: .solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1))),
            // 1:1: 20 x 10 pixels, 200 texels.
            Self.textured(image, 10, 10, 20, 10, texels: (0, 0, 20, 10)),
            // Halved: 40 x 40 texels onto 20 x 20 pixels, read as one texel per pixel: 400.
            Self.textured(image, 40, 10, 20, 20, texels: (0, 0, 40, 40)),
            // Magnified 4x: 10 x 10 texels onto 40 x 40 pixels: 1,600 written, 100 read.
            Self.textured(image, 50, 30, 40, 40, texels: (8, 8, 10, 10)),
            // Three quarters outside the target: 10 x 10 of its 20 x 20 pixels, 100 of its 400 texels.
            Self.textured(image, 90, 70, 20, 20, texels: (0, 0, 20, 20)),
            // Wholly outside: nothing.
            Self.textured(image, 200, 10, 20, 20, texels: (0, 0, 20, 20)),
        ])
        let bytes = FrameBytes(plan: plan)
        #expect(bytes.written == (8_000 + 200 + 400 + 1_600 + 100) * 4)
        #expect(bytes.read == (200 + 400 + 100 + 100) * 4)
    }

    @Test func aMinifiedQuadReadsAtMostItsClampRectangle() throws {
        let image = try Image(width: 64, height: 64)
        // 4 x 4 texels stretched over 40 x 40 pixels: the 16 texels of the clamp, not 1,600.
        let plan = RenderPlan(width: 64, height: 64, quads: [Self.textured(image, 0, 0, 40, 40, texels: (0, 0, 4, 4))])
        #expect(FrameBytes(plan: plan) == FrameBytes(read: 16 * 4, written: 1_600 * 4))
    }
}
