import Foundation
import LaminaCore
import LaminaDrawing

/// The kind of a path element, with Core Graphics' raw values.
public enum CGPathElementType: Int32, Sendable {
    case moveToPoint, addLineToPoint, addQuadCurveToPoint, addCurveToPoint, closeSubpath
}

/// One path element as `applyWithBlock` hands it out: its kind and its points (1 for moves and lines, 2 for
/// quadratic curves (control, end), 3 for cubics (control1, control2, end), none for a close).
public struct CGPathElement {
    public var type: CGPathElementType
    public var points: UnsafeMutablePointer<CGPoint>

    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}

extension Path.Element {
    /// The element with its points mapped through `t`.
    func applying(_ t: CGAffineTransform) -> Path.Element {
        guard !t.isIdentity else { return self }
        switch self {
        case .move(let p): return .move(to: p.applying(t))
        case .line(let p): return .line(to: p.applying(t))
        case .quadCurve(let p, let c): return .quadCurve(to: p.applying(t), control: c.applying(t))
        case .curve(let p, let c1, let c2):
            return .curve(to: p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
        default: return self
        }
    }
}

extension CGPath {
    /// A closed rectangle (from the minimum corner along +x), its points mapped through `transform` if given.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(Path(Path.rectElements(rect).map { $0.applying(transform?.pointee ?? .identity) }))
    }

    /// A closed ellipse inscribed in `rect`: four cubics from (maxX, midY) towards increasing angle.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(Path(Path.ellipseElements(rect).map { $0.applying(transform?.pointee ?? .identity) }))
    }

    /// A closed rounded rectangle with elliptical corners (radii clamped to half the sides, where Core Graphics
    /// traps on radii too large).
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>?) {
        self.init(Path(Path.roundedRectElements(rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight)
            .map { $0.applying(transform?.pointee ?? .identity) }))
    }

    /// An immutable copy.
    public func copy() -> CGPath? { CGPath(Path(path.cgElements)) }

    /// An immutable copy with its points mapped through `transform` (nil: unchanged).
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        let t = transform?.pointee ?? .identity
        return CGPath(Path(path.cgElements.map { $0.applying(t) }))
    }

    /// A mutable copy.
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(Path(path.cgElements)) }

    /// A mutable copy with its points mapped through `transform` (nil: unchanged).
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        let t = transform?.pointee ?? .identity
        return CGMutablePath(Path(path.cgElements.map { $0.applying(t) }))
    }

    /// The box of every point of the path, control points included; .null for an empty path.
    public var boundingBox: CGRect {
        var box = CGRect.null
        for element in path.cgElements {
            switch element {
            case .move(let p), .line(let p): box = box.union(CGRect(origin: p, size: .zero))
            case .quadCurve(let p, let c):
                box = box.union(CGRect(origin: p, size: .zero)).union(CGRect(origin: c, size: .zero))
            case .curve(let p, let c1, let c2):
                box = box.union(CGRect(origin: p, size: .zero)).union(CGRect(origin: c1, size: .zero))
                    .union(CGRect(origin: c2, size: .zero))
            default: break
            }
        }
        return box
    }

    /// The smallest box holding every point on the path (curves' extremes, not their control points).
    public var boundingBoxOfPath: CGRect { path.tightBoundingBox }

    /// The point the next element starts from; .zero for an empty path.
    public var currentPoint: CGPoint { path.currentPoint ?? .zero }

    /// True when the path has no elements.
    public var isEmpty: Bool { path.isEmpty }

    /// True when the path is exactly one rectangle (a move and three or four lines along the axes, closed or
    /// ending where it began); its rectangle (standardized) is stored in `rect` when given.
    public func isRect(_ rect: UnsafeMutablePointer<CGRect>?) -> Bool {
        var points: [CGPoint] = []
        var closed = false
        for (i, element) in path.cgElements.enumerated() {
            switch element {
            case .move(let p) where i == 0: points.append(p)
            case .line(let p) where !closed && i > 0: points.append(p)
            case .close where !closed && i > 0: closed = true
            default: return false
            }
        }
        if points.count == 5, points[4] == points[0] { points.removeLast() }
        guard points.count == 4, closed || points.count == 4 else { return false }
        for i in 0..<4 {
            let a = points[i], b = points[(i + 1) % 4]
            guard (a.x == b.x) != (a.y == b.y) else { return false }
        }
        guard points[0].x == points[1].x ? points[1].y == points[2].y : points[1].x == points[2].x else { return false }
        let xs = points.map(\.x), ys = points.map(\.y)
        let box = CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        rect?.pointee = box
        return true
    }

    /// Whether `point` (mapped through `transform`'s inverse first, as if the path had been transformed) is inside
    /// the path by `rule`; open subpaths count as closed.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: CGAffineTransform = .identity) -> Bool {
        let local = transform.isIdentity ? point : point.applying(transform.inverted())
        return path.contains(local, evenOdd: rule == .evenOdd)
    }

    /// Calls `block` with each element in order (points valid only during the call).
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let points = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { points.deallocate() }
        for element in path.cgElements {
            var e: CGPathElement
            switch element {
            case .move(let p):
                points[0] = p
                e = CGPathElement(type: .moveToPoint, points: points)
            case .line(let p):
                points[0] = p
                e = CGPathElement(type: .addLineToPoint, points: points)
            case .quadCurve(let p, let c):
                (points[0], points[1]) = (c, p)
                e = CGPathElement(type: .addQuadCurveToPoint, points: points)
            case .curve(let p, let c1, let c2):
                (points[0], points[1], points[2]) = (c1, c2, p)
                e = CGPathElement(type: .addCurveToPoint, points: points)
            default:
                e = CGPathElement(type: .closeSubpath, points: points)
            }
            withUnsafePointer(to: &e) { block($0) }
        }
    }

    /// The area a stroke covers, as a path to fill with non-zero winding (see `Path.strokeOutline`), mapped through
    /// `transform`.
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                     miterLimit: CGFloat, transform: CGAffineTransform = .identity) -> CGPath {
        let outline = Path(path.cgElements).strokeOutline(width: lineWidth, cap: lineCap, join: lineJoin,
                                                          miterLimit: miterLimit)
        return CGPath(Path(outline.elements.map { $0.applying(transform) }))
    }

    /// The dashes of `lengths` as open subpaths (see `Path.dashed`), mapped through `transform`.
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat],
                     transform: CGAffineTransform = .identity) -> CGPath {
        let dashes = path.dashed(phase: phase, lengths: lengths)
        return CGPath(Path(dashes.cgElements.map { $0.applying(transform) }))
    }
}
