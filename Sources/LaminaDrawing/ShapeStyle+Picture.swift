import Foundation
import LaminaCore

extension ShapeStyle {
    /// The part of layer space the fill and stroke can touch (stroke outset, miters, square caps, dashes and
    /// strokeStart/strokeEnd included); nil when nothing is painted: no path, or neither a fill nor a stroke that
    /// paints.
    ///
    /// The fill's box is the outline's tight box (curves' control points not included) and the stroke's the box
    /// of the stroked outline, both measured with cairo. A path beyond cairo's coordinate range (about 4 million
    /// points from the origin, stroke included) gets a looser box instead: the control-point box outset by half
    /// the line width times the miter limit (miter joins) or sqrt(2) (square caps).
    public var paintedBounds: CGRect? { ShapeOutline(self)?.bounds }

    /// The style made ready to draw (its trimmed and dashed stroke and its painted bounds worked out once), for a
    /// caller that asks for the bounds and then for pictures: nil when nothing is painted.
    public func prepared() -> PreparedShape? {
        ShapeOutline(self).flatMap { outline in outline.bounds.map { PreparedShape(outline: outline, paintedBounds: $0) } }
    }

    /// What a shape layer with these properties paints at `density` pixels per point:
    /// the fill, then the stroke above it, both antialiased, over `paintedBounds` on the density's pixel grid. Nil
    /// when nothing is painted or the density is not positive and finite; throws `ImageError.tooLarge` when the
    /// picture would pass `limits`.
    ///
    /// Choices where Core Animation's documentation is silent:
    /// - the dash pattern is laid from the start of every subpath (`lineDashPhase` points into it) and
    ///   strokeStart/strokeEnd cut the dashed stroke, so dashes stay put on the path as the trim moves; a dash
    ///   running through a closed subpath's closing point is one dash, joined there;
    /// - a pattern that is empty, adds up to zero or has a negative or non-finite length strokes solid; one that
    ///   would cut the stroke into more than 131072 dashes strokes solid too;
    /// - a lineWidth of 0 (or negative, or not finite) paints no stroke; path elements with coordinates that are
    ///   not finite are left out (as PathMeasure skips them);
    /// - trimmed or dashed strokes follow the path flattened to within 0.025 points; untrimmed solid strokes
    ///   and fills are drawn from the exact curves.
    /// `visible`: only this part of the layer's space is made (what can be seen of a shape far larger than the
    /// output); nil: all that is painted.
    public func picture(density: CGFloat, visible: CGRect? = nil, limits: PixelLimits = .default) throws
        -> VectorPicture?
    {
        try prepared()?.picture(density: density, visible: visible, limits: limits)
    }
}

/// A shape style made ready to draw (`ShapeStyle.prepared()`): what it paints and where, worked out once.
public struct PreparedShape: Sendable {
    let outline: ShapeOutline
    /// `ShapeStyle.paintedBounds`.
    public let paintedBounds: CGRect

    /// `ShapeStyle.picture(density:visible:limits:)`, without working out the outline again.
    public func picture(density: CGFloat, visible: CGRect? = nil, limits: PixelLimits = .default) throws
        -> VectorPicture?
    {
        guard density > 0, density.isFinite, let bounds = VectorPicture.area(paintedBounds, within: visible)
        else { return nil }
        guard let grid = VectorPicture.grid(covering: bounds, density: density, limits: limits) else {
            func pixels(_ v: CGFloat) -> Int {
                let p = Double(v * density).rounded(.up)
                return p < 1e15 ? Int(p) : .max
            }
            let (w, h) = (pixels(bounds.width), pixels(bounds.height))
            throw ImageError.tooLarge(width: w, height: h, reason: limits.violation(width: w, height: h)
                ?? "\(w)x\(h) pixels exceeds the limit of \(limits.maxDimension) pixels per side")
        }
        let image = try Image(width: grid.width, height: grid.height, limits: limits)
        let context = try DrawingContext(image: image, scale: density)
        context.translateBy(x: -grid.rect.minX, y: -grid.rect.minY)
        outline.draw(in: context)
        context.flush()
        return VectorPicture(image: image, rect: grid.rect, density: density)
    }
}

/// A shape style made ready to draw: the path without elements that are not finite, and the stroke as the path
/// it strokes (trimmed by strokeStart/strokeEnd and cut into dashes here, so that the dashes stay on the path as
/// the trim moves), or nil where nothing of that kind is painted.
struct ShapeOutline: Sendable {
    var fill: (path: Path, color: Color, rule: FillRule)?
    var stroke: (path: Path, color: Color, width: CGFloat, cap: LineCap, join: LineJoin, miterLimit: CGFloat)?
    let bounds: CGRect?

    /// How closely trimmed or dashed curves are flattened, in points: a quarter of cairo's own 0.1 pixel at
    /// density 4, and the same at every density, so the picture's bounds do not depend on it.
    static let tolerance = 0.025

    /// Coordinates cairo handles (its 24.8 fixed point reaches about 8.4 million) with room for the stroke.
    static let cairoRange: CGFloat = 4_000_000

    init?(_ style: ShapeStyle) {
        guard let original = style.path else { return nil }
        let path = original.finiteElements
        guard !path.isEmpty else { return nil }
        if let color = style.fillColor, color.alpha > 0 {
            fill = (path, color, style.fillRule == .evenOdd ? .evenOdd : .winding)
        }
        let width = style.lineWidth
        if let color = style.strokeColor, color.alpha > 0, width > 0, width.isFinite,
           let strokePath = Self.strokePath(style, path) {
            let limit = style.miterLimit.isFinite ? max(0, style.miterLimit) : 10
            stroke = (strokePath, color, width, style.lineCap, style.lineJoin, limit)
        }
        guard fill != nil || stroke != nil else { return nil }
        bounds = Self.measure(fill: fill?.path, stroke: stroke)
        guard bounds != nil else { return nil }
    }

    /// The path the stroke strokes: the path itself (exact curves) when it is neither trimmed nor dashed.
    private static func strokePath(_ style: ShapeStyle, _ path: Path) -> Path? {
        let lo = style.strokeStart.isNaN ? 0 : min(max(Double(style.strokeStart), 0), 1)
        let hi = style.strokeEnd.isNaN ? 0 : min(max(Double(style.strokeEnd), 0), 1)
        guard lo < hi else { return nil }
        let pattern = FlatPath.dashPattern(style.lineDashPattern)
        if pattern == nil && lo == 0 && hi == 1 { return path }
        let flat = FlatPath(path, tolerance: tolerance)
        let result: Path
        if let pattern, let dashed = flat.dashed(pattern: pattern, phase: Double(style.lineDashPhase),
                                                  keeping: lo * flat.length, hi * flat.length) {
            result = dashed
        } else {
            result = lo == 0 && hi == 1 ? path : flat.path(keeping: [(lo * flat.length, hi * flat.length)])
        }
        return result.isEmpty ? nil : result
    }

    /// The union of the fill's and the stroke's boxes; nil when both are empty.
    private static func measure(fill: Path?, stroke: (path: Path, color: Color, width: CGFloat, cap: LineCap,
                                                      join: LineJoin, miterLimit: CGFloat)?) -> CGRect? {
        var box = CGRect.null
        let outset = stroke.map { s -> CGFloat in
            let miter: CGFloat = s.join == .miter ? max(1, s.miterLimit) : 1
            return s.width / 2 * max(miter, s.cap == .square ? 2.0.squareRoot() : 1)
        } ?? 0
        let loose = (fill ?? stroke?.path)?.boundingBox.union(stroke?.path.boundingBox ?? .null) ?? .null
        let range = Self.cairoRange
        let fits = !loose.isNull && loose.minX - outset > -range && loose.minY - outset > -range
            && loose.maxX + outset < range && loose.maxY + outset < range
        if !fits {
            // cairo cannot measure it: the loose box, which passes any pixel limit long before it misleads.
            guard !loose.isNull, outset.isFinite else { return loose.isNull ? nil : .infinite }
            box = loose.insetBy(dx: -outset, dy: -outset)
            return box.width > 0 && box.height > 0 ? box : nil
        }
        guard let scratch = try? Image(width: 1, height: 1), let context = try? DrawingContext(image: scratch)
        else { return nil }
        context.setFlatness(0.01)
        if let fill {
            context.beginPath()
            context.addPath(fill)
            box = box.union(context.fillExtents)
        }
        if let stroke {
            context.setLineWidth(stroke.width)
            context.setLineCap(stroke.cap)
            context.setLineJoin(stroke.join)
            context.setMiterLimit(stroke.miterLimit)
            context.beginPath()
            context.addPath(stroke.path)
            box = box.union(context.strokeExtents)
        }
        return box.isNull || box.width <= 0 || box.height <= 0 ? nil : box
    }

    /// Fills, then strokes, into `context` (user space = layer space).
    func draw(in context: DrawingContext) {
        if let fill {
            context.beginPath()
            context.addPath(fill.path)
            context.setFillColor(fill.color)
            context.fillPath(using: fill.rule)
        }
        if let stroke {
            context.setLineWidth(stroke.width)
            context.setLineCap(stroke.cap)
            context.setLineJoin(stroke.join)
            context.setMiterLimit(stroke.miterLimit)
            context.setLineDash(phase: 0, lengths: [])
            context.setStrokeColor(stroke.color)
            context.beginPath()
            context.addPath(stroke.path)
            context.strokePath()
        }
    }
}
