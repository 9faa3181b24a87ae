import Foundation
import LaminaCore

extension Layer {
    /// The anchor point in layer space: bounds.origin + anchorPoint x bounds.size.
    public var anchorInLayer: CGPoint {
        CGPoint(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }

    /// The layer's rectangle in its superlayer's space. With an identity transform it is
    /// (position - anchorPoint x size, size); otherwise the bounding box of the transformed bounds, as in
    /// Core Animation. Setting it sets bounds.size and position (ignoring the transform) and keeps
    /// bounds.origin.
    public var frame: CGRect {
        get {
            if transform.isIdentity {
                return CGRect(
                    x: position.x - anchorPoint.x * bounds.width, y: position.y - anchorPoint.y * bounds.height,
                    width: bounds.width, height: bounds.height)
            }
            let map = localToSuperlayer.flattened
            let corners = [
                CGPoint(x: bounds.minX, y: bounds.minY), CGPoint(x: bounds.maxX, y: bounds.minY),
                CGPoint(x: bounds.maxX, y: bounds.maxY), CGPoint(x: bounds.minX, y: bounds.maxY),
            ].map { map.apply($0) }
            guard corners.allSatisfy({ $0.w > 0 }) else { return .null }
            let points = corners.map(\.projected)
            let xs = points.map(\.x), ys = points.map(\.y)
            return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        }
        set {
            bounds.size = CGSize(width: newValue.width, height: newValue.height)
            position = CGPoint(
                x: newValue.minX + anchorPoint.x * newValue.width, y: newValue.minY + anchorPoint.y * newValue.height)
        }
    }

    /// Layer space to the superlayer's space, before the superlayer's sublayerTransform:
    /// p -> position + transform(p - A).
    public var localToSuperlayer: Transform3D {
        let a = anchorInLayer
        return Transform3D(translationX: -a.x, y: -a.y)
            .concatenating(transform)
            .concatenating(Transform3D(translationX: position.x, y: position.y))
    }

    /// The sublayerTransform as applied to sublayers: about the anchor point.
    public var sublayerTransformAboutAnchor: Transform3D {
        if sublayerTransform.isIdentity { return .identity }
        let a = anchorInLayer
        return Transform3D(translationX: -a.x, y: -a.y)
            .concatenating(sublayerTransform)
            .concatenating(Transform3D(translationX: a.x, y: a.y))
    }
}
