import Foundation
import LaminaCore

/// A vector path (CGPath's role): a list of elements in user space, replayed into a DrawingContext. Used for
/// `Layer.shadowPath`; Equatable so a layer can tell when its shadow's shape changed.
public struct Path: Equatable, Sendable {
    public enum Element: Equatable, Sendable {
        case move(to: CGPoint)
        case line(to: CGPoint)
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        case quadCurve(to: CGPoint, control: CGPoint)
        case arc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool)
        case close
        case rect(CGRect)
        case ellipse(CGRect)
        case roundedRect(CGRect, radius: CGFloat)
    }

    public private(set) var elements: [Element] = []

    public init() {}

    public init(_ elements: [Element]) { self.elements = elements }

    /// A rectangle (CGPath(rect:transform:)).
    public init(rect: CGRect) { self.init([.rect(rect)]) }

    /// An ellipse inscribed in `rect` (CGPath(ellipseIn:transform:)).
    public init(ellipseIn rect: CGRect) { self.init([.ellipse(rect)]) }

    /// A rounded rectangle (CGPath(roundedRect:cornerWidth:cornerHeight:transform:) with equal radii).
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat) { self.init([.roundedRect(rect, radius: cornerRadius)]) }

    public var isEmpty: Bool { elements.isEmpty }

    /// Appends elements as they are (CGMutablePath's Apple API builds them).
    public mutating func append(contentsOf newElements: [Element]) { elements += newElements }

    public mutating func move(to point: CGPoint) { elements.append(.move(to: point)) }
    public mutating func addLine(to point: CGPoint) { elements.append(.line(to: point)) }
    public mutating func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        elements.append(.curve(to: end, control1: control1, control2: control2))
    }
    public mutating func addQuadCurve(to end: CGPoint, control: CGPoint) {
        elements.append(.quadCurve(to: end, control: control))
    }
    public mutating func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                                clockwise: Bool) {
        elements.append(.arc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                             clockwise: clockwise))
    }
    public mutating func closeSubpath() { elements.append(.close) }
    public mutating func addRect(_ rect: CGRect) { elements.append(.rect(rect)) }
    public mutating func addEllipse(in rect: CGRect) { elements.append(.ellipse(rect)) }
    public mutating func addRoundedRect(in rect: CGRect, radius: CGFloat) {
        elements.append(.roundedRect(rect, radius: radius))
    }

    /// A box holding every point of the path (control points included, so it may be larger than the shape);
    /// .null when the path is empty.
    public var boundingBox: CGRect {
        var box = CGRect.null
        func add(_ p: CGPoint) { box = box.union(CGRect(origin: p, size: .zero)) }
        for element in elements {
            switch element {
            case .move(let p), .line(let p): add(p)
            case .curve(let p, let c1, let c2): add(p); add(c1); add(c2)
            case .quadCurve(let p, let c): add(p); add(c)
            case .arc(let c, let r, _, _, _):
                box = box.union(CGRect(x: c.x - abs(r), y: c.y - abs(r), width: 2 * abs(r), height: 2 * abs(r)))
            case .close: break
            case .rect(let r), .ellipse(let r), .roundedRect(let r, _): box = box.union(r.standardized)
            }
        }
        return box
    }
}

extension DrawingContext {
    /// Adds `path`'s elements to the current path.
    public func addPath(_ path: Path) {
        for element in path.elements { add(element) }
    }

    /// Adds one path element to the current path, as the CGContext call of the same name would.
    public func add(_ element: Path.Element) {
        switch element {
        case .move(let p): move(to: p)
        case .line(let p): addLine(to: p)
        case .curve(let p, let c1, let c2): addCurve(to: p, control1: c1, control2: c2)
        case .quadCurve(let p, let c): addQuadCurve(to: p, control: c)
        case .arc(let c, let r, let a0, let a1, let clockwise):
            addArc(center: c, radius: r, startAngle: a0, endAngle: a1, clockwise: clockwise)
        case .close: closePath()
        case .rect(let r): addRect(r)
        case .ellipse(let r): addEllipse(in: r)
        case .roundedRect(let r, let radius): addRoundedRect(in: r, radius: radius)
        }
    }
}
