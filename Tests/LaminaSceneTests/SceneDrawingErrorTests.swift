import Foundation
import Lamina
import Testing

/// Bad drawing steps: the exact message, JSON path and line:column of each, all reported at once.
@Suite struct SceneDrawingErrorTests {
    /// The problems of a scene whose one layer has `"draw": [steps]`.
    private func drawProblems(_ steps: String, topLevel: String = "") -> [String] {
        problems(#"{\#(topLevel)"size": [100, 100], "layers": [{"draw": [\#(steps)]}]}"#)
    }

    /// "scene.json:1:C: PATH: MESSAGE" where C is the column of the first `marker` in `steps`, as
    /// `drawProblems(steps)` places it.
    private func problem(_ steps: String, at marker: String, _ path: String, _ message: String) -> String {
        let start = #"{"size": [100, 100], "layers": [{"draw": ["#.count + 1
        let offset = steps.range(of: marker).map { steps.distance(from: steps.startIndex, to: $0.lowerBound) }
        return "scene.json:1:\(start + (offset ?? -1000)): \(path): \(message)"
    }

    @Test(arguments: [
        // Operations
        (
            #"{"fillRectangle": [0, 0, 1, 1]}"#, #""fillRectangle""#, "",
            #"unknown drawing operation "fillRectangle" (did you mean "fillRect"?)"#
        ),
        (
            #"{"strokeEllipseInRect": "bounds"}"#, #""stroke"#, "",
            #"unknown drawing operation "strokeEllipseInRect" (did you mean "strokeEllipse"?)"#
        ),
        (#"{"lineto": [0, 0]}"#, #""lineto""#, "", #"unknown drawing operation "lineto" (did you mean "lineTo"?)"#),
        (#"{"close": true}"#, #""close""#, "", #"unknown drawing operation "close" (did you mean "closePath"?)"#),
        (#"{"paint": true}"#, #""paint""#, "", #"unknown drawing operation "paint""#),
        ("{}", "{", "", #"expected a drawing step such as {"fillRect": "bounds"}, got an empty object"#),
        (#""stroke""#, #""stroke""#, "", #"expected a drawing step such as {"fillRect": "bounds"}, got a string"#),
        (#"{"moveTo": [0, 0], "lineTo": [1, 1]}"#, "{", "", #"a step has one operation, got "moveTo" and "lineTo""#),
        (#"{"rect": "bounds", "fill": "evenodd"}"#, "{", "", #"a step has one operation, got "rect" and "fill""#),
        (#"{"clockwise": true}"#, "{", "", #"no drawing operation ("clockwise" goes with "arc")"#),
        // Other keys
        (#"{"fill": "nonzero", "clockwise": true}"#, #""clockwise""#, ".clockwise", #"only allowed with "arc""#),
        (#"{"stroke": true, "size": 3}"#, #""size""#, ".size", #"only allowed with "text""#),
        (
            ##"{"stroke": true, "color": "#FF0000"}"##, #""color""#, ".color",
            #"unknown key ("stroke" takes no other keys)"#
        ),
        (
            #"{"text": "A", "at": [0, 9], "size": 9, "fnt": "serif"}"#, #""fnt""#, ".fnt",
            #"unknown key (did you mean "font"?)"#
        ),
        (
            #"{"text": "A", "at": [0, 9], "size": 9, "weight": 700}"#, #""weight""#, ".weight",
            #"unknown key ("text" takes "at", "size" and "font")"#
        ),
        // Numbers
        (#"{"curveTo": [1, 2, 3, 4]}"#, "[", ".curveTo", "expected 6 numbers [c1x, c1y, c2x, c2y, x, y], got 4"),
        (#"{"quadTo": [1, 2, 3]}"#, "[", ".quadTo", "expected 4 numbers [cx, cy, x, y], got 3"),
        (#"{"arc": [1, 2, 3]}"#, "[", ".arc", "expected 5 numbers [cx, cy, r, startDeg, endDeg], got 3"),
        (#"{"translate": [1, 2, 3]}"#, "[", ".translate", "expected 2 numbers [x, y], got 3"),
        (#"{"scale": 2}"#, "2", ".scale", "expected 2 numbers [sx, sy], got a number"),
        (#"{"moveTo": [0, "1"]}"#, #""1""#, ".moveTo[1]", "expected a number, got a string"),
        (#"{"rotate": "45deg"}"#, #""45deg""#, ".rotate", "expected a number, got a string"),
        (#"{"lineWidth": "2"}"#, #""2""#, ".lineWidth", "expected a number, got a string"),
        (#"{"lineWidth": -1}"#, "-1", ".lineWidth", "must not be negative"),
        (#"{"scale": [0, 1]}"#, "[", ".scale", "sx must not be 0 (nothing could be drawn after it)"),
        (#"{"arc": [1, 2, -3, 0, 90]}"#, "[", ".arc", "r must not be negative"),
        (
            #"{"arc": [1, 2, 3, 0, 90], "clockwise": "yes"}"#, #""yes""#, ".clockwise",
            "expected true or false, got a string"
        ),
        (#"{"roundedRect": [0, 0, 10, 10, -2]}"#, "[", ".roundedRect", "radius must not be negative"),
        (
            #"{"roundedRect": [0, 0, 10, 10]}"#, "[", ".roundedRect",
            "expected 5 numbers [x, y, width, height, radius], got 4"
        ),
        (#"{"dash": [4, -1]}"#, "-1", ".dash[1]", "must not be negative"),
        (#"{"dash": [0, 0]}"#, "[", ".dash", "the lengths must not all be 0 (use [] for a solid line)"),
        (#"{"dash": 4}"#, "4", ".dash", "expected an array of dash lengths [on, off, ...], got a number"),
        // Rectangles
        (
            #"{"fillRect": "bound"}"#, #""bound""#, ".fillRect",
            #"expected 4 numbers [x, y, width, height] or "bounds", got "bound""#
        ),
        (#"{"ellipse": 3}"#, "3", ".ellipse", #"expected 4 numbers [x, y, width, height] or "bounds", got a number"#),
        (#"{"strokeRect": [0, 0, -1, 5]}"#, "[", ".strokeRect", "width must not be negative"),
        (#"{"strokeEllipse": [0, 0, 5]}"#, "[", ".strokeEllipse", "expected 4 numbers [x, y, width, height], got 3"),
        // Names
        (
            #"{"lineCap": "flat"}"#, #""flat""#, ".lineCap",
            #"unknown line cap "flat" (expected "butt", "round" or "square")"#
        ),
        (#"{"lineCap": "Round"}"#, #""Round""#, ".lineCap", #"unknown line cap "Round" (did you mean "round"?)"#),
        (#"{"lineCap": 1}"#, "1", ".lineCap", #"expected "butt", "round" or "square", got a number"#),
        (
            #"{"lineJoin": "sharp"}"#, #""sharp""#, ".lineJoin",
            #"unknown line join "sharp" (expected "miter", "round" or "bevel")"#
        ),
        (#"{"fill": "even-odd"}"#, #""even-odd""#, ".fill", #"unknown fill rule "even-odd" (did you mean "evenodd"?)"#),
        (
            #"{"clip": "winding"}"#, #""winding""#, ".clip",
            #"unknown fill rule "winding" (expected "nonzero" or "evenodd")"#
        ),
        (#"{"fill": true}"#, "true", ".fill", #"expected "nonzero" or "evenodd", got a boolean"#),
        // Colours
        (
            #"{"fillColor": "red"}"#, #""red""#, ".fillColor",
            ##"expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with numbers in 0...1, got "red""##
        ),
        (
            #"{"strokeColor": [1, 0, 0]}"#, "[", ".strokeColor",
            ##"expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with numbers in 0...1, got [1, 0, 0]"##
        ),
        // Flags
        (#"{"save": false}"#, "false", ".save", "expected true, got false (leave the step out instead)"),
        (#"{"restore": 1}"#, "1", ".restore", "expected true, got a number"),
        (#"{"closePath": null}"#, "null", ".closePath", "expected true, got null"),
        (#"{"stroke": "yes"}"#, #""yes""#, ".stroke", "expected true, got a string"),
        // Text
        (#"{"text": "Hi", "at": [0, 10], "size": 0}"#, "0}", ".size", "must be a positive number"),
        (#"{"text": 5, "at": [0, 10], "size": 9}"#, "5", ".text", "expected a string, got a number"),
        (
            #"{"text": "Hi", "at": [0, 10], "size": 9, "font": ""}"#, #""""#, ".font",
            #"expected a font family such as "serif", got """#
        ),
        (#"{"text": "Hi", "at": 3, "size": 9}"#, "3", ".at", "expected 2 numbers [x, y], got a number"),
        (#"{"text": "Hi", "size": 9}"#, "{", "", #""text" needs "at" ([x, y], where the baseline starts)"#),
        (#"{"text": "Hi", "at": [0, 0]}"#, "{", "", #""text" needs "size" (the font size in points)"#),
        // Images
        (
            #"{"image": "red-4x4.png"}"#, "{", "",
            #""image" needs "rect" (4 numbers [x, y, width, height] or "bounds")"#
        ),
        (
            #"{"image": "red-4x4.png", "rect": "all"}"#, #""all""#, ".rect",
            #"expected 4 numbers [x, y, width, height] or "bounds", got "all""#
        ),
        (#"{"image": 7, "rect": "bounds"}"#, "7", ".image", "expected a string, got a number"),
        (
            #"{"image": "../secret.png", "rect": "bounds"}"#, #""../"#, ".image",
            #""../secret.png" is outside the scene's folder"#
        ),
        (
            #"{"image": "/etc/passwd", "rect": "bounds"}"#, #""/etc"#, ".image",
            #""/etc/passwd" is outside the scene's folder"#
        ),
    ])
    func badStep(step: String, marker: String, path: String, message: String) {
        #expect(drawProblems(step) == [problem(step, at: marker, "layers[0].draw[0]" + path, message)])
    }

    @Test func theBriefsExamplesInAFileOfSeveralLines() {
        let json = """
            {
                "size": [100, 100],
                "layers": [
                    {
                        "draw": [
                            {"strokeColor": [1, 0, 0, 1]},
                            {"curveTo": [1, 2, 3, 4]},
                            {"fillRectangle": "bounds"},
                            {"lineWidth": -3},
                            {"lineCap": "flat", "lineJoin": "round"},
                            {"text": "Hi"}
                        ]
                    }
                ]
            }
            """
        #expect(
            problems(json) == [
                "scene.json:7:29: layers[0].draw[1].curveTo: expected 6 numbers [c1x, c1y, c2x, c2y, x, y], got 4",
                #"scene.json:8:18: layers[0].draw[2]: unknown drawing operation "fillRectangle" "#
                    + #"(did you mean "fillRect"?)"#,
                "scene.json:9:31: layers[0].draw[3].lineWidth: must not be negative",
                #"scene.json:10:17: layers[0].draw[4]: a step has one operation, got "lineCap" and "lineJoin""#,
                #"scene.json:11:17: layers[0].draw[5]: "text" needs "at" ([x, y], where the baseline starts)"#,
                #"scene.json:11:17: layers[0].draw[5]: "text" needs "size" (the font size in points)"#,
            ])
    }

    @Test func everyBadStepOfEveryLayerIsReported() {
        let json = #"""
            {"size": [10, 10], "layers": [{"draw": [{"lineWidth": -1}, {"stroke": true}, {"fill": "odd"}]},
             {"sublayers": [{"draw": [{"moveTo": [0]}]}]}]}
            """#
        #expect(
            problems(json) == [
                "scene.json:1:55: layers[0].draw[0].lineWidth: must not be negative",
                #"scene.json:1:87: layers[0].draw[2].fill: unknown fill rule "odd" (expected "nonzero" or "evenodd")"#,
                "scene.json:2:38: layers[1].sublayers[0].draw[0].moveTo: expected 2 numbers [x, y], got 1",
            ])
    }

    @Test func aMissingImageIsFoundAtLoadTime() {
        let steps = #"{"image": "snowman.png", "rect": "bounds"}"#
        #expect(
            drawProblems(steps) == [
                problem(
                    steps, at: #""snowman"#, "layers[0].draw[0].image",
                    #""snowman.png" not found (looked for \#(Fixtures.path("snowman.png")))"#)
            ])
    }

    @Test func aMissingImageSuggestsACloseImageName() {
        let topLevel = #""images": {"snowman": "red-4x4.png"}, "#
        let steps = #"{"image": "snowmen", "rect": "bounds"}"#
        let column = #"{"size": [100, 100], "layers": [{"draw": [{"image": "#.count + topLevel.count + 1
        #expect(
            drawProblems(steps, topLevel: topLevel) == [
                #"scene.json:1:\#(column): layers[0].draw[0].image: "snowmen" not found "#
                    + #"(looked for \#(Fixtures.path("snowmen")); did you mean the image "snowman"?)"#
            ])
    }

    @Test func aSpriteFrameCannotBeDrawn() {
        let topLevel = #""spriteSheets": {"hero": "sheet.plist"}, "#
        let steps = #"{"image": "hero/a.png", "rect": "bounds"}"#
        let column = #"{"size": [100, 100], "layers": [{"draw": [{"image": "#.count + topLevel.count + 1
        #expect(
            drawProblems(steps, topLevel: topLevel) == [
                #"scene.json:1:\#(column): layers[0].draw[0].image: "hero/a.png" not found "#
                    + #"(looked for \#(Fixtures.path("hero/a.png")); a drawing step draws a whole image, "#
                    + "not a sprite frame)"
            ])
    }

    @Test func anUndecodableImageNamesTheFileAndTheDecodersReason() throws {
        var reason = ""
        do {
            _ = try ImageFile.size(ofFile: Fixtures.path("corrupt.png"))
        } catch {
            reason = "\(error)"
        }
        #expect(!reason.isEmpty)
        let steps = #"{"image": "corrupt.png", "rect": "bounds"}"#
        #expect(drawProblems(steps) == [problem(steps, at: #""corrupt"#, "layers[0].draw[0].image", reason)])
    }

    @Test func aNamedImageThatFailedIsReportedOnlyWhereItIsDeclared() {
        let json = #"""
            {"size": [10, 10], "images": {"gone": "gone.png"},
             "layers": [{"draw": [{"image": "gone", "rect": "bounds"}]}]}
            """#
        #expect(
            problems(json) == [
                #"scene.json:1:39: images.gone: "gone.png" not found (looked for \#(Fixtures.path("gone.png")))"#
            ])
    }

    @Test func drawMustBeAnArrayOfObjects() {
        #expect(
            problems(sceneWithLayer(#""draw": {"stroke": true}"#)) == [
                #"scene.json:1:42: layers[0].draw: expected an array of drawing steps "#
                    + #"such as [{"fillRect": "bounds"}], got an object"#
            ])
    }

    @Test func drawMayNotBeCombinedWithContents() {
        #expect(
            problems(sceneWithLayer(#""contents": "red-4x4.png", "draw": []"#)) == [
                #"scene.json:1:61: layers[0].draw: may not be combined with "contents" "#
                    + "(the drawing steps make the layer's contents)"
            ])
    }

    @Test func needsDisplayOnBoundsChangeIsABoolean() {
        #expect(
            problems(sceneWithLayer(#""needsDisplayOnBoundsChange": "yes""#)) == [
                "scene.json:1:64: layers[0].needsDisplayOnBoundsChange: expected true or false, got a string"
            ])
    }

    @Test func aMisspeltDrawKeyIsSuggested() {
        #expect(
            problems(sceneWithLayer(#""drwa": []"#)) == [
                #"scene.json:1:34: layers[0].drwa: unknown key (did you mean "draw"?)"#
            ])
    }

    @Test func drawingBeyondCairosRangeIsAPlanningErrorNamingTheLayersPlaceInTheFile() throws {
        let json = "{\"size\": [64, 64],\n \"layers\": [{\"frame\": [0, 0, 8, 8]},\n"
            + "  {\"frame\": [0, 0, 20, 60], \"draw\": [{\"fillEllipse\": [0, 0, 1e300, 30]}]}]}"
        let scene = try Scene.load(data: Data(json.utf8), baseDirectory: URL(fileURLWithPath: "/"),
                                   fileName: "scene.json")
        #expect(throws: PlanError.self) { _ = try Planner().plan(scene.root) }
        do {
            _ = try Planner().plan(scene.root)
        } catch {
            #expect("\(error)" == "the layer at layers[1] (scene.json:3:3): cannot draw its contents: an ellipse of "
                + "radius 5e+299 pixels is beyond the largest drawable radius (8388608 pixels)")
        }
    }
}
