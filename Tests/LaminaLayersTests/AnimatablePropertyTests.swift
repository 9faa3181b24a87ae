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
}
