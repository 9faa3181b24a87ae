import Foundation
import Lamina
import Testing

/// `draw` read into typed steps, and `needsDisplayOnBoundsChange` (docs/scene-format.md, "Drawing steps").
@Suite struct SceneDrawingTests {
    /// The steps of a layer whose `draw` is `json`, in a scene whose other top-level members are `topLevel`.
    private func steps(_ json: String, topLevel: String = "") throws -> [SceneDrawing.Step] {
        let scene = try loadScene(
            #"{"size": [100, 100], \#(topLevel) "layers": [{"bounds": [0, 0, 40, 30], "draw": \#(json)}]}"#)
        let layer = try #require(scene.root.sublayers?.first)
        let drawing = try #require(layer.ownedDelegate as? SceneDrawing)
        return drawing.steps
    }

    @Test func stateSteps() throws {
        let parsed = try steps(
            #"""
            [{"save": true}, {"restore": true}, {"translate": [1, -2.5]}, {"scale": [2, -0.5]}, {"rotate": 30},
             {"lineWidth": 0}, {"lineWidth": 2.5}, {"lineCap": "butt"}, {"lineCap": "round"},
             {"lineCap": "square"}, {"lineJoin": "miter"}, {"lineJoin": "round"}, {"lineJoin": "bevel"},
             {"dash": [4, 2, 1]}, {"dash": []}, {"dash": [0, 3]}, {"fillColor": "#FF000080"},
             {"strokeColor": [0, 0.5, 1, 1]}]
            """#)
        #expect(
            parsed == [
                .save, .restore, .translate(x: 1, y: -2.5), .scale(x: 2, y: -0.5), .rotate(degrees: 30),
                .lineWidth(0), .lineWidth(2.5), .lineCap(.butt), .lineCap(.round), .lineCap(.square),
                .lineJoin(.miter), .lineJoin(.round), .lineJoin(.bevel), .dash([4, 2, 1]), .dash([]), .dash([0, 3]),
                .fillColor(Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255)),
                .strokeColor(Color(red: 0, green: 0.5, blue: 1, alpha: 1)),
            ])
    }

    @Test func pathSteps() throws {
        let parsed = try steps(
            #"""
            [{"moveTo": [1, 2]}, {"lineTo": [3, 4.5]}, {"curveTo": [1, 2, 3, 4, 5, 6]}, {"quadTo": [7, 8, 9, 10]},
             {"arc": [10, 20, 5, 0, 90]}, {"arc": [10, 20, 5, 90, -45], "clockwise": true},
             {"clockwise": false, "arc": [1, 2, 0, 0, 360]}, {"closePath": true},
             {"rect": [1, 2, 3, 4]}, {"rect": "bounds"}, {"ellipse": [0, 0, 10, 5]}, {"ellipse": "bounds"},
             {"roundedRect": [1, 2, 30, 40, 5]}, {"roundedRect": [0, 0, 0, 0, 0]}]
            """#)
        #expect(
            parsed == [
                .moveTo(CGPoint(x: 1, y: 2)), .lineTo(CGPoint(x: 3, y: 4.5)),
                .curveTo(control1: CGPoint(x: 1, y: 2), control2: CGPoint(x: 3, y: 4), end: CGPoint(x: 5, y: 6)),
                .quadTo(control: CGPoint(x: 7, y: 8), end: CGPoint(x: 9, y: 10)),
                .arc(center: CGPoint(x: 10, y: 20), radius: 5, startDegrees: 0, endDegrees: 90, clockwise: false),
                .arc(center: CGPoint(x: 10, y: 20), radius: 5, startDegrees: 90, endDegrees: -45, clockwise: true),
                .arc(center: CGPoint(x: 1, y: 2), radius: 0, startDegrees: 0, endDegrees: 360, clockwise: false),
                .closePath,
                .rect(.rect(CGRect(x: 1, y: 2, width: 3, height: 4))), .rect(.bounds),
                .ellipse(.rect(CGRect(x: 0, y: 0, width: 10, height: 5))), .ellipse(.bounds),
                .roundedRect(CGRect(x: 1, y: 2, width: 30, height: 40), radius: 5),
                .roundedRect(.zero, radius: 0),
            ])
    }

    @Test func paintingSteps() throws {
        let parsed = try steps(
            #"""
            [{"fill": "nonzero"}, {"fill": "evenodd"}, {"stroke": true}, {"clip": "nonzero"}, {"clip": "evenodd"},
             {"fillRect": [1, 2, 3, 4]}, {"fillRect": "bounds"}, {"strokeRect": [0, 0, 5, 6]},
             {"strokeRect": "bounds"}, {"fillEllipse": [1, 1, 2, 2]}, {"fillEllipse": "bounds"},
             {"strokeEllipse": [0, 0, 0, 0]}, {"strokeEllipse": "bounds"}]
            """#)
        let r = { (x: CGFloat, y: CGFloat, w: CGFloat, h: CGFloat) in
            SceneDrawing.Rect.rect(CGRect(x: x, y: y, width: w, height: h))
        }
        #expect(
            parsed == [
                .fill(.winding), .fill(.evenOdd), .stroke, .clip(.winding), .clip(.evenOdd),
                .fillRect(r(1, 2, 3, 4)), .fillRect(.bounds), .strokeRect(r(0, 0, 5, 6)), .strokeRect(.bounds),
                .fillEllipse(r(1, 1, 2, 2)), .fillEllipse(.bounds), .strokeEllipse(r(0, 0, 0, 0)),
                .strokeEllipse(.bounds),
            ])
    }

    @Test func imageStepsByNameAndPathShareTheDecodedImage() throws {
        let scene = try loadScene(
            #"""
            {"size": [10, 10], "images": {"red": "red-4x4.png"},
             "layers": [
                {"draw": [{"image": "red", "rect": [1, 2, 3, 4]}, {"rect": "bounds", "image": "red-4x4.png"},
                          {"image": "blue-2x3.png", "rect": "bounds"}]},
                {"contents": "red"}
             ]}
            """#)
        let drawing = try #require(scene.root.sublayers![0].ownedDelegate as? SceneDrawing)
        let red = try #require(scene.images["red"])
        #expect(scene.root.sublayers![1].contentsImage === red)
        #expect(drawing.steps.count == 3)
        #expect(
            drawing.steps[0]
                == .image(.init(name: "red", image: red), in: .rect(CGRect(x: 1, y: 2, width: 3, height: 4))))
        #expect(drawing.steps[1] == .image(.init(name: "red-4x4.png", image: red), in: .bounds))
        guard case .image(let blue, in: .bounds) = drawing.steps[2] else {
            Issue.record("not an image step: \(drawing.steps[2])")
            return
        }
        #expect(blue.name == "blue-2x3.png")
        #expect(blue.image.width == 2 && blue.image.height == 3)
    }

    @Test func textSteps() throws {
        let parsed = try steps(
            #"""
            [{"text": "Hi", "at": [2, 20], "size": 12},
             {"font": "serif", "size": 9.5, "text": "Hé \"quoted\"", "at": [0, -1]},
             {"text": "", "at": [0, 0], "size": 1, "font": "DejaVu Sans Mono"}]
            """#)
        #expect(
            parsed == [
                .text("Hi", at: CGPoint(x: 2, y: 20), size: 12, font: "sans-serif"),
                .text("Hé \"quoted\"", at: CGPoint(x: 0, y: -1), size: 9.5, font: "serif"),
                .text("", at: .zero, size: 1, font: "DejaVu Sans Mono"),
            ])
    }

    @Test func theDelegateIsOwnedByTheLayerAndTheLayerIsMarkedForDrawing() throws {
        let scene = try loadScene(
            #"{"size": [10, 10], "layers": [{"draw": [{"stroke": true}]}, {"draw": []}, {}]}"#)
        let layers = scene.root.sublayers ?? []
        let drawing = try #require(layers[0].ownedDelegate as? SceneDrawing)
        #expect(layers[0].delegate === drawing)
        #expect(layers[0].needsDisplay())
        #expect(layers[0].displayCount == 0)
        // No drawing happens at load time; the renderer draws before planning.
        #expect(layers[0].contentsImage == nil)
        #expect((layers[1].ownedDelegate as? SceneDrawing)?.steps == [])
        #expect(layers[1].needsDisplay())
        #expect(layers[2].ownedDelegate == nil)
        #expect(layers[2].delegate == nil)
        #expect(!layers[2].needsDisplay())
    }

    @Test func theStepsLiveAsLongAsTheLayer() throws {
        weak var weakDrawing: SceneDrawing?
        var layer: Layer? = try loadLayer(sceneWithLayer(#""draw": [{"fillRect": "bounds"}]"#))
        weakDrawing = layer?.ownedDelegate as? SceneDrawing
        #expect(weakDrawing != nil)
        layer?.removeFromSuperlayer()
        #expect(weakDrawing != nil)
        #expect(layer?.delegate === weakDrawing)
        layer = nil
        #expect(weakDrawing == nil)
    }

    @Test func needsDisplayOnBoundsChange() throws {
        let scene = try loadScene(
            #"""
            {"size": [10, 10], "layers": [{"needsDisplayOnBoundsChange": true, "bounds": [0, 0, 5, 5]},
             {"needsDisplayOnBoundsChange": false}, {}]}
            """#)
        let layers = scene.root.sublayers ?? []
        #expect(layers.map(\.needsDisplayOnBoundsChange) == [true, false, false])
        // Setting the bounds while loading marks nothing: only `draw` marks a layer.
        #expect(!layers[0].needsDisplay())
        #expect(layers[0].bounds == CGRect(x: 0, y: 0, width: 5, height: 5))
    }

    @Test func rectResolvesBoundsAtDrawingTime() {
        let bounds = CGRect(x: 5, y: 6, width: 7, height: 8)
        #expect(SceneDrawing.Rect.bounds.resolved(in: bounds) == bounds)
        #expect(SceneDrawing.Rect.rect(.zero).resolved(in: bounds) == .zero)
    }
}
