import Foundation
import LaminaCore
import LaminaDrawing

// Custom drawing (docs/semantics.md, "Custom drawing"): a layer marked with setNeedsDisplay() is drawn once, by
// display(), when a renderer plans it, and its drawing is kept as `contents` until it is marked again.

extension Layer {
    /// Marks the layer to be drawn again before it is next rendered.
    public func setNeedsDisplay() {
        needsDisplay = true
    }

    /// Marks part of the layer for drawing; Lamina redraws the whole layer.
    public func setNeedsDisplay(_ rect: CGRect) {
        setNeedsDisplay()
    }

    /// Draws the layer now if it is marked (renderers call this on each visible layer before planning).
    public func displayIfNeeded() {
        guard needsDisplay else { return }
        needsDisplay = false
        display()
    }

    /// The standard drawing path: a transparent backing image of ceil(bounds.size x contentsScale) pixels, a
    /// context on it whose user space is the bounds (bounds.origin at the top-left pixel corner, points scaled
    /// by contentsScale, clipped to the bounds), `draw(in:)`, and the image as `contents`.
    /// A zero-area bounds draws nothing and leaves no contents. The previous backing image is reused when it
    /// has the right size, so a redraw allocates nothing and renderers see a changed generation.
    public func displayIntoBackingImage() {
        lastDisplayError = nil
        let scale = contentsScale.isFinite && contentsScale > 0 ? contentsScale : 1
        let width = (bounds.width * scale).rounded(.up), height = (bounds.height * scale).rounded(.up)
        guard width.isFinite, height.isFinite, width >= 1, height >= 1 else {
            if contents === backingImage { contents = nil }
            backingImage = nil
            return
        }
        do {
            guard width <= CGFloat(PixelLimits.default.maxDimension), height <= CGFloat(PixelLimits.default.maxDimension)
            else {
                throw ImageError.tooLarge(
                    width: Int(min(width, 1e9)), height: Int(min(height, 1e9)),
                    reason: String(format: "%.0fx%.0f pixels exceeds the limit of %d pixels per side",
                                   Double(width), Double(height), PixelLimits.default.maxDimension))
            }
            let image: Image
            if let previous = backingImage, previous.width == Int(width), previous.height == Int(height) {
                memset(previous.baseAddress, 0, previous.byteCount)
                image = previous
            } else {
                image = try Image(width: Int(width), height: Int(height))
            }
            let context = try DrawingContext(image: image, scale: scale)
            context.translateBy(x: -bounds.minX, y: -bounds.minY)
            context.clip(to: bounds)
            draw(in: context)
            context.flush()
            if let failure = context.failure {
                lastDisplayError = "\(debugName): cannot draw its contents: \(failure)"
            }
            backingImage = image
            contents = image
        } catch {
            lastDisplayError = "\(debugName): cannot draw its contents: \(error)"
        }
    }
}
