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
    /// - `nil` means the top space: the space a root layer (one with no superlayer) is placed in, as Core
    ///   Animation's window space. A root's own `position`, `anchorPoint` and `transform` map its layer space
    ///   there, as any layer's map it into its superlayer's (rendering ignores them: a root's bounds are the
    ///   output, so a root placed at the origin, as `Layer(frame:)` with an origin of (0, 0) places it, has a
    ///   top space equal to its layer space).
    /// - Layers in different trees are related through that top space, which all roots share: up through each
    ///   root's own placement and down through the other's, as two root layers of one window are.
    /// - Under perspective a point maps through the homography. A point with no image — one that lies at or
    ///   behind the eye at some level (w <= 0), or that meets a level whose map cannot be inverted (a layer
    ///   scaled to zero, or turned exactly edge-on) — converts to `(nan, nan)`. Core Animation returns an
    ///   unspecified point there.
    /// - Hidden layers, opacity and `masksToBounds` play no part, as in Core Animation.
    public func convert(_ point: CGPoint, from layer: Layer?) -> CGPoint {
        LayerConversion(from: layer, to: self).apply(point)
    }

    /// Converts `point` from the receiver's space to the space of `layer` (CALayer's `convert(_:to:)`); `nil`
    /// means the top space. The conventions are `convert(_:from:)`'s.
    public func convert(_ point: CGPoint, to layer: Layer?) -> CGPoint {
        LayerConversion(from: self, to: layer).apply(point)
    }

    /// Converts `rect` from the space of `layer` to the receiver's space: the smallest axis-aligned rectangle
    /// containing the four converted corners, as Core Animation does. Under perspective that is the bounding
    /// box of the projected quadrilateral. When a corner has no image (see `convert(_:from:)`) the result is
    /// `CGRect.null`, as `frame` is then; a null `rect` stays null. `nil` means the top space.
    public func convert(_ rect: CGRect, from layer: Layer?) -> CGRect {
        LayerConversion(from: layer, to: self).apply(rect)
    }

    /// Converts `rect` from the receiver's space to the space of `layer`; see `convert(_:from:)` for rectangles.
    public func convert(_ rect: CGRect, to layer: Layer?) -> CGRect {
        LayerConversion(from: self, to: layer).apply(rect)
    }

    /// CALayer's `affineTransform()`: `transform` as a 2D transform when it is one (`isAffine`: no z terms, no
    /// perspective), else the identity, as CALayer's does. (`Transform3D.affineTransform`, which is
    /// CATransform3DGetAffineTransform, reads the 2D entries of any matrix.)
    public func affineTransform() -> CGAffineTransform {
        let transform = self.transform
        return transform.isAffine ? transform.affineTransform : .identity
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

    /// The flattened map from this layer's space to its superlayer's, or for a root to the top space (its own
    /// position, anchor and transform, as Core Animation places a root in its window).
    var mapToParentSpace: Matrix3 {
        mapToSuperlayer ?? mapToSuperlayer(sublayerSpace: .identity)
    }
}

/// A conversion between two spaces (a layer's, or nil: the top space roots are placed in) as the chain of per-level
/// maps: up from the source to the nearest common ancestor (or through its root to the top space, when there is
/// none), then down to the destination through inverses.
struct LayerConversion {
    /// Each level's map in the order applied; nil where a downward level cannot be inverted.
    private var steps: [Matrix3?] = []

    init(from source: Layer?, to destination: Layer?) {
        guard source !== destination else { return }
        let common = Self.commonAncestor(source, destination)
        // Iterative: any depth is fine.
        // Below a transform layer, the levels up to the layer above that flattens are one map, composed in 3D
        // (Layer+Conversion3D.swift).
        var up: [Matrix3] = [], down: [Matrix3] = []
        var node = source
        while let layer = node, layer !== common {
            let (map, next) = layer.mapUpThroughTransformLayers(stoppingAt: common)
            up.append(map)
            node = next
        }
        node = destination
        while let layer = node, layer !== common {
            let (map, next) = layer.mapUpThroughTransformLayers(stoppingAt: common)
            down.append(map)
            node = next
        }
        steps.reserveCapacity(up.count + down.count)
        steps.append(contentsOf: up.map { Optional($0) })
        for map in down.reversed() { steps.append(map.inverted) }
    }

    /// The nearest common ancestor of two layers (either may be it), nil when they are in different trees or
    /// either is nil.
    private static func commonAncestor(_ first: Layer?, _ second: Layer?) -> Layer? {
        guard var a = first, var b = second else { return nil }
        var depthA = a.ancestorCount, depthB = b.ancestorCount
        while depthA > depthB, let parent = a.superlayer { (a, depthA) = (parent, depthA - 1) }
        while depthB > depthA, let parent = b.superlayer { (b, depthB) = (parent, depthB - 1) }
        while a !== b {
            guard let pa = a.superlayer, let pb = b.superlayer else { return nil }
            (a, b) = (pa, pb)
        }
        return a
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
