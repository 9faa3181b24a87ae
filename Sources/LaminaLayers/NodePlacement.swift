import Foundation
import LaminaCore

/// The fields that place and fade a layer in its superlayer (position, anchorPoint, anchorPointZ, transform,
/// opacity): a node's value in the property trees (docs/architecture.md, "Property trees"). Animated node values
/// evaluate an animated leaf's animations into one of these, on the stack, instead of into a copy of its whole
/// `LayerState` (about 600 bytes, most of them never read by the frame): the frame reads the committed values and
/// writes the presented ones without touching the snapshot's state.
struct NodePlacement: Equatable {
    var position: CGPoint
    var anchorPoint: CGPoint
    var anchorPointZ: CGFloat
    var transform: Transform3D
    var opacity: Float

    init(_ state: borrowing LayerState) {
        position = state.position
        anchorPoint = state.anchorPoint
        anchorPointZ = state.anchorPointZ
        transform = state.transform
        opacity = state.opacity
    }

    /// The map to the superlayer of a layer with these values and `bounds`: `LayerState.mapToSuperlayer`'s, by the
    /// same arithmetic (both call `LayerState.mapToSuperlayer(position:...)`), so a node's map is bit for bit the
    /// one the planner works out.
    func mapToSuperlayer(bounds: CGRect, sublayerSpace: Transform3D) -> Matrix3 {
        LayerState.mapToSuperlayer(position: position, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                                   transform: transform, bounds: bounds, sublayerSpace: sublayerSpace)
    }
}
