import Foundation
import Lamina
import Testing

@testable import LaminaScene

/// The keyframe keys of the cubic modes (`tensionValues`, `continuityValues`, `biasValues`), `valueFunction`
/// and paths' key times in scene files: read into the animation, and every problem named with its path and line.
@Suite struct KeyframeSceneTests {
    private func animation(_ json: String) throws -> Animation {
        let layer = try loadLayer(sceneWithLayer(#""animations": [\#(json)]"#))
        let key = try #require(layer.animationKeys()?.first)
        return try #require(layer.animation(forKey: key))
    }

    private func only(_ animation: String) -> [String] {
        problems(#"{"size": [10, 10], "layers": [{"animations": [\#(animation)]}]}"#)
    }

    @Test func splineParametersAreRead() throws {
        let frames = try #require(try animation(#"""
            {"type": "keyframe", "keyPath": "position.x", "values": [0, 10, 0], "calculationMode": "cubic",
             "tensionValues": [0.5, 1], "continuityValues": [-1, 0, 1], "biasValues": [0.25]}
            """#) as? KeyframeAnimation)
        #expect(frames.tensionValues == [0.5, 1])
        #expect(frames.continuityValues == [-1, 0, 1])
        #expect(frames.biasValues == [0.25])
        // cubicPaced takes them too; without `type` they say "keyframe".
        let paced = try #require(try animation(#"""
            {"keyPath": "opacity", "values": [0, 1], "calculationMode": "cubicPaced", "biasValues": [1, -1]}
            """#) as? KeyframeAnimation)
        #expect(paced.biasValues == [1, -1])
    }

    @Test func valueFunctionsTakeRadiansAndNumbers() throws {
        let spin = try #require(try animation(#"""
            {"type": "keyframe", "keyPath": "transform", "valueFunction": "rotateZ", "values": [0, 1.5707963267948966, 12.566370614359172]}
            """#) as? KeyframeAnimation)
        #expect(spin.valueFunction == ValueFunction(name: .rotateZ))
        let angles = try #require(spin.values as? [Double])
        #expect(zip(angles, [0, Double.pi / 2, 4 * Double.pi]).allSatisfy { abs($0 - $1) < 1e-12 })
        let grow = try #require(try animation(#"""
            {"type": "basic", "keyPath": "transform", "valueFunction": "scale", "fromValue": 1, "toValue": [2, 3, 1]}
            """#) as? BasicAnimation)
        #expect(grow.valueFunction == ValueFunction(name: .scale))
        #expect(grow.fromValue as? Double == 1 && grow.toValue as? [Double] == [2, 3, 1])
        let slide = try #require(try animation(#"""
            {"type": "spring", "keyPath": "sublayerTransform", "valueFunction": "translateX", "toValue": 40}
            """#) as? SpringAnimation)
        #expect(slide.valueFunction == ValueFunction(name: .translateX) && slide.toValue as? Double == 40)
        // Inside a group too.
        let group = try #require(try animation(#"""
            {"type": "group", "animations": [{"keyPath": "transform", "valueFunction": "translate",
              "values": [0, [10, 20, 0]]}]}
            """#) as? AnimationGroup)
        let inner = try #require(group.animations?.first as? KeyframeAnimation)
        #expect(inner.valueFunction == ValueFunction(name: .translate))
    }

    @Test func aValueFunctionTurnsTheLayer() throws {
        // rotateZ 0 -> 4π radians in 1 s: at 0.125 s, π/2 (a quarter turn clockwise on screen).
        let layer = try loadLayer(sceneWithLayer(#"""
            "bounds": [0, 0, 10, 10], "animations": [{"type": "keyframe", "keyPath": "transform",
              "valueFunction": "rotateZ", "values": [0, 12.566370614359172], "duration": 1}]
            """#))
        let transform = try #require(layer.presentationSnapshot(at: 0.125)).transform
        #expect(abs(transform.m11) < 1e-9 && abs(transform.m12 - 1) < 1e-9)
        let later = try #require(layer.presentationSnapshot(at: 0.375)).transform
        #expect(abs(later.m11) < 1e-9 && abs(later.m12 + 1) < 1e-9)  // 3π/2
    }

    @Test func pathKeyTimesGoByTheKeyframesOfThePath() throws {
        // Three keyframes: the first point and two line ends.
        let frames = try #require(try animation(#"""
            {"type": "keyframe", "keyPath": "position", "path": [{"moveTo": [0, 0]}, {"lineTo": [10, 0]},
              {"lineTo": [10, 10]}], "keyTimes": [0, 0.25, 1], "timingFunctions": ["easeIn", "linear"]}
            """#) as? KeyframeAnimation)
        #expect(frames.keyTimes == [0, 0.25, 1] && frames.timingFunctions?.count == 2)
        #expect(only(#"{"type": "keyframe", "keyPath": "position", "path": [{"moveTo": [0, 0]}, "#
                     + #"{"lineTo": [10, 0]}, {"lineTo": [10, 10]}], "keyTimes": [0, 1], "timingFunctions": []}"#) == [
            #"scene.json:1:176: layers[0].animations[0].keyTimes: expected 3 key times (one per keyframe of the path: "#
                + #"its first point and each line's and curve's end), got 2"#,
            #"scene.json:1:203: layers[0].animations[0].timingFunctions: expected 2 timing functions (one per "#
                + #"segment between keyframes of the path), got 0"#,
        ])
        // A wrong calculationMode is reported once, not again by the keys of the mode it meant.
        #expect(only(#"{"keyPath": "opacity", "values": [0, 1], "calculationMode": "cubik", "tensionValues": [1]}"#)
                == [#"scene.json:1:107: layers[0].animations[0].calculationMode: unknown calculation mode "cubik" "#
                    + #"(did you mean "cubic"?)"#])
        // Discrete: one more is fine.
        #expect(only(#"{"type": "keyframe", "keyPath": "position", "calculationMode": "discrete", "path": "#
                     + #"[{"rect": [0, 0, 10, 10]}], "keyTimes": [0, 0.2, 0.4, 0.6, 0.8, 1]}"#)
                == ["(the scene loaded without problems)"])
    }

    @Test func everyProblemIsNamedWithItsPath() {
        let json = #"""
            {"size": [10, 10], "layers": [{"animations": [
              {"keyPath": "transform", "valueFunction": "rotatZ", "values": [0, 1]},
              {"keyPath": "opacity", "valueFunction": "rotateZ", "values": [0, 1]},
              {"keyPath": "transform", "valueFunction": "rotateZ", "values": [0, [1, 2, 3]]},
              {"keyPath": "transform", "valueFunction": "scale", "fromValue": [1, 2], "toValue": "big"},
              {"keyPath": "transform", "valueFunction": 3, "toValue": 1},
              {"keyPath": "opacity", "values": [0, 1], "tensionValues": [1]},
              {"keyPath": "opacity", "values": [0, 1], "calculationMode": "cubic", "tensionValues": [1, 2, 3]},
              {"keyPath": "opacity", "values": [0, 1], "calculationMode": "cubic", "biasValues": [1, "x"]},
              {"keyPath": "opacity", "values": [0, 1], "calculationMode": "cubic", "continuityValues": 1},
              {"keyPath": "position", "path": [{"moveTo": [0, 0]}, {"lineTo": [1, 1]}], "calculationMode": "cubic", "tensionValues": [1]},
              {"type": "basic", "keyPath": "opacity", "toValue": 1, "tensionValues": [1]}
            ]}]}
            """#
        let expected = [
            #"scene.json:2:45: layers[0].animations[0].valueFunction: unknown value function "rotatZ" (did you mean "rotateZ"?)"#,
            #"scene.json:3:26: layers[0].animations[1].valueFunction: a value function makes a transform: the keyPath must be "transform", "sublayerTransform" or "instanceTransform", not "opacity""#,
            #"scene.json:4:70: layers[0].animations[2].values[1]: expected a number of radians (rotateZ turns by it), got an array"#,
            #"scene.json:5:67: layers[0].animations[3].fromValue: expected 3 numbers [x, y, z], got 2"#,
            #"scene.json:5:86: layers[0].animations[3].toValue: expected [x, y, z] or one number for all three (scale takes three), got a string"#,
            #"scene.json:6:45: layers[0].animations[4].valueFunction: expected a string, got a number"#,
            #"scene.json:7:44: layers[0].animations[5].tensionValues: only used by the cubic calculation modes ("cubic", "cubicPaced"); calculationMode is "linear""#,
            #"scene.json:8:89: layers[0].animations[6].tensionValues: expected at most 2 numbers (one per value), got 3"#,
            #"scene.json:9:90: layers[0].animations[7].biasValues[1]: expected a number, got a string"#,
            #"scene.json:10:92: layers[0].animations[8].continuityValues: expected an array of numbers (one per value), got a number"#,
            #"scene.json:11:105: layers[0].animations[9].tensionValues: a path follows its own curves: tensionValues shape the spline through "values""#,
            #"scene.json:12:57: layers[0].animations[10].tensionValues: not a key of a basic animation (it belongs to "keyframe" animations)"#,
        ]
        let found = problems(json)
        #expect(found.count == expected.count, "\(found.joined(separator: "\n"))")
        for (a, b) in zip(found, expected) { #expect(a == b) }
    }
}
