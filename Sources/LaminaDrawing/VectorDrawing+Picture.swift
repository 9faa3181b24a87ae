import Foundation
import LaminaCore

/// Why a vector drawing was not drawn (docs/semantics.md, "Vector drawings").
public enum VectorDrawingError: Error, Equatable, CustomStringConvertible {
    /// More items (counted through groups and masks) than `VectorDrawing.mostItems`.
    case tooManyItems(count: Int, limit: Int)
    /// Groups or masks nested deeper than `VectorDrawing.mostDepth`.
    case tooDeep(limit: Int)
    /// The groups drawn into pictures of their own (for opacity, operators, masks and effects) would need more than
    /// `VectorDrawing.mostScratchPixels` pixels at once.
    case tooManyGroupPixels(limit: Int)

    public var description: String {
        switch self {
        case .tooManyItems(let count, let limit):
            "the drawing has \(count) items or more, beyond the limit of \(limit)"
        case .tooDeep(let limit): "groups and masks nested deeper than \(limit) levels"
        case .tooManyGroupPixels(let limit):
            "its groups need more than \(limit) pixels of pictures of their own at once"
        }
    }
}

extension VectorDrawing {
    /// The most items a drawing may hold, counted through its groups and masks (a documented limit).
    public static let mostItems = 65_536
    /// The deepest nesting of groups and masks drawn (a documented limit).
    public static let mostDepth = 64
    /// The most pixels the groups drawn apart may hold at once (256 MiB).
    public static let mostScratchPixels = 64 << 20
    /// Coordinates on the pixel grid beyond this are not drawn (cairo's 24.8 fixed point reaches about 8.4 million).
    static let cairoRange: CGFloat = 4_000_000

    /// What the items can touch, in the drawing's space: fills' outlines (the box of their points), strokes' boxes
    /// (width, joins and caps included, dashes not), images' rectangles, text's ink (stroke included), with blur
    /// and shadow outsets (3 standard deviations), groups' boxes mapped by their transforms and cut to their
    /// masks'. `extent`, when set, is the answer instead. Nil when nothing is painted.
    public var paintedBounds: CGRect? {
        if let extent {
            guard extent.minX.isFinite, extent.minY.isFinite, extent.maxX.isFinite, extent.maxY.isFinite else {
                return nil
            }
            let box = extent.standardized
            return box.width > 0 && box.height > 0 ? box : nil
        }
        let box = Self.bounds(of: items, depth: 0, measure: BoundsMeasure())
        guard !box.isNull, box.width > 0, box.height > 0 else { return nil }
        return box
    }

    /// What a drawing layer with this drawing paints at `density` pixels per point: the items in order, each
    /// antialiased, over `paintedBounds` (cut to `visible`, when given) on the density's pixel grid, premultiplied
    /// BGRA; `alpha` applied last. Nil when nothing is painted or the density is not positive and finite; throws
    /// `ImageError.tooLarge` past `limits` and `VectorDrawingError` past the drawing's own limits.
    public func picture(density: CGFloat, visible: CGRect? = nil, limits: PixelLimits = .default) throws
        -> VectorPicture?
    {
        guard density > 0, density.isFinite else { return nil }
        let count = Self.count(items, depth: 0, limit: Self.mostItems)
        if count.tooDeep { throw VectorDrawingError.tooDeep(limit: Self.mostDepth) }
        if count.items > Self.mostItems {
            throw VectorDrawingError.tooManyItems(count: count.items, limit: Self.mostItems)
        }
        guard let painted = paintedBounds, let bounds = VectorPicture.area(painted, within: visible) else {
            return nil
        }
        guard let grid = VectorPicture.grid(covering: bounds, density: density, limits: limits) else {
            func pixels(_ v: CGFloat) -> Int {
                let p = Double(v * density).rounded(.up)
                return p.isFinite && p < 1e15 ? Int(p) : .max
            }
            let (w, h) = (pixels(bounds.width), pixels(bounds.height))
            throw ImageError.tooLarge(width: w, height: h, reason: limits.violation(width: w, height: h)
                ?? "\(w)x\(h) pixels exceeds the limit of \(limits.maxDimension) pixels per side")
        }
        let renderer = VectorDrawingRenderer(limits: limits)
        let canvas = try renderer.canvas(x0: 0, y0: 0, x1: grid.width, y1: grid.height)
        let toPixels = CGAffineTransform(a: density, b: 0, c: 0, d: density, tx: -grid.rect.minX * density,
                                         ty: -grid.rect.minY * density)
        try renderer.draw(self, on: canvas, transform: toPixels, depth: 0)
        canvas.finish()
        return VectorPicture(image: canvas.image, rect: grid.rect, density: density)
    }

    /// Items counted through groups and masks, stopping past `limit`; whether nesting passes `mostDepth`.
    static func count(_ items: [Item], depth: Int, limit: Int) -> (items: Int, tooDeep: Bool) {
        guard depth <= mostDepth else { return (0, true) }
        var total = 0
        for item in items {
            total += 1
            if case .group(let group) = item {
                let inner = count(group.items, depth: depth + 1, limit: limit - total)
                if inner.tooDeep { return (total, true) }
                total += inner.items
                if let mask = group.mask {
                    let masked = count(mask.items, depth: depth + 1, limit: limit - total)
                    if masked.tooDeep { return (total, true) }
                    total += masked.items
                }
            }
            if total > limit { return (total, false) }
        }
        return (total, false)
    }

    /// The box of `items` in their own space; .null when they paint nothing.
    static func bounds(of items: [Item], depth: Int, measure: BoundsMeasure) -> CGRect {
        guard depth <= mostDepth else { return .null }
        var box = CGRect.null
        for item in items {
            measure.budget -= 1
            guard measure.budget >= 0 else { return box }
            box = box.union(bounds(of: item, depth: depth, measure: measure))
        }
        return box
    }

    static func bounds(of item: Item, depth: Int, measure: BoundsMeasure) -> CGRect {
        switch item {
        case .fill(let path, let paint, _):
            guard paint.paints else { return .null }
            return finite(path.finiteElements.boundingBox)
        case .stroke(let path, let paint, let style):
            guard paint.paints, let width = style.usableWidth else { return .null }
            return strokeBounds(path.finiteElements, width: width, style: style, measure: measure)
        case .image(let image, let rect, let opacity):
            guard opacity > 0, image.image.width > 0, image.image.height > 0 else { return .null }
            return finite(rect.standardized)
        case .text(let run):
            return finite(VectorText.inkBounds(run))
        case .group(let group):
            guard group.opacity > 0 || group.operator.isUnboundedClear, group.transform.isUsable else { return .null }
            var inner = bounds(of: group.items, depth: depth + 1, measure: measure)
            guard !inner.isNull else { return .null }
            inner = finite(inner.applying(group.transform))
            guard !inner.isNull else { return .null }
            if let mask = group.mask {
                let maskBox = mask.extent.map { finite($0.standardized) }
                    ?? bounds(of: mask.items, depth: depth + 1, measure: measure)
                inner = inner.intersection(maskBox)
                if inner.isNull || inner.width <= 0 || inner.height <= 0 { return .null }
            }
            let blur = group.blur.isFinite && group.blur > 0 ? 3 * group.blur : 0
            var box = inner.insetBy(dx: -blur, dy: -blur)
            if let shadow = group.shadow, shadow.color.alpha > 0, shadow.offset.width.isFinite,
               shadow.offset.height.isFinite {
                let spread = blur + (shadow.blur.isFinite && shadow.blur > 0 ? 3 * shadow.blur : 0)
                box = box.union(inner.offsetBy(dx: shadow.offset.width, dy: shadow.offset.height)
                    .insetBy(dx: -spread, dy: -spread))
            }
            return finite(box)
        }
    }

    /// The box of a stroke of `path`: cairo's stroke extents where it can measure them, else the points' box
    /// outset by half the width times the miter limit (miter joins) or sqrt(2) (square caps).
    static func strokeBounds(_ path: Path, width: CGFloat, style: StrokeStyle, measure: BoundsMeasure) -> CGRect {
        let loose = path.boundingBox
        guard !loose.isNull else { return .null }
        let miter: CGFloat = style.join == .miter ? max(1, style.usableMiterLimit) : 1
        let outset = width / 2 * max(miter, style.cap == .square ? 2.0.squareRoot() : 1)
        let fits = loose.minX - outset > -cairoRange && loose.minY - outset > -cairoRange
            && loose.maxX + outset < cairoRange && loose.maxY + outset < cairoRange
        guard fits, let context = measure.context else { return finite(loose.insetBy(dx: -outset, dy: -outset)) }
        context.setLineWidth(width)
        context.setLineCap(style.cap)
        context.setLineJoin(style.join)
        context.setMiterLimit(style.usableMiterLimit)
        context.beginPath()
        context.addPath(path)
        let box = context.strokeExtents
        return box.isNull || box.width <= 0 || box.height <= 0 ? .null : box
    }

    /// `rect`, or .null when it is empty or not finite.
    static func finite(_ rect: CGRect) -> CGRect {
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite
        else { return .null }
        return rect
    }
}

/// What measuring a drawing's bounds shares: the items left to measure, and one scratch cairo context for strokes.
final class BoundsMeasure {
    var budget = VectorDrawing.mostItems
    lazy var context: DrawingContext? = {
        guard let scratch = try? Image(width: 1, height: 1), let context = try? DrawingContext(image: scratch)
        else { return nil }
        context.setFlatness(0.01)
        return context
    }()
}

extension VectorDrawing.Paint {
    /// Whether it can paint anything (a colour or an opacity above 0, a gradient with stops).
    var paints: Bool {
        switch self {
        case .color(let color): color.alpha > 0
        case .linear(let stops, _, _, let opacity), .radial(let stops, _, _, _, _, let opacity):
            !stops.isEmpty && opacity > 0 && stops.contains { $0.color.alpha > 0 }
        }
    }
}

extension VectorDrawing.StrokeStyle {
    /// The width when it strokes (positive and finite), else nil.
    var usableWidth: CGFloat? { width > 0 && width.isFinite ? width : nil }
    var usableMiterLimit: CGFloat { miterLimit.isFinite ? min(max(miterLimit, 1), 1000) : 4 }
}

extension VectorDrawing.Operator {
    /// Clears what is below where the group paints nothing (cairo's unbounded destination-in).
    var isUnboundedClear: Bool { self == .destinationIn }
}

extension CGAffineTransform {
    /// Finite and invertible (cairo refuses others, and they show nothing).
    var isUsable: Bool {
        let det = a * d - b * c
        return [a, b, c, d, tx, ty].allSatisfy(\.isFinite) && det != 0 && det.isFinite
            && abs(det) > 1e-24
    }
}
