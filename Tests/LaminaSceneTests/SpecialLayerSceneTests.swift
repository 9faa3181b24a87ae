import Foundation
import Lamina
import Testing

/// The layer types of docs/scene-format.md, "Layer types": each type's keys reach the model, absent keys keep
/// Core Animation's defaults.
@Suite struct SpecialLayerSceneTests {
    @Test func gradientKeys() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#"""
            "type": "gradient", "frame": [0, 0, 10, 10], "colors": ["#ff0000", [0, 0, 1, 0.5], "#00ff0080"],
            "locations": [0, 0.25, 1], "startPoint": [0, 0.5], "endPoint": [1, 0.5], "gradientType": "conic"
            """#)) as? GradientLayer)
        #expect(layer.gradientStyle.colors == [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1, alpha: 0.5),
                                 Color(hex: "#00ff0080")!])
        #expect(layer.locations == [0, 0.25, 1])
        #expect(layer.startPoint == CGPoint(x: 0, y: 0.5))
        #expect(layer.endPoint == CGPoint(x: 1, y: 0.5))
        #expect(layer.type == .conic)
    }

    @Test func gradientDefaults() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#""type": "gradient""#)) as? GradientLayer)
        #expect(layer.gradientStyle.colors.isEmpty)
        #expect(layer.locations == nil)
        #expect(layer.startPoint == CGPoint(x: 0.5, y: 0))
        #expect(layer.endPoint == CGPoint(x: 0.5, y: 1))
        #expect(layer.type == .axial)
    }

    @Test func shapeKeys() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#"""
            "type": "shape", "bounds": [0, 0, 20, 10],
            "path": [{"moveTo": [1, 2]}, {"lineTo": [0.5, 0.5]}, {"closePath": true}, {"rect": "bounds"}],
            "fillColor": null, "fillRule": "evenOdd", "strokeColor": "#0000ff", "lineWidth": 3, "lineCap": "round",
            "lineJoin": "bevel", "miterLimit": 4, "lineDashPattern": [2, 1], "lineDashPhase": 0.5,
            "strokeStart": 0.25, "strokeEnd": 0.75
            """#)) as? ShapeLayer)
        // Points in the layer's space; "bounds" is the layer's bounds, as in shadowPath's steps.
        #expect(layer.path?.path == Path([.move(to: CGPoint(x: 1, y: 2)), .line(to: CGPoint(x: 0.5, y: 0.5)), .close,
                                    .rect(CGRect(x: 0, y: 0, width: 20, height: 10))]))
        #expect(layer.fillColor == nil)
        #expect(layer.fillRule == .evenOdd)
        #expect(layer.strokeColor == Color(red: 0, green: 0, blue: 1))
        #expect(layer.lineWidth == 3)
        #expect(layer.lineCap == .round)
        #expect(layer.lineJoin == .bevel)
        #expect(layer.miterLimit == 4)
        #expect(layer.lineDashPattern == [2, 1])
        #expect(layer.lineDashPhase == 0.5)
        #expect(layer.strokeStart == 0.25)
        #expect(layer.strokeEnd == 0.75)
    }

    @Test func shapeDefaults() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#""type": "shape""#)) as? ShapeLayer)
        #expect(layer.path == nil)
        #expect(layer.fillColor == Color(red: 0, green: 0, blue: 0))
        #expect(layer.fillRule == .nonZero)
        #expect(layer.strokeColor == nil)
        #expect(layer.lineWidth == 1)
        #expect(layer.lineCap == .butt)
        #expect(layer.lineJoin == .miter)
        #expect(layer.miterLimit == 10)
        #expect(layer.lineDashPattern == nil)
        #expect(layer.lineDashPhase == 0)
        #expect(layer.strokeStart == 0)
        #expect(layer.strokeEnd == 1)
    }

    @Test func textKeys() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#"""
            "type": "text", "string": "Hello\nworld", "font": "DejaVu Serif", "fontSize": 12,
            "foregroundColor": "#102030", "alignmentMode": "center", "isWrapped": true, "truncationMode": "middle"
            """#)) as? TextLayer)
        #expect(layer.textStyle.string == "Hello\nworld")
        #expect(layer.font as? String == "DejaVu Serif")
        #expect(layer.fontSize == 12)
        #expect(layer.foregroundColor == Color(hex: "#102030")!)
        #expect(layer.alignmentMode == .center)
        #expect(layer.isWrapped)
        #expect(layer.truncationMode == .middle)
    }

    @Test func textDefaults() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#""type": "text""#)) as? TextLayer)
        #expect(layer.textStyle.string == "")
        #expect(layer.font as? String == "sans-serif")
        #expect(layer.fontSize == 36)
        #expect(layer.foregroundColor == Color(red: 1, green: 1, blue: 1))
        #expect(layer.alignmentMode == .natural)
        #expect(!layer.isWrapped)
        #expect(layer.truncationMode == TextLayerTruncationMode.none)
    }

    @Test func replicatorKeys() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#"""
            "type": "replicator", "instanceCount": 5, "instanceTransform": [{"translate": [10, 0]}],
            "instanceColor": "#ff8000", "instanceRedOffset": -0.1, "instanceGreenOffset": 0.2,
            "instanceBlueOffset": 0.3, "instanceAlphaOffset": -0.25, "instanceDelay": 0.5
            """#)) as? ReplicatorLayer)
        let translate = try loadLayer(sceneWithLayer(#""transform": [{"translate": [10, 0]}]"#)).transform
        #expect(layer.instanceCount == 5)
        #expect(layer.instanceTransform == translate)
        #expect(layer.instanceColor == Color(hex: "#ff8000")!)
        #expect(layer.instanceRedOffset == -0.1)
        #expect(layer.instanceGreenOffset == 0.2)
        #expect(layer.instanceBlueOffset == 0.3)
        #expect(layer.instanceAlphaOffset == -0.25)
        #expect(layer.instanceDelay == 0.5)
    }

    @Test func replicatorDefaults() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#""type": "replicator""#)) as? ReplicatorLayer)
        #expect(layer.instanceCount == 1)
        #expect(layer.instanceTransform == .identity)
        #expect(layer.instanceColor == Color(red: 1, green: 1, blue: 1))
        #expect([layer.instanceRedOffset, layer.instanceGreenOffset, layer.instanceBlueOffset,
                 layer.instanceAlphaOffset] == [0, 0, 0, 0])
        #expect(layer.instanceDelay == 0)
    }

    @Test func noTypeIsAPlainLayer() throws {
        let layer = try loadLayer(sceneWithLayer(#""opacity": 0.5"#))
        #expect(!(layer is GradientLayer || layer is ShapeLayer || layer is TextLayer || layer is ReplicatorLayer))
    }

    /// A timeline entry sets a specialised layer's keys (and a control line does the same).
    @Test func timelineSetsTypeKeys() throws {
        let scene = try loadScene(#"""
            {"size": [10, 10], "layers": [{"name": "s", "type": "shape", "strokeEnd": 0.5},
              {"name": "t", "type": "text", "string": "a"}],
             "timeline": [{"at": 1, "layer": "s", "set": {"strokeEnd": 0.25}, "disableActions": true}]}
            """#)
        let shape = try #require(scene.root.sublayers![0] as? ShapeLayer)
        let text = try #require(scene.root.sublayers![1] as? TextLayer)
        scene.advance(to: 2)
        #expect(shape.strokeEnd == 0.25)
        try scene.apply(controlLine: #"{"layer": "t", "set": {"string": "4.99"}, "disableActions": true}"#,
                        lineNumber: 1, at: 2)
        #expect(text.textStyle.string == "4.99")
    }

    // MARK: Animations

    /// A strokeEnd animation presents the interpolated fraction; a keyframe animation of lineDashPattern
    /// interpolates each length.
    @Test func shapeAnimationsEvaluate() throws {
        let layer = try loadLayer(sceneWithLayer(#"""
            "type": "shape", "bounds": [0, 0, 20, 20], "animations": [
              {"type": "basic", "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 2},
              {"type": "keyframe", "keyPath": "lineDashPattern", "values": [[2, 2], [4, 6], [8, 10]], "duration": 2},
              {"type": "basic", "keyPath": "fillColor", "fromValue": "#000000", "toValue": "#ff0000", "duration": 2}]
            """#))
        let presented = try #require(layer.presentationSnapshot(at: 0.5)?.state.shape)
        #expect(abs(presented.strokeEnd - 0.25) < 1e-9)
        // Keyframes at 0, 1, 2 s: halfway from [2, 2] to [4, 6].
        let dashes = try #require(presented.lineDashPattern)
        #expect(dashes.count == 2)
        #expect(abs(dashes[0] - 3) < 1e-9 && abs(dashes[1] - 4) < 1e-9)
        let fill = try #require(presented.fillColor)
        #expect(abs(fill.red - 0.25) < 1e-6 && fill.green == 0)
    }

    /// A path animation between paths of the same elements interpolates the points; "bounds" is the layer's.
    @Test func pathAnimationEvaluates() throws {
        let layer = try loadLayer(sceneWithLayer(#"""
            "type": "shape", "bounds": [0, 0, 20, 10], "path": [{"moveTo": [0, 0]}, {"lineTo": [10, 0]}],
            "animations": [{"type": "basic", "keyPath": "path", "toValue": [{"moveTo": [0, 10]}, {"lineTo": [20, 10]}],
              "duration": 1}]
            """#))
        let path = try #require(layer.presentationSnapshot(at: 0.5)?.state.shape?.path)
        #expect(path == Path([.move(to: CGPoint(x: 0, y: 5)), .line(to: CGPoint(x: 15, y: 5))]))
    }

    /// A colors animation interpolates each colour; locations and startPoint.x animate as numbers.
    @Test func gradientAnimationsEvaluate() throws {
        let layer = try loadLayer(sceneWithLayer(#"""
            "type": "gradient", "colors": ["#000000", "#ffffff"], "animations": [
              {"type": "basic", "keyPath": "colors", "fromValue": ["#000000", "#ffffff"],
               "toValue": ["#ff0000", "#0000ff"], "duration": 1},
              {"type": "keyframe", "keyPath": "locations", "values": [[0, 1], [0.5, 1]], "duration": 1},
              {"type": "basic", "keyPath": "startPoint.x", "fromValue": 0, "toValue": 1, "duration": 1}]
            """#))
        let presented = try #require(layer.presentationSnapshot(at: 0.5)?.state.gradient)
        #expect(presented.colors.count == 2)
        let a = presented.colors[0], b = presented.colors[1]
        #expect(abs(a.red - 0.5) < 1e-6 && a.green == 0 && a.blue == 0)
        #expect(abs(b.red - 0.5) < 1e-6 && abs(b.green - 0.5) < 1e-6 && b.blue == 1)
        let locations = try #require(presented.locations)
        #expect(abs(locations[0] - 0.25) < 1e-9 && locations[1] == 1)
        #expect(abs(presented.startPoint.x - 0.5) < 1e-9)
    }

    /// Replicator and text key paths: instanceTransform.translation.x, instanceAlphaOffset, fontSize.
    @Test func replicatorAndTextAnimationsEvaluate() throws {
        let scene = try loadScene(#"""
            {"size": [10, 10], "layers": [
             {"type": "replicator", "animations": [
              {"type": "basic", "keyPath": "instanceTransform.translation.x", "fromValue": 0, "toValue": 40, "duration": 1},
              {"type": "basic", "keyPath": "instanceAlphaOffset", "fromValue": 0, "toValue": -0.5, "duration": 1}]},
             {"type": "text", "animations": [
              {"type": "basic", "keyPath": "fontSize", "fromValue": 10, "toValue": 20, "duration": 1},
              {"type": "basic", "keyPath": "foregroundColor", "fromValue": "#000000", "toValue": "#ffffff", "duration": 1}]}
            ]}
            """#)
        let replicator = try #require(scene.root.sublayers![0].presentationSnapshot(at: 0.25)?.state.replicator)
        #expect(abs(replicator.instanceTransform.m41 - 10) < 1e-9)
        #expect(abs(replicator.instanceAlphaOffset - -0.125) < 1e-6)
        let text = try #require(scene.root.sublayers![1].presentationSnapshot(at: 0.25)?.state.text)
        #expect(abs(text.fontSize - 12.5) < 1e-9)
        #expect(abs(text.foregroundColor.red - 0.25) < 1e-6)
    }
}
