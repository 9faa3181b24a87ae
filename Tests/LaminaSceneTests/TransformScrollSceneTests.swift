import Foundation
import Lamina
import Testing

/// The `transform` and `scroll` layer types of docs/scene-format.md: the classes they build, `scrollMode`, the
/// bounds' origin taken as given, and their errors with line, column and JSON path.
@Suite struct TransformScrollSceneTests {
    @Test func transformTypeBuildsATransformLayer() throws {
        let layer = try loadLayer(sceneWithLayer(#"""
            "type": "transform", "frame": [0, 0, 10, 10], "sublayers": [{"frame": [0, 0, 5, 5]}]
            """#))
        #expect(layer is TransformLayer)
        #expect(layer.sublayers?.count == 1)
    }

    @Test func scrollKeysAndDefaults() throws {
        let plain = try #require(try loadLayer(sceneWithLayer(#""type": "scroll""#)) as? ScrollLayer)
        #expect(plain.scrollMode == .both && plain.masksToBounds)
        for mode in ["none", "horizontally", "vertically", "both"] {
            let layer = try #require(try loadLayer(sceneWithLayer(#"""
                "type": "scroll", "scrollMode": "\#(mode)", "bounds": [40, -30, 100, 80]
                """#)) as? ScrollLayer)
            #expect(layer.scrollMode.rawValue == mode)
            // The origin is taken as given, whatever the mode.
            #expect(layer.bounds == CGRect(x: 40, y: -30, width: 100, height: 80), "\(mode)")
        }
        let unclipped = try #require(try loadLayer(sceneWithLayer(#""type": "scroll", "masksToBounds": false"#))
            as? ScrollLayer)
        #expect(!unclipped.masksToBounds)
    }

    @Test func aTimelineSetsTheScrollMode() throws {
        let scene = try loadScene(#"""
            {"size": [100, 100], "layers": [{"name": "s", "type": "scroll", "scrollMode": "none"}],
             "timeline": [{"at": 1, "layer": "s", "set": {"scrollMode": "vertically"}}]}
            """#)
        let layer = try #require(scene.root.sublayers?.first as? ScrollLayer)
        #expect(layer.scrollMode == .none)
        scene.advance(to: 2)
        #expect(layer.scrollMode == .vertically)
    }

    @Test func scrollModeErrors() {
        #expect(problems(sceneWithLayer(#""type": "scroll", "scrollMode": "vertical""#)) == [
            #"scene.json:1:66: layers[0].scrollMode: unknown scroll mode "vertical" (did you mean "vertically"?)"#
        ])
        #expect(problems(sceneWithLayer(#""type": "scroll", "scrollMode": "sideways""#)) == [
            #"scene.json:1:66: layers[0].scrollMode: unknown scroll mode "sideways" (expected one of "none", "horizontally", "vertically" or "both")"#
        ])
        #expect(problems(sceneWithLayer(#""type": "scroll", "scrollMode": 1"#)).count == 1)
        for type in ["transform", "replicator", nil] {
            let typeMember = type.map { #""type": "\#($0)", "# } ?? ""
            #expect(problems(sceneWithLayer(typeMember + #""scrollMode": "both""#)) == [
                "scene.json:1:\(34 + typeMember.count): layers[0].scrollMode: only a scroll layer has this key"
            ], "on a \(type ?? "plain") layer")
        }
    }
}
