import Foundation
import LaminaCore
import Testing

@testable import LaminaLayers

/// Animations resolved for an animated node (NodeTrack.swift) give, at every time, the node values the animation's
/// own evaluation gives, bit for bit; those that cannot be resolved apply themselves.
@Suite struct NodeTrackTests {
    /// The committed values of the node the animations run on.
    static let model: NodePlacement = {
        var state = LayerState()
        state.position = CGPoint(x: 37.25, y: -12.5)
        state.anchorPoint = CGPoint(x: 0.3, y: 0.7)
        state.anchorPointZ = 2
        state.transform = Transform3D(rotationAngle: 0.4).concatenating(Transform3D(scaleX: 1.5, y: 0.75, z: 1))
        state.opacity = 0.6
        return NodePlacement(state)
    }()

    /// The layer's attached copy of `animation` (converted and prepared, as frames see it).
    func attached(_ animation: Animation) -> Animation {
        animation.beginTime = 0.25
        animation.duration = animation.duration == 0 ? 1.5 : animation.duration
        let layer = Layer()
        layer.attach(animation, forKey: "track", keepingBeginTime: true)
        return layer.animation(forKey: "track")!
    }

    func bits(_ p: NodePlacement) -> [UInt64] {
        let t = p.transform
        return [p.position.x, p.position.y, p.anchorPoint.x, p.anchorPoint.y, p.anchorPointZ, t.m11, t.m12, t.m13,
                t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
            .map { Double($0).bitPattern } + [UInt64(p.opacity.bitPattern)]
    }

    /// Checks `animation`'s track against its own evaluation at times before, through and after it; returns whether
    /// it was resolved (not `general`).
    @discardableResult
    func expectSameValues(_ animation: Animation, _ name: String) -> Bool {
        let copy = attached(animation)
        var lists = NodeTrackLists()
        let track = NodeTrack(copy, model: Self.model, lists: &lists)
        if case .general = track.curve { return false }
        lists.withBuffers { buffers in
            for step in -10...60 {
                let time = Double(step) * 0.0731
                var expected = Self.model, resolved = Self.model
                _ = copy.apply(to: &expected, model: Self.model, time: time)
                track.apply(to: &resolved, time: time, lists: buffers)
                #expect(bits(resolved) == bits(expected), "\(name) at \(time)")
            }
        }
        return true
    }

    @Test func basicAnimationsAndSpringsOfNumbersAndPointsResolve() {
        let ease = MediaTimingFunction(name: .easeInEaseOut)
        var cases: [(String, Animation)] = []
        func basic(_ key: String, from: Any? = nil, to: Any? = nil, by: Any? = nil,
                   function: MediaTimingFunction? = nil, repeats: Float = 0, reverses: Bool = false) -> BasicAnimation {
            let animation = BasicAnimation(keyPath: key)
            (animation.fromValue, animation.toValue, animation.byValue) = (from, to, by)
            animation.timingFunction = function
            animation.repeatCount = repeats
            animation.autoreverses = reverses
            return animation
        }
        cases.append(("position to", basic("position", to: CGPoint(x: 16, y: 9), function: ease)))
        cases.append(("position from-to", basic("position", from: CGPoint(x: -3, y: 4), to: CGPoint(x: 0.1, y: 9))))
        cases.append(("position by", basic("position", by: CGPoint(x: 40, y: -0.3), repeats: 2.5, reverses: true)))
        cases.append(("position.y from-by", basic("position.y", from: 3.0, by: 7.5, function: ease)))
        cases.append(("position.x to-by", basic("position.x", to: 3.0, by: 7.5)))
        cases.append(("opacity from", basic("opacity", from: 0.1, repeats: .infinity)))
        cases.append(("rotation", basic("transform.rotation.z", from: 0.0, to: 2 * Double.pi, repeats: .infinity)))
        cases.append(("scale", basic("transform.scale", to: 3.0, function: ease, reverses: true)))
        cases.append(("translation", basic("transform.translation", to: CGSize(width: 4, height: -9))))
        cases.append(("anchorPoint", basic("anchorPoint", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 1, y: 0.5))))
        cases.append(("anchorPointZ", basic("anchorPointZ", to: 9.0)))
        cases.append(("anchorPoint.y", basic("anchorPoint.y", from: 0.25, to: 1.5, function: ease)))
        cases.append(("anchorPoint.x", basic("anchorPoint.x", by: -0.75)))
        cases.append(("opacity to", basic("opacity", to: 0.123456789, function: ease)))
        let spring = SpringAnimation(keyPath: "position.y")
        spring.byValue = 40.0
        spring.damping = 3
        spring.repeatCount = 3
        spring.autoreverses = true
        cases.append(("spring", spring))
        let springPoint = SpringAnimation(keyPath: "position")
        springPoint.fromValue = CGPoint(x: 1, y: 2)
        springPoint.toValue = CGPoint(x: 30, y: -20)
        springPoint.initialVelocity = 4
        cases.append(("spring point", springPoint))
        // No value given: attached, it runs from the value shown then (`fillPreviousValue`) to the model value.
        cases.append(("no value", BasicAnimation(keyPath: "position")))
        for (name, animation) in cases {
            #expect(expectSameValues(animation, name), "\(name) was not resolved")
        }
    }

    @Test func keyframesOfNumbersAndPointsResolve() {
        var cases: [(String, KeyframeAnimation)] = []
        let fade = KeyframeAnimation(keyPath: "opacity")
        fade.values = [1.0, 0.3, 0.8, 1.0]
        fade.keyTimes = [0, 0.3, 0.7, 1]
        fade.repeatCount = .infinity
        fade.autoreverses = true
        cases.append(("opacity linear", fade))
        let eased = KeyframeAnimation(keyPath: "position")
        eased.values = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 5), CGPoint(x: -4, y: 12)]
        eased.timingFunctions = [MediaTimingFunction(name: .easeIn), MediaTimingFunction(name: .easeOut)]
        eased.timingFunction = MediaTimingFunction(name: .easeInEaseOut)
        cases.append(("position eased segments", eased))
        let paced = KeyframeAnimation(keyPath: "position")
        paced.values = [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 0), CGPoint(x: 30, y: 5)]
        paced.calculationMode = .paced
        paced.timingFunctions = [MediaTimingFunction(name: .easeIn), MediaTimingFunction(name: .easeOut)]
        cases.append(("position paced", paced))
        let discrete = KeyframeAnimation(keyPath: "transform.rotation.z")
        discrete.values = [0.0, 1.0, 2.5]
        discrete.calculationMode = .discrete
        discrete.keyTimes = [0, 0.2, 0.9, 1]
        cases.append(("rotation discrete", discrete))
        let single = KeyframeAnimation(keyPath: "position.x")
        single.values = [12.0]
        cases.append(("one value", single))
        for (name, animation) in cases {
            #expect(expectSameValues(animation, name), "\(name) was not resolved")
        }
    }

    @Test func animationsThatDependOnMoreApplyThemselves() {
        var cases: [(String, Animation)] = []
        let additive = BasicAnimation(keyPath: "position.x")
        additive.toValue = 5.0
        additive.isAdditive = true
        cases.append(("additive", additive))
        let cumulative = BasicAnimation(keyPath: "position.x")
        cumulative.byValue = 5.0
        cumulative.isCumulative = true
        cumulative.repeatCount = 3
        cases.append(("cumulative", cumulative))
        let turn = BasicAnimation(keyPath: "transform")
        turn.toValue = Transform3D(rotationAngle: 1)
        cases.append(("transform", turn))
        let cubic = KeyframeAnimation(keyPath: "position.x")
        cubic.values = [0.0, 4.0, 1.0]
        cubic.calculationMode = .cubic
        cases.append(("cubic keyframes", cubic))
        final class Stepped: BasicAnimation, @unchecked Sendable {
            override func copy() -> Animation {
                let copy = Stepped(keyPath: keyPath)
                copy.copyBasicAnimation(from: self)
                return copy
            }
        }
        let subclass = Stepped(keyPath: "position.x")
        subclass.toValue = 5.0
        cases.append(("subclass", subclass))
        let group = AnimationGroup()
        let member = BasicAnimation(keyPath: "opacity")
        member.toValue = 0.5
        group.animations = [member]
        cases.append(("group", group))
        for (name, animation) in cases {
            #expect(!expectSameValues(animation, name), "\(name) was resolved")
        }
    }
}
