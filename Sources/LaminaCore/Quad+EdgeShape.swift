import Foundation

// Turned, sheared and perspective quads with antialiased edges take their coverage from the shape formula
// (docs/semantics.md, "Coverage in the shader"): their own outline is a rectangle of radius 0 in a plane where it is
// `width` x `height` target pixels along its sides, and `ShapeCoverage` gives each pixel clamp(0.5 - d, 0, 1), d the
// distance in target pixels from the pixel centre to the outline (the largest of the four edges' distances inside,
// the distance to the nearest corner past a corner). The GLES renderer evaluates it in the fragment shader from the
// shape table (one instance over the quad's box, no span table and no instance per edge pixel); the CPU renderer
// evaluates the same float operations. Perspective quads take the same formula, their outline in the unit square's
// plane scaled by the longer projected length of each pair of opposite sides, and the map's Jacobian turns each
// distance into target pixels per pixel. Upright quads keep the exact area (there it is the same value, but for the
// product at the four corner pixels), and so do quads with only some edges antialiased (the cells of a nine-slice),
// whose other edges stay on the pixel-centre rule.

extension Quad {
    /// This quad with its antialiased edges made a shape (`CoverageShape.outlinesQuad`), when it is turned, sheared or
    /// seen in perspective (wholly in front of the eye), has all four edges antialiased and no shape of its own; else
    /// the quad itself.
    public var edgesAsShape: Quad {
        guard antialiasedEdges == .all, shape == nil else { return self }
        let m = unitToTarget
        let width: CGFloat, height: CGFloat
        if m.isAffine {
            guard m.m12 != 0 || m.m21 != 0 else { return self }
            // The outline's sides in target pixels: the plane is the quad's own, scaled so that along each side a
            // unit is a pixel (for a turned quad, the distances in the plane are target pixels).
            width = (m.m11 * m.m11 + m.m12 * m.m12).squareRoot()
            height = (m.m21 * m.m21 + m.m22 * m.m22).squareRoot()
        } else {
            // w is linear over the square: positive at its corners, positive everywhere on it.
            let corners = [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1), CGPoint(x: 0, y: 1)]
                .map(m.apply)
            guard corners.allSatisfy({ $0.w > 1e-9 }) else { return self }
            let p = corners.map(\.projected)
            func length(_ a: CGPoint, _ b: CGPoint) -> CGFloat { hypot(b.x - a.x, b.y - a.y) }
            width = max(length(p[0], p[1]), length(p[3], p[2]))
            height = max(length(p[0], p[3]), length(p[1], p[2]))
        }
        guard width.isNormal, height.isNormal, width.isFinite, height.isFinite,
            case let toTarget = Matrix3.scale(1 / width, 1 / height).concatenating(m), toTarget.inverted != nil
        else { return self }
        var quad = self
        quad.antialiasedEdges = []
        quad.shape = CoverageShape(
            toTarget: toTarget,
            outer: RoundedRect(rect: CGRect(x: 0, y: 0, width: width, height: height), radii: .zero),
            outlinesQuad: true)
        return quad
    }
}
