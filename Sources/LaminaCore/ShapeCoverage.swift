import Foundation

/// A `CoverageShape` in 32-bit floats, and the coverage formula both renderers evaluate from it
/// (docs/semantics.md, "Coverage in the shader"). The GLES renderer uploads these values to its shape table and
/// its fragment shader (Shaders/shape.glsl) computes each pixel's coverage from them; the CPU renderer computes the
/// very same operations in the very same order here, in `Float`, and rounds to 8 bits the same way, so the two
/// agree to the last bit wherever the GPU rounds as IEEE single precision does.
///
/// The formula: the pixel centre is mapped through `fromTarget` into the shape's plane; its signed distance to the
/// outline (negative inside) is divided by the length of the distance's gradient in target pixels (the map's
/// Jacobian applied to the outline's normal; for a similarity, the map's scale), and the coverage is
/// clamp(0.5 - that, 0, 1), less the hole's coverage for a border.
public struct ShapeCoverage: Hashable, Sendable {
    /// An outline: centre, half width, half height, and the radii (top left, top right, bottom right, bottom left),
    /// each limited to half the shorter side as `RoundedRect` limits them.
    public struct Outline: Hashable, Sendable {
        public var cx: Float, cy: Float, hw: Float, hh: Float
        public var topLeft: Float, topRight: Float, bottomRight: Float, bottomLeft: Float

        public init(_ rect: RoundedRect) {
            let r = rect.rect
            cx = Float(r.midX); cy = Float(r.midY)
            hw = Float(r.width / 2); hh = Float(r.height / 2)
            topLeft = Float(rect.radii.topLeft); topRight = Float(rect.radii.topRight)
            bottomRight = Float(rect.radii.bottomRight); bottomLeft = Float(rect.radii.bottomLeft)
        }
    }

    /// Target pixels to the shape's plane, row-vector convention ((x, y, 1) x m), scaled so that the largest of
    /// m13, m23, m33 is 1 in magnitude (float precision under perspective).
    public var m11: Float, m12: Float, m13: Float
    public var m21: Float, m22: Float, m23: Float
    public var m31: Float, m32: Float, m33: Float
    public var outer: Outline
    public var inner: Outline?
    /// Corners are `RoundedRect.Curve.continuous` (both outlines).
    public var continuous: Bool
    /// When the map is a similarity (affine: a uniform scale, with or without a turn or a flip), its scale: plane
    /// units per target pixel, sqrt(m11 m11 + m12 m12). The Jacobian then lengthens every unit normal by exactly that,
    /// so a distance in the plane is that distance / scale in target pixels, with no normal and no gradient worked
    /// out per pixel. Nil for other maps (non-uniform scales, shears, perspective), which take the Jacobian.
    public var similarityScale: Float?

    /// Floats a shape takes in the GLES shape table: 8 RGBA32F texels.
    public static let tableFloats = 32

    /// Nil when the shape's map cannot be inverted or the shape is empty.
    public init?(_ shape: CoverageShape) {
        guard !shape.outer.isEmpty, let m = shape.toTarget.inverted, m.isFinite else { return nil }
        let k = 1 / max(abs(m.m13), abs(m.m23), abs(m.m33))
        guard k.isFinite, k > 0 else { return nil }
        m11 = Float(m.m11 * k); m12 = Float(m.m12 * k); m13 = Float(m.m13 * k)
        m21 = Float(m.m21 * k); m22 = Float(m.m22 * k); m23 = Float(m.m23 * k)
        m31 = Float(m.m31 * k); m32 = Float(m.m32 * k); m33 = Float(m.m33 * k)
        outer = Outline(shape.outer)
        inner = shape.inner.map(Outline.init)
        continuous = shape.outer.curve == .continuous
        // Floats hold a distance to 1/128 pixel up to 1e5; past that (or overflowing) the shape is left to the
        // CPU's coverage in doubles (CoverageShape.Prepared), on both renderers.
        let limit: Float = 1e5
        for value in [m11, m12, m13, m21, m22, m23, m31, m32, m33] where !value.isFinite { return nil }
        if m13 == 0, m23 == 0, m33 == 1, (m11 == m22 && m12 == -m21) || (m11 == -m22 && m12 == m21),
            case let scale = (m11 * m11 + m12 * m12).squareRoot(), scale > 1e-12, scale.isFinite
        {
            similarityScale = scale
        }
        for o in [outer, inner ?? outer] {
            for value in [o.cx, o.cy, o.hw, o.hh, o.topLeft, o.topRight, o.bottomRight, o.bottomLeft]
            where !(abs(value) < limit) { return nil }
        }
    }

    /// The map has no perspective row (m13 = m23 = 0, m33 = 1): w is 1 at every pixel, so `coverage`'s division
    /// and Jacobian give the map's own numbers, and the GLES shader skips them (GLESProgram.ShapeFeatures).
    public var isAffine: Bool { m13 == 0 && m23 == 0 && m33 == 1 }

    /// Appends the shape's table entry: m11 m12 m13 m21 | m22 m23 m31 m32 | m33 continuous hasInner opacity |
    /// outer cx cy hw hh | outer radii | inner cx cy hw hh | inner radii | tint alpha (-1: none), similarity scale
    /// (0: none), 0, 0.
    /// `opacity` and `tintAlpha` are the quad's, for the shader's rounding of coverage x opacity to 8 bits.
    public func write(into table: inout [Float], opacity: Float, tintAlpha: Float) {
        table.append(m11); table.append(m12); table.append(m13); table.append(m21)
        table.append(m22); table.append(m23); table.append(m31); table.append(m32)
        table.append(m33); table.append(continuous ? 1 : 0); table.append(inner == nil ? 0 : 1)
        table.append(opacity)
        for outline in [outer, inner ?? outer] {
            table.append(outline.cx); table.append(outline.cy); table.append(outline.hw); table.append(outline.hh)
            table.append(outline.topLeft); table.append(outline.topRight); table.append(outline.bottomRight)
            table.append(outline.bottomLeft)
        }
        table.append(tintAlpha); table.append(similarityScale ?? 0); table.append(0); table.append(0)
    }

    /// The coverage of pixel (x, y) in 8-bit steps, 0...255: floor(coverage x 255 + 0.5), as the shader rounds it.
    @inlinable
    public func coverageByte(_ x: Int, _ y: Int) -> UInt8 {
        let byte = (coverage(Float(x) + 0.5, Float(y) + 0.5) * 255 + 0.5).rounded(.down)
        // NaN (never from finite parameters) gives 0.
        return byte >= 255 ? 255 : byte > 0 ? UInt8(byte) : 0
    }

    /// The coverage, 0...1, of the pixel whose centre is (px, py).
    @inlinable
    public func coverage(_ px: Float, _ py: Float) -> Float {
        let u = px * m11 + py * m21 + m31, v = px * m12 + py * m22 + m32
        let w = px * m13 + py * m23 + m33
        guard w > 1e-9 else { return 0 }
        let qx = u / w, qy = v / w
        // d(q)/d(pixel): the projective map's Jacobian at this centre.
        let dxdx = (m11 - qx * m13) / w, dydx = (m12 - qy * m13) / w
        let dxdy = (m21 - qx * m23) / w, dydy = (m22 - qy * m23) / w
        func pixels(_ outline: Outline) -> Float {
            let (d, nx, ny) = Self.signedDistance(outline, qx, qy, continuous: continuous)
            if let similarityScale { return d / similarityScale }
            let gx = nx * dxdx + ny * dydx, gy = nx * dxdy + ny * dydy
            let gradient = (gx * gx + gy * gy).squareRoot()
            guard gradient > 1e-12 else { return d < 0 ? -1e30 : 1e30 }
            return d / gradient
        }
        var value = min(max(0.5 - pixels(outer), 0), 1)
        if let inner, value > 0 { value = max(0, value - min(max(0.5 - pixels(inner), 0), 1)) }
        return value
    }

    /// The signed distance from (x, y) to the outline (negative inside) and the outward normal nearest to it.
    @inlinable
    static func signedDistance(_ o: Outline, _ x: Float, _ y: Float, continuous: Bool)
        -> (distance: Float, nx: Float, ny: Float)
    {
        let right = x >= o.cx, below = y >= o.cy
        let r = below ? (right ? o.bottomRight : o.bottomLeft) : (right ? o.topRight : o.topLeft)
        let sx: Float = right ? 1 : -1, sy: Float = below ? 1 : -1
        if continuous, r > 0 {
            // u, v: how far inside the vertical and the horizontal edge the point lies (negative: outside).
            let u = o.hw - abs(x - o.cx), v = o.hh - abs(y - o.cy)
            let corner = ContinuousCornerF(radius: r, halfSide: max(0, min(o.hw, o.hh)))
            guard u < corner.extent, v < corner.extent else { return u < v ? (-u, sx, 0) : (-v, 0, sy) }
            let (distance, gu, gv) = corner.signedDistance(u, v)
            return (distance, -sx * gu, -sy * gv)
        }
        let qx = abs(x - o.cx) - o.hw + r
        let qy = abs(y - o.cy) - o.hh + r
        if qx > 0, qy > 0 {
            let length = (qx * qx + qy * qy).squareRoot()
            return (length - r, sx * qx / length, sy * qy / length)
        }
        return qx > qy ? (qx - r, sx, 0) : (qy - r, 0, sy)
    }
}

/// `ContinuousCorner` in 32-bit floats, as Shaders/shape.glsl computes it: the ten points blended between the
/// circular and the continuous corner, and the nearest point of each of the three cubics by 17 samples and 6 Newton
/// steps.
@usableFromInline
struct ContinuousCornerF {
    /// `ContinuousCorner.circular` and `.continuous`, rounded to floats (the shader holds the same literals).
    @usableFromInline static let circular: [Float] = [
        1, 0, 0.8244633, 0, 0.6520192, 0.046206266, 0.5, 0.1339746, 0.3479808, 0.22174293, 0.22174293, 0.3479808,
        0.1339746, 0.5, 0.046206266, 0.6520192, 0, 0.8244633, 0, 1,
    ]
    @usableFromInline static let continuous: [Float] = [
        1.5286648, 0, 1.0884932, 0, 0.8684069, 0.02196911, 0.6699343, 0.065496, 0.37081918, 0.16201214,
        0.16201214, 0.37081918, 0.065496, 0.6699343, 0.02196911, 0.8684069, 0, 1.0884932, 0, 1.5286648,
    ]

    @usableFromInline let extent: Float
    /// x0, y0, ..., x9, y9.
    @usableFromInline var p: (Float, Float, Float, Float, Float, Float, Float, Float, Float, Float,
                              Float, Float, Float, Float, Float, Float, Float, Float, Float, Float)

    @inlinable
    init(radius r: Float, halfSide: Float) {
        var t: Float = 1
        if 1.5286648 * r > halfSide, r > 0 { t = min(max((halfSide / r - 1) / 0.5286648, 0), 1) }
        extent = r * ((1 - t) + t * 1.5286648)
        p = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &p) { raw in
            let out = raw.bindMemory(to: Float.self)
            for i in 0..<20 { out[i] = r * ((1 - t) * Self.circular[i] + t * Self.continuous[i]) }
        }
    }

    @inlinable
    func signedDistance(_ u: Float, _ v: Float) -> (distance: Float, gu: Float, gv: Float) {
        withUnsafeBytes(of: p) { raw in
            let pt = raw.bindMemory(to: Float.self)
            var bestD2: Float = 1e30, bestX: Float = 0, bestY: Float = 0, bestTx: Float = 0, bestTy: Float = 0
            for piece in 0..<3 {
                let b = 6 * piece
                let p0x = pt[b], p0y = pt[b + 1], p1x = pt[b + 2], p1y = pt[b + 3]
                let p2x = pt[b + 4], p2y = pt[b + 5], p3x = pt[b + 6], p3y = pt[b + 7]
                func at(_ s: Float) -> (Float, Float) {
                    let m = 1 - s
                    let a = m * m * m, b = 3 * m * m * s, c = 3 * m * s * s, d = s * s * s
                    return (a * p0x + b * p1x + c * p2x + d * p3x, a * p0y + b * p1y + c * p2y + d * p3y)
                }
                func derivative(_ s: Float) -> (Float, Float) {
                    let m = 1 - s
                    let a = 3 * m * m, b = 6 * m * s, c = 3 * s * s
                    return (a * (p1x - p0x) + b * (p2x - p1x) + c * (p3x - p2x),
                            a * (p1y - p0y) + b * (p2y - p1y) + c * (p3y - p2y))
                }
                func second(_ s: Float) -> (Float, Float) {
                    let m = 1 - s
                    return (6 * m * (p2x - 2 * p1x + p0x) + 6 * s * (p3x - 2 * p2x + p1x),
                            6 * m * (p2y - 2 * p1y + p0y) + 6 * s * (p3y - 2 * p2y + p1y))
                }
                var s: Float = 0, nearest: Float = 1e30
                for step in 0...16 {
                    let q = at(Float(step) / 16)
                    let d2 = (q.0 - u) * (q.0 - u) + (q.1 - v) * (q.1 - v)
                    if d2 < nearest { (nearest, s) = (d2, Float(step) / 16) }
                }
                for _ in 0..<6 {
                    let q = at(s), d1 = derivative(s), dd = second(s)
                    let f = (q.0 - u) * d1.0 + (q.1 - v) * d1.1
                    let g = d1.0 * d1.0 + d1.1 * d1.1 + (q.0 - u) * dd.0 + (q.1 - v) * dd.1
                    if abs(g) > 1e-12 { s = min(max(s - f / g, 0), 1) }
                }
                let q = at(s)
                let d2 = (q.0 - u) * (q.0 - u) + (q.1 - v) * (q.1 - v)
                if d2 < bestD2 {
                    var tangent = derivative(s)
                    if tangent.0 * tangent.0 + tangent.1 * tangent.1 < 1e-24 { tangent = (p3x - p0x, p3y - p0y) }
                    (bestD2, bestX, bestY, bestTx, bestTy) = (d2, q.0, q.1, tangent.0, tangent.1)
                }
            }
            // The curve runs from the edge v = 0 to the edge u = 0; its outward normal (towards the corner) is the
            // tangent turned a quarter anticlockwise.
            let length = (bestTx * bestTx + bestTy * bestTy).squareRoot()
            let nu: Float = length > 0 ? -bestTy / length : -0.70710677
            let nv: Float = length > 0 ? bestTx / length : -0.70710677
            let du = u - bestX, dv = v - bestY
            let distance = bestD2.squareRoot()
            let outside = du * nu + dv * nv > 0 || u < 0 || v < 0
            guard distance > 1e-12 else { return (0, nu, nv) }
            let sign: Float = outside ? 1 : -1
            return (sign * distance, sign * du / distance, sign * dv / distance)
        }
    }
}

extension Quad {
    /// True when the quad's coverage is its own pixels times its shape's coverage alone (a shape, no antialiased
    /// edges): renderers that compute the shape's coverage per pixel (the GLES fragment shader) draw `shapeBoxes`.
    public var hasShapeCoverageOnly: Bool {
        guard let shape, antialiasedEdges.isEmpty else { return false }
        return ShapeCoverage(shape) != nil || shape.outer.isEmpty || shape.toTarget.inverted == nil
    }

    /// The boxes of pixels that `analyticCoverage` multiplies by the shape's coverage, for a quad with
    /// `hasShapeCoverageOnly`: for a solid quad that fills its shape, every pixel the shape may touch (within the clip
    /// and the target); else the quad's own pixels. Empty when the shape covers nothing; nil without a shape.
    public func shapeBoxes(width: Int, height: Int) -> [PixelBox]? {
        guard let shape, antialiasedEdges.isEmpty else { return nil }
        guard ShapeCoverage(shape) != nil else { return [] }
        let margin: CGFloat = 0.5 + 1.0 / 64
        let solidShape = shape.paintsWholeShape(paint)
        // The outline's reach (CoverageShape.Prepared.touched): needed for a solid shape, and to know that
        // something of the shape is in front of the eye under perspective.
        guard solidShape || !shape.toTarget.isAffine else { return pixelCoverage(width: width, height: height).boxes }
        guard let touched = CoverageShape.Prepared.planes(shape.outer.rect, shape.toTarget, offset: margin) else {
            return []
        }
        guard solidShape else { return pixelCoverage(width: width, height: height).boxes }
        var region = ConvexPolygon(rect: CGRect(x: 0, y: 0, width: width, height: height))
        for plane in touched { region = region.clipped(a: plane.a, b: plane.b, c: plane.c) }
        if let clip { region = region.intersection(clip) }
        return region.isEmpty ? [] : PixelCoverage(region).boxes
    }
}
