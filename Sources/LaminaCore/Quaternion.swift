import Foundation

/// A rotation as a unit quaternion (x, y, z, w) = (axis x sin(angle / 2), cos(angle / 2)), in Transform3D's
/// conventions: the quaternion of `Transform3D(rotationAngle: angle, x:, y:, z:)` is `Quaternion(angle:x:y:z:)`,
/// so about z a positive angle turns clockwise on Lamina's y-down screen.
///
/// q and -q are the same rotation; `slerp` takes the shorter of the two arcs between them.
public struct Quaternion: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double
    public var w: Double

    public init(x: Double, y: Double, z: Double, w: Double) {
        (self.x, self.y, self.z, self.w) = (x, y, z, w)
    }

    /// No rotation.
    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

    /// The rotation by `angle` radians about the axis (x, y, z), as Transform3D(rotationAngle:x:y:z:) makes
    /// it. A zero or non-finite axis gives the identity, as there.
    public init(angle: Double, x ax: Double = 0, y ay: Double = 0, z az: Double = 1) {
        let length = (ax * ax + ay * ay + az * az).squareRoot()
        guard length > 0, length.isFinite else {
            self = .identity
            return
        }
        let s = sin(angle / 2) / length
        self.init(x: ax * s, y: ay * s, z: az * s, w: cos(angle / 2))
    }

    /// The Euclidean length; 1 for a rotation.
    public var length: Double { (x * x + y * y + z * z + w * w).squareRoot() }

    /// This quaternion scaled to length 1 (the identity when its length is 0 or not finite).
    public var normalized: Quaternion {
        let l = length
        guard l > 0, l.isFinite else { return .identity }
        return Quaternion(x: x / l, y: y / l, z: z / l, w: w / l)
    }

    /// The four-dimensional dot product; its sign tells which of q and -q is nearer `other`.
    public func dot(_ other: Quaternion) -> Double { x * other.x + y * other.y + z * other.z + w * other.w }

    /// Spherical linear interpolation from `self` (p = 0) to `other` (p = 1) along the shorter arc, at constant
    /// angular speed. Any p is accepted: outside 0...1 the rotation carries on along the same great circle (a
    /// spring's overshoot turns past the end and back), and the result stays a unit quaternion.
    public func slerp(to other: Quaternion, _ p: Double) -> Quaternion {
        var b = other
        if dot(b) < 0 { b = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w) }
        // The angle between the two unit vectors by atan2 of |a - b| and |a + b|: exact for nearby quaternions,
        // where acos(dot) loses half the digits.
        let dx = x - b.x, dy = y - b.y, dz = z - b.z, dw = w - b.w
        let sx = x + b.x, sy = y + b.y, sz = z + b.z, sw = w + b.w
        let theta = 2 * atan2((dx * dx + dy * dy + dz * dz + dw * dw).squareRoot(),
                              (sx * sx + sy * sy + sz * sz + sw * sw).squareRoot())
        let ka: Double, kb: Double
        if theta < 1e-6 {
            // sin(k theta) / sin(theta) is k to within theta^2: linear blending, then normalising.
            (ka, kb) = (1 - p, p)
        } else {
            let s = sin(theta)
            (ka, kb) = (sin((1 - p) * theta) / s, sin(p * theta) / s)
        }
        return Quaternion(x: ka * x + kb * b.x, y: ka * y + kb * b.y, z: ka * z + kb * b.z, w: ka * w + kb * b.w)
            .normalized
    }

    /// The rotation's 3x3 matrix in Transform3D's row-vector convention (p' = p x M): rows r0, r1, r2 are the
    /// images of the x, y and z axes.
    public var rotationRows: (r0: SIMD3<Double>, r1: SIMD3<Double>, r2: SIMD3<Double>) {
        let (xx, yy, zz) = (x * x, y * y, z * z)
        let (xy, xz, yz, xw, yw, zw) = (x * y, x * z, y * z, x * w, y * w, z * w)
        return (
            SIMD3(1 - 2 * (yy + zz), 2 * (xy + zw), 2 * (xz - yw)),
            SIMD3(2 * (xy - zw), 1 - 2 * (xx + zz), 2 * (yz + xw)),
            SIMD3(2 * (xz + yw), 2 * (yz - xw), 1 - 2 * (xx + yy))
        )
    }

    /// The quaternion of an orthonormal, right-handed 3x3 matrix given by its rows (row-vector convention, as
    /// `rotationRows` returns them), with w >= 0.
    ///
    /// Shepperd's method: the largest of w, x, y, z comes from the diagonal and the others from off-diagonal
    /// sums and differences divided by it, so no component is taken as the square root of a small difference
    /// (which would cost half its digits).
    public init(rotationRows r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        let (u00, u11, u22) = (r0.x, r1.y, r2.z)
        let trace = u00 + u11 + u22
        var q: Quaternion
        if trace > 0 && trace >= u00 && trace >= u11 && trace >= u22 {
            let s = 2 * (1 + trace).squareRoot()  // 4w
            q = Quaternion(x: (r1.z - r2.y) / s, y: (r2.x - r0.z) / s, z: (r0.y - r1.x) / s, w: s / 4)
        } else if u00 >= u11 && u00 >= u22 {
            let s = 2 * max(1 + u00 - u11 - u22, 0).squareRoot()  // 4x
            q = Quaternion(x: s / 4, y: (r1.x + r0.y) / s, z: (r2.x + r0.z) / s, w: (r1.z - r2.y) / s)
        } else if u11 >= u22 {
            let s = 2 * max(1 + u11 - u00 - u22, 0).squareRoot()  // 4y
            q = Quaternion(x: (r0.y + r1.x) / s, y: s / 4, z: (r2.y + r1.z) / s, w: (r2.x - r0.z) / s)
        } else {
            let s = 2 * max(1 + u22 - u00 - u11, 0).squareRoot()  // 4z
            q = Quaternion(x: (r2.x + r0.z) / s, y: (r2.y + r1.z) / s, z: s / 4, w: (r0.y - r1.x) / s)
        }
        if q.w < 0 { q = Quaternion(x: -q.x, y: -q.y, z: -q.z, w: -q.w) }
        self = q.normalized
    }
}
