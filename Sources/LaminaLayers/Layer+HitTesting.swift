import Foundation
import LaminaCore

extension Layer {
    /// The front-most layer of the receiver's subtree (the receiver included) that contains `point`, or nil:
    /// CALayer's `hitTest(_:)`.
    ///
    /// - `point` is in the receiver's *superlayer's* space, as in Core Animation. For a layer with no
    ///   superlayer it is in the top space, the one `convert(_:from: nil)` uses: the root's own `position`,
    ///   `anchorPoint` and `transform` place it there, as Core Animation places a root in its window (for a
    ///   root placed at the origin, the top space is its layer space). Output pixel q of a plan at `scale` is
    ///   the root's *layer-space* point `q / scale + root.bounds.origin` (rendering ignores the root's placement).
    /// - Only the receiver's subtree is searched; its ancestors' `isHidden` and `masksToBounds` are not
    ///   consulted (as in Core Animation), though their transforms decide which way single-sided layers face.
    /// - Front-most means painted last: among siblings, higher `zPosition` first, then later in `sublayers`
    ///   first; a layer's sublayers are in front of the layer itself, so the deepest hit wins.
    /// - A hidden layer and its whole subtree are never hit. `opacity` plays no part, as in Core Animation
    ///   (a layer with opacity 0 is hit although the planner draws nothing for it); hide it to exclude it.
    /// - With `masksToBounds`, a point outside the layer's bounds hits nothing in its subtree. Without it,
    ///   sublayers are hit outside their superlayer's bounds, as in Core Animation.
    /// - A layer with `isDoubleSided == false` whose back faces the viewer is not hit, nor is its subtree:
    ///   exactly what the planner leaves undrawn (orientation in the tree's top space, after every transform,
    ///   the receiver's ancestors' included). Without this, tapping the front of a cube of single-sided faces
    ///   could hit a culled back face that comes later in paint order.
    /// - Transforms, `sublayerTransform` and perspective count as drawn: the point is mapped into each level
    ///   through the inverse of the flattened map the planner draws with. A level whose map cannot be
    ///   inverted (scaled to zero, exactly edge-on) is not hit, nor is a point whose preimage lies at or
    ///   behind the eye (w <= 0), where nothing of that level is drawn.
    /// - A layer contains a point by `contains(_:)` (its bounds, min edges in, max edges out).
    ///
    /// - Complexity: O(n) in the layers visited; iterative, so any depth is fine.
    public func hitTest(_ point: CGPoint) -> Layer? {
        guard !isHidden else { return nil }
        guard let parent = superlayer else {
            // A root: from the top space into its own through its own placement. Which way single-sided layers
            // face is decided as drawn, in the root's layer space (rendering ignores the root's placement).
            guard let own = Self.preimage(of: point, under: mapToParentSpace) else { return nil }
            return hitTest(inOwnSpace: own, toTop: .identity)
        }
        let map = mapToSuperlayer(sublayerSpace: parent.sublayerTransformAboutAnchor)
        guard let own = Self.preimage(of: point, under: map) else { return nil }
        return hitTest(inOwnSpace: own, toTop: map.concatenating(parent.mapToTop))
    }

    /// `hitTest(_:)` with `point` already in the receiver's own space (and the receiver known not hidden);
    /// `toTop` maps the receiver's space to the top space, for the facing of single-sided layers.
    private func hitTest(inOwnSpace point: CGPoint, toTop: Matrix3) -> Layer? {
        hitTestTree(self, point: point, toTop: toTop)
    }
}

/// What hit testing reads of a node: a live layer's model, or a snapshot (a presentation).
protocol HitTestNode: AnyObject {
    associatedtype Child
    var isHidden: Bool { get }
    var isDoubleSided: Bool { get }
    var masksToBounds: Bool { get }
    var bounds: CGRect { get }
    var zPosition: CGFloat { get }
    var hitTestChildren: [Child] { get }
    var sublayerTransformAboutAnchor: Transform3D { get }
    func mapToSuperlayer(sublayerSpace: Transform3D) -> Matrix3
    func contains(_ point: CGPoint) -> Bool
    /// The node's properties (a live layer's model, a snapshot's state): what a transform layer's space reads.
    var hitTestState: LayerState { get }
}

extension Layer: HitTestNode {
    var hitTestChildren: [Layer] { sublayers ?? [] }
    var hitTestState: LayerState { read { $0 } }
}

extension LayerSnapshot: HitTestNode {
    var hitTestChildren: [LayerSnapshot] { sublayers }
    var hitTestState: LayerState { state }

    /// `LayerState.mapToSuperlayer(sublayerSpace:)` of the node's state, its fields read where they lie: the method
    /// called on `state` copied the whole state first (a retain and a release of each of its references), once for
    /// every sublayer the planner visits.
    func mapToSuperlayer(sublayerSpace: Transform3D) -> Matrix3 {
        LayerState.mapToSuperlayer(position: state.position, anchorPoint: state.anchorPoint,
                                   anchorPointZ: state.anchorPointZ, transform: state.transform, bounds: state.bounds,
                                   sublayerSpace: sublayerSpace)
    }

    /// Whether the layer's bounds contain `point` (in its own space): min edges in, max edges out, as
    /// `Layer.contains(_:)`.
    public func contains(_ point: CGPoint) -> Bool {
        point.x >= bounds.minX && point.x < bounds.maxX && point.y >= bounds.minY && point.y < bounds.maxY
    }

    /// The front-most node of this presentation subtree that contains `point`, in this node's own space (a
    /// presentation is a root of its own): what `Layer.hitTest(_:)` finds, with animated values.
    public func hitTest(_ point: CGPoint) -> LayerSnapshot? {
        guard !isHidden else { return nil }
        return hitTestTree(self, point: point, toTop: .identity)
    }
}

/// The hit test of `root`'s subtree (see `Layer.hitTest(_:)`), with `point` in root's own space.
private func hitTestTree<Node: HitTestNode>(_ root: Node, point: CGPoint, toTop: Matrix3) -> Node? where Node.Child == Node {
    do {
        // Depth-first, front to back, with an explicit stack (a 10,000-level chain must not overflow the
        // call stack). A layer's own test is pushed below its sublayers, so it is decided only after every
        // sublayer in front of it has missed: the first own test that succeeds is the answer.
        var pending: [Pending<Node>] = [.subtree(root, point, toTop)]
        while let next = pending.popLast() {
            switch next {
            case .own(let layer, let p):
                if layer.contains(p) { return layer }
            case .subtree(let layer, let p, let toTop):
                if layer.hitTestState.isTransformLayer {
                    // Reached on its own (the receiver): its space in its own plane. It is never hit itself.
                    pushPlanes(of: layer, toPlane: .identity, point: p, toTop: toTop, onto: &pending)
                    continue
                }
                // The planner's test: with w > 0, the orientation on screen is the sign of the determinant.
                if !layer.isDoubleSided, toTop.determinant < 0 { continue }
                if layer.masksToBounds, !layer.bounds.contains(p) { continue }
                pending.append(.own(layer, p))
                let children = layer.hitTestChildren
                guard !children.isEmpty else { continue }
                let sublayerSpace = layer.sublayerTransformAboutAnchor
                // Pushed in paint order, so the front-most child is popped first.
                for child in paintOrder(children, zPosition: \.zPosition) where !child.isHidden {
                    if child.hitTestState.isTransformLayer {
                        // Its sublayers are planes of this layer's 3D space: the nearest plane under the point wins.
                        let toPlane = child.hitTestState.mapToSuperlayer3D(sublayerSpace: sublayerSpace)
                        pushPlanes(of: child, toPlane: toPlane, point: p, toTop: toTop, onto: &pending)
                        continue
                    }
                    let map = child.mapToSuperlayer(sublayerSpace: sublayerSpace)
                    guard let q = Layer.preimage(of: p, under: map) else { continue }
                    pending.append(.subtree(child, q, map.concatenating(toTop)))
                }
            }
        }
        return nil
    }
}

/// Pushes the planes of transform layer `layer`'s space (`toPlane`: its map into the space of `point`, whose map to
/// the top space is `toTop`) back to front, so that the nearest is tested first (as the planner draws them).
private func pushPlanes<Node: HitTestNode>(
    of layer: Node, toPlane: Transform3D, point: CGPoint, toTop: Matrix3, onto pending: inout [Pending<Node>]
) where Node.Child == Node {
    let planes = transformSpacePlanes(root: layer, rootToPlane: toPlane, state: { $0.hitTestState },
                                      children: { $0.hitTestChildren })
    for plane in planes {
        guard let q = Layer.preimage(of: point, under: plane.toPlane) else { continue }
        pending.append(.subtree(plane.node, q, plane.toPlane.concatenating(toTop)))
    }
}

private enum Pending<Node> {
    /// Test the layer's sublayers (then the layer itself); the point is in the layer's space, and the matrix maps
    /// that space to the top space.
    case subtree(Node, CGPoint, Matrix3)
    /// Test the layer alone.
    case own(Node, CGPoint)
}

extension Layer {

    /// This layer's space to the top space of its tree (its root's layer space), as the planner composes it.
    private var mapToTop: Matrix3 {
        var map = Matrix3.identity
        var node = self
        while let parent = node.superlayer {
            map = map.concatenating(node.mapToSuperlayer(sublayerSpace: parent.sublayerTransformAboutAnchor))
            node = parent
        }
        return map
    }

    /// The point of the lower plane that `map` sends to `point`, or nil when there is none in front of the
    /// eye. With the exact inverse, w = 1 / (the forward w), so w > 0 exactly when the preimage is drawn.
    static func preimage(of point: CGPoint, under map: Matrix3) -> CGPoint? {
        if map.isAffine, map.m11 == 1, map.m12 == 0, map.m21 == 0, map.m22 == 1 {
            // The common 2D case, a translation: no inverse needed, and exact.
            return CGPoint(x: point.x - map.m31, y: point.y - map.m32)
        }
        guard let inverse = map.inverted else { return nil }
        let h = inverse.apply(point)
        guard h.w > 0, h.w.isFinite else { return nil }
        let p = h.projected
        return p.x.isFinite && p.y.isFinite ? p : nil
    }
}
