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

/// A rectangle with circular corners. Each radius is limited to half the shorter side, as Core Animation limits
/// cornerRadius, so two corners never overlap.
public struct RoundedRect: Hashable, Sendable {
    public private(set) var rect: CGRect
    public private(set) var radii: CornerRadii

    public init(rect: CGRect, radii: CornerRadii) {
        self.rect = rect.standardized
        let limit = max(0, min(self.rect.width, self.rect.height) / 2)
        func fit(_ r: CGFloat) -> CGFloat { r.isFinite ? min(max(r, 0), limit) : 0 }
        self.radii = CornerRadii(topLeft: fit(radii.topLeft), topRight: fit(radii.topRight),
                                 bottomRight: fit(radii.bottomRight), bottomLeft: fit(radii.bottomLeft))
    }

    public var isEmpty: Bool { rect.width <= 0 || rect.height <= 0 }

    /// The signed distance from `p` to the outline (negative inside), and the outline's outward normal nearest
    /// to `p` (the distance's gradient).
    @inlinable
    public func signedDistance(_ x: CGFloat, _ y: CGFloat) -> (distance: CGFloat, nx: CGFloat, ny: CGFloat) {
        let cx = rect.midX, cy = rect.midY
        let right = x >= cx, below = y >= cy
        let r = below ? (right ? radii.bottomRight : radii.bottomLeft) : (right ? radii.topRight : radii.topLeft)
        let sx: CGFloat = right ? 1 : -1, sy: CGFloat = below ? 1 : -1
        // In the quadrant's frame: distance past the straight edges, measured from where the corner's arc starts.
        let qx = abs(x - cx) - rect.width / 2 + r
        let qy = abs(y - cy) - rect.height / 2 + r
        if qx > 0, qy > 0 {
            let length = (qx * qx + qy * qy).squareRoot()
            return (length - r, sx * qx / length, sy * qy / length)
        }
        return qx > qy ? (qx - r, sx, 0) : (qy - r, 0, sy)
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

    /// True when the map and both outlines are finite numbers.
    public var isFinite: Bool {
        // Radii are limited to finite values when made; the rectangles may still overflow.
        func finite(_ r: RoundedRect) -> Bool {
            [r.rect.minX, r.rect.minY, r.rect.maxX, r.rect.maxY].allSatisfy(\.isFinite)
        }
        return toTarget.isFinite && finite(outer) && inner.map(finite) ?? true
    }

    public init(toTarget: Matrix3, outer: RoundedRect, inner: RoundedRect? = nil, fillsShape: Bool = true) {
        self.toTarget = toTarget
        self.outer = outer
        self.inner = inner.flatMap { $0.isEmpty ? nil : $0 }
        self.fillsShape = fillsShape
    }
}

extension CoverageShape {
    /// What the coverage computation needs, worked out once per quad.
    struct Prepared {
        let shape: CoverageShape
        let fromTarget: Matrix3
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
            let r = shape.radii, b = shape.rect
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

        /// The coverage of pixel (x, y), 0...1.
        func coverage(_ x: Int, _ y: Int) -> CGFloat {
            let px = CGFloat(x) + 0.5, py = CGFloat(y) + 0.5
            let m = fromTarget
            let u = px * m.m11 + py * m.m21 + m.m31, v = px * m.m12 + py * m.m22 + m.m32
            let w = px * m.m13 + py * m.m23 + m.m33
            guard w > 1e-9 else { return 0 }
            let qx = u / w, qy = v / w
            // d(q)/d(pixel): the projective map's Jacobian at this centre.
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
        guard let shape else { return antialiasedCoverage(width: width, height: height) }
        guard let prepared = CoverageShape.Prepared(shape) else { return AntialiasedCoverage() }
        let base: AntialiasedCoverage
        if case .solid = paint, shape.fillsShape {
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
