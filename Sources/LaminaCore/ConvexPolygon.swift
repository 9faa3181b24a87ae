import Foundation

/// A convex polygon in target pixels, vertices in counter-clockwise order on the y-down screen
/// (positive signed area), snapped to 1/256 pixel, as GPUs snap vertices to a sub-pixel grid, so that
/// both renderers decide centres that fall exactly on an edge the same way.
public struct ConvexPolygon: Hashable, Sendable {
    public private(set) var vertices: [CGPoint]

    /// The sub-pixel grid, in pixels.
    public static let snap: CGFloat = 1.0 / 256.0

    /// The w a projected point must exceed to be in front of the eye (`init(projecting:)` cuts there).
    static let frontW: CGFloat = 1e-6

    /// A polygon from vertices in either winding; collinear and repeated points are kept harmlessly.
    public init(vertices: [CGPoint]) {
        var vertices = vertices
        let band = CGFloat.guardBand
        if !vertices.allSatisfy({ $0.x.magnitude <= band && $0.y.magnitude <= band }) {
            vertices = Self.clippedToGuardBand(vertices)
        }
        // Snapped and turned in place: a polygon is made for every turned quad of every frame.
        for index in vertices.indices {
            let p = vertices[index]
            vertices[index] = CGPoint(x: (p.x / Self.snap).rounded() * Self.snap,
                                      y: (p.y / Self.snap).rounded() * Self.snap)
        }
        if ConvexPolygon.signedArea(vertices) < 0 { vertices.reverse() }
        self.vertices = vertices
    }

    public init(rect: CGRect) {
        self.init(vertices: [
            CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
            CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY),
        ])
    }

    /// The projection of a planar polygon given in homogeneous coordinates, cut first at w = epsilon so
    /// that the part behind the eye is dropped rather than drawn inverted. Nil when nothing is in front.
    public init?(projecting points: [HomogeneousPoint]) {
        let epsilon = Self.frontW
        var kept: [HomogeneousPoint] = []
        kept.reserveCapacity(points.count * 2)
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            if a.w > epsilon { kept.append(a) }
            if (a.w > epsilon) != (b.w > epsilon) {
                let t = (epsilon - a.w) / (b.w - a.w)
                kept.append(HomogeneousPoint(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y), w: epsilon))
            }
        }
        guard kept.count >= 3 else { return nil }
        let projected = kept.map(\.projected)
        guard projected.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        self.init(vertices: projected)
    }

    /// `points` (a convex polygon) cut to the guard band, |x| and |y| <= CGFloat.guardBand, for any finite input
    /// without overflow: distances are quartered, and each cut point is found from the end of its edge nearer the
    /// boundary. Where both ends of an edge lie far beyond the band (beyond about 1e15 pixels), the cut point carries
    /// the rounding of doubles at that distance (docs/semantics.md, "Numbers"). Empty when a point is not finite.
    static func clippedToGuardBand(_ points: [CGPoint]) -> [CGPoint] {
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return [] }
        let quarterBand = CGFloat.guardBand / 4
        var output = points
        // Inside: sign x coordinate >= -band, for x and y and both signs.
        for (onX, sign) in [(true, CGFloat(1)), (true, -1), (false, 1), (false, -1)] where !output.isEmpty {
            let input = output
            output.removeAll(keepingCapacity: true)
            func distance(_ p: CGPoint) -> CGFloat { sign * (onX ? p.x : p.y) / 4 + quarterBand }
            for j in input.indices {
                let p = input[j], q = input[(j + 1) % input.count]
                let dp = distance(p), dq = distance(q)
                if dp >= 0 { output.append(p) }
                if (dp >= 0) != (dq >= 0) {
                    // From the end nearer the boundary, so that a far end does not swamp the crossing: the step is
                    // at most half the segment, and quartered coordinates cannot overflow.
                    let (base, other, dBase, dOther) = abs(dp) <= abs(dq) ? (p, q, dp, dq) : (q, p, dq, dp)
                    let s = dBase / (dBase - dOther)
                    var crossing = CGPoint(x: base.x + (other.x / 4 - base.x / 4) * (4 * s),
                                           y: base.y + (other.y / 4 - base.y / 4) * (4 * s))
                    if onX { crossing.x = -sign * CGFloat.guardBand } else { crossing.y = -sign * CGFloat.guardBand }
                    output.append(crossing)
                }
            }
        }
        return output
    }

    /// True when the polygon has no area.
    public var isEmpty: Bool { vertices.withUnsafeBufferPointer(Self.isEmpty) }

    /// The bounding box.
    public var bounds: CGRect { vertices.withUnsafeBufferPointer(Self.bounds) }

    /// The rectangle this polygon is, when it is an axis-aligned rectangle; else nil.
    public var axisAlignedRect: CGRect? { vertices.withUnsafeBufferPointer(Self.axisAlignedRect) }

    // The same for vertices anywhere (`Quad.pixelCoverage` works out a turned sprite's from its corners on the stack).

    /// `isEmpty` of a polygon of `points`.
    static func isEmpty(_ points: UnsafeBufferPointer<CGPoint>) -> Bool {
        points.count < 3 || abs(signedArea(points)) < 1e-9
    }

    /// `bounds` of a polygon of `points`.
    static func bounds(_ points: UnsafeBufferPointer<CGPoint>) -> CGRect {
        guard let first = points.first else { return .null }
        var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
        for p in points {
            x0 = min(x0, p.x); y0 = min(y0, p.y)
            x1 = max(x1, p.x); y1 = max(y1, p.y)
        }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// `axisAlignedRect` of a polygon of `points`.
    static func axisAlignedRect(_ points: UnsafeBufferPointer<CGPoint>) -> CGRect? {
        let box = bounds(points)
        guard !box.isNull, points.count >= 4 else { return nil }
        // Every vertex on a corner of the box, and all four corners present (a triangle of three corners is not
        // a rectangle).
        var corners = 0
        for p in points {
            let isLeft = p.x == box.minX, isTop = p.y == box.minY
            guard isLeft || p.x == box.maxX, isTop || p.y == box.maxY else { return nil }
            corners |= 1 << ((isLeft ? 0 : 1) + (isTop ? 0 : 2))
        }
        return corners == 0b1111 ? box : nil
    }

    /// The part of `self` inside the convex polygon `other` (Sutherland-Hodgman).
    public func intersection(_ other: ConvexPolygon) -> ConvexPolygon {
        // A polygon of fewer than three vertices, or of no area, holds nothing: a clip cut down to nothing clips
        // everything away. Without this its missing edges would clip nothing, and so would the edges of no length
        // of a clip collapsed to a point or a line (the bounds of a layer 1e-300 points wide, masksToBounds): the
        // quad was drawn whole, where its damage box, cut by the clip's, was empty.
        guard other.vertices.count >= 3, vertices.count >= 3, !other.isEmpty else { return ConvexPolygon(vertices: []) }
        if let a = axisAlignedRect, let b = other.axisAlignedRect {
            let c = a.intersection(b)
            return c.isNull ? ConvexPolygon(vertices: []) : ConvexPolygon(rect: c)
        }
        var output = vertices
        let clip = other.vertices
        for i in clip.indices where !output.isEmpty {
            let a = clip[i], b = clip[(i + 1) % clip.count]
            // Inside is the left of a->b in y-down counter-clockwise order: cross >= 0.
            func side(_ p: CGPoint) -> CGFloat { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) }
            let input = output
            output.removeAll(keepingCapacity: true)
            for j in input.indices {
                let p = input[j], q = input[(j + 1) % input.count]
                let sp = side(p), sq = side(q)
                if sp >= 0 { output.append(p) }
                if (sp >= 0) != (sq >= 0) {
                    let t = sp / (sp - sq)
                    output.append(CGPoint(x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y)))
                }
            }
        }
        return ConvexPolygon(vertices: output)
    }

    /// The part of `self` where a x + b y + c >= 0 (a half-plane).
    public func clipped(a: CGFloat, b: CGFloat, c: CGFloat) -> ConvexPolygon {
        var output: [CGPoint] = []
        for j in vertices.indices {
            let p = vertices[j], q = vertices[(j + 1) % vertices.count]
            let sp = a * p.x + b * p.y + c, sq = a * q.x + b * q.y + c
            if sp >= 0 { output.append(p) }
            if (sp >= 0) != (sq >= 0) {
                let t = sp / (sp - sq)
                output.append(CGPoint(x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y)))
            }
        }
        return ConvexPolygon(vertices: output)
    }

    /// The pixels whose centres lie inside, as one run per row: pixel (x, y) is covered when its centre
    /// (x + 0.5, y + 0.5) is inside, with the top-left rule for centres exactly on an edge (a left or top
    /// edge includes them, a right or bottom edge does not). docs/semantics.md, "Pixels".
    /// Rows come in increasing y; empty rows are left out.
    public func spans() -> [PixelSpan] { vertices.withUnsafeBufferPointer(Self.spans) }

    /// `spans()` of a polygon of `vertices` (snapped, counter-clockwise).
    static func spans(_ vertices: UnsafeBufferPointer<CGPoint>) -> [PixelSpan] {
        guard !isEmpty(vertices) else { return [] }
        if let rect = axisAlignedRect(vertices) {
            let (x0, x1) = ConvexPolygon.centreRange(rect.minX, rect.maxX)
            let (y0, y1) = ConvexPolygon.centreRange(rect.minY, rect.maxY)
            guard x1 > x0 else { return [] }
            return (y0..<max(y0, y1)).map { PixelSpan(y: $0, x0: x0, x1: x1) }
        }
        let box = bounds(vertices)
        let (row0, row1) = ConvexPolygon.centreRange(box.minY, box.maxY)
        var result: [PixelSpan] = []
        result.reserveCapacity(max(0, row1 - row0))
        for row in row0..<max(row0, row1) {
            let yc = CGFloat(row) + 0.5
            var left = CGFloat.infinity, right = -CGFloat.infinity
            for i in vertices.indices {
                let a = vertices[i], b = vertices[(i + 1) % vertices.count]
                let (lo, hi) = a.y < b.y ? (a, b) : (b, a)
                // Half-open in y: an edge owns centres from its top end up to, not including, its bottom.
                guard lo.y <= yc, yc < hi.y else { continue }
                let x = lo.x + (yc - lo.y) * (hi.x - lo.x) / (hi.y - lo.y)
                left = min(left, x)
                right = max(right, x)
            }
            guard left < right else { continue }
            let (x0, x1) = ConvexPolygon.centreRange(left, right)
            if x1 > x0 { result.append(PixelSpan(y: row, x0: x0, x1: x1)) }
        }
        return result
    }

    /// The pixel indices i with lo <= i + 0.5 < hi.
    @inlinable
    public static func centreRange(_ lo: CGFloat, _ hi: CGFloat) -> (Int, Int) {
        // Saturating: NaN gives 0, anything beyond Int32's range its end.
        let a = ceil(lo - 0.5), b = ceil(hi - 0.5)
        let limit = CGFloat(Int32.max)
        return (Int(saturating: min(max(a, -limit), limit)), Int(saturating: min(max(b, -limit), limit)))
    }

    static func signedArea(_ points: [CGPoint]) -> CGFloat { points.withUnsafeBufferPointer(signedArea) }

    static func signedArea(_ points: UnsafeBufferPointer<CGPoint>) -> CGFloat {
        guard points.count >= 3 else { return 0 }
        var sum: CGFloat = 0
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }
}

/// Pixels x0 ..< x1 of row y.
public struct PixelSpan: Hashable, Sendable {
    public var y: Int
    public var x0: Int
    public var x1: Int

    public init(y: Int, x0: Int, x1: Int) {
        self.y = y
        self.x0 = x0
        self.x1 = x1
    }
}
