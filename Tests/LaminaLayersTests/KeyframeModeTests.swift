import Foundation
import LaminaCore
import LaminaDrawing
@testable import LaminaLayers
import Testing

/// KeyframeAnimation's calculation modes in full (docs/animation.md, "Keyframes"): Kochanek-Bartels splines,
/// paced speeds, paths in every mode, rotation modes and value functions, against hand-worked numbers.
@Suite struct KeyframeModeTests {
    /// A committed, drawn layer at (10, 20) with a 10 x 10 bounds: the one the animation tests use.
    func drawnLayer() -> Layer { AnimationTests().drawnLayer() }

    /// A fresh layer with `animation` attached (its beginTime as written).
    func layer(with animation: Animation) -> Layer {
        let layer = drawnLayer()
        Transaction.begin()
        layer.attach(animation, forKey: "a", keepingBeginTime: true)
        Transaction.commit()
        return layer
    }

    func x(_ layer: Layer, _ t: Double) -> Double { Double(layer.presentationSnapshot(at: t)!.position.x) }

    func position(_ layer: Layer, _ t: Double) -> CGPoint { layer.presentationSnapshot(at: t)!.position }

    func near(_ p: CGPoint, _ x: Double, _ y: Double, _ tolerance: Double = 1e-6) -> Bool {
        abs(Double(p.x) - x) <= tolerance && abs(Double(p.y) - y) <= tolerance
    }

    func frames(_ keyPath: String, _ values: [Any], mode: KeyframeAnimation.CalculationMode) -> KeyframeAnimation {
        let animation = KeyframeAnimation(keyPath: keyPath)
        animation.values = values
        animation.calculationMode = mode
        animation.duration = 1
        holdEnd(animation)
        return animation
    }

    /// Kept at its end value after its end, so that frames at 1 s show it.
    func holdEnd(_ animation: Animation) {
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
    }

    // MARK: Kochanek-Bartels

    @Test func tensionOneMakesFlatTangents() {
        // Values 0, 10, 0 at 0, 0.5, 1 with tension 1 everywhere: both tangents 0, so within the first segment
        // the value is 10 h01(s) = 10 (3 s^2 - 2 s^3); at 0.125 s, s = 0.25: 10 x 10 / 64.
        let animation = frames("position.x", [0.0, 10.0, 0.0], mode: .cubic)
        animation.tensionValues = [1, 1, 1]
        let layer = self.layer(with: animation)
        #expect(abs(x(layer, 0.125) - 1.5625) < 1e-9)
        #expect(abs(x(layer, 0.25) - 5) < 1e-9)
    }

    @Test func continuityMinusOneMakesCorners() {
        // Continuity -1 at every value: each tangent is its segment's chord, so the spline is the straight line.
        let animation = frames("position.x", [0.0, 10.0, 0.0], mode: .cubic)
        animation.continuityValues = [-1, -1, -1]
        let layer = self.layer(with: animation)
        #expect(abs(x(layer, 0.125) - 2.5) < 1e-9)
        #expect(abs(x(layer, 0.875) - 2.5) < 1e-9)
    }

    @Test func biasLeansTheTangentToTheIncomingChord() {
        // Values 0, 4, 6, 6 (key times 0, 1/3, 2/3, 1); bias 1 at the value 4. Segment 4 -> 6 at s = 0.5: the
        // tangent leaving 4 is (4 - 0) = 4, the one arriving at 6 is (6 - 4) / 2 + (6 - 6) / 2 = 1; Hermite at
        // s = 0.5: 0.5 x 4 + 0.125 x 4 + 0.5 x 6 - 0.125 x 1 = 5.375 (Catmull-Rom would give 5.25).
        let animation = frames("position.x", [0.0, 4.0, 6.0, 6.0], mode: .cubic)
        animation.biasValues = [0, 1]
        let layer = self.layer(with: animation)
        #expect(abs(x(layer, 0.5) - 5.375) < 1e-9)
        animation.biasValues = nil
        let plain = self.layer(with: animation)
        // Catmull-Rom: (-0 + 9 x 4 + 9 x 6 - 6) / 16.
        #expect(abs(x(plain, 0.5) - 5.25) < 1e-9)
    }

    @Test func missingAndExtraEntriesCountAsZeroAndAreIgnored() {
        // Tension 1 only at the first value (the list is short: the others have 0): the tangent leaving 0 is 0,
        // the one arriving at 10 is (10 - 0) / 2 + (0 - 10) / 2 = 0, so at s = 0.5 the value is 10 h01 = 5
        // (Catmull-Rom: 5 + h10 x 5 = 5.625). A fourth entry (one more than the values) changes nothing.
        let animation = frames("position.x", [0.0, 10.0, 0.0], mode: .cubic)
        animation.tensionValues = [1]
        #expect(abs(x(layer(with: animation), 0.25) - 5) < 1e-9)
        animation.tensionValues = [1, 0, 0, 7]
        #expect(abs(x(layer(with: animation), 0.25) - 5) < 1e-9)
        animation.tensionValues = [NSNumber(value: Double.nan)]  // not finite: 0
        #expect(abs(x(layer(with: animation), 0.25) - 5.625) < 1e-9)
    }

    @Test func coloursFollowTheSplineToo() throws {
        // Red 0, 1, 0: the first segment with its end doubled at s = 0.5: (9 x 1) / 16.
        let black = Color(red: 0, green: 0, blue: 0), red = Color(red: 1, green: 0, blue: 0)
        let animation = frames("backgroundColor", [black, red, black], mode: .cubic)
        let layer = self.layer(with: animation)
        let color = try #require(layer.presentationSnapshot(at: 0.25)?.backgroundColor)
        #expect(abs(color.red - 0.5625) < 1e-6)
        // Continuity -1: straight, half way.
        animation.continuityValues = [-1, -1, -1]
        let straight = try #require(self.layer(with: animation).presentationSnapshot(at: 0.25)?.backgroundColor)
        #expect(abs(straight.red - 0.5) < 1e-6)
    }

    @Test func cubicPacedKeepsConstantSpeedAlongTheSpline() {
        // 0, 10, 40 on one axis: the spline is monotone (0 -> 10 is 5 s^3 + 5 s), so the distance between two
        // samples is exactly the way travelled. cubic mode's speed changes along it, cubicPaced's does not.
        func steps(_ mode: KeyframeAnimation.CalculationMode) -> [Double] {
            let animation = frames("position.x", [0.0, 10.0, 40.0], mode: mode)
            let layer = self.layer(with: animation)
            let samples = (0...200).map { x(layer, Double($0) / 200) }
            return zip(samples, samples.dropFirst()).map { a, b in abs(b - a) }
        }
        let paced = steps(.cubicPaced)
        #expect(paced.allSatisfy { abs($0 - 0.2) < 2e-4 }, "\(paced.min()!) ... \(paced.max()!)")  // 40 in 200 steps
        let cubic = steps(.cubic)
        #expect(cubic.max()! / cubic.min()! > 3)
        // A bent run of points: the ends are the first and last values, and half the time is half the way.
        let points: [Any] = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 130, y: 20), CGPoint(x: 330, y: 120)]
        let layer = self.layer(with: frames("position", points, mode: .cubicPaced))
        #expect(near(position(layer, 0), 0, 0) && near(position(layer, 1), 330, 120))
        let samples = (0...400).map { position(layer, Double($0) / 400) }
        let travelled = zip(samples, samples.dropFirst()).map { a, b in Double(hypot(b.x - a.x, b.y - a.y)) }
        let half = travelled[..<200].reduce(0, +), all = travelled.reduce(0, +)
        #expect(abs(half / all - 0.5) < 2e-3)
    }

    @Test func pacedKeepsConstantSpeedOverTheValues() {
        let animation = frames("position", [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 40), CGPoint(x: 30, y: 90)],
                               mode: .paced)
        animation.keyTimes = [0, 0.9, 1]  // ignored
        let layer = self.layer(with: animation)
        // 100 in all: 50 at half time, 25 at a quarter (on the first leg of 50, direction (0.6, 0.8)).
        #expect(near(position(layer, 0.25), 15, 20))
        #expect(near(position(layer, 0.5), 30, 40))
        #expect(near(position(layer, 0.75), 30, 65))
    }

    // MARK: Paths

    /// 100 along x, then 300 down: three keyframes, (0, 0), (100, 0), (100, 300).
    var corner: CGPath {
        var path = Path()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 300))
        return path.cgPath
    }

    func along(_ path: CGPath, mode: KeyframeAnimation.CalculationMode, keyTimes: [NSNumber]? = nil,
               rotation: KeyframeAnimation.RotationMode? = nil) -> Layer {
        let animation = KeyframeAnimation(keyPath: "position")
        animation.path = path
        animation.calculationMode = mode
        animation.keyTimes = keyTimes
        animation.rotationMode = rotation
        animation.duration = 1
        holdEnd(animation)
        return layer(with: animation)
    }

    @Test func linearAndCubicReachEachKeyframeAtItsKeyTime() {
        for mode in [KeyframeAnimation.CalculationMode.linear, .cubic] {
            // Without key times the three keyframes are evenly spaced: the corner at half time.
            let even = along(corner, mode: mode)
            #expect(near(position(even, 0.25), 50, 0))
            #expect(near(position(even, 0.5), 100, 0))
            #expect(near(position(even, 0.75), 100, 150))
            #expect(near(position(even, 1), 100, 300))
            // Key times 0, 0.2, 1: the corner at 0.2.
            let timed = along(corner, mode: mode, keyTimes: [0, 0.2, 1])
            #expect(near(position(timed, 0.1), 50, 0))
            #expect(near(position(timed, 0.6), 100, 150))
            // Key times of another count than the keyframes are ignored: evenly spaced.
            let wrong = along(corner, mode: mode, keyTimes: [0, 1])
            #expect(near(position(wrong, 0.25), 50, 0))
        }
    }

    @Test func timingFunctionsEaseEachPathSegment() {
        let animation = KeyframeAnimation(keyPath: "position")
        animation.path = corner
        animation.duration = 1
        let easeIn = MediaTimingFunction(name: .easeIn)
        animation.timingFunctions = [easeIn, MediaTimingFunction(name: .linear)]
        let layer = self.layer(with: animation)
        #expect(near(position(layer, 0.25), 100 * easeIn.evaluate(0.5), 0))
        #expect(near(position(layer, 0.75), 100, 150))
    }

    @Test func discreteHoldsEachKeyframe() {
        // Three keyframes, no key times: each held a third.
        let even = along(corner, mode: .discrete)
        #expect(near(position(even, 0.2), 0, 0))
        #expect(near(position(even, 0.5), 100, 0))
        #expect(near(position(even, 0.9), 100, 300))
        // One key time per keyframe: the last from 0.9 on.
        let timed = along(corner, mode: .discrete, keyTimes: [0, 0.5, 0.9])
        #expect(near(position(timed, 0.45), 0, 0))
        #expect(near(position(timed, 0.6), 100, 0))
        #expect(near(position(timed, 0.95), 100, 300))
    }

    @Test func pacedModesMoveAtConstantSpeedOverThePath() {
        for mode in [KeyframeAnimation.CalculationMode.paced, .cubicPaced] {
            let layer = along(corner, mode: mode, keyTimes: [0, 0.9, 1])  // key times ignored
            // 400 in all: 100 at a quarter (the corner), 200 at half time.
            #expect(near(position(layer, 0.125), 50, 0))
            #expect(near(position(layer, 0.25), 100, 0))
            #expect(near(position(layer, 0.5), 100, 100))
            #expect(near(position(layer, 1), 100, 300))
        }
    }

    @Test func aMoveInsideThePathIsNoKeyframe() {
        // (0, 0) -> (100, 0), then a jump to (0, 50) -> (100, 50): keyframes (0, 0), (100, 0), (100, 50).
        var path = Path()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.move(to: CGPoint(x: 0, y: 50))
        path.addLine(to: CGPoint(x: 100, y: 50))
        #expect(PathMeasure(path).vertices.map(\.point) == [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0),
                                                            CGPoint(x: 100, y: 50)])
        let layer = along(path.cgPath, mode: .linear)
        #expect(near(position(layer, 0.5), 100, 0))  // the keyframe itself; the jump comes after it
        #expect(near(position(layer, 0.75), 50, 50))
    }

    @Test func theKeyframesOfCompositeElements() {
        let rect = PathMeasure(Path(rect: CGRect(x: 0, y: 0, width: 100, height: 50)))
        #expect(rect.vertices.map(\.point) == [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 50),
                                               CGPoint(x: 0, y: 50), CGPoint(x: 0, y: 0)])
        #expect(rect.vertices.map(\.distance) == [0, 100, 150, 250, 300])
        // A rect's sides at even times: a quarter each.
        let layer = along(Path(rect: CGRect(x: 0, y: 0, width: 100, height: 50)).cgPath, mode: .linear)
        #expect(near(position(layer, 0.125), 50, 0))
        #expect(near(position(layer, 0.375), 100, 25))
        #expect(near(position(layer, 0.625), 50, 50))
        #expect(near(position(layer, 0.875), 0, 25))
        // An ellipse: its start and its end (the closing line has no length).
        let ellipse = PathMeasure(Path(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 50)))
        #expect(ellipse.vertices.count == 2)
        // A rounded rect: the start on the top edge, each corner's end and each straight side's end.
        let rounded = PathMeasure(Path(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), cornerRadius: 10))
        let expected: [(Double, Double)] = [(90, 0), (100, 10), (100, 40), (90, 50), (10, 50), (0, 40), (0, 10),
                                            (10, 0), (90, 0)]
        #expect(rounded.vertices.count == expected.count)
        for (vertex, (x, y)) in zip(rounded.vertices, expected) { #expect(near(vertex.point, x, y, 1e-9)) }
        // An arc after a point: its joining line and its turn.
        var arc = Path()
        arc.move(to: CGPoint(x: 0, y: 0))
        arc.addArc(center: CGPoint(x: 50, y: 0), radius: 10, startAngle: 0, endAngle: .pi, clockwise: false)
        #expect(PathMeasure(arc).vertices.count == 3)
    }

    @Test func rotationFollowsTheMotionInEveryMode() throws {
        // Heading along +x on the first side, down (+y, a quarter turn clockwise on screen) on the second.
        func turn(_ layer: Layer, _ t: Double) throws -> (cos: Double, sin: Double) {
            let transform = try #require(layer.presentationSnapshot(at: t)).transform
            return (Double(transform.m11), Double(transform.m12))
        }
        let auto = along(corner, mode: .linear, rotation: .rotateAuto)
        var (c, s) = try turn(auto, 0.25)
        #expect(abs(c - 1) < 1e-6 && abs(s) < 1e-6)
        (c, s) = try turn(auto, 0.75)
        #expect(abs(c) < 1e-6 && abs(s - 1) < 1e-6)
        let reverse = along(corner, mode: .paced, rotation: .rotateAutoReverse)
        (c, s) = try turn(reverse, 0.125)
        #expect(abs(c + 1) < 1e-6 && abs(s) < 1e-6)  // half a turn more
        (c, s) = try turn(reverse, 0.5)
        #expect(abs(c) < 1e-6 && abs(s + 1) < 1e-6)  // down, plus half a turn: up
        // Discrete: the direction in which the path reaches the keyframe shown (the first: leaves it).
        let discrete = along(corner, mode: .discrete, rotation: .rotateAuto)
        (c, s) = try turn(discrete, 0.1)
        #expect(abs(c - 1) < 1e-6 && abs(s) < 1e-6)
        (c, s) = try turn(discrete, 0.5)
        #expect(abs(c - 1) < 1e-6 && abs(s) < 1e-6)
        (c, s) = try turn(discrete, 0.9)
        #expect(abs(c) < 1e-6 && abs(s - 1) < 1e-6)
    }

    // MARK: Value functions

    @Test func valueFunctionsOnKeyframes() throws {
        // rotateZ from 0 to 4 pi: a quarter of the way is half a turn (matrices could not say so).
        let spin = frames("transform", [0.0, 4 * Double.pi], mode: .linear)
        spin.valueFunction = ValueFunction(name: .rotateZ)
        let spun = try #require(layer(with: spin).presentationSnapshot(at: 0.25)).transform
        #expect(abs(spun.m11 + 1) < 1e-9 && abs(spun.m12) < 1e-9)
        // scale takes three numbers; one number is all three.
        let grow = frames("transform", [[1.0, 1.0, 1.0], [3.0, 5.0, 1.0], 2.0], mode: .linear)
        grow.valueFunction = ValueFunction(name: .scale)
        let grown = try #require(layer(with: grow).presentationSnapshot(at: 0.25)).transform
        #expect(abs(grown.m11 - 2) < 1e-9 && abs(grown.m22 - 3) < 1e-9 && abs(grown.m33 - 1) < 1e-9)
        let back = try #require(layer(with: grow).presentationSnapshot(at: 1)).transform
        #expect(abs(back.m11 - 2) < 1e-9 && abs(back.m22 - 2) < 1e-9 && abs(back.m33 - 2) < 1e-9)
        // translateX in cubic mode with continuity -1: straight.
        let slide = frames("transform", [0.0, 10.0, 0.0], mode: .cubic)
        slide.valueFunction = ValueFunction(name: .translateX)
        slide.continuityValues = [-1, -1, -1]
        let slid = try #require(layer(with: slide).presentationSnapshot(at: 0.125)).transform
        #expect(abs(slid.m41 - 2.5) < 1e-9)
        // A value of the wrong shape makes the animation do nothing.
        let wrong = frames("transform", [0.0, [1.0, 2.0]], mode: .linear)
        wrong.valueFunction = ValueFunction(name: .rotateZ)
        #expect(try #require(layer(with: wrong).presentationSnapshot(at: 0.5)).transform == .identity)
    }

    @Test func aSpringMovesAValueFunctionsNumbers() throws {
        let spring = SpringAnimation(keyPath: "transform")
        spring.valueFunction = ValueFunction(name: .translateY)
        spring.fromValue = 0.0
        spring.toValue = 100.0
        spring.duration = 5
        let solution = SpringSolution(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)
        let moved = try #require(layer(with: spring).presentationSnapshot(at: 0.3)).transform
        #expect(abs(moved.m42 - 100 * (1 - solution.displacement(at: 0.3))) < 1e-9)
    }

    @Test func copiesCarryEveryKey() throws {
        let animation = frames("transform", [0.0, 1.0], mode: .cubicPaced)
        animation.tensionValues = [0.5]
        animation.continuityValues = [0.25, -0.25]
        animation.biasValues = [1]
        animation.valueFunction = ValueFunction(name: .rotateY)
        animation.rotationMode = .rotateAutoReverse
        animation.keyTimes = [0, 1]
        animation.timingFunctions = [MediaTimingFunction(name: .easeOut)]
        let copy = try #require(animation.copy() as? KeyframeAnimation)
        #expect(copy.tensionValues == [0.5] && copy.continuityValues == [0.25, -0.25] && copy.biasValues == [1])
        #expect(copy.valueFunction == ValueFunction(name: .rotateY) && copy.rotationMode == .rotateAutoReverse)
        #expect(copy.calculationMode == .cubicPaced && copy.keyTimes == [0, 1])
        #expect(copy.timingFunctions == [MediaTimingFunction(name: .easeOut)])
        // Groups copy their animations with them.
        let group = AnimationGroup()
        group.animations = [animation]
        let grouped = try #require((group.copy() as? AnimationGroup)?.animations?.first as? KeyframeAnimation)
        #expect(grouped.biasValues == [1] && grouped.valueFunction == ValueFunction(name: .rotateY))
    }
}
