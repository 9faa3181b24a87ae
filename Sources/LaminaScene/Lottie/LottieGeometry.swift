import Foundation
import LaminaCore
import LaminaDrawing

/// The paths of Lottie's shape primitives and path modifiers, as lottie-web builds them (start points and
/// directions matter to trim paths).
enum LottieGeometry {
    /// A circle's quarter as a cubic: the handle length per radius.
    static let kappa = 0.5519150244935105

    static func rectangle(center c: CGPoint, size s: CGSize, roundness: Double, reversed: Bool) -> LottieBezier {
        let w = abs(s.width) / 2, h = abs(s.height) / 2
        let r = CGFloat(max(0, min(roundness, Double(min(w, h)))))
        let (l, t, rt, b) = (c.x - w, c.y - h, c.x + w, c.y + h)
        var v: [CGPoint], i: [CGPoint], o: [CGPoint]
        if r <= 0 {
            v = [CGPoint(x: rt, y: t), CGPoint(x: rt, y: b), CGPoint(x: l, y: b), CGPoint(x: l, y: t)]
            i = Array(repeating: .zero, count: 4)
            o = i
        } else {
            let k = r * CGFloat(kappa)
            v = [CGPoint(x: rt, y: t + r), CGPoint(x: rt, y: b - r), CGPoint(x: rt - r, y: b), CGPoint(x: l + r, y: b),
                 CGPoint(x: l, y: b - r), CGPoint(x: l, y: t + r), CGPoint(x: l + r, y: t), CGPoint(x: rt - r, y: t)]
            i = [CGPoint(x: 0, y: -k), .zero, CGPoint(x: k, y: 0), .zero, CGPoint(x: 0, y: k), .zero,
                 CGPoint(x: -k, y: 0), .zero]
            o = [.zero, CGPoint(x: 0, y: k), .zero, CGPoint(x: -k, y: 0), .zero, CGPoint(x: 0, y: -k), .zero,
                 CGPoint(x: k, y: 0)]
        }
        let shape = LottieBezier(closed: true, vertices: v, inTangents: i, outTangents: o)
        return reversed ? shape.reversed : shape
    }

    static func ellipse(center c: CGPoint, size s: CGSize, reversed: Bool) -> LottieBezier {
        let rx = abs(s.width) / 2, ry = abs(s.height) / 2
        let kx = rx * CGFloat(kappa), ky = ry * CGFloat(kappa)
        let v = [CGPoint(x: c.x, y: c.y - ry), CGPoint(x: c.x + rx, y: c.y), CGPoint(x: c.x, y: c.y + ry),
                 CGPoint(x: c.x - rx, y: c.y)]
        let i = [CGPoint(x: -kx, y: 0), CGPoint(x: 0, y: -ky), CGPoint(x: kx, y: 0), CGPoint(x: 0, y: ky)]
        let o = [CGPoint(x: kx, y: 0), CGPoint(x: 0, y: ky), CGPoint(x: -kx, y: 0), CGPoint(x: 0, y: -ky)]
        let shape = LottieBezier(closed: true, vertices: v, inTangents: i, outTangents: o)
        return reversed ? shape.reversed : shape
    }

    /// A star (inner radius given) or polygon: vertices from the top, turned by `rotation` degrees.
    static func star(center c: CGPoint, points: Double, outerRadius: Double, innerRadius: Double?,
                     outerRoundness: Double, innerRoundness: Double, rotation: Double, reversed: Bool) -> LottieBezier {
        let n = Int(max(0, min(points.rounded(.down), 10_000)))
        guard n >= 1 else { return LottieBezier(closed: true, vertices: [], inTangents: [], outTangents: []) }
        let dir: Double = reversed ? -1 : 1
        let polygon = innerRadius == nil
        let count = polygon ? n : 2 * n
        let step = 2 * Double.pi / Double(count)
        var angle = -Double.pi / 2 + rotation * .pi / 180
        var v: [CGPoint] = [], i: [CGPoint] = [], o: [CGPoint] = []
        for k in 0..<count {
            let outer = polygon || k % 2 == 0
            let radius = outer ? outerRadius : innerRadius!
            let roundness = (outer ? outerRoundness : innerRoundness) / 100
            let perimeter = 2 * Double.pi * radius / Double(polygon ? 4 * n : 2 * n)
            let x = radius * cos(angle), y = radius * sin(angle)
            let len = (x * x + y * y).squareRoot()
            let (ox, oy) = len == 0 ? (0.0, 0.0) : (y / len, -x / len)
            let t = CGPoint(x: ox * perimeter * roundness * dir, y: oy * perimeter * roundness * dir)
            v.append(CGPoint(x: c.x + x, y: c.y + y))
            i.append(t)
            o.append(CGPoint(x: -t.x, y: -t.y))
            angle += step * dir
        }
        return LottieBezier(closed: true, vertices: v, inTangents: i, outTangents: o)
    }

    /// Rounded corners: every vertex without tangents becomes an arc of `radius` (capped at half of each
    /// neighbouring edge), as lottie-web rounds them.
    static func roundCorners(_ shape: LottieBezier, radius: Double) -> LottieBezier {
        guard radius > 0, shape.vertices.count >= 2 else { return shape }
        let n = shape.vertices.count
        var v: [CGPoint] = [], i: [CGPoint] = [], o: [CGPoint] = []
        func tangent(_ list: [CGPoint], _ k: Int) -> CGPoint { k < list.count ? list[k] : .zero }
        for k in 0..<n {
            let p = shape.vertices[k]
            let inT = tangent(shape.inTangents, k), outT = tangent(shape.outTangents, k)
            let isEnd = !shape.closed && (k == 0 || k == n - 1)
            guard inT == .zero, outT == .zero, !isEnd else {
                v.append(p); i.append(inT); o.append(outT)
                continue
            }
            let prev = shape.vertices[(k - 1 + n) % n], next = shape.vertices[(k + 1) % n]
            func toward(_ q: CGPoint) -> (CGPoint, CGFloat) {
                let dx = q.x - p.x, dy = q.y - p.y
                let d = (dx * dx + dy * dy).squareRoot()
                guard d > 0 else { return (.zero, 0) }
                let r = min(CGFloat(radius), d / 2)
                return (CGPoint(x: dx / d, y: dy / d), r)
            }
            let (u1, r1) = toward(prev), (u2, r2) = toward(next)
            let a = CGPoint(x: p.x + u1.x * r1, y: p.y + u1.y * r1)
            let b = CGPoint(x: p.x + u2.x * r2, y: p.y + u2.y * r2)
            let k1 = CGFloat(1 - kappa)
            v.append(a)
            i.append(.zero)
            o.append(CGPoint(x: -u1.x * r1 * k1, y: -u1.y * r1 * k1))
            v.append(b)
            i.append(CGPoint(x: -u2.x * r2 * k1, y: -u2.y * r2 * k1))
            o.append(.zero)
        }
        return LottieBezier(closed: shape.closed, vertices: v, inTangents: i, outTangents: o)
    }

    /// The fraction ranges a trim keeps: start and end in percent, offset in degrees (360 = once round); none
    /// when they meet, all when they span the whole.
    static func trimRanges(start s: Double, end e: Double, offset o: Double) -> [(Double, Double)] {
        var a = min(max(s, 0), 100) / 100, b = min(max(e, 0), 100) / 100
        if a > b { swap(&a, &b) }
        if b - a >= 1 { return [(0, 1)] }
        if b - a <= 1e-9 { return [] }
        var shift = (o / 360).truncatingRemainder(dividingBy: 1)
        if shift < 0 { shift += 1 }
        a += shift
        b += shift
        if a >= 1 { a -= 1; b -= 1 }
        return b <= 1 ? [(a, b)] : [(a, 1), (0, b - 1)]
    }
}

extension LottieBezier {
    /// The same outline walked the other way, from the same first vertex.
    var reversed: LottieBezier {
        guard vertices.count > 1 else { return self }
        let order = [0] + Array((1..<vertices.count).reversed())
        func pick(_ list: [CGPoint]) -> [CGPoint] { order.map { $0 < list.count ? list[$0] : .zero } }
        return LottieBezier(closed: closed, vertices: pick(vertices), inTangents: pick(outTangents),
                            outTangents: pick(inTangents))
    }
}
