import Foundation
import LaminaCore
import LaminaDrawing

extension CGMutablePath {
    /// Appends `elements` with their points mapped through `t`.
    private func append(_ elements: [Path.Element], _ t: CGAffineTransform) {
        update { $0.append(contentsOf: elements.map { $0.applying(t) }) }
    }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        append([.move(to: point)], transform)
    }

    /// A line from the current point to `point` (a move there when the path is empty).
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        append([path.currentPoint == nil ? .move(to: point) : .line(to: point)], transform)
    }

    /// A move to the first point and lines through the others.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        append([.move(to: first)] + points.dropFirst().map { .line(to: $0) }, transform)
    }

    /// A quadratic Bézier curve from the current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        append([.quadCurve(to: end, control: control)], transform)
    }

    /// A cubic Bézier curve from the current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint,
                         transform: CGAffineTransform = .identity) {
        append([.curve(to: end, control1: control1, control2: control2)], transform)
    }

    /// Closes the current subpath with a line back to its start.
    public func closeSubpath() { update { $0.closeSubpath() } }

    /// A closed rectangle (from the minimum corner along +x).
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        append(Path.rectElements(rect), transform)
    }

    /// A closed rectangle for each of `rects`.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// A closed rounded rectangle (see `CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`).
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                               transform: CGAffineTransform = .identity) {
        append(Path.roundedRectElements(rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight), transform)
    }

    /// A closed ellipse inscribed in `rect` (four cubics from (maxX, midY) towards increasing angle).
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        append(Path.ellipseElements(rect), transform)
    }

    /// An arc of the circle at `center` from `startAngle` to `endAngle` (radians; `clockwise` true: decreasing
    /// angle, which is clockwise in Core Graphics' y-up space), as cubics of at most a quarter turn each, joined to
    /// the current point by a line (a move when the path is empty). An end behind the start is reached by going
    /// round; the arc is at most one full turn.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
                       transform: CGAffineTransform = .identity) {
        guard let sweep = Path.arcSweep(start: Double(startAngle), end: Double(endAngle), clockwise: clockwise)
        else { return }
        addArc(center: center, radius: radius, start: Double(startAngle), sweep: sweep, transform)
    }

    /// An arc of `delta` radians from `startAngle` (positive: increasing angle), joined to the current point.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        guard startAngle.isFinite, delta.isFinite else { return }
        addArc(center: center, radius: radius, start: Double(startAngle), sweep: Double(delta), transform)
    }

    private func addArc(center: CGPoint, radius: CGFloat, start: Double, sweep: Double, _ t: CGAffineTransform) {
        guard center.x.isFinite, center.y.isFinite, radius.isFinite else { return }
        let arc = Path.arcCurves(center: center, radius: max(0, radius), start: start, sweep: sweep)
        let join: Path.Element = path.currentPoint == nil ? .move(to: arc.start) : .line(to: arc.start)
        append([join] + arc.curves, t)
    }

    /// A line from the current point towards `tangent1End` and an arc of `radius` tangent to it and to the line
    /// from `tangent1End` to `tangent2End` (a line to `tangent1End` when they are in a line).
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
                       transform: CGAffineTransform = .identity) {
        // The current point in the path's space is mapped back so that the arc is worked out before `transform`.
        guard let current = path.currentPoint else {
            append([.move(to: tangent1End)], transform)
            return
        }
        let start = transform.isIdentity ? current : current.applying(transform.inverted())
        guard let arc = Path.tangentArc(from: start, tangent1End, tangent2End, radius: radius),
              let sweep = Path.arcSweep(start: Double(arc.startAngle), end: Double(arc.endAngle),
                                        clockwise: arc.clockwise)
        else {
            append([.line(to: tangent1End)], transform)
            return
        }
        addArc(center: arc.center, radius: arc.radius, start: Double(arc.startAngle), sweep: sweep, transform)
    }

    /// Appends `other`'s elements, mapped through `transform`.
    public func addPath(_ other: CGPath, transform: CGAffineTransform = .identity) {
        append(other.path.cgElements, transform)
    }
}
