import Foundation
import LaminaCore

extension TextStyle {
    /// What a text layer with this style and `bounds` paints at `density` px/pt: the text laid out from the
    /// top-left of the bounds, cut off at the bounds (pixels on the bounds' edges hold only the part inside); nil
    /// when nothing is painted (empty string or only spaces, zero bounds, clear colour, or too large for `limits`).
    /// `visible`: only this part of the layer's space is made (what can be seen of a layer far larger than the
    /// output); nil: all of the bounds.
    public func picture(bounds: CGRect, density: CGFloat, visible: CGRect? = nil, limits: PixelLimits = .default)
        throws -> VectorPicture?
    {
        let bounds = bounds.standardized
        guard !string.isEmpty, foregroundColor.alpha > 0, let covered = VectorPicture.area(bounds, within: visible),
              let grid = VectorPicture.grid(covering: covered, density: density, limits: limits) else { return nil }
        let layout = TextLayout(self, width: bounds.width, height: bounds.height)
        guard layout.hasInk else { return nil }
        let image = try Image(width: grid.width, height: grid.height, limits: limits)
        let context = try DrawingContext(image: image, scale: density)
        context.translateBy(x: -grid.rect.minX, y: -grid.rect.minY)
        context.draw(layout, color: foregroundColor, in: bounds)
        context.flush()
        return VectorPicture(image: image, rect: grid.rect, density: density)
    }

    /// CATextLayer.preferredFrameSize(): the size the text needs, in points (the widest line's advance and the
    /// lines' height, rounded up to whole points). Wrapped text wraps at `width` when given (Core Animation uses
    /// the layer's current bounds width for wrapped text); unwrapped text and a nil width give one line per
    /// explicit newline. Nothing is truncated.
    public func preferredSize(wrappingWidth width: CGFloat? = nil) -> CGSize {
        guard !string.isEmpty else { return .zero }
        var style = self
        style.truncationMode = .none
        let layout = TextLayout(style, width: isWrapped ? width : nil, height: nil)
        return CGSize(width: layout.size.width.rounded(.up), height: layout.size.height.rounded(.up))
    }
}
