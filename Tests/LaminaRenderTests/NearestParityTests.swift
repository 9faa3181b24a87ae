import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Nearest sampling of rotated, skewed and scaled images: both renderers take the same texel at every pixel (the
/// random-tree tests found single pixels a whole texel apart when the CPU sampled through pixman's 16.16 matrix).
@Suite struct NearestParityTests {
    /// A 13 x 11 image of unrelated colours, so a neighbouring texel is always a visible difference.
    static func noise() throws -> Image {
        let image = try Image(width: 13, height: 11)
        var state: UInt32 = 12345
        for y in 0..<11 {
            for x in 0..<13 {
                state = state &* 1_664_525 &+ 1_013_904_223
                image.setRGBA(RGBA8(r: UInt8(state >> 24), g: UInt8((state >> 16) & 0xFF), b: UInt8((state >> 8) & 0xFF),
                                    a: 255), x: x, y: y)
            }
        }
        return image
    }

    @Test func rotatedAndSkewedNearestImagesTakeTheSameTexelsOnBothRenderers() throws {
        let renderers = ReferenceScenes.renderers()
        guard renderers.count == 2 else { return }
        let image = try Self.noise()
        // The random trees' two failures (an affine skew, a rotation with a contentsRect), then a sweep of angles.
        var transforms: [(String, Transform3D, CGRect)] = [
            ("skew", Transform3D(CGAffineTransform(a: 0.09, b: 0.38, c: -1, d: 0.124, tx: -11, ty: 19)),
             CGRect(x: 0, y: 0, width: 1, height: 1)),
            ("rotation", Transform3D(CGAffineTransform(a: 0.7555, b: -0.6551, c: 0.6551, d: 0.7555, tx: -19.11,
                                                                ty: -18.73)), CGRect(x: 0.72, y: 0, width: 0.3, height: 1)),
        ]
        for degrees in stride(from: 3.0, to: 90, by: 7.3) {
            transforms.append(("\(degrees) degrees", Transform3D(rotationAngle: degrees * .pi / 180, x: 0, y: 0, z: 1),
                               CGRect(x: 0, y: 0, width: 1, height: 1)))
        }
        for (name, transform, contentsRect) in transforms {
            let root = Layer()
            root.bounds = CGRect(x: 0, y: 0, width: 128, height: 118)
            root.backgroundColor = .white
            let layer = Layer(frame: CGRect(x: 30, y: 25, width: 67, height: 61))
            layer.contents = image
            layer.contentsRect = contentsRect
            layer.magnificationFilter = .nearest
            layer.transform = transform
            root.addSublayer(layer)
            let a = try renderers[0].render(root), b = try renderers[1].render(root)
            let difference = try #require(ImageDifference(a, b, tolerance: 2, premultiplied: true))
            #expect(Double(difference.pixelsOverTolerance) <= Double(difference.pixelCount) * 0.001, "\(name)")
            // Where the renderers take different texels, the sample point lies within float rounding of a texel
            // edge (docs/semantics.md, "Parity"): nowhere else.
            let planned = try Planner().plan(root)
            guard let quad = planned.quads.last, case .texture(let texture) = quad.paint,
                let map = quad.targetToTexel(texture)
            else { Issue.record("\(name): no texture quad"); continue }
            for y in 0..<a.height {
                for x in 0..<a.width where a.rgba(x: x, y: y).maxChannelDifference(to: b.rgba(x: x, y: y)) > 8 {
                    let t = map.apply(CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)).projected
                    let edge = 1.0 / 65536
                    let distance = min(abs((t.x - edge) - (t.x - edge).rounded()), abs((t.y - edge) - (t.y - edge).rounded()))
                    #expect(distance < 1e-4, "\(name): pixel \(x),\(y) samples texel \(t.x),\(t.y)")
                }
            }
        }
    }
}
