import Foundation
import LaminaCore

// Geometry asked of a path through CGPath: its tight box, which points it encloses, and the outline of its stroke
// and dashes as paths.
extension Path {
    /// The smallest box holding every point on the path (curves' extremes, not their control points): CGPath's
    /// boundingBoxOfPath. .null when the path is empty.
    public var tightBoundingBox: CGRect {
        var (x0, y0, x1, y1) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        func add(_ x: Double, _ y: Double) { (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y)) }
        var current: SIMD2<Double>?
        for element in cgElements {
            switch element {
            case .move(let p), .line(let p):
                add(Double(p.x), Double(p.y))
                current = SIMD2(Double(p.x), Double(p.y))
            case .quadCurve(let p, let c):
                let start = current ?? SIMD2(Double(c.x), Double(c.y))
                let q = SIMD2(Double(c.x), Double(c.y)), end = SIMD2(Double(p.x), Double(p.y))
                cubicExtremes(start, start + 2.0 / 3 * (q - start), end + 2.0 / 3 * (q - end), end, add)
                current = end
            case .curve(let p, let c1, let c2):
                let a = SIMD2(Double(c1.x), Double(c1.y))
                let start = current ?? a
                let end = SIMD2(Double(p.x), Double(p.y))
                cubicExtremes(start, a, SIMD2(Double(c2.x), Double(c2.y)), end, add)
                current = end
            default: break
            }
        }
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return .null }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Adds the ends of a cubic and its points where dx/dt or dy/dt is zero.
    private func cubicExtremes(_ p0: SIMD2<Double>, _ p1: SIMD2<Double>, _ p2: SIMD2<Double>, _ p3: SIMD2<Double>,
                               _ add: (Double, Double) -> Void) {
        add(p0.x, p0.y)
        add(p3.x, p3.y)
        // B'(t)/3 = a t^2 + b t + c per axis.
        let a = -p0 + 3 * p1 - 3 * p2 + p3, b = 2 * (p0 - 2 * p1 + p2), c = p1 - p0
        for axis in 0..<2 {
            var roots: [Double] = []
            if abs(a[axis]) < 1e-12 {
                if abs(b[axis]) > 1e-12 { roots.append(-c[axis] / b[axis]) }
            } else {
                let d = b[axis] * b[axis] - 4 * a[axis] * c[axis]
                if d >= 0 {
                    roots.append((-b[axis] + d.squareRoot()) / (2 * a[axis]))
                    roots.append((-b[axis] - d.squareRoot()) / (2 * a[axis]))
                }
            }
            for t in roots where t > 0 && t < 1 {
                let u = 1 - t
                let p = u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3
                add(p.x, p.y)
            }
        }
    }

    /// The path flattened into polygons (one a subpath, open ones included), curves within `tolerance`.
    func polygons(tolerance: Double) -> [(points: [SIMD2<Double>], closed: Bool)] {
        var result: [(points: [SIMD2<Double>], closed: Bool)] = []
        var points: [SIMD2<Double>] = [], closed = false
        func finish() {
            if !points.isEmpty { result.append((points, closed)) }
            (points, closed) = ([], false)
        }
        func v(_ p: CGPoint) -> SIMD2<Double> { SIMD2(Double(p.x), Double(p.y)) }
        func cubic(_ p0: SIMD2<Double>, _ p1: SIMD2<Double>, _ p2: SIMD2<Double>, _ p3: SIMD2<Double>) {
            let spread = max(Swift.max(abs(p0.x - p1.x), abs(p1.x - p2.x), abs(p2.x - p3.x)),
                             Swift.max(abs(p0.y - p1.y), abs(p1.y - p2.y), abs(p2.y - p3.y)))
            let n = spread.isFinite ? Swift.min(4096, Swift.max(1, Int((3 * spread / tolerance).squareRoot().rounded(.up)))) : 1
            for i in 1...n {
                let t = Double(i) / Double(n), u = 1 - t
                points.append(u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3)
            }
        }
        for element in cgElements {
            switch element {
            case .move(let p):
                finish()
                points = [v(p)]
            case .line(let p):
                if closed, let first = points.first { finish(); points = [first] }
                points.append(v(p))
            case .quadCurve(let p, let c):
                if closed, let first = points.first { finish(); points = [first] }
                if points.isEmpty { points = [v(c)] }
                let s = points[points.count - 1], q = v(c), e = v(p)
                cubic(s, s + 2.0 / 3 * (q - s), e + 2.0 / 3 * (q - e), e)
            case .curve(let p, let c1, let c2):
                if closed, let first = points.first { finish(); points = [first] }
                if points.isEmpty { points = [v(c1)] }
                cubic(points[points.count - 1], v(c1), v(c2), v(p))
            case .close:
                closed = true
            default: break
            }
        }
        finish()
        return result
    }

    /// Whether `point` is inside the path, every subpath taken as closed, by non-zero winding or even-odd.
    /// Curves are flattened to within a thousandth of a unit.
    public func contains(_ point: CGPoint, evenOdd: Bool) -> Bool {
        let (px, py) = (Double(point.x), Double(point.y))
        guard px.isFinite, py.isFinite else { return false }
        var winding = 0
        for polygon in polygons(tolerance: 1e-3) where polygon.points.count > 2 {
            let pts = polygon.points
            for i in 0..<pts.count {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                if a.y <= py {
                    if b.y > py, (b.x - a.x) * (py - a.y) - (px - a.x) * (b.y - a.y) > 0 { winding += 1 }
                } else if b.y <= py, (b.x - a.x) * (py - a.y) - (px - a.x) * (b.y - a.y) < 0 {
                    winding -= 1
                }
            }
        }
        return evenOdd ? winding % 2 != 0 : winding != 0
    }

    /// The dashes of `lengths` (alternately on and off, `phase` into the pattern, restarting at each subpath) as
    /// open polylines, curves flattened to within 0.01; the path itself when the pattern is empty, has a negative
    /// or infinite length or adds up to zero (Core Graphics strokes such patterns solid), or would cut the path into
    /// more than 131072 dashes.
    public func dashed(phase: CGFloat, lengths: [CGFloat]) -> Path {
        guard let pattern = FlatPath.dashPattern(lengths.map { Double($0) }) else { return self }
        let flat = FlatPath(Path(cgElements), tolerance: 0.01)
        return flat.dashed(pattern: pattern, phase: Double(phase), keeping: 0, flat.length) ?? self
    }
}
