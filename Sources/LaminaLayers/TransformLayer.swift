import Foundation
import LaminaCore

/// A layer whose sublayers share one 3D space with its superlayer (CATransformLayer; docs/semantics.md, "Transform
/// layers"): they are not flattened into its plane, so `zPosition` and 3D transforms place them in depth, and the
/// superlayer's `sublayerTransform` (perspective) applies to all of them at once. The planes of such a space are
/// drawn back to front by depth. Only the sublayers are drawn: the layer's own background, border, contents, shadow,
/// mask and `masksToBounds` are ignored, and its `opacity` multiplies each sublayer on its own (no group), as in Core
/// Animation.
open class TransformLayer: Layer, @unchecked Sendable {
    public override init() {
        super.init()
        becomeSpecial(.transform)
    }

    /// A copy of `layer` (a presentation copy, as Core Animation makes them): its properties, as a transform layer.
    public override init(layer: Any) {
        super.init(layer: layer)
        becomeSpecial(.transform)
    }

    /// NSCoding's initialiser (Lamina does not archive layers): a layer with the defaults.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeSpecial(.transform)
    }
}

extension LayerState {
    /// A transform layer's (CATransformLayer): its sublayers live in its superlayer's 3D space.
    public var isTransformLayer: Bool {
        if case .transform = special { true } else { false }
    }

    /// Layer space to the superlayer's 3D space, with `zPosition` as the depth of `position` (what a transform
    /// layer's space places its planes with): `localToSuperlayer` moved by zPosition along z, then `sublayerSpace`.
    func mapToSuperlayer3D(sublayerSpace: Transform3D) -> Transform3D {
        var local = localToSuperlayer
        if zPosition != 0, zPosition.isFinite {
            local = local.concatenating(Transform3D(translationX: 0, y: 0, z: zPosition))
        }
        return sublayerSpace.isIdentity ? local : local.concatenating(sublayerSpace)
    }
}

/// One plane of a transform layer's 3D space: a sublayer that is not itself a transform layer (its subtree is
/// flattened into it, as any layer's), with its map into the plane the space is flattened in (the nearest ancestor
/// that is not a transform layer), the product of the transform layers' opacities above it, and its depth.
struct SpacePlane<Node> {
    var node: Node
    /// The plane's layer space to the flattening plane.
    var toPlane: Matrix3
    /// The opacities of the transform layers between the plane and the flattening plane, multiplied.
    var opacity: Float
    /// z / w of the plane's bounds' centre after every transform, the flattening layer's sublayerTransform
    /// (perspective) included: larger is nearer the viewer. +infinity when the centre lies at or behind the eye.
    var depth: CGFloat
}

/// The most planes one transform layer's space sorts (a documented limit): more are left out, so that a space of
/// millions of layers costs a bounded time and memory.
let mostSpacePlanes = 100_000

/// The planes of the 3D space of the transform layer `root`, back to front (by depth; equal depths in paint order).
/// `rootToPlane`: root's layer space to the flattening plane, in 3D. `state`, `children`: how a node is read (a
/// snapshot's, or a live layer's model); hidden nodes and their subtrees are left out. Iterative.
func transformSpacePlanes<Node>(
    root: Node, rootToPlane: Transform3D, state: (Node) -> LayerState, children: (Node) -> [Node]
) -> [SpacePlane<Node>] {
    var planes: [SpacePlane<Node>] = []
    // Depth first, in paint order, so that a stable sort keeps paint order among equal depths.
    var pending: [SpaceStep<Node>] = [.space(root, rootToPlane, 1)]
    while let step = pending.popLast(), planes.count < mostSpacePlanes {
        switch step {
        case .plane(let node, let toPlane, let opacity):
            let s = state(node)
            let centre = toPlane.apply(x: s.bounds.midX, y: s.bounds.midY)
            let depth = centre.w > 0 && (centre.z / centre.w).isFinite ? centre.z / centre.w : .infinity
            planes.append(SpacePlane(node: node, toPlane: toPlane.flattened, opacity: opacity, depth: depth))
        case .space(let node, let toPlane, let opacity):
            let s = state(node)
            let own = min(max(s.opacity.isNaN ? 0 : s.opacity, 0), 1) * opacity
            guard own > 0 else { continue }
            let sublayerSpace = s.sublayerTransformAboutAnchor
            for child in paintOrder(children(node), zPosition: { state($0).zPosition }).reversed() {
                let c = state(child)
                guard !c.isHidden else { continue }
                let childToPlane = c.mapToSuperlayer3D(sublayerSpace: sublayerSpace).concatenating(toPlane)
                pending.append(c.isTransformLayer ? .space(child, childToPlane, own) : .plane(child, childToPlane, own))
            }
        }
    }
    // Stable: equal depths keep paint order.
    return planes.enumerated().sorted { a, b in
        a.element.depth != b.element.depth ? a.element.depth < b.element.depth : a.offset < b.offset
    }.map(\.element)
}

/// A step of `transformSpacePlanes`: a transform layer whose sublayers are to be gathered, or a plane to record.
private enum SpaceStep<Node> {
    case space(Node, Transform3D, Float)
    case plane(Node, Transform3D, Float)
}
