import Foundation
import LaminaCore

extension LayerState {
    /// The anchor point in layer space: bounds.origin + anchorPoint x bounds.size.
    public var anchorInLayer: CGPoint {
        CGPoint(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }

    /// The layer's rectangle in its superlayer's space. With an identity transform it is
    /// (position - anchorPoint x size, size); otherwise the bounding box of the transformed bounds, as in
    /// Core Animation.
    public var frame: CGRect {
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

    /// Sets `bounds.size` and `position` (keeping `bounds.origin`) so that `frame` becomes `rect` where it can,
    /// as CALayer's `setFrame:` does: working back through the transform.
    /// - Identity transform: size = rect's size, position = rect's origin + anchorPoint x size.
    /// - An affine transform (`isAffine`) whose 2x2 part L is invertible: the size is the bounding box of a rect
    ///   of `rect`'s size under L's inverse, and the position puts the centre of the transformed bounds at
    ///   rect's centre: position = centre - L((0.5 - anchorPoint) x size) - (tx, ty). The frame read back is
    ///   `rect` exactly when L maps the axes onto the axes (scales, flips, quarter turns); for other turns and
    ///   skews it is the bounding box of a larger, turned rectangle, centred on rect's centre.
    /// - Any other transform (3D, perspective, or a 2x2 part that cannot be inverted): set as for the identity,
    ///   ignoring the transform (Core Animation leaves this unspecified).
    public mutating func setFrame(_ rect: CGRect) {
        let t = transform
        let (a, b, c, d) = (t.m11, t.m12, t.m21, t.m22)
        let det = a * d - b * c
        guard !t.isIdentity, t.isAffine, det != 0, det.isFinite, rect.width.isFinite, rect.height.isFinite else {
            bounds.size = CGSize(width: rect.width, height: rect.height)
            position = CGPoint(x: rect.minX + anchorPoint.x * rect.width, y: rect.minY + anchorPoint.y * rect.height)
            return
        }
        // The inverse of (x, y) -> (a x + c y, b x + d y), applied to a rect of the frame's size.
        let (ia, ib, ic, id) = (d / det, -b / det, -c / det, a / det)
        let (w, h) = (abs(rect.width), abs(rect.height))
        let size = CGSize(width: abs(ia) * w + abs(ic) * h, height: abs(ib) * w + abs(id) * h)
        bounds.size = size
        // The frame's centre is the image of the bounds' centre: position + L(centre - A) + (tx, ty).
        let dx = (0.5 - anchorPoint.x) * size.width, dy = (0.5 - anchorPoint.y) * size.height
        position = CGPoint(x: rect.midX - (a * dx + c * dy) - t.m41, y: rect.midY - (b * dx + d * dy) - t.m42)
    }

    /// Layer space to the superlayer's space, before the superlayer's sublayerTransform:
    /// p -> position + transform(p - A), where A is (anchorInLayer, anchorPointZ).
    public var localToSuperlayer: Transform3D {
        let a = anchorInLayer
        return Transform3D(translationX: -a.x, y: -a.y, z: -anchorPointZ)
            .concatenating(transform)
            .concatenating(Transform3D(translationX: position.x, y: position.y))
    }

    /// What the sublayers' space goes through to this layer's: the flip of isGeometryFlipped (y mirrored within the
    /// bounds), then the sublayerTransform about the anchor point.
    public var sublayerTransformAboutAnchor: Transform3D {
        var space = Transform3D.identity
        if !sublayerTransform.isIdentity {
            let a = anchorInLayer
            space = Transform3D(translationX: -a.x, y: -a.y)
                .concatenating(sublayerTransform)
                .concatenating(Transform3D(translationX: a.x, y: a.y))
        }
        guard isGeometryFlipped else { return space }
        // y -> minY + maxY - y.
        let flip = Transform3D(scaleX: 1, y: -1, z: 1)
            .concatenating(Transform3D(translationX: 0, y: bounds.minY + bounds.maxY))
        return flip.concatenating(space)
    }
}

/// The corners cornerRadius rounds (CACornerMask). MinY is the top: Lamina's y grows downward, as UIKit's does.
public struct CornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let layerMinXMinYCorner = CornerMask(rawValue: 1)
    public static let layerMaxXMinYCorner = CornerMask(rawValue: 2)
    public static let layerMinXMaxYCorner = CornerMask(rawValue: 4)
    public static let layerMaxXMaxYCorner = CornerMask(rawValue: 8)
    public static let all: CornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner,
                                         .layerMaxXMaxYCorner]
}

extension LayerState {
    /// The bounds with cornerRadius on the maskedCorners (limited to half the shorter side), with the corners'
    /// cornerCurve; nil when the corners are square.
    public var roundedBounds: RoundedRect? {
        let r = cornerRadius.isFinite ? max(0, cornerRadius) : 0
        guard r > 0, !maskedCorners.isEmpty else { return nil }
        let m = maskedCorners
        let radii = CornerRadii(
            topLeft: m.contains(.layerMinXMinYCorner) ? r : 0, topRight: m.contains(.layerMaxXMinYCorner) ? r : 0,
            bottomRight: m.contains(.layerMaxXMaxYCorner) ? r : 0, bottomLeft: m.contains(.layerMinXMaxYCorner) ? r : 0)
        let shape = RoundedRect(rect: bounds, radii: radii, curve: cornerCurve == .continuous ? .continuous : .circular)
        return shape.radii.isZero || shape.isEmpty ? nil : shape
    }
}

extension LayerState {
    /// The flattened projective map from this layer's space to its superlayer's, given the superlayer's
    /// `sublayerTransformAboutAnchor` (what the planner draws with). The 2D case is a translation, computed
    /// without 4x4 products.
    func mapToSuperlayer(sublayerSpace: Transform3D) -> Matrix3 {
        Self.mapToSuperlayer(position: position, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                             transform: transform, bounds: bounds, sublayerSpace: sublayerSpace)
    }

    /// `mapToSuperlayer(sublayerSpace:)` of a layer with these fields: one piece of arithmetic for the planner and
    /// animated node values (`NodePlacement`), whose maps must agree bit for bit.
    static func mapToSuperlayer(position: CGPoint, anchorPoint: CGPoint, anchorPointZ: CGFloat,
                                transform: Transform3D, bounds: CGRect, sublayerSpace: Transform3D) -> Matrix3 {
        // anchorInLayer and localToSuperlayer, from the fields.
        let a = CGPoint(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
        if transform.isIdentity, sublayerSpace.isIdentity {
            return .translation(position.x - a.x, position.y - a.y)
        }
        let local = Transform3D(translationX: -a.x, y: -a.y, z: -anchorPointZ)
            .concatenating(transform)
            .concatenating(Transform3D(translationX: position.x, y: position.y))
        if sublayerSpace.isIdentity { return local.flattened }
        return local.concatenating(sublayerSpace).flattened
    }
}

extension Layer {
    /// The anchor point in layer space: bounds.origin + anchorPoint x bounds.size.
    public var anchorInLayer: CGPoint { read { $0.anchorInLayer } }

    /// The layer's rectangle in its superlayer's space. With an identity transform it is
    /// (position - anchorPoint x size, size); otherwise the bounding box of the transformed bounds, as in
    /// Core Animation. Setting it sets bounds.size and position and keeps bounds.origin, in one change of the
    /// current transaction, working back through the transform as Core Animation does (`LayerState.setFrame`).
    public var frame: CGRect {
        get { read { $0.frame } }
        set {
            let resized = write(.bounds, .position) { state in
                let old = state.bounds.size
                state.setFrame(newValue)
                return state.needsDisplayOnBoundsChange && state.bounds.size != old
            }
            if resized { setNeedsDisplay() }
        }
    }

    /// Layer space to the superlayer's space, before the superlayer's sublayerTransform:
    /// p -> position + transform(p - A).
    public var localToSuperlayer: Transform3D { read { $0.localToSuperlayer } }

    /// The sublayerTransform as applied to sublayers: about the anchor point.
    public var sublayerTransformAboutAnchor: Transform3D { read { $0.sublayerTransformAboutAnchor } }

    /// The bounds with cornerRadius on the maskedCorners (limited to half the shorter side); nil when the corners
    /// are square.
    public var roundedBounds: RoundedRect? { read { $0.roundedBounds } }

    /// The flattened map from this layer's space to its superlayer's, given the superlayer's sublayer space.
    func mapToSuperlayer(sublayerSpace: Transform3D) -> Matrix3 {
        read { $0.mapToSuperlayer(sublayerSpace: sublayerSpace) }
    }
}
