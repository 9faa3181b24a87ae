import Foundation
import LaminaCore
import LaminaDrawing

/// CALayerDelegate's drawing half: a delegate fills a layer's backing image, either by setting `contents`
/// itself (`display(_:)`) or by drawing into a context the layer prepares (`draw(_:in:)`). Both are optional:
/// the default `display(_:)` does what a layer without a delegate does (make a backing image and call the
/// layer's `draw(in:)`, which calls the delegate's `draw(_:in:)`), so a delegate that implements `display(_:)`
/// takes over and its `draw(_:in:)` is not called, as in Core Animation.
public protocol LayerDelegate: AnyObject {
    /// Sets `layer.contents` directly.
    func display(_ layer: Layer)
    /// Draws the layer's contents into `context`, whose user space is the layer's bounds in points (y down).
    func draw(_ layer: Layer, in context: DrawingContext)
    /// The action for a change of `key` (CALayerDelegate's `action(for:forKey:)`): nil goes on searching (the
    /// layer's `actions`, `style`, `defaultAction(forKey:)`), `NullAction` stops the search with no action.
    func action(for layer: Layer, forKey key: String) -> Action?
    /// Called before the layer draws into a backing image (CALayerDelegate's `layerWillDraw(_:)`): a last chance to
    /// change the layer's `contentsFormat`, `contentsScale` or other properties the drawing reads.
    func layerWillDraw(_ layer: Layer)
    /// Lays out the layer's sublayers (CALayerDelegate's `layoutSublayers(of:)`): what the default
    /// `Layer.layoutSublayers()` calls.
    func layoutSublayers(of layer: Layer)
}

extension LayerDelegate {
    public func display(_ layer: Layer) {
        layer.displayIntoBackingImage()
    }

    public func draw(_ layer: Layer, in context: DrawingContext) {}

    public func action(for layer: Layer, forKey key: String) -> Action? { nil }

    public func layerWillDraw(_ layer: Layer) {}

    public func layoutSublayers(of layer: Layer) {}
}
