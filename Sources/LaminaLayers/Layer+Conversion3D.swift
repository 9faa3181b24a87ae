import Foundation
import LaminaCore

// Conversions through transform layers (docs/semantics.md, "Transform layers"): the levels from a layer up through
// transform layers to the nearest layer above that flattens are one map, composed in 3D and flattened once, as the
// planner draws them.

extension Layer {
    /// Whether this layer is a transform layer (its model's kind).
    var isTransformLayerModel: Bool { read { $0.isTransformLayer } }

    /// The map from this layer's space up to the space of the layer it returns (nil: the top space), stopping below
    /// `stop`: one level, or, below a transform layer, every level up to the first layer above that is not a
    /// transform layer (or `stop`), composed in 3D and flattened once.
    func mapUpThroughTransformLayers(stoppingAt stop: Layer?) -> (map: Matrix3, next: Layer?) {
        guard let parent = superlayer, parent !== stop, parent.isTransformLayerModel else {
            return (mapToParentSpace, superlayer)
        }
        // Each read takes the model lock on its own (reads do not nest).
        let parentSpace = parent.sublayerTransformAboutAnchor
        var map = read { $0.mapToSuperlayer3D(sublayerSpace: parentSpace) }
        var node = parent
        while true {
            guard let above = node.superlayer else {
                // A transform layer at the root: placed in the top space by its own position and transform.
                map = map.concatenating(node.read { $0.mapToSuperlayer3D(sublayerSpace: .identity) })
                return (map.flattened, nil)
            }
            let aboveSpace = above.sublayerTransformAboutAnchor
            map = map.concatenating(node.read { $0.mapToSuperlayer3D(sublayerSpace: aboveSpace) })
            guard above !== stop, above.isTransformLayerModel else { return (map.flattened, above) }
            node = above
        }
    }
}
