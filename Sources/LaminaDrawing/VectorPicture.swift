import Foundation
import LaminaCore

/// What a gradient, shape or text layer paints, made at one pixel density (docs/semantics.md, "Specialised
/// layers"): `image` covers `rect` (in the layer's space, points) at `density` pixels per point, so pixel (i, j)
/// spans rect.origin + (i, j) / density ..< rect.origin + (i + 1, j + 1) / density. A pixel that lies partly
/// outside what is painted holds only the covered part (antialiased). Renderers draw it as a texture quad over
/// `rect`, which makes both renderers show the same pixels.
public struct VectorPicture: @unchecked Sendable {
    /// Premultiplied BGRA, as every Lamina image.
    public let image: Image
    /// The part of the layer's space the image covers, in points: its origin is on the density's pixel grid of the
    /// layer's space, its size is the image's pixel size divided by the density.
    public let rect: CGRect
    /// Pixels per point.
    public let density: CGFloat

    public init(image: Image, rect: CGRect, density: CGFloat) {
        self.image = image
        self.rect = rect
        self.density = density
    }

    /// `area` cut to `visible` (nil: all of it); nil when nothing of it is left.
    public static func area(_ area: CGRect, within visible: CGRect?) -> CGRect? {
        guard let visible else { return area }
        let cut = area.intersection(visible)
        return cut.isNull || cut.width <= 0 || cut.height <= 0 ? nil : cut
    }

    /// The pixel grid at `density` that covers `area` (points): whole pixels, origin snapped down and far edge up,
    /// and the image size. nil when the area is empty or not finite, or when the image would pass `limits`.
    public static func grid(covering area: CGRect, density: CGFloat, limits: PixelLimits = .default)
        -> (rect: CGRect, width: Int, height: Int)?
    {
        guard density > 0, density.isFinite, !area.isNull, area.width > 0, area.height > 0,
              area.minX.isFinite, area.minY.isFinite, area.maxX.isFinite, area.maxY.isFinite else { return nil }
        let x0 = (area.minX * density + 1e-9).rounded(.down), y0 = (area.minY * density + 1e-9).rounded(.down)
        let x1 = (area.maxX * density - 1e-9).rounded(.up), y1 = (area.maxY * density - 1e-9).rounded(.up)
        let w = max(x1 - x0, 1), h = max(y1 - y0, 1)
        guard w <= CGFloat(limits.maxDimension), h <= CGFloat(limits.maxDimension),
              limits.violation(width: Int(w), height: Int(h)) == nil else { return nil }
        return (CGRect(x: x0 / density, y: y0 / density, width: w / density, height: h / density), Int(w), Int(h))
    }
}
