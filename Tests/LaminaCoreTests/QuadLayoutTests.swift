import Foundation
import LaminaCore
import Testing

/// Plans copy quads by the thousand (a reused or moved subtree): a quad stays small.
@Suite struct QuadLayoutTests {
    @Test func aQuadStaysSmall() {
        #expect(MemoryLayout<Quad>.stride <= 160, "\(MemoryLayout<Quad>.stride) bytes")
    }

    @Test func aShapeIsComparedByValue() {
        let shape = CoverageShape(toTarget: .identity, outer: RoundedRect(rect: CGRect(x: 0, y: 0, width: 4, height: 4),
                                                                           radii: CornerRadii(topLeft: 1, topRight: 1,
                                                                                              bottomRight: 1, bottomLeft: 1)))
        let a = Quad(unitToTarget: .identity, paint: .solid(PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1)),
                     shape: shape)
        var b = a
        b.shape = shape
        #expect(a == b && a.hashValue == b.hashValue)
        b.shape?.fillsShape = false
        #expect(a != b && b.shape?.fillsShape == false && a.shape?.fillsShape == true)
    }

    /// A quad keeps whether its texture's numbers are finite beside its paint (damage boxes read it without reaching
    /// into the texture's box): it follows the paint however the paint is set, so `hasFiniteGeometry` and the damage
    /// box are what the texture says.
    @Test func theFinitenessOfAPaintFollowsIt() throws {
        let image = try Image(width: 2, height: 2, color: .red)
        func texture(_ scale: Double, mipLevel: Float = 0) -> Paint {
            .texture(TextureSource(image: image, unitToTexel: .scale(scale, scale),
                                   clamp: TexelRect(x0: 0, y0: 0, x1: 2, y1: 2), filter: .nearest, mipLevel: mipLevel))
        }
        let map = Matrix3.scale(4, 4)
        // A quad a renderer cannot place damages the whole target; a finite one its own box.
        var quad = Quad(unitToTarget: map, paint: texture(.infinity))
        let whole = PixelBox(x0: 0, y0: 0, x1: 8, y1: 8)
        #expect(!quad.hasFiniteGeometry && quad.damageBounds(width: 8, height: 8) == whole)
        quad.paint = texture(2)
        #expect(quad.hasFiniteGeometry && quad.damageBounds(width: 8, height: 8) != whole)
        // Changed in place, through the enum's payload.
        if case .texture(var source) = quad.paint {
            source.mipLevel = .nan
            quad.paint = .texture(source)
        }
        #expect(!quad.hasFiniteGeometry)
        withUnsafeMutablePointer(to: &quad) { $0.pointee.paint = texture(2) }
        #expect(quad.hasFiniteGeometry)
        quad.paint = .solid(PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(quad.hasFiniteGeometry)
        #expect(!Quad(unitToTarget: map, paint: texture(1, mipLevel: .infinity)).hasFiniteGeometry)
    }
}
