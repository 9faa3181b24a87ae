import Foundation
import Lamina
import Testing

/// Tiled layers in scene files (docs/scene-format.md, "Layer types"): the keys reach the model, absent keys keep
/// Core Animation's defaults, and bad values are named with their line, column and JSON path.
@Suite struct TiledLayerSceneTests {
    @Test func keys() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#"""
            "type": "tiled", "frame": [0, 0, 100, 100], "tileSize": [128, 64], "levelsOfDetail": 4,
            "levelsOfDetailBias": 2, "fadeDuration": 0.5, "draw": [{"fillRect": "bounds"}]
            """#)) as? TiledLayer)
        #expect(layer.tileSize == CGSize(width: 128, height: 64))
        #expect(layer.levelsOfDetail == 4)
        #expect(layer.levelsOfDetailBias == 2)
        #expect(layer.fadeDuration == 0.5)
        #expect(layer.delegate is SceneDrawing)
        // Small and fractional sizes are taken (drawn rounded, at least 16 pixels a side).
        let small = try #require(try loadLayer(sceneWithLayer(#""type": "tiled", "tileSize": [8, 100.5]"#)) as? TiledLayer)
        #expect(small.tileSize == CGSize(width: 8, height: 100.5))
    }

    @Test func defaults() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#""type": "tiled""#)) as? TiledLayer)
        #expect(layer.tileSize == CGSize(width: 256, height: 256))
        #expect(layer.levelsOfDetail == 1)
        #expect(layer.levelsOfDetailBias == 0)
        #expect(layer.fadeDuration == 0.25)
    }

    @Test func badValuesAreNamed() {
        let cases: [(String, String)] = [
            (#""levelsOfDetail": 0"#, "scene.json:1:69: layers[0].levelsOfDetail: must be a whole number from 1 to 30, got 0"),
            (#""levelsOfDetail": 31"#, "scene.json:1:69: layers[0].levelsOfDetail: must be a whole number from 1 to 30, got 31"),
            (#""levelsOfDetailBias": 1.5"#,
             "scene.json:1:73: layers[0].levelsOfDetailBias: must be a whole number from 0 to 16, got 1.5"),
            (#""levelsOfDetailBias": 17"#,
             "scene.json:1:73: layers[0].levelsOfDetailBias: must be a whole number from 0 to 16, got 17"),
            (#""tileSize": [0, 256]"#,
             "scene.json:1:63: layers[0].tileSize: width must be a positive number of pixels up to 2048, got 0"),
            (#""tileSize": [256, 4096]"#,
             "scene.json:1:63: layers[0].tileSize: height must be a positive number of pixels up to 2048, got 4096"),
            (#""tileSize": 256"#,
             "scene.json:1:63: layers[0].tileSize: expected 2 numbers [width, height], got a number"),
            (#""fadeDuration": -1"#, "scene.json:1:67: layers[0].fadeDuration: must not be negative"),
        ]
        for (member, message) in cases {
            #expect(problems(sceneWithLayer(#""type": "tiled", "# + member)) == [message], "\(member)")
        }
    }

    @Test func aTimelineSetsTiledKeys() throws {
        let scene = try loadScene(#"""
            {"size": [10, 10], "layers": [{"name": "map", "type": "tiled", "levelsOfDetail": 2}],
             "timeline": [{"at": 1, "layer": "map", "set": {"levelsOfDetail": 5, "tileSize": [32, 32]}}]}
            """#)
        let layer = try #require(scene.root.sublayers?.first as? TiledLayer)
        #expect(layer.levelsOfDetail == 2)
        scene.advance(to: 1)
        #expect(layer.levelsOfDetail == 5)
        #expect(layer.tileSize == CGSize(width: 32, height: 32))
    }
}
