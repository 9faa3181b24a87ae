import Foundation

extension Transform3D {
    /// The determinant of the 4x4 matrix.
    public var determinant: CGFloat { minors.determinant }

    /// The 2x2 minors of the first two rows (s) and of the last two rows (c), by which both the determinant
    /// (Laplace expansion) and the adjugate are written.
    private var minors: (s: [CGFloat], c: [CGFloat], determinant: CGFloat) {
        let s = [
            m11 * m22 - m21 * m12, m11 * m23 - m21 * m13, m11 * m24 - m21 * m14,
            m12 * m23 - m22 * m13, m12 * m24 - m22 * m14, m13 * m24 - m23 * m14,
        ]
        let c = [
            m31 * m42 - m41 * m32, m31 * m43 - m41 * m33, m31 * m44 - m41 * m34,
            m32 * m43 - m42 * m33, m32 * m44 - m42 * m34, m33 * m44 - m43 * m34,
        ]
        let det = s[0] * c[5] - s[1] * c[4] + s[2] * c[3] + s[3] * c[2] - s[4] * c[1] + s[5] * c[0]
        return (s, c, det)
    }

    /// The inverse (CATransform3DInvert), or nil when the matrix is singular, numerically singular or not
    /// finite.
    ///
    /// Core Animation's CATransform3DInvert returns its input unchanged when it cannot invert it; Lamina
    /// returns nil instead, so a singular transform cannot pass silently for an inverse. Use `?? t` for CA's
    /// behaviour.
    ///
    /// "Numerically singular" means |det| is within rounding error of zero relative to the size of the
    /// matrix: |det| <= 16 ulp x min(product of row lengths, product of column lengths) (Hadamard's bound on
    /// |det|). The test does not change when a row or column is scaled, so tiny but exact scales such as
    /// 1e-6 stay invertible, while a product that collapses a dimension (a layer turned exactly edge-on
    /// composed with a flattening) is refused instead of yielding entries of 1e16.
    public var inverted: Transform3D? {
        guard isFinite else { return nil }
        // The adjugate by 2x2 minors: exact for the common sparse matrices (translations, scales, perspective),
        // where most products are zero.
        let (s, c, det) = minors
        let (s0, s1, s2, s3, s4, s5) = (s[0], s[1], s[2], s[3], s[4], s[5])
        let (c0, c1, c2, c3, c4, c5) = (c[0], c[1], c[2], c[3], c[4], c[5])
        guard det != 0, det.isFinite, abs(det) > 16 * CGFloat.ulpOfOne * hadamardBound else { return nil }
        let inv = 1 / det
        let result = Transform3D(
            m11: (m22 * c5 - m23 * c4 + m24 * c3) * inv,
            m12: (-m12 * c5 + m13 * c4 - m14 * c3) * inv,
            m13: (m42 * s5 - m43 * s4 + m44 * s3) * inv,
            m14: (-m32 * s5 + m33 * s4 - m34 * s3) * inv,
            m21: (-m21 * c5 + m23 * c2 - m24 * c1) * inv,
            m22: (m11 * c5 - m13 * c2 + m14 * c1) * inv,
            m23: (-m41 * s5 + m43 * s2 - m44 * s1) * inv,
            m24: (m31 * s5 - m33 * s2 + m34 * s1) * inv,
            m31: (m21 * c4 - m22 * c2 + m24 * c0) * inv,
            m32: (-m11 * c4 + m12 * c2 - m14 * c0) * inv,
            m33: (m41 * s4 - m42 * s2 + m44 * s0) * inv,
            m34: (-m31 * s4 + m32 * s2 - m34 * s0) * inv,
            m41: (-m21 * c3 + m22 * c1 - m23 * c0) * inv,
            m42: (m11 * c3 - m12 * c1 + m13 * c0) * inv,
            m43: (-m41 * s3 + m42 * s1 - m43 * s0) * inv,
            m44: (m31 * s3 - m32 * s1 + m33 * s0) * inv)
        return result.isFinite ? result : nil
    }

    /// True when `inverted` is not nil.
    public var isInvertible: Bool { inverted != nil }

    /// Hadamard's bound on |det|, the smaller of the products of the row lengths and of the column lengths.
    private var hadamardBound: CGFloat {
        func length(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat) -> CGFloat {
            (a * a + b * b + c * c + d * d).squareRoot()
        }
        let rows = length(m11, m12, m13, m14) * length(m21, m22, m23, m24) * length(m31, m32, m33, m34)
            * length(m41, m42, m43, m44)
        let columns = length(m11, m21, m31, m41) * length(m12, m22, m32, m42) * length(m13, m23, m33, m43)
            * length(m14, m24, m34, m44)
        return min(rows, columns)
    }

    /// The homogeneous image of the point (x, y, z, 1): the row vector (x, y, z, 1) x self. Divide x, y, z by
    /// w for the Euclidean point; under perspective (m34 = -1/d) w = 1 - z/d, so a point moved towards the eye
    /// grows by 1/w, and w <= 0 means the point is at or behind the eye.
    public func apply(x: CGFloat, y: CGFloat, z: CGFloat = 0) -> (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) {
        (
            x: x * m11 + y * m21 + z * m31 + m41,
            y: x * m12 + y * m22 + z * m32 + m42,
            z: x * m13 + y * m23 + z * m33 + m43,
            w: x * m14 + y * m24 + z * m34 + m44
        )
    }

    /// CATransform3DMakeAffineTransform: the 2D transform acting on x and y, leaving z alone.
    public init(_ affine: CGAffineTransform) {
        self.init(affine: affine.a, affine.b, affine.c, affine.d, affine.tx, affine.ty)
    }

    /// CATransform3DGetAffineTransform: the entries m11, m12, m21, m22, m41, m42 as a CGAffineTransform.
    ///
    /// Like Core Animation this never fails: for a transform that is not affine (`isAffine` false: perspective,
    /// z terms) the other entries are simply ignored, so check `isAffine` when that matters.
    public var affineTransform: CGAffineTransform {
        CGAffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }
}

extension Matrix3 {
    /// This map with a w row that differs from (0, 0, 1) by rounding alone made exactly (0, 0, 1). Inverting
    /// a placement leaves m33 = 0.9999999999999999 for many sizes; taken as perspective, a 1:1 quad would miss
    /// the texel-copying path and divide per pixel, which a float does a step off and a bilinear read then
    /// blends with the texel before. The tolerance is far below anything a float32 texel coordinate resolves.
    public var snappedToAffine: Matrix3 {
        guard !isAffine, abs(m13) < 1e-12, abs(m23) < 1e-12, abs(m33 - 1) < 1e-12 else { return self }
        let k = 1 / m33
        return Matrix3(m11: m11 * k, m12: m12 * k, m13: 0, m21: m21 * k, m22: m22 * k, m23: 0, m31: m31 * k,
                       m32: m32 * k, m33: 1)
    }
}
