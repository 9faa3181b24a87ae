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
}
