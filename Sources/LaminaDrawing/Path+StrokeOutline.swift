import Foundation
import LaminaCore

extension Path {
    /// The area a stroke of `width` covers, as a path to fill with non-zero winding (CGPath's
    /// `copy(strokingWithWidth:lineCap:lineJoin:miterLimit:)`): the path is flattened (to within 0.01), and each
    /// straight piece becomes a rectangle, each corner a join (a miter within `miterLimit`, else a bevel; or a
    /// circle for round joins) and each end of an open subpath a cap, every piece a closed subpath turning the same
    /// way, so that their overlaps add up rather than cancel. Empty when `width` is not positive and finite.
    public func strokeOutline(width: CGFloat, cap: LineCap, join: LineJoin, miterLimit: CGFloat) -> Path {
        let half = Double(width) / 2
        guard half > 0, half.isFinite else { return Path() }
        var out = Path()
        func polygon(_ points: [SIMD2<Double>]) {
            guard points.count > 2 else { return }
            var area = 0.0
            for i in 0..<points.count {
                let a = points[i], b = points[(i + 1) % points.count]
                area += a.x * b.y - b.x * a.y
            }
            guard area != 0, area.isFinite else { return }
            let ordered = area > 0 ? points : points.reversed()
            out.move(to: CGPoint(x: ordered[0].x, y: ordered[0].y))
            for p in ordered.dropFirst() { out.addLine(to: CGPoint(x: p.x, y: p.y)) }
            out.closeSubpath()
        }
        func circle(_ c: SIMD2<Double>) {
            for element in Path.ellipseElements(CGRect(x: c.x - half, y: c.y - half, width: 2 * half, height: 2 * half)) {
                switch element {
                case .move(let p): out.move(to: p)
                case .curve(let p, let c1, let c2): out.addCurve(to: p, control1: c1, control2: c2)
                case .close: out.closeSubpath()
                default: break
                }
            }
        }
        let limit = Double(miterLimit)
        for subpath in polygons(tolerance: 0.01) {
            // Drop repeated points: a piece needs a direction.
            var pts: [SIMD2<Double>] = []
            for p in subpath.points where pts.last.map({ $0 != p }) ?? true { pts.append(p) }
            if subpath.closed, pts.count > 1, pts.first == pts.last { pts.removeLast() }
            guard pts.count > 1 else {
                // A lone point: round caps draw a dot, square caps a square (as Core Graphics does).
                if let p = pts.first, !subpath.closed {
                    if cap == .round { circle(p) }
                    if cap == .square {
                        polygon([p + SIMD2(-half, -half), p + SIMD2(half, -half), p + SIMD2(half, half),
                                 p + SIMD2(-half, half)])
                    }
                }
                continue
            }
            let segments = subpath.closed ? pts.count : pts.count - 1
            func direction(_ i: Int) -> SIMD2<Double> {
                let a = pts[i], b = pts[(i + 1) % pts.count], d = b - a
                let length = (d.x * d.x + d.y * d.y).squareRoot()
                return d / length
            }
            for i in 0..<segments {
                let a = pts[i], b = pts[(i + 1) % pts.count], d = direction(i)
                let n = SIMD2(-d.y, d.x) * half
                polygon([a + n, b + n, b - n, a - n])
            }
            // Joins at each vertex between two segments.
            let joints = subpath.closed ? Array(0..<pts.count) : Array(1..<(pts.count - 1))
            for j in joints {
                let d0 = direction((j - 1 + pts.count) % pts.count), d1 = direction(j)
                let v = pts[j]
                let cross = d0.x * d1.y - d0.y * d1.x
                guard abs(cross) > 1e-12 || d0.x * d1.x + d0.y * d1.y < 0 else { continue }
                if join == .round {
                    circle(v)
                    continue
                }
                // The outer side is to the right of the turn when turning left (cross > 0).
                let side = cross > 0 ? -1.0 : 1.0
                let n0 = SIMD2(-d0.y, d0.x) * half * side, n1 = SIMD2(-d1.y, d1.x) * half * side
                let cosine = max(-1, min(1, -(d0.x * d1.x + d0.y * d1.y)))
                let theta = acos(cosine)  // the angle between the two segments at the corner
                let miterRatio = 1 / sin(theta / 2)
                if join == .miter, miterRatio.isFinite, miterRatio <= limit {
                    let bisector = n0 + n1
                    let length = (bisector.x * bisector.x + bisector.y * bisector.y).squareRoot()
                    if length > 0 {
                        let tip = v + bisector / length * half * miterRatio
                        polygon([v, v + n0, tip, v + n1])
                        continue
                    }
                }
                polygon([v, v + n0, v + n1])
            }
            guard !subpath.closed else { continue }
            for (end, d) in [(pts[0], -direction(0)), (pts[pts.count - 1], direction(pts.count - 2))] {
                switch cap {
                case .butt: break
                case .round: circle(end)
                case .square:
                    let n = SIMD2(-d.y, d.x) * half, e = d * half
                    polygon([end + n, end + n + e, end - n + e, end - n])
                }
            }
        }
        return out
    }
}
