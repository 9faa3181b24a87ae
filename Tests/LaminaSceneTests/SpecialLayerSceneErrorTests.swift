import Foundation
import Lamina
import Testing

/// The layer types' errors: an unknown type, a key of another type, bad values, and animations of another
/// type's key paths, each with its line, column and JSON path.
@Suite struct SpecialLayerSceneErrorTests {
    @Test func unknownType() {
        #expect(problems(sceneWithLayer(#""type": "shap""#)) == [
            #"scene.json:1:42: layers[0].type: unknown layer type "shap" (did you mean "shape"?)"#
        ])
        #expect(problems(sceneWithLayer(#""type": "video""#)) == [
            #"scene.json:1:42: layers[0].type: unknown layer type "video" (expected one of "gradient", "shape", "text", "replicator", "tiled", "emitter", "transform" or "scroll")"#
        ])
    }

    /// Each type's keys on a layer of each other type (and on a plain layer).
    @Test(arguments: [
        ("gradient", "colors", "[]"), ("shape", "strokeEnd", "1"), ("text", "string", #""a""#),
        ("replicator", "instanceCount", "2"), ("tiled", "levelsOfDetail", "2"),
    ])
    func keysOfAnotherType(owner: String, key: String, value: String) {
        for type in ["gradient", "shape", "text", "replicator", "tiled", nil] where type != owner {
            let typeMember = type.map { #""type": "\#($0)", "# } ?? ""
            let json = sceneWithLayer(typeMember + #""\#(key)": \#(value)"#)
            let column = 34 + typeMember.count
            #expect(problems(json) == [
                "scene.json:1:\(column): layers[0].\(key): only a \(owner) layer has this key"
            ], "on a \(type ?? "plain") layer")
        }
    }

    @Test func unknownKeysAreSuggestedFromEveryType() {
        #expect(problems(sceneWithLayer(#""type": "shape", "strokeEnnd": 1"#)) == [
            #"scene.json:1:51: layers[0].strokeEnnd: unknown key (did you mean "strokeEnd"?)"#
        ])
    }

    @Test func gradientValues() {
        let json = #"""
            {"size": [10, 10], "layers": [
             {"type": "gradient", "colors": ["#ff0000", "red"], "startPoint": [0], "gradientType": "linear"},
             {"type": "gradient", "colors": ["#ff0000", "#00ff00"], "locations": [0, 0.5, 1]},
             {"type": "gradient", "colors": ["#ff0000", "#00ff00", "#0000ff"], "locations": [0, 0.6, 0.5]},
             {"type": "gradient", "colors": ["#ff0000"], "locations": [1.5]},
             {"type": "gradient", "colors": "#ff0000"}
            ]}
            """#
        #expect(problems(json) == [
            ##"scene.json:2:45: layers[0].colors[1]: expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with numbers in 0...1, got "red""##,
            #"scene.json:2:67: layers[0].startPoint: expected 2 numbers [x, y], got 1"#,
            #"scene.json:2:88: layers[0].gradientType: unknown gradient type "linear" (expected one of "axial", "radial" or "conic")"#,
            #"scene.json:3:70: layers[1].locations: has 3 locations for 2 colours (give one per colour, or leave it out)"#,
            #"scene.json:4:90: layers[2].locations[2]: locations must not decrease (0.5 after 0.6)"#,
            #"scene.json:5:60: layers[3].locations[0]: must be between 0 and 1"#,
            #"scene.json:6:33: layers[4].colors: expected an array of colours, got a string"#,
        ])
    }

    @Test func shapeValues() {
        let json = #"""
            {"size": [10, 10], "layers": [
             {"type": "shape", "path": [{"fill": "nonzero"}], "fillColor": "none", "fillRule": "evenodd"},
             {"type": "shape", "strokeColor": 1, "lineWidth": -1, "lineCap": "flat", "lineJoin": "sharp"},
             {"type": "shape", "lineDashPattern": [1, -1], "strokeStart": -0.5, "strokeEnd": 2, "miterLimit": -1},
             {"type": "shape", "lineDashPattern": [0, 0], "lineDashPhase": "x", "path": []}
            ]}
            """#
        #expect(problems(json) == [
            #"scene.json:2:29: layers[0].path[0]: "fill" is not a path step (a shadowPath takes "moveTo", "lineTo", "curveTo", "quadTo", "arc", "closePath", "rect", "ellipse" or "roundedRect")"#,
            ##"scene.json:2:64: layers[0].fillColor: expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with numbers in 0...1, got "none""##,
            #"scene.json:2:84: layers[0].fillRule: unknown fill rule "evenodd" (did you mean "evenOdd"?)"#,
            ##"scene.json:3:35: layers[1].strokeColor: expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with numbers in 0...1, got a number"##,
            #"scene.json:3:51: layers[1].lineWidth: must not be negative"#,
            #"scene.json:3:66: layers[1].lineCap: unknown line cap "flat" (expected one of "butt", "round" or "square")"#,
            #"scene.json:3:86: layers[1].lineJoin: unknown line join "sharp" (expected one of "miter", "round" or "bevel")"#,
            #"scene.json:4:43: layers[2].lineDashPattern[1]: must not be negative"#,
            #"scene.json:4:63: layers[2].strokeStart: must be between 0 and 1"#,
            #"scene.json:4:82: layers[2].strokeEnd: must be between 0 and 1"#,
            #"scene.json:4:99: layers[2].miterLimit: must not be negative"#,
            #"scene.json:5:39: layers[3].lineDashPattern: the lengths must not all be 0 (use [] for a solid line)"#,
            #"scene.json:5:64: layers[3].lineDashPhase: expected a number, got a string"#,
            #"scene.json:5:77: layers[3].path: is empty (give at least one path step)"#,
        ])
    }

    @Test func textValues() {
        let json = #"""
            {"size": [10, 10], "layers": [
             {"type": "text", "string": 4, "font": "", "fontSize": 0, "foregroundColor": "white"},
             {"type": "text", "alignmentMode": "centre", "isWrapped": "yes", "truncationMode": "tail"}
            ]}
            """#
        #expect(problems(json) == [
            #"scene.json:2:29: layers[0].string: expected a string, got a number"#,
            #"scene.json:2:40: layers[0].font: is empty (give a font family name)"#,
            #"scene.json:2:56: layers[0].fontSize: must be a positive number"#,
            ##"scene.json:2:78: layers[0].foregroundColor: expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with numbers in 0...1, got "white""##,
            #"scene.json:3:36: layers[1].alignmentMode: unknown alignment mode "centre" (did you mean "center"?)"#,
            #"scene.json:3:59: layers[1].isWrapped: expected true or false, got a string"#,
            #"scene.json:3:84: layers[1].truncationMode: unknown truncation mode "tail" (expected one of "none", "start", "middle" or "end")"#,
        ])
    }

    @Test func replicatorValues() {
        let json = #"""
            {"size": [10, 10], "layers": [
             {"type": "replicator", "instanceCount": 2.5, "instanceTransform": [{"rotat": 3}], "instanceDelay": "1s"},
             {"type": "replicator", "instanceCount": -1, "instanceColor": "#ff", "instanceAlphaOffset": 1e39},
             {"type": "replicator", "instanceCount": 10001}
            ]}
            """#
        let found = problems(json)
        #expect(found.count == 7)
        #expect(found.contains(#"scene.json:2:42: layers[0].instanceCount: must be a whole number, 0 or more"#))
        #expect(found.contains(#"scene.json:2:101: layers[0].instanceDelay: expected a number, got a string"#))
        #expect(found.contains(#"scene.json:3:42: layers[1].instanceCount: must be a whole number, 0 or more"#))
        #expect(found.contains(#"scene.json:3:93: layers[1].instanceAlphaOffset: must fit a 32-bit float (magnitude below 3.4e38)"#))
        #expect(found.contains(#"scene.json:4:42: layers[2].instanceCount: must be at most 10000 (the most instances drawn)"#))
        #expect(found.contains(#"scene.json:2:70: layers[0].instanceTransform[0].rotat: unknown key (did you mean "rotate"?)"#))
        #expect(found.contains(##"scene.json:3:63: layers[1].instanceColor: expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with numbers in 0...1, got "#ff""##))
    }

    /// An animation of another type's key path names the type that has it.
    @Test func animationOfAnotherTypesKeyPath() {
        let json = #"""
            {"size": [10, 10], "layers": [
             {"type": "text", "animations": [{"type": "basic", "keyPath": "strokeEnd", "toValue": 1}]},
             {"animations": [{"type": "keyframe", "keyPath": "instanceTransform.rotation.z", "values": [0, 1]}]},
             {"type": "shape", "animations": [{"type": "group", "animations": [{"keyPath": "colors", "toValue": []}]}]}
            ]}
            """#
        #expect(problems(json) == [
            #"scene.json:2:63: layers[0].animations[0].keyPath: "strokeEnd" animates only shape layers"#,
            #"scene.json:3:50: layers[1].animations[0].keyPath: "instanceTransform.rotation.z" animates only replicator layers"#,
            #"scene.json:4:80: layers[2].animations[0].animations[0].keyPath: "colors" animates only gradient layers"#,
        ])
    }

    @Test func animatedValuesAreChecked() {
        let json = #"""
            {"size": [10, 10], "layers": [
             {"type": "gradient", "animations": [{"keyPath": "colors", "values": [["#ff0000"], "#00ff00"]}]},
             {"type": "shape", "animations": [{"keyPath": "path", "toValue": [{"stroke": true}]},
                                              {"keyPath": "lineDashPattern", "toValue": [1, "2"]}]}
            ]}
            """#
        let found = problems(json)
        #expect(found.contains(#"scene.json:2:84: layers[0].animations[0].values[1]: expected an array of colours, got a string"#))
        #expect(found.contains(#"scene.json:3:67: layers[1].animations[0].toValue[0]: "stroke" is not a path step (a shadowPath takes "moveTo", "lineTo", "curveTo", "quadTo", "arc", "closePath", "rect", "ellipse" or "roundedRect")"#))
        #expect(found.count == 3)
        #expect(found.contains(#"scene.json:4:81: layers[1].animations[1].toValue[1]: expected a number, got a string"#))
    }

    /// A timeline may not set another type's key, nor change a layer's type.
    @Test func timelineKeysOfAnotherType() {
        let json = #"""
            {"size": [10, 10], "layers": [{"name": "t", "type": "text"}],
             "timeline": [{"at": 1, "layer": "t", "set": {"strokeEnd": 0.5, "type": "shape"}}]}
            """#
        #expect(problems(json) == [
            #"scene.json:2:47: timeline[0].set.strokeEnd: only a shape layer has this key"#,
            #"scene.json:2:65: timeline[0].set.type: cannot be changed by the timeline (only properties of an existing layer)"#,
        ])
    }
}
