import Foundation
import LaminaCore
import Testing

@testable import LaminaLayers

/// The keys most animations run on (position, anchorPoint, transform, opacity, bounds, zPosition, and their parts)
/// read and write their fields directly, not through a key path (AnimatableProperty.swift): each must read and
/// write the field its key names, of its kind, and leave every other field as it was.
@Suite struct AnimatablePropertyTests {
    static func state() -> LayerState {
        var state = LayerState()
        state.position = CGPoint(x: 3, y: 4)
        state.anchorPoint = CGPoint(x: 0.25, y: 0.75)
        state.transform = Transform3D(rotationAngle: 0.5).concatenating(Transform3D(scaleX: 2, y: 2))
        state.opacity = 0.5
        state.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        state.zPosition = 7
        state.backgroundColor = .red
        return state
    }

    @Test func directKeysReadTheirFields() throws {
        let state = Self.state()
        func read(_ key: String) throws -> AnimatedValue {
            try #require(AnimatableProperty.named(key), "\(key)").get(state)
        }
        #expect(try read("position").point == CGPoint(x: 3, y: 4))
        #expect(try read("position.x").number == 3 && read("position.y").number == 4)
        #expect(try read("anchorPoint").point == CGPoint(x: 0.25, y: 0.75))
        #expect(try read("opacity").number == 0.5)
        #expect(try read("zPosition").number == 7)
        #expect(try read("bounds.size.width").number == 30 && read("bounds.origin.y").number == 2)
        #expect(try abs(read("transform.rotation.z").number - 0.5) < 1e-12)
        if case .transform(let t) = try read("transform") { #expect(t == state.transform) } else { Issue.record() }
    }

    @Test func directKeysWriteTheirFieldsOnly() throws {
        let cases: [(String, AnimatedValue, (LayerState) -> Bool)] = [
            ("position", .point(CGPoint(x: 9, y: 8)), { $0.position == CGPoint(x: 9, y: 8) }),
            ("position.y", .number(11), { $0.position == CGPoint(x: 3, y: 11) }),
            ("anchorPoint.x", .number(1), { $0.anchorPoint == CGPoint(x: 1, y: 0.75) }),
            ("opacity", .number(0.125), { $0.opacity == 0.125 }),
            ("zPosition", .number(-2), { $0.zPosition == -2 }),
            ("bounds.size", .size(CGSize(width: 5, height: 6)), {
                $0.bounds == CGRect(x: 1, y: 2, width: 5, height: 6)
            }),
            ("transform", .transform(.identity), { $0.transform == .identity }),
            ("transform.translation.x", .number(12), { $0.transform.m41 == 12 }),
        ]
        for (key, value, check) in cases {
            var state = Self.state()
            let property = try #require(AnimatableProperty.named(key), "\(key)")
            property.set(&state, value)
            #expect(check(state), "\(key)")
            // Everything else as it was.
            var others = Self.state()
            let root = String(key.split(separator: ".")[0])
            switch root {
            case "position": others.position = state.position
            case "anchorPoint": others.anchorPoint = state.anchorPoint
            case "opacity": others.opacity = state.opacity
            case "zPosition": others.zPosition = state.zPosition
            case "bounds": others.bounds = state.bounds
            default: others.transform = state.transform
            }
            #expect("\(others)" == "\(state)", "\(key) changed another field")
            // A whole value of another kind is ignored, as Core Animation ignores it.
            guard !key.contains(".") else { continue }
            var untouched = Self.state()
            property.set(&untouched, .flag(true))
            #expect("\(untouched)" == "\(Self.state())", "\(key) took a flag")
        }
    }

    /// Node values (`NodePlacement`, what animated node values evaluate into) hold exactly the keys that move, turn
    /// and fade a layer, and read and write each as a state does.
    @Test func nodeValuesHoldThePlacementKeysAsAStateDoes() throws {
        var state = Self.state()
        state.anchorPointZ = 3
        let keys = AnimatableProperty.valueKinds.keys.sorted().filter { AnimatableProperty.named($0)!.isNodeValue }
        #expect(Set(keys.map { String($0.split(separator: ".")[0]) })
            == ["position", "anchorPoint", "anchorPointZ", "transform", "opacity"])
        #expect(keys.contains("transform.rotation.z") && keys.contains("position.y") && !keys.contains("zPosition"))
        for key in keys {
            let property = try #require(AnimatableProperty.named(key))
            let placement = NodePlacement(state)
            let read = try #require(property.get(placement), "\(key)")
            #expect("\(read)" == "\(property.get(state))", "\(key)")
            // A new value written both ways leaves the same node values.
            let value: AnimatedValue
            if case .vector(let v, let n) = read {
                value = .vector(v * 2 + SIMD4(0.75, 0.5, 0.25, 0.125), count: n)
            } else {
                value = .transform(Transform3D(rotationAngle: 0.25))
            }
            var written = state, node = placement
            property.set(&written, value)
            property.set(&node, value)
            #expect(NodePlacement(written) == node, "\(key)")
            #expect(node != placement, "\(key) wrote nothing")
        }
    }

    /// Every kind of animation animated node values follow gives, applied to node values, the node values of the
    /// presented state it gives, at every time, stacked in order (an additive one over the one below).
    @Test func animationsGiveNodeValuesAsTheyGiveStates() throws {
        var state = Self.state()
        state.anchorPointZ = 3
        let move = BasicAnimation(keyPath: "position")
        move.fromValue = CGPoint(x: 10, y: 20)
        move.toValue = CGPoint(x: 110, y: -20)
        move.timingFunction = MediaTimingFunction(name: .easeInEaseOut)
        let nudge = BasicAnimation(keyPath: "position.x")
        nudge.byValue = 5.0
        nudge.isAdditive = true
        nudge.isCumulative = true
        nudge.repeatCount = 3
        let fade = KeyframeAnimation(keyPath: "opacity")
        fade.values = [1.0, 0.3, 0.8, 1.0]
        fade.keyTimes = [0, 0.3, 0.7, 1]
        let turn = BasicAnimation(keyPath: "transform.rotation.z")
        turn.toValue = 2 * Double.pi
        let spring = SpringAnimation(keyPath: "position.y")
        spring.byValue = 40.0
        let transform = BasicAnimation(keyPath: "transform")
        transform.fromValue = Transform3D(scaleX: 2, y: 0.5, z: 1)
        transform.toValue = Transform3D(rotationAngle: 1).concatenating(Transform3D(translationX: 4, y: 5))
        let function = BasicAnimation(keyPath: "transform")
        function.valueFunction = ValueFunction(name: .rotateZ)
        function.fromValue = 0.0
        function.toValue = 3.0
        let along = KeyframeAnimation(keyPath: "position")
        along.path = AnimationTests.elbow
        along.rotationMode = .rotateAutoReverse
        let depth = BasicAnimation(keyPath: "anchorPointZ")
        depth.toValue = -8.0
        let anchor = BasicAnimation(keyPath: "anchorPoint")
        anchor.fromValue = CGPoint(x: 0, y: 1)
        let group = AnimationGroup()
        group.animations = [anchor, depth]
        group.duration = 2
        let stacks: [[Animation]] = [[move], [move, nudge], [fade], [turn, spring], [transform], [function],
                                     [along], [group], [along, turn, nudge, fade]]
        for (number, stack) in stacks.enumerated() {
            let copies = stack.map { animation -> Animation in
                let copy = animation.copy()
                if copy.duration == 0 { copy.duration = 1.5 }
                copy.prepareForAttaching()
                return copy
            }
            for step in 0..<24 {
                let time = -0.25 + Double(step) * 0.2
                var presented = PresentedState(state)
                var node = NodePlacement(state)
                for copy in copies {
                    let applied = copy.apply(to: &presented, model: state, time: time)
                    #expect(copy.apply(to: &node, model: NodePlacement(state), time: time) == applied,
                            "stack \(number) at \(time)")
                }
                #expect(NodePlacement(presented.state) == node, "stack \(number) at \(time)")
            }
        }
    }
}
