import Foundation
import LaminaCore

extension Path {
    /// The path `progress` of the way from this one to `other` (a shape layer's `path` animation): every point,
    /// radius, rectangle and angle interpolated linearly. Only paths of the same elements in the same order (the
    /// same "step counts", as Core Animation requires) interpolate; nil for any other pair, which then switches at
    /// halfway. `progress` may leave 0...1 (springs overshoot).
    public func interpolated(to other: Path, progress p: Double) -> Path? {
        guard elements.count == other.elements.count else { return nil }
        let t = CGFloat(p)
        func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * t }
        func mix(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: mix(a.x, b.x), y: mix(a.y, b.y)) }
        func mix(_ a: CGRect, _ b: CGRect) -> CGRect {
            CGRect(x: mix(a.minX, b.minX), y: mix(a.minY, b.minY), width: mix(a.width, b.width),
                   height: mix(a.height, b.height))
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (a, b) in zip(elements, other.elements) {
            switch (a, b) {
            case (.move(let x), .move(let y)): result.append(.move(to: mix(x, y)))
            case (.line(let x), .line(let y)): result.append(.line(to: mix(x, y)))
            case (.curve(let x, let x1, let x2), .curve(let y, let y1, let y2)):
                result.append(.curve(to: mix(x, y), control1: mix(x1, y1), control2: mix(x2, y2)))
            case (.quadCurve(let x, let xc), .quadCurve(let y, let yc)):
                result.append(.quadCurve(to: mix(x, y), control: mix(xc, yc)))
            case (.arc(let c0, let r0, let s0, let e0, let cw0), .arc(let c1, let r1, let s1, let e1, let cw1))
                where cw0 == cw1:
                result.append(.arc(center: mix(c0, c1), radius: mix(r0, r1), startAngle: mix(s0, s1),
                                   endAngle: mix(e0, e1), clockwise: cw0))
            case (.close, .close): result.append(.close)
            case (.rect(let x), .rect(let y)): result.append(.rect(mix(x, y)))
            case (.ellipse(let x), .ellipse(let y)): result.append(.ellipse(mix(x, y)))
            case (.roundedRect(let x, let rx), .roundedRect(let y, let ry)):
                result.append(.roundedRect(mix(x, y), radius: mix(rx, ry)))
            default:
                return nil
            }
        }
        return Path(result)
    }
}
