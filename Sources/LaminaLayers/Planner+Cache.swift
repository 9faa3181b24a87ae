import Foundation
import LaminaCore

/// What the planner emitted for one layer's subtree, and the conditions it was emitted under. When a later plan
/// reaches the layer with the same subtree version (nothing in it changed, nothing marked for drawing) and the
/// same place on screen (map to the target, inherited opacity and clip), it reuses the quads instead of walking
/// the subtree again: the plan is built incrementally where the tree did not change.
struct PlanFragment {
    var version: UInt64
    var layerToTarget: Matrix3
    var opacity: Float
    var clip: ConvexPolygon?
    var quads: [Quad]
    /// The offscreen groups among `quads`, with ranges relative to the fragment's first quad.
    var groups: [PlanGroup] = []

    /// Subtrees up to this many quads are kept at every level (so a change deep in a tree re-plans only its
    /// branch); a plan's root keeps its whole plan (so an unchanged tree is not planned again at all).
    static let limit = 64

    func matches(version: UInt64, layerToTarget: Matrix3, opacity: Float, clip: ConvexPolygon?) -> Bool {
        self.version == version && self.layerToTarget == layerToTarget && self.opacity == opacity && self.clip == clip
    }
}
