import Foundation
import LaminaCore

// Coordinate conversion between layers, with CALayer's Swift names (docs/semantics.md, "Geometry").
//
// One level maps a layer's space into its superlayer's by the flattened 3x3 projective map
//     p -> superlayer.A + sublayerTransform(position + transform(p - A) - superlayer.A), z dropped,
// the same map the planner draws with. A conversion climbs from one layer to the nearest common ancestor and
// descends to the other through the inverses, one level at a time, projecting (dividing by w) at every level
// because every level is flattened into its superlayer's plane.

extension Layer {
    /// Converts `point` from the space of `layer` to the receiver's space (CALayer's `convert(_:from:)`).
    ///
    /// - `nil` means the top space of the receiver's tree: the layer space of its root (the layer with no
    ///   superlayer). That is where the planner starts; output pixels are `(p - root.bounds.origin) x scale`.
    ///   Core Animation uses the window's space there. A root's own `position` and `transform` place it in
    ///   nothing, as in rendering, so they are not applied.
    /// - Layers in different trees are related through their roots, as if each root's space were the same
    ///   screen (Core Animation leaves this undefined). Nothing traps.
    /// - Under perspective a point maps through the homography. A point with no image — one that lies at or
    ///   behind the eye at some level (w <= 0), or that meets a level whose map cannot be inverted (a layer
    ///   scaled to zero, or turned exactly edge-on) — converts to `(nan, nan)`. Core Animation returns an
    ///   unspecified point there.
    /// - Hidden layers, opacity and `masksToBounds` play no part, as in Core Animation.
    public func convert(_ point: CGPoint, from layer: Layer?) -> CGPoint {
        LayerConversion(from: layer ?? treeRoot, to: self).apply(point)
    }

    /// Converts `point` from the receiver's space to the space of `layer` (CALayer's `convert(_:to:)`); `nil`
    /// means the layer space of the receiver's root. The conventions are `convert(_:from:)`'s.
    public func convert(_ point: CGPoint, to layer: Layer?) -> CGPoint {
        LayerConversion(from: self, to: layer ?? treeRoot).apply(point)
    }

    /// Converts `rect` from the space of `layer` to the receiver's space: the smallest axis-aligned rectangle
    /// containing the four converted corners, as Core Animation does. Under perspective that is the bounding
    /// box of the projected quadrilateral. When a corner has no image (see `convert(_:from:)`) the result is
    /// `CGRect.null`, as `frame` is then; a null `rect` stays null. `nil` means the root's layer space.
    public func convert(_ rect: CGRect, from layer: Layer?) -> CGRect {
        LayerConversion(from: layer ?? treeRoot, to: self).apply(rect)
    }

    /// Converts `rect` from the receiver's space to the space of `layer`; see `convert(_:from:)` for rectangles.
    public func convert(_ rect: CGRect, to layer: Layer?) -> CGRect {
        LayerConversion(from: self, to: layer ?? treeRoot).apply(rect)
    }

    /// CALayer's `affineTransform()`: the affine part of `transform` (CATransform3DGetAffineTransform). Entries
    /// outside it (perspective, z) are ignored, not reported.
    public func affineTransform() -> CGAffineTransform {
        transform.affineTransform
    }

    /// CALayer's `setAffineTransform(_:)`: sets `transform` to the 2D transform `m`
    /// (CATransform3DMakeAffineTransform), replacing any 3D part.
    public func setAffineTransform(_ m: CGAffineTransform) {
        transform = Transform3D(m)
    }

    /// The top of the receiver's tree: the ancestor with no superlayer (the receiver itself for a root).
    var treeRoot: Layer {
        var node = self
        while let parent = node.superlayer { node = parent }
        return node
    }

    /// The flattened map from this layer's space to its superlayer's; nil for a root.
    var mapToSuperlayer: Matrix3? {
        guard let parent = superlayer else { return nil }
        return mapToSuperlayer(sublayerSpace: parent.sublayerTransformAboutAnchor)
    }
}

/// A conversion between two layers' spaces as the chain of per-level maps: up from the source to the nearest
/// common ancestor (or to the source's root when the trees differ), then down to the destination through
/// inverses (from the destination's root in that case).
struct LayerConversion {
    /// Each level's map in the order applied; nil where a downward level cannot be inverted.
    private var steps: [Matrix3?] = []

    init(from source: Layer, to destination: Layer) {
        guard source !== destination else { return }
        // Climb the deeper of the two until both are at the same depth, then both together until they meet
        // (the common ancestor) or both run out (different trees). Iterative: any depth is fine.
        var up: [Matrix3] = [], down: [Layer] = []
        var a: Layer? = source, b: Layer? = destination
        var depthA = source.ancestorCount, depthB = destination.ancestorCount
        while depthA > depthB, let layer = a {
            up.append(layer.mapToSuperlayer!)
            a = layer.superlayer
            depthA -= 1
        }
        while depthB > depthA, let layer = b {
            down.append(layer)
            b = layer.superlayer
            depthB -= 1
        }
        while let x = a, let y = b, x !== y {
            // At a root both are roots (equal depths), of different trees: their spaces are identified.
            guard let xParent = x.superlayer, let yParent = y.superlayer else { break }
            up.append(x.mapToSuperlayer!)
            down.append(y)
            a = xParent
            b = yParent
        }
        steps.reserveCapacity(up.count + down.count)
        steps.append(contentsOf: up.map { Optional($0) })
        for layer in down.reversed() { steps.append(layer.mapToSuperlayer!.inverted) }
    }

    /// The image of `point`, or (nan, nan) when it has none.
    func apply(_ point: CGPoint) -> CGPoint {
        var p = point
        for step in steps {
            // A downward inverse gives w = 1 / (the forward w), so w <= 0 on the way down also means the
            // point of the lower plane that would land here lies at or behind the eye.
            guard let map = step else { return Self.noImage }
            let h = map.apply(p)
            guard h.w > 0, h.w.isFinite else { return Self.noImage }
            p = h.projected
        }
        return p
    }

    /// The bounding box of the converted corners; null when `rect` is null or a corner has no image.
    func apply(_ rect: CGRect) -> CGRect {
        if rect.isNull { return .null }
        let corners = [
            CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
            CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY),
        ].map(apply)
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return .null }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = xs.min()!, y0 = ys.min()!
        return CGRect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }

    static let noImage = CGPoint(x: CGFloat.nan, y: CGFloat.nan)
}

extension Layer {
    /// The number of ancestors.
    fileprivate var ancestorCount: Int {
        var count = 0
        var node = superlayer
        while let current = node {
            count += 1
            node = current.superlayer
        }
        return count
    }
}
