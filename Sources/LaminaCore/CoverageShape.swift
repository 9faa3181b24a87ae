import Foundation

/// The radii of a rounded rectangle's four corners, in the rectangle's own units.
public struct CornerRadii: Hashable, Sendable {
    public var topLeft: CGFloat
    public var topRight: CGFloat
    public var bottomRight: CGFloat
    public var bottomLeft: CGFloat

    public init(topLeft: CGFloat, topRight: CGFloat, bottomRight: CGFloat, bottomLeft: CGFloat) {
        (self.topLeft, self.topRight, self.bottomRight, self.bottomLeft) = (topLeft, topRight, bottomRight, bottomLeft)
    }

    /// The same radius at every corner.
    public init(_ radius: CGFloat) {
        self.init(topLeft: radius, topRight: radius, bottomRight: radius, bottomLeft: radius)
    }

    public static let zero = CornerRadii(0)

    public var isZero: Bool { topLeft <= 0 && topRight <= 0 && bottomRight <= 0 && bottomLeft <= 0 }

    /// Every radius reduced by `amount` (not below 0): the inner edge of a border of that width.
    public func inset(by amount: CGFloat) -> CornerRadii {
        CornerRadii(topLeft: max(0, topLeft - amount), topRight: max(0, topRight - amount),
                    bottomRight: max(0, bottomRight - amount), bottomLeft: max(0, bottomLeft - amount))
    }
}

/// A rectangle with rounded corners: circular (quarter circles) or continuous (Apple's continuous-curvature
/// "squircle" corners). Each radius is limited to half the shorter side, as Core Animation limits cornerRadius, so
/// two corners never overlap.
public struct RoundedRect: Hashable, Sendable {
    /// How a corner turns: `circular`, a quarter circle of the radius; `continuous`, Apple's continuous corner,
    /// which leaves the edge `ContinuousCorner.extent` (1.52866483) x the radius from the corner and is made of
    /// three cubic Béziers with continuous curvature.
    public enum Curve: Hashable, Sendable {
        case circular
        case continuous
    }

    public private(set) var rect: CGRect
    public private(set) var radii: CornerRadii
    public private(set) var curve: Curve

    public init(rect: CGRect, radii: CornerRadii, curve: Curve = .circular) {
        self.rect = rect.standardized
        let limit = max(0, min(self.rect.width, self.rect.height) / 2)
        func fit(_ r: CGFloat) -> CGFloat { r.isFinite ? min(max(r, 0), limit) : 0 }
        self.radii = CornerRadii(topLeft: fit(radii.topLeft), topRight: fit(radii.topRight),
                                 bottomRight: fit(radii.bottomRight), bottomLeft: fit(radii.bottomLeft))
        self.curve = curve
    }

    public var isEmpty: Bool { rect.width <= 0 || rect.height <= 0 }

    /// How far from each corner, along both edges, the corner's curve reaches: the radius for circular corners;
    /// for continuous ones, 1.52866483 x the radius, limited to half the shorter side (`ContinuousCorner`).
    public var extents: CornerRadii {
        guard curve == .continuous else { return radii }
        let half = max(0, min(rect.width, rect.height) / 2)
        func reach(_ r: CGFloat) -> CGFloat { ContinuousCorner(radius: r, halfSide: half).extent }
        return CornerRadii(topLeft: reach(radii.topLeft), topRight: reach(radii.topRight),
                           bottomRight: reach(radii.bottomRight), bottomLeft: reach(radii.bottomLeft))
    }

    /// The signed distance from `p` to the outline (negative inside), and the outline's outward normal nearest
    /// to `p` (the distance's gradient).
    @inlinable
    public func signedDistance(_ x: CGFloat, _ y: CGFloat) -> (distance: CGFloat, nx: CGFloat, ny: CGFloat) {
        let cx = rect.midX, cy = rect.midY
        let right = x >= cx, below = y >= cy
        let r = below ? (right ? radii.bottomRight : radii.bottomLeft) : (right ? radii.topRight : radii.topLeft)
        let sx: CGFloat = right ? 1 : -1, sy: CGFloat = below ? 1 : -1
        if curve == .continuous, r > 0 {
            return continuousDistance(x, y, radius: r, sx: sx, sy: sy)
        }
        // In the quadrant's frame: distance past the straight edges, measured from where the corner's arc starts.
        let qx = abs(x - cx) - rect.width / 2 + r
        let qy = abs(y - cy) - rect.height / 2 + r
        if qx > 0, qy > 0 {
            let length = (qx * qx + qy * qy).squareRoot()
            return (length - r, sx * qx / length, sy * qy / length)
        }
        return qx > qy ? (qx - r, sx, 0) : (qy - r, 0, sy)
    }

    /// `signedDistance` in a quadrant whose corner is continuous, of radius `r`.
    @usableFromInline
    func continuousDistance(_ x: CGFloat, _ y: CGFloat, radius r: CGFloat, sx: CGFloat, sy: CGFloat)
        -> (distance: CGFloat, nx: CGFloat, ny: CGFloat)
    {
        // u, v: how far inside the vertical and the horizontal edge the point lies (negative: outside).
        let u = rect.width / 2 - abs(x - rect.midX), v = rect.height / 2 - abs(y - rect.midY)
        let corner = ContinuousCorner(radius: r, halfSide: max(0, min(rect.width, rect.height) / 2))
        guard u < corner.extent, v < corner.extent else {
            // Beside a straight edge.
            return u < v ? (-u, sx, 0) : (-v, 0, sy)
        }
        let (distance, gu, gv) = corner.signedDistance(u, v)
        // Inward (u, v) is toward the centre: outward in x, y is minus it, in the quadrant's directions.
        return (distance, -sx * gu, -sy * gv)
    }
}

/// One continuous corner (Apple's iOS 7+ rounded rectangle: `UIBezierPath(roundedRect:cornerRadius:)`, and
/// `CALayer.cornerCurve = .continuous`), in the corner's frame: u and v are the distances inside the two edges
/// that meet at the corner. The outline leaves one edge at 1.52866483 r and comes to the other through three cubic
/// Béziers whose control points are fixed fractions of r (the published reconstruction of Apple's path), with the
/// curvature continuous where it meets the straight edges.
///
/// The limit: the curve must fit in half the shorter side `s`. While 1.52866483 r <= s the corner is the
/// continuous one. Past that (r up to s, where the radius itself is limited) the corner is blended towards the
/// circular corner of the same radius: each control point is (1 - t) x the circular arc's (three cubic pieces of 30
/// degrees) + t x the continuous one's, t = (s / r - 1) / 0.52866483, so the curve reaches exactly s, and at
/// r = s (the largest radius) the corner is a quarter circle: a capsule, as Core Animation draws it. The shape
/// changes continuously with r.
public struct ContinuousCorner: Sendable {
    /// The continuous corner's reach along each edge, per unit of radius.
    public static let extentFactor: CGFloat = 1.52866483
    /// The ten points (start, then control, control, end of each of the three cubics) of the continuous corner,
    /// r = 1, from the point on the edge v = 0 to the point on the edge u = 0.
    static let continuous: [(CGFloat, CGFloat)] = [
        (1.52866483, 0),
        (1.08849323, 0), (0.86840689, 0.02196911), (0.66993427, 0.06549600),
        (0.37081918, 0.16201215), (0.16201215, 0.37081918), (0.06549600, 0.66993427),
        (0.02196911, 0.86840689), (0, 1.08849323), (0, 1.52866483),
    ]
    /// The quarter circle of radius 1 centred at (1, 1) as three cubics of 30 degrees each, the same way round.
    static let circular: [(CGFloat, CGFloat)] = {
        let handle = 4.0 / 3.0 * tan(CGFloat.pi / 24)
        func point(_ angle: CGFloat) -> (CGFloat, CGFloat) { (1 - sin(angle), 1 - cos(angle)) }
        var points = [point(0)]
        for piece in 0..<3 {
            let a = CGFloat(piece) * .pi / 6, b = a + .pi / 6
            let pa = point(a), pb = point(b)
            points.append((pa.0 - handle * cos(a), pa.1 + handle * sin(a)))
            points.append((pb.0 + handle * cos(b), pb.1 - handle * sin(b)))
            points.append(pb)
        }
        return points
    }()

    /// How far along each edge the curve reaches.
    public let extent: CGFloat
    /// The ten points, scaled to the radius.
    let points: [(CGFloat, CGFloat)]

    public init(radius: CGFloat, halfSide: CGFloat) {
        let r = max(0, radius)
        var t: CGFloat = 1
        if Self.extentFactor * r > halfSide, r > 0 {
            t = min(max((halfSide / r - 1) / (Self.extentFactor - 1), 0), 1)
        }
        extent = r * ((1 - t) + t * Self.extentFactor)
        points = zip(Self.circular, Self.continuous).map { c, k in
            (r * ((1 - t) * c.0 + t * k.0), r * ((1 - t) * c.1 + t * k.1))
        }
    }

    /// The signed distance from (u, v) to the curve (negative inside the shape) and its gradient in (u, v). Exact:
    /// the nearest point of each cubic is found by sampling, then Newton's method.
    public func signedDistance(_ u: CGFloat, _ v: CGFloat) -> (distance: CGFloat, gu: CGFloat, gv: CGFloat) {
        var best = (d2: CGFloat.infinity, x: CGFloat(0), y: CGFloat(0), tx: CGFloat(0), ty: CGFloat(0))
        for piece in 0..<3 {
            let p0 = points[3 * piece], p1 = points[3 * piece + 1], p2 = points[3 * piece + 2]
            let p3 = points[3 * piece + 3]
            func at(_ s: CGFloat) -> (x: CGFloat, y: CGFloat) {
                let m = 1 - s
                let a = m * m * m, b = 3 * m * m * s, c = 3 * m * s * s, d = s * s * s
                return (a * p0.0 + b * p1.0 + c * p2.0 + d * p3.0, a * p0.1 + b * p1.1 + c * p2.1 + d * p3.1)
            }
            func derivative(_ s: CGFloat) -> (x: CGFloat, y: CGFloat) {
                let m = 1 - s
                let a = 3 * m * m, b = 6 * m * s, c = 3 * s * s
                return (a * (p1.0 - p0.0) + b * (p2.0 - p1.0) + c * (p3.0 - p2.0),
                        a * (p1.1 - p0.1) + b * (p2.1 - p1.1) + c * (p3.1 - p2.1))
            }
            func second(_ s: CGFloat) -> (x: CGFloat, y: CGFloat) {
                let m = 1 - s
                return (6 * m * (p2.0 - 2 * p1.0 + p0.0) + 6 * s * (p3.0 - 2 * p2.0 + p1.0),
                        6 * m * (p2.1 - 2 * p1.1 + p0.1) + 6 * s * (p3.1 - 2 * p2.1 + p1.1))
            }
            var s: CGFloat = 0, nearest = CGFloat.infinity
            for step in 0...16 {
                let q = at(CGFloat(step) / 16)
                let d2 = (q.x - u) * (q.x - u) + (q.y - v) * (q.y - v)
                if d2 < nearest { (nearest, s) = (d2, CGFloat(step) / 16) }
            }
            for _ in 0..<6 {
                let q = at(s), d1 = derivative(s), dd = second(s)
                let f = (q.x - u) * d1.x + (q.y - v) * d1.y
                let g = d1.x * d1.x + d1.y * d1.y + (q.x - u) * dd.x + (q.y - v) * dd.y
                guard abs(g) > 1e-12 else { break }
                s = min(max(s - f / g, 0), 1)
            }
            let q = at(s)
            let d2 = (q.x - u) * (q.x - u) + (q.y - v) * (q.y - v)
            if d2 < best.d2 {
                var tangent = derivative(s)
                if tangent.x * tangent.x + tangent.y * tangent.y < 1e-24 { tangent = (p3.0 - p0.0, p3.1 - p0.1) }
                best = (d2, q.x, q.y, tangent.x, tangent.y)
            }
        }
        // The curve runs from the edge v = 0 to the edge u = 0; its outward normal (towards the corner) is the
        // tangent turned a quarter anticlockwise.
        let length = (best.tx * best.tx + best.ty * best.ty).squareRoot()
        let (nu, nv) = length > 0 ? (-best.ty / length, best.tx / length) : (-0.5.squareRoot(), -0.5.squareRoot())
        let du = u - best.x, dv = v - best.y
        let distance = best.d2.squareRoot()
        let outside = du * nu + dv * nv > 0 || u < 0 || v < 0
        guard distance > 1e-12 else { return (0, nu, nv) }
        let sign: CGFloat = outside ? 1 : -1
        return (sign * distance, sign * du / distance, sign * dv / distance)
    }
}

/// A shape a quad's paint is seen through: a rounded rectangle, or the ring between two (a rounded border), in a
/// plane that `toTarget` maps onto target pixels. Its edges are always antialiased, with the same coverage on
/// every renderer: the signed distance from each pixel centre to the outline, measured in target pixels through
/// the map's local scale, gives coverage clamp(0.5 - distance, 0, 1) (exact for straight axis-aligned edges).
public struct CoverageShape: Hashable, Sendable {
    /// The shape's plane to homogeneous target pixels.
    public var toTarget: Matrix3
    public var outer: RoundedRect
    /// nil, or a hole (the inside of a border).
    public var inner: RoundedRect?
    /// true: a solid quad with this shape paints the whole shape, whatever its own rectangle (a rounded background
    /// or border); false: the shape only clips the quad (a rounded clip handed down to a sublayer's quad).
    public var fillsShape: Bool
    /// true: the shape is the quad's own outline (`Quad.edgesAsShape`: a turned or sheared quad whose four edges are
    /// antialiased), so the quad paints every pixel the shape touches whatever its paint, as a solid `fillsShape`
    /// quad does: a texture's samples beyond its edges clamp to its edge texels, on both renderers.
    public var outlinesQuad: Bool

    /// True when the map and both outlines are finite numbers.
    public var isFinite: Bool {
        // Radii are limited to finite values when made; the rectangles may still overflow.
        func finite(_ r: RoundedRect) -> Bool {
            [r.rect.minX, r.rect.minY, r.rect.maxX, r.rect.maxY].allSatisfy(\.isFinite)
        }
        return toTarget.isFinite && finite(outer) && inner.map(finite) ?? true
    }

    public init(
        toTarget: Matrix3, outer: RoundedRect, inner: RoundedRect? = nil, fillsShape: Bool = true,
        outlinesQuad: Bool = false
    ) {
        self.toTarget = toTarget
        self.outer = outer
        self.inner = inner.flatMap { $0.isEmpty ? nil : $0 }
        self.fillsShape = fillsShape
        self.outlinesQuad = outlinesQuad
    }

    /// True when a quad of `paint` seen through this shape paints every pixel the shape touches (within its clip and
    /// the target), not only its own pixels: a solid quad that `fillsShape`, or any quad whose outline this is.
    public func paintsWholeShape(_ paint: Paint) -> Bool {
        if outlinesQuad { return true }
        if case .solid = paint { return fillsShape }
        return false
    }
}

extension CoverageShape {
    /// What the coverage computation needs, worked out once per quad.
    struct Prepared {
        let shape: CoverageShape
        let fromTarget: Matrix3
        /// The shape in floats, for the coverage formula; nil for a shape too large for floats, whose coverage is
        /// the same formula in doubles.
        let parameters: ShapeCoverage?
        /// Pixels whose centres satisfy these are wholly inside the outer shape (two bands: the cross).
        let fullBands: [[HalfPlane]]
        /// Pixels whose centres fail these are wholly outside the outer shape.
        let touched: [HalfPlane]
        /// Pixels whose centres satisfy these may overlap the hole (the hole's rectangle, widened).
        let hole: [HalfPlane]?
        /// Pixels whose centres satisfy one of these lie wholly inside the hole: not covered at all.
        let holeBands: [[HalfPlane]]

        init?(_ shape: CoverageShape) {
            guard !shape.outer.isEmpty, let fromTarget = shape.toTarget.inverted else { return nil }
            self.shape = shape
            self.parameters = ShapeCoverage(shape)
            self.fromTarget = fromTarget
            // Half a pixel, and a little more so that rounding never marks a partly covered pixel full.
            let margin: CGFloat = 0.5 + 1.0 / 64
            fullBands = Self.bands(shape.outer, shape.toTarget, margin: margin)
            guard let touched = Self.planes(shape.outer.rect, shape.toTarget, offset: margin) else { return nil }
            self.touched = touched
            hole = shape.inner.flatMap { Self.planes($0.rect, shape.toTarget, offset: margin) }
            holeBands = shape.inner.map { Self.bands($0, shape.toTarget, margin: margin) } ?? []
        }

        /// The cross of a rounded rectangle (its rectangle less the corner squares, across and down), each arm
        /// moved inward by `margin` pixels: pixel centres inside either lie wholly inside the shape.
        static func bands(_ shape: RoundedRect, _ toTarget: Matrix3, margin: CGFloat) -> [[HalfPlane]] {
            let r = shape.extents, b = shape.rect
            let across = CGRect(x: b.minX, y: b.minY + max(r.topLeft, r.topRight), width: b.width,
                                height: b.height - max(r.topLeft, r.topRight) - max(r.bottomLeft, r.bottomRight))
            let down = CGRect(x: b.minX + max(r.topLeft, r.bottomLeft), y: b.minY,
                              width: b.width - max(r.topLeft, r.bottomLeft) - max(r.topRight, r.bottomRight),
                              height: b.height)
            return [across, down].compactMap { rect in
                guard rect.width > 0, rect.height > 0 else { return nil }
                return planes(rect, toTarget, offset: -margin)
            }
        }

        /// The union of the bands' runs in row `y` (they cross, so it is one run), or an empty run.
        static func run(_ bands: [[HalfPlane]], row y: Int) -> (lo: Int, hi: Int) {
            var result = (lo: 0, hi: 0)
            for band in bands {
                let run = interval(band, row: y)
                guard run.hi > run.lo else { continue }
                result = result.hi > result.lo ? (min(result.lo, run.lo), max(result.hi, run.hi)) : run
            }
            return result
        }

        /// The half-planes (normalised to pixel distances) of `rect` projected to the target, moved outward by
        /// `offset` pixels (inward when negative); nil when nothing of it is in front of the eye.
        static func planes(_ rect: CGRect, _ toTarget: Matrix3, offset: CGFloat) -> [HalfPlane]? {
            let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                           CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)]
            guard let polygon = ConvexPolygon(projecting: corners.map(toTarget.apply)), !polygon.isEmpty else {
                return nil
            }
            let v = polygon.vertices
            return v.indices.compactMap { i in
                let a = v[i], b = v[(i + 1) % v.count]
                let na = -(b.y - a.y), nb = b.x - a.x
                let length = (na * na + nb * nb).squareRoot()
                guard length > 1e-12 else { return nil }
                return HalfPlane(a: na / length, b: nb / length, c: -(na * a.x + nb * a.y) / length + offset)
            }
        }

        /// The pixels x of row `y` whose centres satisfy every plane: lo ..< hi (possibly empty).
        static func interval(_ planes: [HalfPlane], row y: Int) -> (lo: Int, hi: Int) {
            let yc = CGFloat(y) + 0.5
            var left = -CGFloat.infinity, right = CGFloat.infinity
            for plane in planes {
                let rest = plane.b * yc + plane.c
                if abs(plane.a) < 1e-12 {
                    if rest < 0 { return (0, 0) }
                    continue
                }
                let x = -rest / plane.a
                if plane.a > 0 { left = max(left, x) } else { right = min(right, x) }
            }
            guard left <= right else { return (0, 0) }
            let limit = CGFloat(Int32.max)
            let lo = Int(max(min(ceil(left - 0.5), limit), -limit))
            let hi = Int(max(min(floor(right - 0.5), limit), -limit)) + 1
            return hi > lo ? (lo, hi) : (0, 0)
        }

        /// Where row `y` may have coverage (`touched`), the runs inside it that are wholly covered (`full`), and the
        /// run wholly inside the hole (`empty`, possibly empty).
        func row(_ y: Int) -> (touched: (lo: Int, hi: Int), full: [(lo: Int, hi: Int)], empty: (lo: Int, hi: Int)) {
            let reach = Self.interval(touched, row: y)
            let empty = Self.run(holeBands, row: y)
            guard reach.hi > reach.lo else { return (reach, [], empty) }
            let full = Self.run(fullBands, row: y)
            guard full.hi > full.lo else { return (reach, [], empty) }
            guard let hole else { return (reach, [full], empty) }
            let gap = Self.interval(hole, row: y)
            guard gap.hi > gap.lo, gap.lo < full.hi, gap.hi > full.lo else { return (reach, [full], empty) }
            return (reach, [(full.lo, gap.lo), (gap.hi, full.hi)].filter { $0.1 > $0.0 }, empty)
        }

        /// The coverage of pixel (x, y), 0...1, in 8-bit steps: `ShapeCoverage`'s formula in floats, the one the
        /// GLES fragment shader evaluates (docs/semantics.md, "Coverage in the shader").
        func coverage(_ x: Int, _ y: Int) -> CGFloat {
            if let parameters { return CGFloat(parameters.coverageByte(x, y)) / 255 }
            let px = CGFloat(x) + 0.5, py = CGFloat(y) + 0.5
            let m = fromTarget
            let u = px * m.m11 + py * m.m21 + m.m31, v = px * m.m12 + py * m.m22 + m.m32
            let w = px * m.m13 + py * m.m23 + m.m33
            guard w > 1e-9 else { return 0 }
            let qx = u / w, qy = v / w
            let dxdx = (m.m11 - qx * m.m13) / w, dydx = (m.m12 - qy * m.m13) / w
            let dxdy = (m.m21 - qx * m.m23) / w, dydy = (m.m22 - qy * m.m23) / w
            func pixels(_ shape: RoundedRect) -> CGFloat {
                let (d, nx, ny) = shape.signedDistance(qx, qy)
                let gx = nx * dxdx + ny * dydx, gy = nx * dxdy + ny * dydy
                let gradient = (gx * gx + gy * gy).squareRoot()
                guard gradient > 1e-12 else { return d < 0 ? -.infinity : .infinity }
                return d / gradient
            }
            var value = min(max(0.5 - pixels(shape.outer), 0), 1)
            if let inner = shape.inner, value > 0 { value = max(0, value - min(max(0.5 - pixels(inner), 0), 1)) }
            return value
        }
    }

    /// True when every pixel of `box` lies wholly inside the shape (and outside its hole): seen through the shape,
    /// those pixels do not change.
    public func contains(_ box: PixelBox) -> Bool {
        guard let prepared = Prepared(self), box.x1 > box.x0, box.y1 > box.y0 else { return false }
        for y in box.y0..<box.y1 {
            guard prepared.row(y).full.contains(where: { $0.lo <= box.x0 && $0.hi >= box.x1 }) else { return false }
        }
        return true
    }

    /// `base` (a quad's own coverage) seen through this shape: pixels wholly inside stay as they are, the others
    /// are multiplied by the shape's coverage.
    public func applied(to base: AntialiasedCoverage) -> AntialiasedCoverage {
        guard let prepared = Prepared(self) else { return AntialiasedCoverage() }
        return applied(to: base, prepared)
    }

    func applied(to base: AntialiasedCoverage, _ prepared: Prepared) -> AntialiasedCoverage {
        var result = AntialiasedCoverage()
        // Open full boxes by their x extent, so rows with the same runs merge into one box.
        var open: [Int: Int] = [:]
        func addFull(_ x0: Int, _ x1: Int, _ y: Int) {
            let key = x0 << 32 | (x1 & 0xFFFF_FFFF)
            if let index = open[key], result.full[index].y1 == y {
                result.full[index].y1 += 1
            } else {
                open[key] = result.full.count
                result.full.append(PixelBox(x0: x0, y0: y, x1: x1, y1: y + 1))
            }
        }
        func addPartial(_ x: Int, _ y: Int, _ coverage: CGFloat) {
            let byte = UInt8(saturatingRounded: coverage * 255)
            if byte > 0 { result.partial.append(PartialPixel(x: Int32(x), y: Int32(y), coverage: byte)) }
        }
        for box in base.full {
            for y in box.y0..<box.y1 {
                let row = prepared.row(y)
                let lo = max(box.x0, row.touched.lo), hi = min(box.x1, row.touched.hi)
                guard hi > lo else { continue }
                // Evaluates the pixels from x up to `end`, skipping the hole's empty run.
                func evaluate(_ x: inout Int, upTo end: Int) {
                    while x < end {
                        if x >= row.empty.lo, x < row.empty.hi {
                            x = min(row.empty.hi, end)
                            continue
                        }
                        addPartial(x, y, prepared.coverage(x, y))
                        x += 1
                    }
                }
                var x = lo
                for run in row.full {
                    let a = max(run.lo, x), b = min(run.hi, hi)
                    guard b > a else { continue }
                    evaluate(&x, upTo: a)
                    addFull(a, b, y)
                    x = b
                }
                evaluate(&x, upTo: hi)
            }
        }
        for pixel in base.partial {
            let value = prepared.coverage(Int(pixel.x), Int(pixel.y))
            addPartial(Int(pixel.x), Int(pixel.y), CGFloat(pixel.coverage) / 255 * value)
        }
        return result
    }
}

extension Quad {
    /// True when the quad's pixels are not simply in or out: antialiased edges or a shape.
    public var hasAnalyticCoverage: Bool { !antialiasedEdges.isEmpty || shape != nil }

    /// The pixels of a quad with antialiased edges or a shape, each with its coverage: what both renderers draw.
    public func analyticCoverage(width: Int, height: Int) -> AntialiasedCoverage {
        guard let shape else {
            // A turned or sheared quad with four antialiased edges: the shape formula of its own outline.
            let outlined = edgesAsShape
            guard outlined.shape == nil else { return outlined.analyticCoverage(width: width, height: height) }
            return antialiasedCoverage(width: width, height: height)
        }
        guard let prepared = CoverageShape.Prepared(shape) else { return AntialiasedCoverage() }
        let base: AntialiasedCoverage
        if shape.paintsWholeShape(paint) {
            // A solid shape paints the shape: every pixel it may touch, within the clip and the target.
            var region = ConvexPolygon(rect: CGRect(x: 0, y: 0, width: width, height: height))
            for plane in prepared.touched { region = region.clipped(a: plane.a, b: plane.b, c: plane.c) }
            if let clip { region = region.intersection(clip) }
            base = region.isEmpty ? AntialiasedCoverage() : AntialiasedCoverage(full: PixelCoverage(region).boxes)
        } else if antialiasedEdges.isEmpty {
            base = AntialiasedCoverage(full: pixelCoverage(width: width, height: height).boxes)
        } else {
            base = antialiasedCoverage(width: width, height: height)
        }
        return shape.applied(to: base, prepared)
    }
}

/// What a quad's analytic coverage depends on: its geometry, clip, smoothed edges, shape and the target size (and,
/// where a renderer folds it in, the opacity). Renderers key their coverage caches by it.
public struct CoverageKey: Hashable, Sendable {
    var unitToTarget: Matrix3
    var clip: ConvexPolygon?
    var edges: QuadEdges
    var shape: CoverageShape?
    var solid: Bool
    var width: Int
    var height: Int
    var opacity: Float

    public init(_ quad: Quad, width: Int, height: Int, opacity: Float = 1) {
        unitToTarget = quad.unitToTarget
        clip = quad.clip
        edges = quad.antialiasedEdges
        shape = quad.shape
        if case .solid = quad.paint { solid = true } else { solid = false }
        self.width = width
        self.height = height
        self.opacity = opacity
    }
}
