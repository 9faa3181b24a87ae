import Foundation

/// A Transform3D taken apart into the pieces CSS Transforms Level 2 interpolates ("Decomposing a 3D matrix",
/// "Interpolation of 3D matrices"): translation, scale, skew, perspective and a rotation quaternion.
///
/// In Transform3D's row-vector convention (p' = p x M) the matrix is, applied in this order,
/// scale x skew x rotation x translation x perspective:
///
///     M = [ A    A v    ]    A = diag(scale) x L x R,   L = [ 1   0   0 ]
///         [ t  t.v + w  ]                                   [ xy  1   0 ]
///                                                           [ xz  yz  1 ]
///
/// where R is the rotation's matrix, t the translation and (v, w) the perspective: identity has perspective
/// (0, 0, 0, 1) and `Transform3D(perspectiveDistance: d)` has (0, 0, -1/d, 1).
///
/// A matrix is scaled by 1 / |m44| before it is taken apart (so `matrix` returns M / |m44|). A positive factor
/// does not change what a homogeneous transform does to any point, nor the sign of w that tells a point behind
/// the eye, which CSS's division by m44 itself would flip for a negative m44.
///
/// Two more departures from CSS's 3D algorithm, both taken from CSS Transforms 1's algorithm for 2D matrices
/// (what browsers use when both ends are 2D): a reflection goes into one scale, not all three (`init?(_:)`),
/// and a mirror in x interpolated to a mirror in y turns (`interpolated(to:_:)`).
public struct DecomposedTransform3D: Hashable, Sendable {
    /// The translation (m41, m42, m43 of the normalised matrix).
    public var translation: SIMD3<Double>
    /// The scale along x, y and z; a reflection makes one of them negative (see `init?(_:)`).
    public var scale: SIMD3<Double>
    /// The shear of y towards x (as a fraction of the y scale).
    public var skewXY: Double
    /// The shear of z towards x.
    public var skewXZ: Double
    /// The shear of z towards y.
    public var skewYZ: Double
    /// The perspective column (v, w) as above.
    public var perspective: SIMD4<Double>
    /// The rotation, a unit quaternion.
    public var rotation: Quaternion

    public init(translation: SIMD3<Double> = .zero, scale: SIMD3<Double> = .one, skewXY: Double = 0,
                skewXZ: Double = 0, skewYZ: Double = 0, perspective: SIMD4<Double> = SIMD4(0, 0, 0, 1),
                rotation: Quaternion = .identity) {
        self.translation = translation
        self.scale = scale
        (self.skewXY, self.skewXZ, self.skewYZ) = (skewXY, skewXZ, skewYZ)
        self.perspective = perspective
        self.rotation = rotation
    }

    /// The decomposition of the identity.
    public static let identity = DecomposedTransform3D()

    /// Takes `m` apart, or nil when it cannot be: an entry is not finite, m44 is 0, or the upper 3x3 (the
    /// linear part) is singular or numerically singular (|det| within 16 ulp of Hadamard's bound, the test
    /// `Transform3D.inverted` uses). A scale of 0 is such a matrix; CSS, too, cannot decompose it.
    public init?(_ m: Transform3D) {
        let e = (Double(m.m11), Double(m.m12), Double(m.m13), Double(m.m14),
                 Double(m.m21), Double(m.m22), Double(m.m23), Double(m.m24),
                 Double(m.m31), Double(m.m32), Double(m.m33), Double(m.m34),
                 Double(m.m41), Double(m.m42), Double(m.m43), Double(m.m44))
        let k = abs(e.15)
        guard k > 0, k.isFinite else { return nil }
        var rows = (SIMD3(e.0, e.1, e.2) / k, SIMD3(e.4, e.5, e.6) / k, SIMD3(e.8, e.9, e.10) / k)
        let column = SIMD3(e.3, e.7, e.11) / k
        let t = SIMD3(e.12, e.13, e.14) / k
        let w44 = e.15 / k
        guard Self.isFinite(rows.0), Self.isFinite(rows.1), Self.isFinite(rows.2), Self.isFinite(column),
            Self.isFinite(t)
        else { return nil }
        let det = Self.dot(rows.0, Self.cross(rows.1, rows.2))
        let bound = Self.length(rows.0) * Self.length(rows.1) * Self.length(rows.2)
        guard det != 0, abs(det) > 16 * Double.ulpOfOne * bound else { return nil }

        // Gram-Schmidt on the rows: A = diag(scale) x L x R.
        var s = SIMD3<Double>.zero
        s.x = Self.length(rows.0)
        rows.0 /= s.x
        var xy = Self.dot(rows.0, rows.1)
        rows.1 -= xy * rows.0
        s.y = Self.length(rows.1)
        rows.1 /= s.y
        xy /= s.y
        var xz = Self.dot(rows.0, rows.2)
        rows.2 -= xz * rows.0
        var yz = Self.dot(rows.1, rows.2)
        rows.2 -= yz * rows.1
        s.z = Self.length(rows.2)
        rows.2 /= s.z
        xz /= s.z
        yz /= s.z
        // A reflection: R must be a rotation, so one axis's sign goes into its scale (with the skews that
        // multiply that row). CSS's 3D unmatrix negates all three scales, which turns a mirrored layer into a
        // 180-degree turn about x and animates it through a point; flipping the axis with the smallest
        // diagonal entry (the rotation left is then the one nearest the identity) is CSS Transforms 1's rule
        // for 2D matrices, so a flip of x animates as a squash in x, as browsers show it.
        if det < 0 {
            if rows.0.x < rows.1.y && rows.0.x <= rows.2.z {
                s.x = -s.x
                rows.0 = -rows.0
                (xy, xz) = (-xy, -xz)
            } else if rows.1.y <= rows.2.z {
                s.y = -s.y
                rows.1 = -rows.1
                (xy, yz) = (-xy, -yz)
            } else {
                s.z = -s.z
                rows.2 = -rows.2
                (xz, yz) = (-xz, -yz)
            }
        }

        // The perspective: v solves A v = column, by A = D L R: L y = D^-1 column, then v = R^T y.
        var v = SIMD3<Double>.zero
        if column != .zero {
            let c = column / s
            let y0 = c.x, y1 = c.y - xy * y0
            let y2 = c.z - xz * y0 - yz * y1
            v = y0 * rows.0 + y1 * rows.1 + y2 * rows.2
        }
        let decomposed = DecomposedTransform3D(
            translation: t, scale: s, skewXY: xy, skewXZ: xz, skewYZ: yz,
            perspective: SIMD4(v, w44 - Self.dot(t, v)), rotation: Quaternion(rotationRows: rows.0, rows.1, rows.2))
        guard Self.isFinite(decomposed.scale), Self.isFinite(v), decomposed.perspective.w.isFinite,
            decomposed.skewXY.isFinite, decomposed.skewXZ.isFinite, decomposed.skewYZ.isFinite
        else { return nil }
        self = decomposed
    }

    /// The matrix these pieces make (recomposition).
    public var matrix: Transform3D {
        let r = rotation.rotationRows
        let a0 = scale.x * r.r0
        let a1 = scale.y * (skewXY * r.r0 + r.r1)
        let a2 = scale.z * (skewXZ * r.r0 + skewYZ * r.r1 + r.r2)
        let v = SIMD3(perspective.x, perspective.y, perspective.z)
        let t = translation
        return Transform3D(
            m11: CGFloat(a0.x), m12: CGFloat(a0.y), m13: CGFloat(a0.z), m14: CGFloat(Self.dot(a0, v)),
            m21: CGFloat(a1.x), m22: CGFloat(a1.y), m23: CGFloat(a1.z), m24: CGFloat(Self.dot(a1, v)),
            m31: CGFloat(a2.x), m32: CGFloat(a2.y), m33: CGFloat(a2.z), m34: CGFloat(Self.dot(a2, v)),
            m41: CGFloat(t.x), m42: CGFloat(t.y), m43: CGFloat(t.z), m44: CGFloat(Self.dot(t, v) + perspective.w))
    }

    /// The pieces at progress `p` from `self` (0) to `other` (1): translation, scale, skew and perspective
    /// linearly, the rotation by `Quaternion.slerp` along the shorter arc. Any finite p extrapolates smoothly
    /// (a spring's overshoot); decompose the two ends once and call this per frame.
    ///
    /// As CSS Transforms 1 does for 2D matrices, when one end is mirrored in x and the other in y, the first
    /// is rewritten as the same matrix mirrored in y and turned half a turn about z, so the change is a turn
    /// rather than a collapse through a line.
    public func interpolated(to other: DecomposedTransform3D, _ p: Double) -> DecomposedTransform3D {
        func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * p }
        // Once only (pieces built by hand may have both scales negative).
        let a = (scale.x < 0 && other.scale.y < 0) || (scale.y < 0 && other.scale.x < 0) ? halfTurnedAboutZ : self
        return DecomposedTransform3D(
            translation: a.translation + (other.translation - a.translation) * p,
            scale: a.scale + (other.scale - a.scale) * p,
            skewXY: lerp(a.skewXY, other.skewXY), skewXZ: lerp(a.skewXZ, other.skewXZ),
            skewYZ: lerp(a.skewYZ, other.skewYZ),
            perspective: a.perspective + (other.perspective - a.perspective) * p,
            rotation: a.rotation.slerp(to: other.rotation, p))
    }

    /// The same matrix with the x and y scales negated and a half turn about z put into the rotation (applied
    /// first, so the rotation rows for x and y change sign), the skews adjusted to match.
    var halfTurnedAboutZ: DecomposedTransform3D {
        let r = rotation.rotationRows
        var turned = self
        turned.scale.x = -scale.x
        turned.scale.y = -scale.y
        (turned.skewXZ, turned.skewYZ) = (-skewXZ, -skewYZ)
        turned.rotation = Quaternion(rotationRows: -r.r0, -r.r1, r.r2)
        return turned
    }

    /// The transform at progress `p` from `a` to `b`, as CSS interpolates two matrices: both are decomposed,
    /// their pieces interpolated (`interpolated(to:_:)`) and recomposed. When either cannot be decomposed, or p
    /// is not finite, the change is discrete: `a` while p < 0.5, `b` from 0.5 on (a NaN p gives `b`). p == 0 and
    /// p == 1 give `a` and `b` exactly, as does any p when a == b.
    public static func interpolate(_ a: Transform3D, _ b: Transform3D, _ p: Double) -> Transform3D {
        if a == b || p == 0 { return a }
        if p == 1 { return b }
        guard p.isFinite, let da = DecomposedTransform3D(a), let db = DecomposedTransform3D(b) else {
            return p < 0.5 ? a : b
        }
        return da.interpolated(to: db, p).matrix
    }

    // MARK: Small vector helpers (SIMD3 has no dot, cross or length of its own)

    static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    static func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }

    static func isFinite(_ a: SIMD3<Double>) -> Bool { a.x.isFinite && a.y.isFinite && a.z.isFinite }
}
