import Foundation

/// A 4x4 transform with CATransform3D's conventions: points are row vectors multiplied on the left
/// (p' = p x M), translation sits in m41 m42 m43, and perspective is m34 = -1/d.
public struct Transform3D: Hashable, Sendable {
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
        m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
        m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
        m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat
    ) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// The sixteen entries in m11, m12, ... m44 order (the scene format's order).
    public init?(_ entries: [CGFloat]) {
        guard entries.count == 16 else { return nil }
        let e = entries
        self.init(
            m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6], m24: e[7],
            m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13], m43: e[14], m44: e[15])
    }

    public var entries: [CGFloat] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    public static let identity = Transform3D(
        m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

    public var isIdentity: Bool {
        // Written out, the same comparisons as `== .identity`: that went through the static's lazy initializer and
        // the derived equality's call for every layer's map of every frame.
        m11 == 1 && m12 == 0 && m13 == 0 && m14 == 0 && m21 == 0 && m22 == 1 && m23 == 0 && m24 == 0
            && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 && m41 == 0 && m42 == 0 && m43 == 0 && m44 == 1
    }

    /// CATransform3DMakeTranslation.
    public init(translationX tx: CGFloat, y ty: CGFloat, z tz: CGFloat = 0) {
        self = .identity
        (m41, m42, m43) = (tx, ty, tz)
    }

    /// CATransform3DMakeScale.
    public init(scaleX sx: CGFloat, y sy: CGFloat, z sz: CGFloat = 1) {
        self = .identity
        (m11, m22, m33) = (sx, sy, sz)
    }

    /// CATransform3DMakeRotation: `angle` radians about the axis (x, y, z). About z, a positive angle
    /// turns clockwise on Lamina's y-down screen, as on iOS. A zero axis gives the identity.
    public init(rotationAngle angle: CGFloat, x: CGFloat = 0, y: CGFloat = 0, z: CGFloat = 1) {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite else {
            self = .identity
            return
        }
        let (ax, ay, az) = (x / length, y / length, z / length)
        let c = cos(angle), s = sin(angle), t = 1 - c
        self.init(
            m11: t * ax * ax + c, m12: t * ax * ay + s * az, m13: t * ax * az - s * ay, m14: 0,
            m21: t * ax * ay - s * az, m22: t * ay * ay + c, m23: t * ay * az + s * ax, m24: 0,
            m31: t * ax * az + s * ay, m32: t * ay * az - s * ax, m33: t * az * az + c, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// A perspective projection with the eye at distance `d` (m34 = -1/d).
    public init(perspectiveDistance d: CGFloat) {
        self = .identity
        m34 = -1 / d
    }

    /// CATransform3DConcat(self, other): apply `self` first, then `other`.
    public func concatenating(_ other: Transform3D) -> Transform3D {
        let a = self, b = other
        return Transform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
    }

    /// CATransform3DTranslate(self, ...): a translation applied before this transform.
    public func translatedBy(x: CGFloat, y: CGFloat, z: CGFloat = 0) -> Transform3D {
        Transform3D(translationX: x, y: y, z: z).concatenating(self)
    }

    /// CATransform3DScale(self, ...): a scale applied before this transform.
    public func scaledBy(x: CGFloat, y: CGFloat, z: CGFloat = 1) -> Transform3D {
        Transform3D(scaleX: x, y: y, z: z).concatenating(self)
    }

    /// CATransform3DRotate(self, ...): a rotation applied before this transform.
    public func rotated(by angle: CGFloat, x: CGFloat = 0, y: CGFloat = 0, z: CGFloat = 1) -> Transform3D {
        Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    /// True when the transform maps the z = 0 plane affinely and keeps it (CATransform3DIsAffine).
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
            && m43 == 0 && m44 == 1
    }

    /// CATransform3DMakeAffineTransform: [a, b, c, d, tx, ty] as CGAffineTransform orders them.
    public init(affine a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) {
        self = .identity
        (m11, m12, m21, m22, m41, m42) = (a, b, c, d, tx, ty)
    }

    /// The affine part (a, b, c, d, tx, ty), as CATransform3DGetAffineTransform returns it.
    public var affineComponents: (a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        (m11, m12, m21, m22, m41, m42)
    }

    /// True when every entry is finite.
    public var isFinite: Bool {
        // Written out: `entries` is an array, allocated for every check.
        m11.isFinite && m12.isFinite && m13.isFinite && m14.isFinite && m21.isFinite && m22.isFinite && m23.isFinite
            && m24.isFinite && m31.isFinite && m32.isFinite && m33.isFinite && m34.isFinite && m41.isFinite
            && m42.isFinite && m43.isFinite && m44.isFinite
    }

    /// The z = 0 plane's part of this transform, flattened: what it does to (x, y, 0, 1) with the output z
    /// dropped (docs/semantics.md, "Geometry": each subtree is flattened into its superlayer's plane).
    public var flattened: Matrix3 {
        Matrix3(m11: m11, m12: m12, m13: m14, m21: m21, m22: m22, m23: m24, m31: m41, m32: m42, m33: m44)
    }
}

/// A 3x3 matrix on homogeneous 2D row vectors (x, y, w): the projective map of one flattened plane to
/// another. p' = p x M, as Transform3D.
public struct Matrix3: Hashable, Sendable {
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat

    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat,
        m21: CGFloat, m22: CGFloat, m23: CGFloat,
        m31: CGFloat, m32: CGFloat, m33: CGFloat
    ) {
        (self.m11, self.m12, self.m13) = (m11, m12, m13)
        (self.m21, self.m22, self.m23) = (m21, m22, m23)
        (self.m31, self.m32, self.m33) = (m31, m32, m33)
    }

    public static let identity = Matrix3(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)

    /// x' = a x + c y + tx, y' = b x + d y + ty.
    public static func affine(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) -> Matrix3 {
        Matrix3(m11: a, m12: b, m13: 0, m21: c, m22: d, m23: 0, m31: tx, m32: ty, m33: 1)
    }

    public static func translation(_ tx: CGFloat, _ ty: CGFloat) -> Matrix3 {
        .affine(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    public static func scale(_ sx: CGFloat, _ sy: CGFloat) -> Matrix3 {
        .affine(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// The map that sends the unit square (0,0)-(1,1) onto `rect` axis-aligned.
    public static func unitSquare(to rect: CGRect) -> Matrix3 {
        .affine(a: rect.width, b: 0, c: 0, d: rect.height, tx: rect.minX, ty: rect.minY)
    }

    /// Apply `self` first, then `other`.
    public func concatenating(_ o: Matrix3) -> Matrix3 {
        Matrix3(
            m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31,
            m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32,
            m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33,
            m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31,
            m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32,
            m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33,
            m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31,
            m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32,
            m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33)
    }

    public var determinant: CGFloat {
        m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
    }

    /// The inverse, or nil when the matrix is singular (or not finite).
    public var inverted: Matrix3? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let inv = 1 / det
        return Matrix3(
            m11: (m22 * m33 - m23 * m32) * inv, m12: (m13 * m32 - m12 * m33) * inv,
            m13: (m12 * m23 - m13 * m22) * inv,
            m21: (m23 * m31 - m21 * m33) * inv, m22: (m11 * m33 - m13 * m31) * inv,
            m23: (m13 * m21 - m11 * m23) * inv,
            m31: (m21 * m32 - m22 * m31) * inv, m32: (m12 * m31 - m11 * m32) * inv,
            m33: (m11 * m22 - m12 * m21) * inv)
    }

    /// The homogeneous image of (x, y, 1).
    public func apply(_ p: CGPoint) -> HomogeneousPoint {
        HomogeneousPoint(
            x: p.x * m11 + p.y * m21 + m31, y: p.x * m12 + p.y * m22 + m32, w: p.x * m13 + p.y * m23 + m33)
    }

    /// True when w stays 1 (no perspective).
    public var isAffine: Bool { m13 == 0 && m23 == 0 && m33 == 1 }

    public var isFinite: Bool {
        // Written out: an array literal here was allocated for every check (twice for each moved sprite's damage box).
        m11.isFinite && m12.isFinite && m13.isFinite && m21.isFinite && m22.isFinite && m23.isFinite && m31.isFinite
            && m32.isFinite && m33.isFinite
    }
}

/// A point in homogeneous 2D coordinates; the Euclidean point is (x / w, y / w) when w > 0.
public struct HomogeneousPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    public var w: CGFloat

    public init(x: CGFloat, y: CGFloat, w: CGFloat = 1) {
        self.x = x
        self.y = y
        self.w = w
    }

    public var projected: CGPoint { CGPoint(x: x / w, y: y / w) }
}
