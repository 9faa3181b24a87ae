import Foundation
import Testing

@testable import LaminaCore

/// CGAffineTransform against CoreGraphics' documented semantics, and Transform3D's inverse, with hand-computed
/// values.
@Suite struct TransformMathTests {
    func close(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-9) -> Bool { abs(a - b) <= tolerance }

    func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
        close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
    }

    func close(_ a: CGAffineTransform, _ b: CGAffineTransform, _ tolerance: CGFloat = 1e-9) -> Bool {
        zip([a.a, a.b, a.c, a.d, a.tx, a.ty], [b.a, b.b, b.c, b.d, b.tx, b.ty]).allSatisfy {
            close($0, $1, tolerance)
        }
    }

    func close(_ a: Transform3D, _ b: Transform3D, _ tolerance: CGFloat = 1e-9) -> Bool {
        zip(a.entries, b.entries).allSatisfy { close($0, $1, tolerance) }
    }

    // MARK: CGAffineTransform

    @Test func affineIdentityAndZeroInit() {
        let identity = CGAffineTransform.identity
        #expect(identity == CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        #expect(identity.isIdentity && !CGAffineTransform(translationX: 1, y: 0).isIdentity)
        // Swift's zero-initialising init() of CoreGraphics' C struct: all zero, not the identity.
        #expect(CGAffineTransform() == CGAffineTransform(0, 0, 0, 0, 0, 0))
        #expect(CGAffineTransform(1, 2, 3, 4, 5, 6) == CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
        #expect(CGPoint(x: 3, y: -4).applying(identity) == CGPoint(x: 3, y: -4))
    }

    @Test func identityIsEveryTermOfTheIdentity() {
        // Transform3D.isIdentity compares the sixteen terms itself: the answer must be `== .identity`'s, for every
        // term moved off (and for negative zeros, which equal zero).
        #expect(Transform3D.identity.isIdentity)
        var zeros = Transform3D.identity
        zeros.m12 = -0.0
        zeros.m43 = -0.0
        #expect(zeros.isIdentity && zeros == .identity)
        let paths: [WritableKeyPath<Transform3D, CGFloat>] = [
            \.m11, \.m12, \.m13, \.m14, \.m21, \.m22, \.m23, \.m24, \.m31, \.m32, \.m33, \.m34, \.m41, \.m42, \.m43,
            \.m44,
        ]
        for path in paths {
            for value in [0.5, .nan, .infinity] {
                var moved = Transform3D.identity
                moved[keyPath: path] += value
                #expect(!moved.isIdentity && moved.isIdentity == (moved == .identity), "\(path) + \(value)")
            }
        }
    }

    @Test func pointApplyingUsesRowVectorConvention() {
        // x' = a x + c y + tx, y' = b x + d y + ty.
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(CGPoint(x: 10, y: 100).applying(t) == CGPoint(x: 10 + 300 + 5, y: 20 + 400 + 6))
    }

    @Test func translatedScaledAndRotatedPrependTheirOperation() {
        // CGAffineTransformScale(t, ...) scales first, then applies t: (1,1) -> (2,2) -> (12,2).
        let scaled = CGAffineTransform(translationX: 10, y: 0).scaledBy(x: 2, y: 2)
        #expect(CGPoint(x: 1, y: 1).applying(scaled) == CGPoint(x: 12, y: 2))
        #expect(scaled == CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 10, ty: 0))
        // Translating a scale: (1,1) -> (11,1) -> (22,2).
        let translated = CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 10, y: 0)
        #expect(CGPoint(x: 1, y: 1).applying(translated) == CGPoint(x: 22, y: 2))
        #expect(translated == CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 20, ty: 0))
        // Rotating a translation: (1,0) turns to (0,1), then moves to (5,1).
        let rotated = CGAffineTransform(translationX: 5, y: 0).rotated(by: .pi / 2)
        #expect(close(CGPoint(x: 1, y: 0).applying(rotated), CGPoint(x: 5, y: 1)))
    }

    @Test func concatenatingAppliesTheReceiverFirst() {
        let translate = CGAffineTransform(translationX: 10, y: 0), scale = CGAffineTransform(scaleX: 2, y: 2)
        // translate, then scale: (1,1) -> (11,1) -> (22,2).
        #expect(CGPoint(x: 1, y: 1).applying(translate.concatenating(scale)) == CGPoint(x: 22, y: 2))
        // scale, then translate: (1,1) -> (2,2) -> (12,2).
        #expect(CGPoint(x: 1, y: 1).applying(scale.concatenating(translate)) == CGPoint(x: 12, y: 2))
        // translatedBy is the translation concatenated with the receiver.
        #expect(scale.translatedBy(x: 10, y: 0) == translate.concatenating(scale))
        // A general product: [1 2; 3 4; 5 6] x [7 8; 9 10; 11 12] as 3x3 affine matrices.
        let t1 = CGAffineTransform(1, 2, 3, 4, 5, 6), t2 = CGAffineTransform(7, 8, 9, 10, 11, 12)
        #expect(t1.concatenating(t2) == CGAffineTransform(25, 28, 57, 64, 100, 112))
        let p = CGPoint(x: -3, y: 7)
        #expect(p.applying(t1.concatenating(t2)) == p.applying(t1).applying(t2))
    }

    @Test func rotationIsClockwiseOnAYDownScreen() {
        let quarter = CGAffineTransform(rotationAngle: .pi / 2)
        // The x axis turns onto the y axis (down the screen): clockwise as seen, as on iOS.
        #expect(close(CGPoint(x: 1, y: 0).applying(quarter), CGPoint(x: 0, y: 1)))
        #expect(close(CGPoint(x: 0, y: 1).applying(quarter), CGPoint(x: -1, y: 0)))
        let angle: CGFloat = 0.3
        let r = CGAffineTransform(rotationAngle: angle)
        #expect(r == CGAffineTransform(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0, ty: 0))
    }

    @Test func invertedUndoesTheTransform() {
        let t = CGAffineTransform(a: 2, b: 0, c: 0, d: 4, tx: 10, ty: 20)
        #expect(t.inverted() == CGAffineTransform(a: 0.5, b: 0, c: 0, d: 0.25, tx: -5, ty: -5))
        #expect(CGPoint(x: 14, y: 28).applying(t.inverted()) == CGPoint(x: 2, y: 2))
        let general = CGAffineTransform(rotationAngle: 0.7).scaledBy(x: 3, y: -0.5).translatedBy(x: 12, y: -7)
        #expect(close(general.concatenating(general.inverted()), .identity))
        #expect(close(general.inverted().concatenating(general), .identity))
        let p = CGPoint(x: 31, y: -4)
        #expect(close(p.applying(general).applying(general.inverted()), p))
    }

    @Test func invertingASingularTransformReturnsItUnchanged() {
        // CGAffineTransformInvert's behaviour: the input comes back.
        let flat = CGAffineTransform(scaleX: 0, y: 1)
        #expect(flat.inverted() == flat)
        let rankOne = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 3, ty: 3)
        #expect(rankOne.inverted() == rankOne)
        let notFinite = CGAffineTransform(a: .infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        #expect(notFinite.inverted() == notFinite)
    }

    @Test func sizeApplyingIgnoresTranslationAndKeepsSign() {
        let t = CGAffineTransform(rotationAngle: .pi / 2).concatenating(CGAffineTransform(translationX: 100, y: 100))
        // (a w + c h, b w + d h) with a = d = 0, b = 1, c = -1.
        let size = CGSize(width: 10, height: 20).applying(t)
        #expect(close(size.width, -20) && close(size.height, 10))
        let flipped = CGSize(width: 3, height: 4).applying(CGAffineTransform(scaleX: 2, y: -1))
        #expect(flipped == CGSize(width: 6, height: -4))
    }

    @Test func rectApplyingGivesTheBoundingBoxOfTheCorners() {
        let flip = CGAffineTransform(a: 2, b: 0, c: 0, d: -1, tx: 5, ty: 0)
        // x: 2 * 1 + 5 = 7 ... 2 * 4 + 5 = 13; y: -2 ... -6.
        #expect(CGRect(x: 1, y: 2, width: 3, height: 4).applying(flip) == CGRect(x: 7, y: -6, width: 6, height: 4))
        // Corners (0,0) (10,0) (10,20) (0,20) turn to (0,0) (0,10) (-20,10) (-20,0).
        let turned = CGRect(x: 0, y: 0, width: 10, height: 20).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(close(turned.minX, -20) && close(turned.minY, 0) && close(turned.width, 20) && close(turned.height, 10))
        // A 45-degree turn of a unit square about its corner: a diamond of width and height sqrt(2).
        let diamond = CGRect(x: 0, y: 0, width: 1, height: 1).applying(CGAffineTransform(rotationAngle: .pi / 4))
        #expect(close(diamond.minX, -0.5.squareRoot()) && close(diamond.width, 2.0.squareRoot()))
        #expect(close(diamond.minY, 0) && close(diamond.height, 2.0.squareRoot()))
        // Negative sizes are standardised first; the null rectangle stays null.
        let negative = CGRect(x: 10, y: 10, width: -4, height: -2)
        #expect(negative.applying(.identity) == CGRect(x: 6, y: 8, width: 4, height: 2))
        #expect(CGRect.null.applying(flip).isNull)
    }

    // MARK: Transform3D <-> CGAffineTransform

    @Test func affineTransformRoundTripsThroughTransform3D() {
        let affine = CGAffineTransform(a: 1, b: 0.5, c: -0.5, d: 2, tx: 10, ty: 20)
        let t = Transform3D(affine)
        #expect(t.isAffine && t.affineTransform == affine)
        #expect(t == Transform3D(affine: 1, 0.5, -0.5, 2, 10, 20))
        let h = t.apply(x: 3, y: 4)
        #expect(CGPoint(x: h.x, y: h.y) == CGPoint(x: 3, y: 4).applying(affine) && h.z == 0 && h.w == 1)
        // Concatenation agrees in both worlds.
        let other = CGAffineTransform(rotationAngle: 0.4).translatedBy(x: -3, y: 8)
        #expect(close(Transform3D(affine).concatenating(Transform3D(other)), Transform3D(affine.concatenating(other))))
        // The same rotation convention as Transform3D's.
        #expect(close(Transform3D(CGAffineTransform(rotationAngle: 0.4)), Transform3D(rotationAngle: 0.4)))
        #expect(Transform3D(.identity) == .identity)
    }

    @Test func affinePartOfANonAffineTransformIgnoresTheRest() {
        // As CATransform3DGetAffineTransform: m11 m12 m21 m22 m41 m42, whatever else is there.
        var t = Transform3D(translationX: 7, y: 8, z: 9).concatenating(Transform3D(perspectiveDistance: 500))
        t.m11 = 2
        #expect(!t.isAffine)
        #expect(t.affineTransform == CGAffineTransform(a: 2, b: 0, c: 0, d: 1, tx: 7, ty: 8))
    }

    // MARK: Transform3D inverse

    @Test func determinantOfSimpleTransforms() {
        #expect(Transform3D.identity.determinant == 1)
        #expect(Transform3D(scaleX: 2, y: 3, z: 4).determinant == 24)
        #expect(Transform3D(translationX: 5, y: 6, z: 7).determinant == 1)
        #expect(Transform3D(perspectiveDistance: 500).determinant == 1)
        #expect(abs(Transform3D(rotationAngle: 1.1, x: 1, y: 2, z: 3).determinant - 1) < 1e-12)
        // Two equal rows.
        let entries: [CGFloat] = [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 0, 0, 0, 1]
        #expect(Transform3D(entries)!.determinant == 0)
    }

    @Test func inverseOfSimpleTransformsIsExact() {
        #expect(Transform3D(translationX: 5, y: -6, z: 7).inverted == Transform3D(translationX: -5, y: 6, z: -7))
        #expect(Transform3D(scaleX: 2, y: 4, z: 8).inverted == Transform3D(scaleX: 0.5, y: 0.25, z: 0.125))
        // Perspective I - e3 e4 / d is undone by I + e3 e4 / d: m34 = +1/d.
        let perspective = Transform3D(perspectiveDistance: 500)
        var undo = Transform3D.identity
        undo.m34 = 1.0 / 500
        #expect(perspective.inverted == undo)
        #expect(Transform3D.identity.inverted == .identity)
    }

    @Test func inverseRoundTripsIncludingPerspective() throws {
        let perspective = Transform3D(perspectiveDistance: 500)
        let transforms: [Transform3D] = [
            Transform3D(rotationAngle: 0.7, x: 1, y: 2, z: 3),
            Transform3D(rotationAngle: .pi / 3, x: 0, y: 1, z: 0).translatedBy(x: 0, y: 0, z: 100)
                .concatenating(perspective),
            Transform3D(scaleX: 2, y: -3, z: 0.5).rotated(by: 0.2, x: 1, y: 0, z: 0)
                .concatenating(Transform3D(translationX: 40, y: -25, z: 12)).concatenating(perspective),
            Transform3D([3, 1, -2, 0.01, 0.5, 4, 1, -0.002, 2, -1, 5, 0.003, 10, 20, 30, 1])!,
        ]
        for t in transforms {
            let inverse = try #require(t.inverted)
            #expect(t.isInvertible)
            #expect(close(t.concatenating(inverse), .identity))
            #expect(close(inverse.concatenating(t), .identity))
            #expect(close(try #require(inverse.inverted), t))
        }
        // (A B)^-1 = B^-1 A^-1; with CATransform3DConcat order, A.concatenating(B) applies A first.
        let a = transforms[1], b = transforms[2]
        let product = try #require(a.concatenating(b).inverted)
        #expect(close(product, try #require(b.inverted).concatenating(try #require(a.inverted)), 1e-9))
    }

    @Test func inverseUndoesAPerspectivePoint() throws {
        // A point 100 towards the eye at d = 500: w = 1 - 100/500 = 0.8, so it grows by 1.25.
        let t = Transform3D(perspectiveDistance: 500)
        let h = t.apply(x: 10, y: 20, z: 100)
        #expect(h.x == 10 && h.y == 20 && h.z == 100 && close(h.w, 0.8))
        #expect(close(h.x / h.w, 12.5) && close(h.y / h.w, 25))
        let back = try #require(t.inverted).apply(x: h.x / h.w, y: h.y / h.w, z: h.z / h.w)
        #expect(close(back.x / back.w, 10) && close(back.y / back.w, 20) && close(back.z / back.w, 100))
    }

    @Test func singularTransformsHaveNoInverse() {
        // Where CATransform3DInvert would return its input, Lamina returns nil.
        let flat = Transform3D(scaleX: 0, y: 1)
        #expect(flat.inverted == nil && !flat.isInvertible)
        #expect(Transform3D([1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 0, 0, 0, 1])!.inverted == nil)
        // Numerically singular: a turned layer flattened onto z = 0 leaves only rounding in the determinant.
        let flattened = Transform3D(rotationAngle: 0.3, x: 1, y: 1, z: 0)
            .concatenating(Transform3D(scaleX: 1, y: 1, z: 0))
            .concatenating(Transform3D(rotationAngle: -0.8, x: 0, y: 1, z: 1))
        #expect(flattened.inverted == nil)
        var notFinite = Transform3D.identity
        notFinite.m41 = .nan
        #expect(notFinite.inverted == nil)
    }

    @Test func smallAndLargeButExactTransformsStayInvertible() throws {
        // The singularity test is relative, so tiny scales and big translations are fine.
        let tiny = try #require(Transform3D(scaleX: 1e-6, y: 1e-6, z: 1e-6).inverted)
        #expect(close(tiny.m11, 1e6, 1e-3) && close(tiny.m22, 1e6, 1e-3) && close(tiny.m33, 1e6, 1e-3))
        let far = try #require(Transform3D(translationX: 1e6, y: -1e5, z: 0).inverted)
        #expect(far == Transform3D(translationX: -1e6, y: 1e5, z: 0))
        let squashed = Transform3D(scaleX: 1e-9, y: 1, z: 1).rotated(by: 0.5)
        #expect(squashed.isInvertible)
    }
}
