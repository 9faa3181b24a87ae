import Foundation
import LaminaCore

// Transform layers in the planner (docs/semantics.md, "Transform layers"): every other layer is flattened into its
// superlayer's plane at each level, but a transform layer passes the full 4x4 map on to its sublayers, so that they
// keep their depth in the 3D space of the nearest ancestor that is not a transform layer (the flattening plane) and
// that ancestor's sublayerTransform (perspective) applies to all of them at once. Each sublayer that is not a
// transform layer is a plane of that space, its own subtree flattened into it as usual; the planes are planned back
// to front by the depth of their centres, so the nearest face of a cube covers the others.

extension Planner {
    /// The visits of the planes of transform layer `layer`'s space, back to front: `layerToPlane` is the transform
    /// layer's map into the flattening plane (3D), `planeToTarget` the flattening plane's map to the target, and
    /// `opacity` and `clip` what the transform layer inherits. The transform layer itself paints nothing.
    func spaceVisits(
        of layer: LayerSnapshot, layerToPlane: Transform3D, planeToTarget: Matrix3, opacity: Float,
        clip: ConvexPolygon?
    ) -> [Visit] {
        transformSpacePlanes(root: layer, rootToPlane: layerToPlane, state: { $0.state }, children: { $0.sublayers })
            .map { plane in
                Visit(layer: plane.node, layerToTarget: plane.toPlane.concatenating(planeToTarget),
                      opacity: opacity * plane.opacity, clip: clip)
            }
    }
}
