import Foundation

// Foundation on Linux (swift-corelibs-foundation and FoundationEssentials) has CGFloat, CGPoint, CGSize and
// CGRect but no CGAffineTransform; Core Animation code uses it for `affineTransform()` and friends. This is
// CoreGraphics' Swift API, so such code ports unchanged; the package's `CoreGraphics` module re-exports it under
// the same name. It is not behind `#if !canImport(CoreGraphics)`: that module exists in this package, so such a
// guard would remove the type from every target built after it.

/// A 2D affine transform with CoreGraphics' conventions: a point is a row vector (x, y, 1) multiplied on the
/// left of the matrix
///
///     | a  b  0 |
///     | c  d  0 |
///     | tx ty 1 |
///
/// so x' = a x + c y + tx and y' = b x + d y + ty. On Lamina's y-down screen a positive rotation angle turns
/// clockwise, as on iOS.
///
/// `translatedBy`, `scaledBy` and `rotated(by:)` *prepend* their operation (it is applied before `self`), as
/// CGAffineTransformTranslate/Scale/Rotate do; `t1.concatenating(t2)` applies t1 first, then t2.
public struct CGAffineTransform: Hashable, Sendable {
    public var a: CGFloat
    public var b: CGFloat
    public var c: CGFloat
    public var d: CGFloat
    public var tx: CGFloat
    public var ty: CGFloat

    /// All six entries zero, as the zero-initialising `init()` that Swift gives CoreGraphics' C struct.
    /// This is not the identity: use `.identity` for that.
    public init() {
        (a, b, c, d, tx, ty) = (0, 0, 0, 0, 0, 0)
    }

    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// The entries in CGAffineTransformMake's order.
    public init(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) {
        self.init(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }

    /// CGAffineTransformIdentity.
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// True when the transform is exactly the identity (CGAffineTransformIsIdentity).
    public var isIdentity: Bool { self == .identity }

    /// CGAffineTransformMakeTranslation: x' = x + tx, y' = y + ty.
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// CGAffineTransformMakeScale: x' = sx x, y' = sy y.
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// CGAffineTransformMakeRotation: `angle` radians; positive turns clockwise on Lamina's y-down screen
    /// (x axis towards y axis), as on iOS. Like CoreGraphics, multiples of pi/2 are not snapped, so cos(pi/2)
    /// leaves a ~1e-16 residue.
    public init(rotationAngle angle: CGFloat) {
        let cosine = cos(angle), sine = sin(angle)
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// CGAffineTransformTranslate: the translation is applied first, then `self`.
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// CGAffineTransformScale: the scale is applied first, then `self`.
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: x, y: y).concatenating(self)
    }

    /// CGAffineTransformRotate: the rotation (clockwise on screen for positive angles) is applied first, then
    /// `self`.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// CGAffineTransformConcat(self, t2): apply `self` first, then `t2` (the matrix product self x t2).
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
    }

    /// CGAffineTransformInvert. Like CoreGraphics, a singular transform (determinant a d - b c exactly zero)
    /// is returned unchanged rather than as an error; so is one whose inverse would not be finite. Check the
    /// determinant first when that matters.
    public func inverted() -> CGAffineTransform {
        let determinant = a * d - b * c
        guard determinant != 0, determinant.isFinite else { return self }
        let inverse = CGAffineTransform(
            a: d / determinant, b: -b / determinant, c: -c / determinant, d: a / determinant,
            tx: (c * ty - d * tx) / determinant, ty: (b * tx - a * ty) / determinant)
        let entries = [inverse.a, inverse.b, inverse.c, inverse.d, inverse.tx, inverse.ty]
        return entries.allSatisfy(\.isFinite) ? inverse : self
    }
}

extension CGPoint {
    /// CGPointApplyAffineTransform: (a x + c y + tx, b x + d y + ty).
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// CGSizeApplyAffineTransform: the size as a vector, so the translation is ignored and the result may be
    /// negative: (a w + c h, b w + d h).
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// CGRectApplyAffineTransform: the smallest axis-aligned rectangle containing the four transformed
    /// corners (of the standardised rectangle). The null rectangle stays null.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull { return self }
        let corners = [
            CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY),
            CGPoint(x: maxX, y: maxY), CGPoint(x: minX, y: maxY),
        ].map { $0.applying(t) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = xs.min()!, y0 = ys.min()!
        return CGRect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }
}
