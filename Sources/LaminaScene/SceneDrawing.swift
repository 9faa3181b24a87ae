import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// The custom drawing of a scene layer: the layer's `draw` steps (docs/scene-format.md, "Drawing steps"), checked
/// when the scene was loaded and run in order on the layer's drawing context each time the layer is drawn.
///
/// The loader makes one per layer with a `draw` key, sets it as the layer's `ownedDelegate` (so the steps live
/// as long as the layer) and marks the layer with `setNeedsDisplay()`, so a renderer draws it once before it
/// plans the first frame (docs/semantics.md, "Custom drawing").
///
/// Coordinates are in the layer's bounds space, in points, y down; angles are degrees, as in the file, and
/// positive angles turn clockwise on the screen.
public final class SceneDrawing: LayerDelegate {
    /// A rectangle a step takes: numbers, or `"bounds"`, the layer's bounds when it is drawn.
    public enum Rect: Equatable, Sendable {
        /// The layer's bounds at drawing time (the book's `CGContextStrokeEllipseInRect(ctx, layer.bounds)`).
        case bounds
        /// A fixed rectangle in the layer's bounds space.
        case rect(CGRect)

        /// The rectangle for a layer whose bounds are `bounds`.
        public func resolved(in bounds: CGRect) -> CGRect {
            switch self {
            case .bounds: return bounds
            case .rect(let rect): return rect
            }
        }
    }

    /// The image of an `image` step, decoded when the scene was loaded; equal when the name is the same and
    /// the image is the same object.
    public struct DrawnImage: Equatable, Sendable {
        /// The image name of `images` or the path, as the scene wrote it.
        public var name: String
        /// The decoded image (shared with every other use of the same file).
        public var image: Image

        /// The image `image`, named `name` in the scene.
        public init(name: String, image: Image) {
            self.name = name
            self.image = image
        }

        public static func == (a: DrawnImage, b: DrawnImage) -> Bool {
            a.name == b.name && a.image === b.image
        }
    }

    /// One drawing step: an operation of DrawingContext with its arguments, as the file gives them.
    public enum Step: Equatable, Sendable {
        // State
        /// `{"save": true}`: saveGState().
        case save
        /// `{"restore": true}`: restoreGState(); one without a matching save does nothing.
        case restore
        /// `{"translate": [x, y]}`.
        case translate(x: CGFloat, y: CGFloat)
        /// `{"scale": [sx, sy]}`; neither is 0.
        case scale(x: CGFloat, y: CGFloat)
        /// `{"rotate": degrees}`: positive turns clockwise on the screen.
        case rotate(degrees: CGFloat)
        /// `{"lineWidth": w}`, w >= 0.
        case lineWidth(CGFloat)
        /// `{"lineCap": "butt|round|square"}`.
        case lineCap(LineCap)
        /// `{"lineJoin": "miter|round|bevel"}`.
        case lineJoin(LineJoin)
        /// `{"dash": [on, off, ...]}`: lengths >= 0, not all 0; [] is a solid line.
        case dash([CGFloat])
        /// `{"fillColor": colour}`: used by fill, fillRect, fillEllipse and text; black by default.
        case fillColor(Color)
        /// `{"strokeColor": colour}`: used by stroke, strokeRect and strokeEllipse; black by default.
        case strokeColor(Color)

        // Paths
        /// `{"moveTo": [x, y]}`.
        case moveTo(CGPoint)
        /// `{"lineTo": [x, y]}`.
        case lineTo(CGPoint)
        /// `{"curveTo": [c1x, c1y, c2x, c2y, x, y]}`: a cubic Bézier.
        case curveTo(control1: CGPoint, control2: CGPoint, end: CGPoint)
        /// `{"quadTo": [cx, cy, x, y]}`: a quadratic Bézier.
        case quadTo(control: CGPoint, end: CGPoint)
        /// `{"arc": [cx, cy, r, startDeg, endDeg], "clockwise": bool}`: CGContext's addArc. With clockwise
        /// false (the default) the angle increases, which turns clockwise on the y-down screen.
        case arc(center: CGPoint, radius: CGFloat, startDegrees: CGFloat, endDegrees: CGFloat, clockwise: Bool)
        /// `{"closePath": true}`.
        case closePath
        /// `{"rect": [x, y, w, h] or "bounds"}`: adds a rectangle to the path.
        case rect(Rect)
        /// `{"ellipse": [x, y, w, h] or "bounds"}`: adds the ellipse in the rectangle to the path.
        case ellipse(Rect)
        /// `{"roundedRect": [x, y, w, h, r]}`.
        case roundedRect(CGRect, radius: CGFloat)

        // Painting
        /// `{"fill": "nonzero|evenodd"}`: fills the path with the fill colour and clears it.
        case fill(FillRule)
        /// `{"stroke": true}`: strokes the path with the stroke colour, line width, cap, join and dash, and
        /// clears it.
        case stroke
        /// `{"clip": "nonzero|evenodd"}`: intersects the clip with the path and clears it.
        case clip(FillRule)
        /// `{"fillRect": rect}`: clears the path and fills the rectangle.
        case fillRect(Rect)
        /// `{"strokeRect": rect}`: clears the path and strokes the rectangle.
        case strokeRect(Rect)
        /// `{"fillEllipse": rect}`: clears the path and fills the ellipse in the rectangle.
        case fillEllipse(Rect)
        /// `{"strokeEllipse": rect}`: clears the path and strokes the ellipse in the rectangle.
        case strokeEllipse(Rect)
        /// `{"image": name or path, "rect": rect}`: the image scaled into the rectangle.
        case image(DrawnImage, in: Rect)
        /// `{"text": string, "at": [x, y], "size": points, "font": family}`: the text in the fill colour, its
        /// baseline starting at `at`; the font family defaults to "sans-serif".
        case text(String, at: CGPoint, size: CGFloat, font: String)
    }

    /// The steps, in the order they run.
    public let steps: [Step]

    /// A delegate that runs `steps`.
    public init(steps: [Step]) {
        self.steps = steps
    }

    /// Runs the steps on `context`; `"bounds"` is `layer.bounds` now.
    public func draw(_ layer: Layer, in context: DrawingContext) {
        let bounds = layer.bounds
        for step in steps {
            run(step, in: context, bounds: bounds)
        }
    }

    private func run(_ step: Step, in context: DrawingContext, bounds: CGRect) {
        if let element = step.pathElement(in: bounds) {
            context.add(element)
            return
        }
        switch step {
        case .save: context.saveGState()
        case .restore: context.restoreGState()
        case .translate(let x, let y): context.translateBy(x: x, y: y)
        case .scale(let x, let y): context.scaleBy(x: x, y: y)
        case .rotate(let degrees): context.rotate(by: radians(degrees))
        case .lineWidth(let width): context.setLineWidth(width)
        case .lineCap(let cap): context.setLineCap(cap)
        case .lineJoin(let join): context.setLineJoin(join)
        case .dash(let lengths): context.setLineDash(phase: 0, lengths: lengths)
        case .fillColor(let color): context.setFillColor(color)
        case .strokeColor(let color): context.setStrokeColor(color)
        case .moveTo, .lineTo, .curveTo, .quadTo, .arc, .closePath, .rect, .ellipse, .roundedRect:
            break  // path steps: added above
        case .fill(let rule): context.fillPath(using: rule)
        case .stroke: context.strokePath()
        case .clip(let rule): context.clip(using: rule)
        case .fillRect(let rect): context.fill(rect.resolved(in: bounds))
        case .strokeRect(let rect): context.stroke(rect.resolved(in: bounds))
        case .fillEllipse(let rect): context.fillEllipse(in: rect.resolved(in: bounds))
        case .strokeEllipse(let rect): context.strokeEllipse(in: rect.resolved(in: bounds))
        case .image(let drawn, let rect): context.draw(drawn.image, in: rect.resolved(in: bounds))
        case .text(let text, let point, let size, let font):
            context.showText(text, at: point, fontSize: size, family: font)
        }
    }

    private func radians(_ degrees: CGFloat) -> CGFloat {
        Self.radians(degrees)
    }

    /// Degrees to radians. Beyond a billion degrees the angle is first reduced to one turn (exact), so that no angle
    /// overflows; below, arcs keep their extent (0 to 720 is two turns).
    static func radians(_ degrees: CGFloat) -> CGFloat {
        (abs(degrees) < 1e9 ? degrees : degrees.truncatingRemainder(dividingBy: 360)) * .pi / 180
    }
}

extension SceneDrawing.Step {
    /// The path element a path step adds (`"bounds"` resolved to `bounds`, degrees turned to radians); nil for the
    /// other steps. What a `draw` step adds to the current path and what a `shadowPath` is made of.
    public func pathElement(in bounds: CGRect) -> Path.Element? {
        func radians(_ degrees: CGFloat) -> CGFloat { SceneDrawing.radians(degrees) }
        switch self {
        case .moveTo(let point): return .move(to: point)
        case .lineTo(let point): return .line(to: point)
        case .curveTo(let control1, let control2, let end): return .curve(to: end, control1: control1, control2: control2)
        case .quadTo(let control, let end): return .quadCurve(to: end, control: control)
        case .arc(let center, let radius, let start, let end, let clockwise):
            return .arc(center: center, radius: radius, startAngle: radians(start), endAngle: radians(end),
                        clockwise: clockwise)
        case .closePath: return .close
        case .rect(let rect): return .rect(rect.resolved(in: bounds))
        case .ellipse(let rect): return .ellipse(rect.resolved(in: bounds))
        case .roundedRect(let rect, let radius): return .roundedRect(rect, radius: radius)
        default: return nil
        }
    }
}
