import Foundation
import LaminaCore

// Core Animation's transform functions, on Lamina's `Transform3D` (row vectors: a point is (x, y, z, 1) multiplied
// on the left, so `CATransform3DConcat(a, b)` applies a first, then b).

/// The identity transform.
public let CATransform3DIdentity = Transform3D.identity

extension Transform3D {
    /// All sixteen entries zero, as Swift's zero-initialising `init()` of Core Animation's C struct (not the
    /// identity: use `CATransform3DIdentity`).
    public init() {
        self.init(m11: 0, m12: 0, m13: 0, m14: 0, m21: 0, m22: 0, m23: 0, m24: 0,
                  m31: 0, m32: 0, m33: 0, m34: 0, m41: 0, m42: 0, m43: 0, m44: 0)
    }
}

/// Whether `t` is the identity.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t.isIdentity }

/// Whether `a` and `b` are exactly equal.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }

/// A translation by (tx, ty, tz).
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    Transform3D(translationX: tx, y: ty, z: tz)
}

/// A scale by (sx, sy, sz).
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    Transform3D(scaleX: sx, y: sy, z: sz)
}

/// A rotation of `angle` radians about the axis (x, y, z); the identity when the axis has zero length, as Core
/// Animation returns.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    guard x != 0 || y != 0 || z != 0 else { return .identity }
    return Transform3D(rotationAngle: angle, x: x, y: y, z: z)
}

/// `t` with a translation applied first: translate(tx, ty, tz) then t.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    CATransform3DMakeTranslation(tx, ty, tz).concatenating(t)
}

/// `t` with a scale applied first.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    CATransform3DMakeScale(sx, sy, sz).concatenating(t)
}

/// `t` with a rotation applied first; `t` unchanged when the axis has zero length.
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat,
                                _ z: CGFloat) -> CATransform3D {
    guard x != 0 || y != 0 || z != 0 else { return t }
    return CATransform3DMakeRotation(angle, x, y, z).concatenating(t)
}

/// `a` then `b` (the matrix product a · b).
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D { a.concatenating(b) }

/// The inverse of `t`; `t` itself when it has none, as Core Animation documents.
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D { t.inverted ?? t }

/// The 3D transform of the 2D transform `m`.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D { Transform3D(m) }

/// Whether `t` is a 2D affine transform (it maps z = 0 to z = 0 with no perspective).
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool { t.isAffine }

/// The affine part of `t` (m11, m12, m21, m22, m41, m42); the other entries are ignored, as Core Animation does.
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    let c = t.affineComponents
    return CGAffineTransform(a: c.a, b: c.b, c: c.c, d: c.d, tx: c.tx, ty: c.ty)
}
