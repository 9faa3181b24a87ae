import Foundation
import Lamina
import Testing

@testable import LaminaScene

/// Animation and timeline keys report every problem at once, each with its line, column and JSON path.
@Suite struct SceneAnimationErrorTests {
    @Test func everyProblemIsNamedWithItsPath() {
        let json = #"""
            {"size": [100, 100], "fps": 0, "duration": -1, "spriteSheets": {"hero": "sheet.plist"},
             "layers": [
              {"name": "a", "speed": "fast", "animations": [
                {"type": "basik", "keyPath": "opacity"},
                {"keyPath": "opacity", "mass": 2, "values": [1]},
                {"type": "basic", "keyPath": "opacty", "toValue": 1},
                {"type": "basic", "toValue": 1},
                {"type": "basic", "keyPath": "opacity"},
                {"type": "basic", "keyPath": "position", "toValue": [1, 2, 3], "duration": -2, "repeatCount": "forever", "fillMode": "forward", "timingFunction": [2, 0, 1, 1]},
                {"type": "basic", "keyPath": "opacity", "toValue": 1, "values": [1]},
                {"type": "keyframe", "keyPath": "opacity", "values": [1, 0], "keyTimes": [0, 0.7, 0.5], "timingFunctions": ["linear", "linear"]},
                {"type": "keyframe", "keyPath": "opacity", "path": [{"moveTo": [0, 0]}], "rotationMode": "auto"},
                {"type": "keyframe", "keyPath": "opacity", "values": []},
                {"type": "keyframe", "keyPath": "contents", "values": ["hero/idle.png", "red-4x4.png"]},
                {"type": "transition", "transitionType": "fade"},
                {"type": "group", "animations": [{"type": "spring", "keyPath": "opacity", "toValue": 1, "mass": 0}]},
                {"type": "basic", "keyPath": "hidden", "byValue": true},
                {"type": "basic", "keyPath": "opacity", "toValue": 1, "colour": 1}
              ]},
              {"name": "b"}, {"name": "b"}
             ],
             "timeline": [
              {"at": -1, "layer": "c", "set": {"opacity": 2}},
              {"at": 1, "layer": "b", "set": {"opacity": 0.5}},
              {"at": 1, "layer": "a", "set": {"sublayers": [], "opacity": 0.5, "backgroundColour": "#ff0000"}, "animationDuration": -1, "opacity": 1},
              {"at": 1, "layer": "a"},
              {"at": 1, "layer": "a", "transition": {"type": "basic", "keyPath": "opacity", "toValue": 1}},
              {"at": 1, "layer": "a", "transition": {"transitionType": "push", "subtype": "fromLeftt"}}
             ]
            }
            """#
        let expected = [
            #"scene.json:1:29: fps: must be a positive number"#,
            #"scene.json:1:44: duration: must not be negative"#,
            #"scene.json:3:26: layers[0].speed: expected a number, got a string"#,
            #"scene.json:4:14: layers[0].animations[0].type: unknown animation type "basik" (did you mean "basic"?)"#,
            #"scene.json:5:5: layers[0].animations[1]: required key "type" is missing (one of "basic", "keyframe", "spring", "group" or "transition")"#,
            #"scene.json:6:34: layers[0].animations[2].keyPath: "opacty" is not an animatable key path (did you mean "opacity"?)"#,
            #"scene.json:7:5: layers[0].animations[3]: required key "keyPath" is missing (the property to animate)"#,
            #"scene.json:8:5: layers[0].animations[4]: needs "fromValue", "toValue" or "byValue""#,
            #"scene.json:9:57: layers[0].animations[5].toValue: expected 2 numbers [x, y], got 3"#,
            #"scene.json:9:80: layers[0].animations[5].duration: must not be negative"#,
            #"scene.json:9:99: layers[0].animations[5].repeatCount: expected a number of repeats or "infinity", got "forever""#,
            #"scene.json:9:122: layers[0].animations[5].fillMode: unknown fill mode "forward" (did you mean "forwards"?)"#,
            #"scene.json:9:151: layers[0].animations[5].timingFunction: the control points' x (c1x and c2x) must be between 0 and 1"#,
            #"scene.json:10:59: layers[0].animations[6].values: not a key of a basic animation (it belongs to "keyframe" animations)"#,
            #"scene.json:11:78: layers[0].animations[7].keyTimes: expected 2 key times (one per value), got 3"#,
            #"scene.json:11:112: layers[0].animations[7].timingFunctions: expected 1 timing function (one per segment between values), got 2"#,
            #"scene.json:12:48: layers[0].animations[8].path: a path moves a point: the keyPath must be a point such as "position", not "opacity""#,
            #"scene.json:13:58: layers[0].animations[9].values: is empty (give at least one value)"#,
            #"scene.json:14:77: layers[0].animations[10].values[1]: an animation of sprite frames takes frames of one sprite sheet (it animates contentsRect over the sheet): no plain images or other sheets"#,
            #"scene.json:15:5: layers[0].animations[11].type: a transition animates a change: give it as a timeline entry's "transition""#,
            #"scene.json:16:101: layers[0].animations[12].animations[0].mass: must be a positive number"#,
            #"scene.json:17:44: layers[0].animations[13].byValue: hidden values cannot be added: give "fromValue" and "toValue""#,
            #"scene.json:18:59: layers[0].animations[14].colour: unknown key"#,
            #"scene.json:23:10: timeline[0].at: must not be negative"#,
            #"scene.json:23:23: timeline[0].layer: no layer is named "c" (did you mean "a"?)"#,
            #"scene.json:23:47: timeline[0].set.opacity: must be between 0 and 1"#,
            #"scene.json:24:22: timeline[1].layer: 2 layers are named "b" (a layer the timeline names must have a name of its own)"#,
            #"scene.json:25:35: timeline[2].set.sublayers: cannot be changed by the timeline (only properties of an existing layer)"#,
            #"scene.json:25:68: timeline[2].set.backgroundColour: unknown key (did you mean "backgroundColor"?)"#,
            #"scene.json:25:121: timeline[2].animationDuration: must not be negative"#,
            #"scene.json:25:125: timeline[2].opacity: unknown key (layer properties go inside "set")"#,
            #"scene.json:26:3: timeline[3]: needs "set" or "transition" (what changes)"#,
            #"scene.json:27:41: timeline[4].transition.type: a timeline's "transition" must have "type": "transition""#,
            #"scene.json:28:79: timeline[5].transition.subtype: unknown transition subtype "fromLeftt" (did you mean "fromLeft"?)"#,
        ]
        let found = problems(json)
        #expect(found.count == expected.count)
        for (a, b) in zip(found, expected) { #expect(a == b) }
    }

    @Test func keyframeRulesAndSpriteFrames() {
        func only(_ animation: String) -> [String] {
            problems(#"{"size": [10, 10], "spriteSheets": {"hero": "sheet.plist"}, "layers": [{"#
                     + #""animations": [\#(animation)]}]}"#)
        }
        #expect(only(#"{"type": "keyframe", "keyPath": "opacity", "values": [1, 0], "keyTimes": [0.5, 0.2]}"#) == [
            #"scene.json:1:167: layers[0].animations[0].keyTimes[1]: key times must not decrease (0.2 after 0.5)"#,
        ])
        #expect(only(#"{"type": "keyframe", "keyPath": "opacity", "values": [1, 0], "keyTimes": [0, 1.5]}"#) == [
            #"scene.json:1:165: layers[0].animations[0].keyTimes[1]: must be between 0 and 1"#,
        ])
        // Discrete keyframes take one key time more than values (where the last one stops).
        #expect(only(#"{"type": "keyframe", "keyPath": "opacity", "values": [1, 0], "keyTimes": [0, 0.5, 1], "#
                     + #""calculationMode": "discrete"}"#) == ["(the scene loaded without problems)"])
        #expect(only(#"{"type": "keyframe", "keyPath": "contents", "values": ["hero/idle.png", "hero/jump.png"]}"#)
            == [#"scene.json:1:160: layers[0].animations[0].values[1]: a rotated sprite frame cannot be animated "#
                + #"(contentsAreRotated is not animatable)"#])
        #expect(only(#"{"type": "basic", "keyPath": "opacity", "toValue": 0, "repeatCount": -1}"#).first?.contains(
            "layers[0].animations[0].repeatCount: must not be negative") == true)
        #expect(only(#"{"type": "basic", "keyPath": "opacity", "toValue": 0, "speed": 1e39}"#).first?.contains(
            "layers[0].animations[0].speed: must fit a 32-bit float") == true)
        #expect(only(#"{"type": "transition", "startProgress": 2}"#).first?.contains(
            "layers[0].animations[0].startProgress: must be between 0 and 1") == true)
        #expect(problems(#"{"size": [10, 10], "spriteSheets": {"hero": "sheet.plist"}, "layers": [{"#
                         + #""contents": "red-4x4.png", "animations": [{"type": "keyframe", "keyPath": "contents", "#
                         + #""values": ["hero/idle.png"]}]}]}"#)
            == [#"scene.json:1:170: layers[0].animations[0].values[0]: the layer's contents must be a frame of the "#
                + #"same sprite sheet, or unset (the frames animate contentsRect over the sheet)"#])
    }
}
