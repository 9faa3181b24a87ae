import Foundation
import Lamina
import Testing

@testable import LaminaScene

/// Wrong types, unknown keys, impossible values: exact messages, all problems at once, in file order.
@Suite struct SceneErrorTests {
    @Test func problemDescriptions() {
        let full = SceneProblem(file: "scene.json", line: 14, column: 7, path: "layers[2].x", message: "bad")
        #expect(full.description == "scene.json:14:7: layers[2].x: bad")
        let noPosition = SceneProblem(file: "a/scene.json", path: "size", message: "bad")
        #expect(noPosition.description == "a/scene.json: size: bad")
        let noPath = SceneProblem(file: "scene.json", line: 1, column: 2, path: "", message: "bad")
        #expect(noPath.description == "scene.json:1:2: bad")
        let error = SceneError(problems: [full, noPath])
        #expect(error.description == "scene.json:14:7: layers[2].x: bad\nscene.json:1:2: bad")
        #expect(error.localizedDescription == error.description)
    }

    @Test func unknownKeyWithSuggestion() {
        let json = """
            {
                "size": [100, 100],
                "layers": [
                    {"name": "a"},
                    {"name": "b"},
                    {
                        "name": "c",
                        "contentsGravty": "center"
                    }
                ]
            }
            """
        #expect(
            problems(json) == [
                #"scene.json:8:13: layers[2].contentsGravty: unknown key (did you mean "contentsGravity"?)"#
            ])
    }

    @Test(arguments: [
        (#""opactiy": 1"#, #"layers[0].opactiy: unknown key (did you mean "opacity"?)"#),
        (#""Opacity": 1"#, #"layers[0].Opacity: unknown key (did you mean "opacity"?)"#),
        (#""sublayer": []"#, #"layers[0].sublayer: unknown key (did you mean "sublayers"?)"#),
        (#""cornerRadus": 4"#, #"layers[0].cornerRadus: unknown key (did you mean "cornerRadius"?)"#),
        // Suggestions come from every layer type's keys: "colors" is a gradient's.
        (##""color": "#FFFFFF""##, #"layers[0].color: unknown key (did you mean "colors"?)"#),
        (#""wobble": true"#, "layers[0].wobble: unknown key"),
        (#""my key": 1"#, #"layers[0]["my key"]: unknown key"#),
    ])
    func unknownLayerKeys(member: String, expected: String) {
        #expect(problems(sceneWithLayer(member)) == ["scene.json:1:34: " + expected])
    }

    @Test func unknownTopLevelKeys() {
        let json = #"{"size": [1, 1], "layer": [], "opacity": 1, "zoom": 2}"#
        #expect(
            problems(json) == [
                #"scene.json:1:18: layer: unknown key (did you mean "layers"?)"#,
                #"scene.json:1:31: opacity: unknown key at the top level (layer properties go inside "layers")"#,
                "scene.json:1:45: zoom: unknown key",
            ])
    }

    @Test func effectKeysAreChecked() {
        let json = #"{"size": [1, 1], "layers": [{"borderWidth": -1, "borderColor": "red", "allowsGroupOpacity": 1}]}"#
        let found = problems(json)
        #expect(found == [
            "scene.json:1:45: layers[0].borderWidth: must not be negative",
            ##"scene.json:1:64: layers[0].borderColor: expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with numbers in 0...1, got "red""##,
            "scene.json:1:93: layers[0].allowsGroupOpacity: expected true or false, got a number",
        ])
    }

    @Test func minificationFilterBiasMustBeAFloat() {
        let json = #"{"size": [1, 1], "layers": [{"minificationFilterBias": "1"}, {"minificationFilterBias": -1e39}]}"#
        #expect(problems(json) == [
            "scene.json:1:56: layers[0].minificationFilterBias: expected a number, got a string",
            "scene.json:1:89: layers[1].minificationFilterBias: must fit a 32-bit float (magnitude below 3.4e38)",
        ])
    }

    @Test func aMaskMustBeALayer() {
        let json = #"{"size": [1, 1], "layers": [{"mask": 3}, {"mask": {"opacity": 2}}]}"#
        let found = problems(json)
        #expect(found.count == 2)
        #expect(found.first?.hasSuffix("layers[0].mask: expected a layer (an object), got a number") == true, "\(found)")
        #expect(found.last?.hasSuffix("layers[1].mask.opacity: must be between 0 and 1") == true, "\(found)")
    }

    @Test func anEmptyShadowPathIsAnError() {
        #expect(problems(#"{"size": [1, 1], "layers": [{"shadowPath": []}]}"#) == [
            "scene.json:1:44: layers[0].shadowPath: is empty (give at least one path step)",
        ])
    }

    @Test func cornerAndShadowKeysAreChecked() {
        let json = #"{"size": [1, 1], "layers": [{"sublayers": [{}, {"cornerRadius": -4, "maskedCorners": ["topleft", 3], "shadowOpacity": 1.5, "shadowOffset": [1], "shadowRadius": "big", "shadowColor": 0, "shadowPath": [{"rect": [0, 0, 1, 1]}, {"fill": "nonzero"}]}]}]}"#
        #expect(
            problems(json) == [
                "scene.json:1:65: layers[0].sublayers[1].cornerRadius: must not be negative",
                #"scene.json:1:87: layers[0].sublayers[1].maskedCorners[0]: unknown corner "topleft" (did you mean "topLeft"?)"#,
                "scene.json:1:98: layers[0].sublayers[1].maskedCorners[1]: expected a string, got a number",
                "scene.json:1:119: layers[0].sublayers[1].shadowOpacity: must be between 0 and 1",
                "scene.json:1:140: layers[0].sublayers[1].shadowOffset: expected 2 numbers [dx, dy], got 1",
                "scene.json:1:161: layers[0].sublayers[1].shadowRadius: expected a number, got a string",
                ##"scene.json:1:183: layers[0].sublayers[1].shadowColor: expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with numbers in 0...1, got a number"##,
                #"scene.json:1:225: layers[0].sublayers[1].shadowPath[1]: "fill" is not a path step (a shadowPath takes "moveTo", "lineTo", "curveTo", "quadTo", "arc", "closePath", "rect", "ellipse" or "roundedRect")"#,
            ])
    }

    @Test(arguments: [
        (#""opacity": "0.5""#, "layers[0].opacity: expected a number, got a string"),
        (#""opacity": null"#, "layers[0].opacity: expected a number, got null"),
        (#""hidden": 1"#, "layers[0].hidden: expected true or false, got a number"),
        (#""masksToBounds": "yes""#, "layers[0].masksToBounds: expected true or false, got a string"),
        (#""name": 7"#, "layers[0].name: expected a string, got a number"),
        (#""zPosition": [1]"#, "layers[0].zPosition: expected a number, got an array"),
        (#""position": {"x": 1, "y": 2}"#, "layers[0].position: expected 2 numbers [x, y], got an object"),
        (#""anchorPoint": [0.5]"#, "layers[0].anchorPoint: expected 2 numbers [x, y], got 1"),
        (#""bounds": [0, 0, 10]"#, "layers[0].bounds: expected 4 numbers [x, y, width, height], got 3"),
        (#""frame": "0 0 10 10""#, "layers[0].frame: expected 4 numbers [x, y, width, height], got a string"),
        (
            #""contentsCenter": true"#,
            "layers[0].contentsCenter: expected 4 numbers [x, y, width, height], got a boolean"
        ),
        (#""sublayers": {}"#, "layers[0].sublayers: expected an array of layers, got an object"),
        (#""contentsGravity": 3"#, "layers[0].contentsGravity: expected a string, got a number"),
        (
            #""affineTransform": [1, 0, 0, 1]"#,
            "layers[0].affineTransform: expected 6 numbers [a, b, c, d, tx, ty], got 4"
        ),
    ])
    func wrongTypes(member: String, expected: String) {
        let found = problems(sceneWithLayer(member))
        #expect(found.count == 1)
        #expect(found.first?.hasSuffix(": " + expected) == true, "\(found)")
    }

    @Test func wrongTypesInsideArraysPointAtTheElement() {
        let json = #"{"size": [10, "20"], "layers": [{"bounds": [0, 0, true, 5]}, 3]}"#
        #expect(
            problems(json) == [
                "scene.json:1:15: size[1]: expected a number, got a string",
                "scene.json:1:51: layers[0].bounds[2]: expected a number, got a boolean",
                "scene.json:1:62: layers[1]: expected a layer (an object), got a number",
            ])
    }

    @Test func topLevelShape() {
        #expect(problems("[]") == ["scene.json:1:1: expected a JSON object at the top level, got an array"])
        #expect(
            problems("{}") == [
                #"scene.json:1:1: size: required key is missing (the scene's [width, height] in points)"#
            ])
        #expect(
            problems(#"{"size": [1, 1], "layers": {}}"#) == [
                "scene.json:1:28: layers: expected an array of layers, got an object"
            ])
    }

    @Test func frameMayNotBeCombinedWithBoundsOrPosition() {
        let json = """
            {"size": [100, 100], "layers": [
                {"frame": [0, 0, 10, 10], "bounds": [0, 0, 5, 5]},
                {"position": [1, 1], "frame": [0, 0, 10, 10], "bounds": [0, 0, 5, 5]}
            ]}
            """
        #expect(
            problems(json) == [
                #"scene.json:2:6: layers[0].frame: may not be combined with "bounds" "#
                    + "(frame is a shorthand for the bounds size and the position)",
                #"scene.json:3:26: layers[1].frame: may not be combined with "bounds" or "position" "#
                    + "(frame is a shorthand for the bounds size and the position)",
            ])
    }

    @Test func affineTransformMayNotBeCombinedWithTransform() {
        let json = sceneWithLayer(#""transform": [], "affineTransform": [1, 0, 0, 1, 0, 0]"#)
        #expect(
            problems(json) == [#"scene.json:1:51: layers[0].affineTransform: may not be combined with "transform""#])
    }

    @Test(arguments: [
        (
            #"[1, 0, 0, 1, 0, 0]"#,
            #"layers[0].transform: expected 16 numbers (m11 ... m44) or a list of steps such as [{"rotate": 45}], "#
                + #"got 6 numbers (use "affineTransform" for [a, b, c, d, tx, ty])"#
        ),
        (
            #""rotate 45""#,
            #"layers[0].transform: expected 16 numbers (m11 ... m44) or a list of steps such as [{"rotate": 45}], "#
                + "got a string"
        ),
        (
            #"[{"rotate": 45, "scale": [2, 2]}]"#,
            #"layers[0].transform[0]: a step has one operation, got "rotate" and "scale""#
        ),
        (#"[{}]"#, #"layers[0].transform[0]: expected one of "translate", "scale", "rotate" or "perspective""#),
        (#"[{"rotat": 45}]"#, #"layers[0].transform[0].rotat: unknown key (did you mean "rotate"?)"#),
        (#"[{"translate": [1, 2], "axis": [0, 0, 1]}]"#, #"layers[0].transform[0].axis: only allowed with "rotate""#),
        (#"[{"rotate": 45, "axis": [0, 0, 0]}]"#, "layers[0].transform[0].axis: must not be [0, 0, 0]"),
        (#"[{"rotate": 45, "axis": [0, 1]}]"#, "layers[0].transform[0].axis: expected 3 numbers [x, y, z], got 2"),
        (
            #"[{"perspective": 0}]"#,
            "layers[0].transform[0].perspective: must be a positive number (the eye's distance in points)"
        ),
        (
            #"[{"translate": [1]}]"#,
            "layers[0].transform[0].translate: expected 2 or 3 numbers [x, y] or [x, y, z], got 1"
        ),
        (
            #"[{"scale": 2}]"#,
            "layers[0].transform[0].scale: expected 2 or 3 numbers [sx, sy] or [sx, sy, sz], got a number"
        ),
        (#"[{"rotate": "45deg"}]"#, "layers[0].transform[0].rotate: expected a number, got a string"),
        (#"[{"rotate": 45}, 3]"#, #"layers[0].transform[1]: expected a step such as {"rotate": 45}, got a number"#),
        (
            #"[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, "x", 1]"#,
            "layers[0].transform[14]: expected a number, got a string"
        ),
    ])
    func transformProblems(json: String, expected: String) {
        let found = problems(sceneWithLayer(#""transform": \#(json)"#))
        #expect(found.count == 1)
        #expect(found.first?.hasSuffix(": " + expected) == true, "\(found)")
    }

    @Test func impossibleLayerValues() {
        let json = """
            {"size": [100, 100], "layers": [{
                "opacity": 1.5,
                "contentsScale": 0,
                "bounds": [0, 0, -1, 10],
                "contentsGravity": "middle",
                "minificationFilter": "bilinear",
                "magnificationFilter": "trilinear"
            }, {
                "opacity": -0.1,
                "contentsGravity": "resizeaspect",
                "magnificationFilter": "cubic"
            }]}
            """
        #expect(
            problems(json) == [
                "scene.json:2:16: layers[0].opacity: must be between 0 and 1",
                "scene.json:3:22: layers[0].contentsScale: must be a positive number",
                "scene.json:4:15: layers[0].bounds: width must not be negative",
                #"scene.json:5:24: layers[0].contentsGravity: unknown gravity "middle" (expected one of center, top, "#
                    + "bottom, left, right, topLeft, topRight, bottomLeft, bottomRight, resize, resizeAspect, "
                    + "resizeAspectFill)",
                #"scene.json:6:27: layers[0].minificationFilter: unknown filter "bilinear" "#
                    + #"(expected "linear", "nearest" or "trilinear")"#,
                #"scene.json:7:28: layers[0].magnificationFilter: "trilinear" is for minificationFilter only "#
                    + #"(expected "linear" or "nearest")"#,
                "scene.json:9:16: layers[1].opacity: must be between 0 and 1",
                #"scene.json:10:24: layers[1].contentsGravity: unknown gravity "resizeaspect" "#
                    + #"(did you mean "resizeAspect"?)"#,
                #"scene.json:11:28: layers[1].magnificationFilter: unknown filter "cubic" "#
                    + #"(expected "linear" or "nearest")"#,
            ])
    }

    @Test(arguments: [
        (#""red""#, #"got "red""#),
        (##""#FFF""##, ##"got "#FFF""##),
        (#""336699""#, #"got "336699""#),
        (##""#GG0000""##, ##"got "#GG0000""##),
        ("[1, 0, 0]", "got [1, 0, 0]"),
        ("[255, 0, 0, 1]", "got [255, 0, 0, 1]"),
        (#"[1, "0", 0, 1]"#, "got an array of 4 items"),
        ("16711680", "got a number"),
    ])
    func badColours(json: String, got: String) {
        #expect(
            problems(sceneWithLayer(#""backgroundColor": \#(json)"#)) == [
                ##"scene.json:1:53: layers[0].backgroundColor: expected a colour: "#RRGGBB", "#RRGGBBAA" or "##
                    + "[r, g, b, a] with numbers in 0...1, \(got)"
            ])
    }

    @Test(arguments: [
        (#"[0, 10]"#, "scene.json:1:10: size: width must be positive"),
        (#"[10, -5]"#, "scene.json:1:10: size: height must be positive"),
        (
            #"[1e9, 10]"#,
            "scene.json:1:10: size: 1000000000x10 points is too large: "
                + "1000000000x10 pixels exceeds the limit of 16384 pixels per side"
        ),
        (
            #"[1e300, 1e300]"#,
            "scene.json:1:10: size: 1e+300x1e+300 points is too large: "
                + "1e+300x1e+300 pixels exceeds the limit of 16384 pixels per side"
        ),
        (
            #"[16385, 1]"#,
            "scene.json:1:10: size: 16385x1 points is too large: "
                + "16385x1 pixels exceeds the limit of 16384 pixels per side"
        ),
        (#"[0.2, 10]"#, "scene.json:1:10: size: 0.2x10 points is less than one pixel (0x10)"),
        (#"[10]"#, "scene.json:1:10: size: expected 2 numbers [width, height], got 1"),
        (#""big""#, "scene.json:1:10: size: expected 2 numbers [width, height], got a string"),
    ])
    func impossibleSizes(size: String, expected: String) {
        #expect(problems(#"{"size": \#(size)}"#) == [expected])
    }

    @Test func sizeTimesScaleIsCheckedAgainstTheLimits() throws {
        #expect(
            problems(#"{"size": [10000, 10000], "scale": 2}"#) == [
                "scene.json:1:10: size: 10000x10000 points at scale 2 is too large: "
                    + "20000x20000 pixels exceeds the limit of 16384 pixels per side"
            ])
        let small = SceneOptions(limits: PixelLimits(maxDimension: 100, maxPixels: 5000))
        #expect(
            problems(#"{"size": [50, 60], "scale": 2}"#, options: small) == [
                "scene.json:1:10: size: 50x60 points at scale 2 is too large: "
                    + "100x120 pixels exceeds the limit of 100 pixels per side"
            ])
        #expect(
            problems(#"{"size": [80, 80]}"#, options: small) == [
                "scene.json:1:10: size: 80x80 points is too large: 80x80 pixels exceeds the limit of 5000 pixels in all"
            ])
        #expect(try loadScene(#"{"size": [8192, 8192], "scale": 2}"#).scale == 2)
    }

    @Test(arguments: [
        ("0", "scene.json:1:29: scale: must be a positive number"),
        ("-2", "scene.json:1:29: scale: must be a positive number"),
        (#""2x""#, "scene.json:1:29: scale: expected a number, got a string"),
    ])
    func impossibleScales(scale: String, expected: String) {
        #expect(problems(#"{"size": [10, 10], "scale": \#(scale)}"#) == [expected])
    }

    @Test func everyProblemIsReportedInFileOrder() {
        let json = """
            {
                "layers": [
                    {"opacity": "full", "contentsGravty": "center"},
                    {"frame": [0, 0, 1, 1], "bounds": [0, 0, 1, 1], "cornerRadius": -3},
                    {"contents": "snowman.png", "hidden": 0}
                ],
                "scale": 0,
                "size": [0, 10],
                "backgroundColor": "blue"
            }
            """
        #expect(
            problems(json) == [
                "scene.json:3:21: layers[0].opacity: expected a number, got a string",
                #"scene.json:3:29: layers[0].contentsGravty: unknown key (did you mean "contentsGravity"?)"#,
                #"scene.json:4:10: layers[1].frame: may not be combined with "bounds" "#
                    + "(frame is a shorthand for the bounds size and the position)",
                "scene.json:4:73: layers[1].cornerRadius: must not be negative",
                #"scene.json:5:22: layers[2].contents: "snowman.png" not found "#
                    + "(looked for \(Fixtures.path("snowman.png")))",
                "scene.json:5:47: layers[2].hidden: expected true or false, got a number",
                "scene.json:7:14: scale: must be a positive number",
                "scene.json:8:13: size: width must be positive",
                ##"scene.json:9:24: backgroundColor: expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] "##
                    + #"with numbers in 0...1, got "blue""#,
            ])
    }

    @Test func theFileNameIsTheCallers() {
        do {
            _ = try Scene.load(
                data: Data(#"{"size": [1, 1], "scael": 1}"#.utf8), baseDirectory: Fixtures.folder,
                fileName: "scenes/demo.json")
            Issue.record("loaded")
        } catch let error as SceneError {
            #expect(
                error.problems == [
                    SceneProblem(
                        file: "scenes/demo.json", line: 1, column: 18, path: "scael",
                        message: #"unknown key (did you mean "scale"?)"#)
                ])
            #expect(error.description == #"scenes/demo.json:1:18: scael: unknown key (did you mean "scale"?)"#)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func anUnreadableFileIsOneProblemWithoutAPosition() {
        let url = Fixtures.folder.appendingPathComponent("no-such-scene.json")
        do {
            _ = try Scene.load(contentsOf: url)
            Issue.record("loaded")
        } catch {
            #expect("\(error)" == "\(url.path): cannot read the file: no such file")
        }
    }

    @Test func keysThatAreNotIdentifiersAreQuotedInPaths() {
        let json = #"{"size": [1, 1], "images": {"my image": 3, "a.b": "x\"y"}}"#
        #expect(
            problems(json) == [
                #"scene.json:1:41: images["my image"]: expected a file path or {"path": file, "scale": number}, "#
                    + "got a number",
                #"scene.json:1:51: images["a.b"]: "x\"y" not found (looked for \#(Fixtures.path("x\"y")))"#,
            ])
    }

    @Test func suggestionsNeedCloseWords() {
        #expect(Suggestion.closest(to: "opactiy", in: SceneLoader.layerKeys) == "opacity")
        #expect(Suggestion.closest(to: "BOUNDS", in: SceneLoader.layerKeys) == "bounds")
        #expect(Suggestion.closest(to: "nam", in: SceneLoader.layerKeys) == "name")
        #expect(Suggestion.closest(to: "xyz", in: SceneLoader.layerKeys) == nil)
        #expect(Suggestion.closest(to: "colour", in: SceneLoader.layerKeys) == nil)
        #expect(Suggestion.editDistance("kitten", "sitting", limit: 5) == 3)
        #expect(Suggestion.editDistance("ab", "ba", limit: 5) == 1)
    }
}
