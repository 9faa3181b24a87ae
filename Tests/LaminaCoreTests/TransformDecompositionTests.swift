import Foundation
import Testing

@testable import LaminaCore

/// DecomposedTransform3D: decomposition and recomposition, and CSS-style interpolation of matrices.
@Suite struct TransformDecompositionTests {
    /// Entry-wise closeness, the tolerance scaled by the largest entry (translations run to hundreds).
    func close(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
        let scale = max(1, a.entries.map { abs(Double($0)) }.max()!)
        return zip(a.entries, b.entries).allSatisfy { abs(Double($0) - Double($1)) <= tolerance * scale }
    }

    func degrees(_ d: Double) -> CGFloat { CGFloat(d * .pi / 180) }

    /// A deterministic generator (an LCG) so a failure can be replayed.
    struct Numbers {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Double>) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53)
            return range.lowerBound + unit * (range.upperBound - range.lowerBound)
        }
    }

    /// A random product of 1 to 6 translations, scales (some reflecting), rotations about random axes, skews and
    /// perspectives.
    func randomTransform(_ numbers: inout Numbers) -> Transform3D {
        var m = Transform3D.identity
        for _ in 0..<Int(numbers.next(1...6.99)) {
            let step: Transform3D
            switch Int(numbers.next(0...4.99)) {
            case 0:
                step = Transform3D(translationX: numbers.next(-300...300), y: numbers.next(-300...300),
                                   z: numbers.next(-100...100))
            case 1:
                let sign: Double = numbers.next(0...1) < 0.2 ? -1 : 1
                step = Transform3D(scaleX: sign * numbers.next(0.2...3), y: numbers.next(0.2...3),
                                   z: numbers.next(0.2...3))
            case 2:
                step = Transform3D(rotationAngle: numbers.next(-7...7), x: numbers.next(-1...1),
                                   y: numbers.next(-1...1), z: numbers.next(-1...1))
            case 3:
                var skew = Transform3D.identity
                (skew.m21, skew.m31, skew.m32) = (numbers.next(-1...1), numbers.next(-1...1), numbers.next(-1...1))
                step = skew
            default:
                step = Transform3D(perspectiveDistance: numbers.next(200...2000))
            }
            m = m.concatenating(step)
        }
        return m
    }

    /// `m` scaled by 1 / |m44|: what recomposition returns.
    func normalized(_ m: Transform3D) -> Transform3D {
        Transform3D(m.entries.map { $0 / abs(m.m44) })!
    }

    @Test func randomCompositionsRoundTrip() throws {
        var numbers = Numbers(state: 15)
        for _ in 0..<2000 {
            let m = randomTransform(&numbers)
            let decomposed = try #require(DecomposedTransform3D(m), "\(m)")
            #expect(close(decomposed.matrix, normalized(m)), "\(m) came back as \(decomposed.matrix)")
            #expect(abs(decomposed.rotation.length - 1) < 1e-12)
        }
    }

    @Test func halfTurnsAndTinyTurnsRoundTrip() throws {
        // A half turn has trace -1 (w = 0) and a tiny turn trace 3: where a quaternion read naively from the
        // diagonal loses digits.
        for angle in [Double.pi, .pi - 1e-9, -.pi + 1e-7, 1e-9, -1e-12] {
            for (x, y, z) in [(1.0, 0.0, 0.0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (1, -2, 3)] {
                let m = Transform3D(rotationAngle: CGFloat(angle), x: CGFloat(x), y: CGFloat(y), z: CGFloat(z))
                let d = try #require(DecomposedTransform3D(m))
                #expect(close(d.matrix, m, 1e-12), "\(angle) about (\(x), \(y), \(z))")
                let q = Quaternion(angle: angle, x: x, y: y, z: z)
                #expect(abs(abs(d.rotation.dot(q)) - 1) < 1e-12, "\(angle) about (\(x), \(y), \(z))")
            }
        }
    }

    @Test func negativeM44KeepsItsSign() throws {
        let m = Transform3D(rotationAngle: 0.7, x: 1, y: 2, z: 3).concatenating(Transform3D(perspectiveDistance: 300))
        let negated = Transform3D(m.entries.map { -$0 })!
        let decomposed = try #require(DecomposedTransform3D(negated))
        #expect(close(decomposed.matrix, negated))
        #expect(decomposed.matrix.m44 < 0)
    }

    @Test func simplePiecesAreReadBack() throws {
        let m = Transform3D(scaleX: 2, y: 3, z: 4).concatenating(Transform3D(rotationAngle: degrees(30)))
            .concatenating(Transform3D(translationX: 10, y: 20, z: 30))
            .concatenating(Transform3D(perspectiveDistance: 500))
        let d = try #require(DecomposedTransform3D(m))
        // The perspective after a z translation leaves m44 = 1 - 30 / 500, by which everything is divided.
        let k = 1 - 30.0 / 500
        #expect(abs(Double(m.m44) - k) < 1e-15)
        #expect(abs(d.scale.x - 2 / k) < 1e-12 && abs(d.scale.y - 3 / k) < 1e-12 && abs(d.scale.z - 4 / k) < 1e-12)
        #expect(abs(d.translation.x - 10 / k) < 1e-12 && abs(d.translation.y - 20 / k) < 1e-12)
        #expect(abs(d.translation.z - 30 / k) < 1e-12)
        let expected = Quaternion(angle: .pi / 6)
        #expect(abs(d.rotation.z - expected.z) < 1e-12 && abs(d.rotation.w - expected.w) < 1e-12)
        #expect(abs(d.perspective.z + 1.0 / 500) < 1e-15 && abs(d.perspective.x) < 1e-18 && abs(d.perspective.y) < 1e-18)
        #expect(abs(d.skewXY) < 1e-12 && abs(d.skewXZ) < 1e-12 && abs(d.skewYZ) < 1e-12)
    }

    @Test func aQuarterTurnHalfwayIsAnEighthTurn() {
        let half = DecomposedTransform3D.interpolate(.identity, Transform3D(rotationAngle: degrees(90)), 0.5)
        #expect(close(half, Transform3D(rotationAngle: degrees(45))), "\(half)")
        // About another axis too, and the same turn from the far end backwards.
        let y = DecomposedTransform3D.interpolate(.identity, Transform3D(rotationAngle: degrees(90), x: 0, y: 1, z: 0), 0.25)
        #expect(close(y, Transform3D(rotationAngle: degrees(22.5), x: 0, y: 1, z: 0)), "\(y)")
    }

    @Test func rotationTakesTheShortWay() {
        let a = Transform3D(rotationAngle: degrees(170)), b = Transform3D(rotationAngle: degrees(-170))
        let half = DecomposedTransform3D.interpolate(a, b, 0.5)
        #expect(close(half, Transform3D(rotationAngle: degrees(180))), "\(half)")
        let quarter = DecomposedTransform3D.interpolate(a, b, 0.25)
        #expect(close(quarter, Transform3D(rotationAngle: degrees(175))), "\(quarter)")
    }

    @Test func progressOutsideZeroToOneCarriesOn() {
        let b = Transform3D(rotationAngle: degrees(90))
        #expect(close(DecomposedTransform3D.interpolate(.identity, b, 1.2), Transform3D(rotationAngle: degrees(108))))
        #expect(close(DecomposedTransform3D.interpolate(.identity, b, -0.5), Transform3D(rotationAngle: degrees(-45))))
        let moved = DecomposedTransform3D.interpolate(.identity, Transform3D(translationX: 10, y: 0), 1.5)
        #expect(close(moved, Transform3D(translationX: 15, y: 0)))
    }

    @Test func scaleTranslationAndPerspectiveLerp() {
        let scaled = DecomposedTransform3D.interpolate(.identity, Transform3D(scaleX: 3, y: 3, z: 3), 0.5)
        #expect(close(scaled, Transform3D(scaleX: 2, y: 2, z: 2)), "\(scaled)")
        let from = Transform3D(translationX: 10, y: 20, z: 0), to = Transform3D(translationX: 20, y: -20, z: 30)
        let moved = DecomposedTransform3D.interpolate(from, to, 0.3)
        #expect(close(moved, Transform3D(translationX: 13, y: 8, z: 9)), "\(moved)")
        let deep = DecomposedTransform3D.interpolate(.identity, Transform3D(perspectiveDistance: 500), 0.5)
        #expect(abs(Double(deep.m34) + 1.0 / 1000) < 1e-15 && close(deep, Transform3D(perspectiveDistance: 1000)))
    }

    @Test func endpointsAreReproduced() {
        var numbers = Numbers(state: 7)
        for _ in 0..<200 {
            let a = randomTransform(&numbers), b = randomTransform(&numbers)
            #expect(DecomposedTransform3D.interpolate(a, b, 0) == a)
            #expect(DecomposedTransform3D.interpolate(a, b, 1) == b)
            // Just inside the ends the decomposed path itself lands on them.
            #expect(close(DecomposedTransform3D.interpolate(a, b, 1e-13), normalized(a)))
            #expect(close(DecomposedTransform3D.interpolate(a, b, 1 - 1e-13), normalized(b)))
        }
    }

    @Test func aMirroredLayerAnimatesAsASquash() throws {
        let mirrored = Transform3D(scaleX: -1, y: 1)
        let d = try #require(DecomposedTransform3D(mirrored))
        #expect(d.scale == SIMD3(-1, 1, 1) && d.rotation == .identity)
        #expect(close(DecomposedTransform3D.interpolate(mirrored, .identity, 0.25), Transform3D(scaleX: -0.5, y: 1)))
        // Mirrored in y and turned: the y scale carries the sign and the turn stays about z.
        let turned = Transform3D(scaleX: 2, y: -3).concatenating(Transform3D(rotationAngle: 0.5))
        let e = try #require(DecomposedTransform3D(turned))
        #expect(abs(e.scale.x - 2) < 1e-12 && abs(e.scale.y + 3) < 1e-12 && e.scale.z == 1)
        #expect(abs(e.rotation.z - sin(0.25)) < 1e-12 && e.rotation.x == 0 && e.rotation.y == 0)
    }

    @Test func mirroredInXToMirroredInYTurns() throws {
        let a = Transform3D(scaleX: -1, y: 1), b = Transform3D(scaleX: 1, y: -1)
        let turned = try #require(DecomposedTransform3D(a)).halfTurnedAboutZ
        #expect(close(turned.matrix, a))
        for p in [0.25, 0.5, 0.75] {
            let m = DecomposedTransform3D.interpolate(a, b, p)
            // A mirror turning: never squashed (|det| stays 1), at p the turn is (1 - p) half turns.
            #expect(abs(abs(Double(m.m11 * m.m22 - m.m12 * m.m21)) - 1) < 1e-12, "\(p): \(m)")
            #expect(close(m, Transform3D(scaleX: 1, y: -1).concatenating(Transform3D(rotationAngle: CGFloat((1 - p) * .pi)))) ||
                    close(m, Transform3D(scaleX: 1, y: -1).concatenating(Transform3D(rotationAngle: CGFloat((p - 1) * .pi)))),
                    "\(p): \(m)")
        }
        // With skews and a turn already in it, the rewritten matrix is the same matrix.
        let skewed = Transform3D(affine: -2, 0.3, 0.5, 1.5, 7, 8).concatenating(Transform3D(rotationAngle: 0.4, x: 1, y: 1, z: 1))
        let d = try #require(DecomposedTransform3D(skewed))
        #expect(close(d.halfTurnedAboutZ.matrix, d.matrix))
        // Pieces made by hand with both scales negative are rewritten once, not back and forth.
        let both = DecomposedTransform3D(scale: SIMD3(-1, -1, 1)), one = DecomposedTransform3D(scale: SIMD3(-1, 1, 1))
        #expect(close(one.interpolated(to: both, 1).matrix, both.matrix))
        #expect(close(one.interpolated(to: both, 0).matrix, one.matrix))
    }

    @Test func singularMatricesAreNotDecomposed() {
        #expect(DecomposedTransform3D(Transform3D(scaleX: 0, y: 1)) == nil)
        var flat = Transform3D.identity
        flat.m44 = 0
        #expect(DecomposedTransform3D(flat) == nil)
        var infinite = Transform3D.identity
        infinite.m41 = .infinity
        #expect(DecomposedTransform3D(infinite) == nil)
        // Tiny but exact scales are fine.
        #expect(DecomposedTransform3D(Transform3D(scaleX: 1e-6, y: 1e-6)) != nil)
    }

    @Test func aSingularEndMakesTheChangeDiscrete() {
        let zero = Transform3D(scaleX: 0, y: 0), b = Transform3D(translationX: 5, y: 5)
        #expect(DecomposedTransform3D.interpolate(zero, b, 0.49) == zero)
        #expect(DecomposedTransform3D.interpolate(zero, b, 0.5) == b)
        #expect(DecomposedTransform3D.interpolate(b, zero, 0.2) == b)
        #expect(DecomposedTransform3D.interpolate(b, zero, 1.3) == zero)
        #expect(DecomposedTransform3D.interpolate(.identity, b, .nan) == b)
    }

    @Test func slerpStaysUnitAndConstantSpeed() {
        let a = Quaternion(angle: 0.3, x: 1, y: 1, z: 0), b = Quaternion(angle: 2.5, x: 0, y: 1, z: 1)
        let angle = { (q: Quaternion, r: Quaternion) in 2 * acos(min(1, abs(q.dot(r)))) }
        let whole = angle(a, b)
        for p in stride(from: -1.0, through: 2.0, by: 0.25) {
            let q = a.slerp(to: b, p)
            #expect(abs(q.length - 1) < 1e-12)
            // Within one turn either side, the angle from a grows linearly with |p|.
            if abs(p) * whole < .pi { #expect(abs(angle(a, q) - abs(p) * whole) < 1e-9, "p \(p)") }
        }
        #expect(abs(a.slerp(to: a, 0.7).dot(a) - 1) < 1e-15)
    }
}
