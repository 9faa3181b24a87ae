import Foundation
import Lamina
import Testing

/// Emitter layers in scene files (docs/scene-format.md, "Layer types"): every key reaches the model, absent keys
/// keep Core Animation's defaults, and each bad value is a named error with its place.
@Suite struct EmitterSceneTests {
    @Test func layerAndCellKeys() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#"""
            "type": "emitter", "frame": [0, 0, 100, 100], "birthRate": 2, "lifetime": 0.5,
            "emitterPosition": [10, 20], "emitterZPosition": 3, "emitterSize": [40, 30], "emitterDepth": 5,
            "emitterShape": "cuboid", "emitterMode": "surface", "renderMode": "additive", "preservesDepth": true,
            "velocity": 1.5, "scale": 0.5, "spin": 2, "seed": 42,
            "emitterCells": [{
              "name": "spark", "isEnabled": false, "birthRate": 10, "lifetime": 2, "lifetimeRange": 0.5,
              "emissionLatitude": 0.1, "emissionLongitude": 3.14, "emissionRange": 0.5, "velocity": 30,
              "velocityRange": 5, "xAcceleration": 1, "yAcceleration": 9.8, "zAcceleration": -1, "scale": 0.25,
              "scaleRange": 0.1, "scaleSpeed": -0.1, "spin": 1, "spinRange": 0.5, "color": "#ff800080",
              "redRange": 0.1, "greenRange": 0.2, "blueRange": 0.3, "alphaRange": 0.4, "redSpeed": -0.1,
              "greenSpeed": -0.2, "blueSpeed": -0.3, "alphaSpeed": -0.4, "contents": "red-4x4.png",
              "contentsRect": [0, 0, 0.5, 0.5], "contentsScale": 2, "minificationFilter": "nearest",
              "magnificationFilter": "nearest", "minificationFilterBias": 0.5,
              "beginTime": 1, "duration": 3, "speed": 2, "timeOffset": 0.5, "repeatCount": 2, "repeatDuration": 0,
              "autoreverses": true, "fillMode": "both",
              "emitterCells": [{"birthRate": 1, "lifetime": 1}]
            }]
            """#)) as? EmitterLayer)
        let style = layer.emitterStyle
        #expect(style.birthRate == 2 && style.lifetime == 0.5 && style.emitterPosition == CGPoint(x: 10, y: 20))
        #expect(style.emitterZPosition == 3 && style.emitterSize == CGSize(width: 40, height: 30) && style.emitterDepth == 5)
        #expect(style.emitterShape == .cuboid && style.emitterMode == .surface && style.renderMode == .additive)
        #expect(style.preservesDepth && style.velocity == 1.5 && style.scale == 0.5 && style.spin == 2 && style.seed == 42)
        let cell = try #require(style.emitterCells.first)
        #expect(cell.name == "spark" && !cell.isEnabled && cell.birthRate == 10 && cell.lifetime == 2)
        #expect(cell.lifetimeRange == 0.5 && cell.emissionLatitude == 0.1 && cell.emissionLongitude == 3.14)
        #expect(cell.emissionRange == 0.5 && cell.velocity == 30 && cell.velocityRange == 5)
        #expect(cell.xAcceleration == 1 && cell.yAcceleration == 9.8 && cell.zAcceleration == -1)
        #expect(cell.scale == 0.25 && cell.scaleRange == 0.1 && cell.scaleSpeed == -0.1 && cell.spin == 1)
        #expect(cell.spinRange == 0.5 && cell.color == Color(hex: "#ff800080")!)
        #expect(cell.redRange == 0.1 && cell.greenRange == 0.2 && cell.blueRange == 0.3 && cell.alphaRange == 0.4)
        #expect(cell.redSpeed == -0.1 && cell.greenSpeed == -0.2 && cell.blueSpeed == -0.3 && cell.alphaSpeed == -0.4)
        #expect(cell.contents?.width == 4 && cell.contentsRect == CGRect(x: 0, y: 0, width: 0.5, height: 0.5))
        #expect(cell.contentsScale == 2 && cell.minificationFilter == .nearest && cell.magnificationFilter == .nearest)
        #expect(cell.minificationFilterBias == 0.5)
        #expect(cell.timing == MediaTiming(beginTime: 1, duration: 3, speed: 2, timeOffset: 0.5, repeatCount: 2,
                                           autoreverses: true, fillMode: .both))
        #expect(cell.emitterCells.count == 1 && cell.emitterCells[0].birthRate == 1)
        // The Apple API sees the same cells.
        #expect(layer.emitterCells?.first?.name == "spark" && layer.emitterCells?.first?.emitterCells?.count == 1)
    }

    @Test func defaultsAreCoreAnimations() throws {
        let layer = try #require(try loadLayer(sceneWithLayer(#""type": "emitter", "emitterCells": [{}]"#))
            as? EmitterLayer)
        let style = layer.emitterStyle
        #expect(style.birthRate == 1 && style.lifetime == 1 && style.emitterShape == .point && style.emitterMode == .volume)
        #expect(style.renderMode == .unordered && style.seed == 0 && style.velocity == 1 && style.scale == 1)
        let cell = try #require(style.emitterCells.first)
        // A cell without contents is valid (it draws nothing).
        #expect(cell.contents == nil && cell.birthRate == 0 && cell.scale == 1 && cell.color == .white && cell.isEnabled)
    }

    @Test func badValuesAreNamed() {
        let json = #"""
            {"size": [10, 10], "layers": [
             {"type": "emitter", "birthRate": -1, "emitterShape": "cirle", "emitterSize": [-1, 2], "seed": 1.5},
             {"type": "emitter", "emitterCells": [{"birthRate": -2, "lifetme": 1, "color": "red"}]},
             {"type": "emitter", "emitterCells": {"birthRate": 1}},
             {"type": "emitter", "emitterCells": [{"birthRate": 1000000, "lifetime": 1}]},
             {"emitterPosition": [1, 1]},
             {"type": "emitter", "renderMode": "additiv", "emitterMode": "edge"}
            ]}
            """#
        #expect(problems(json) == [
            "scene.json:2:35: layers[0].birthRate: must not be negative",
            #"scene.json:2:55: layers[0].emitterShape: unknown emitter shape "cirle" (did you mean "circle"?)"#,
            "scene.json:2:79: layers[0].emitterSize: width and height must not be negative",
            "scene.json:2:96: layers[0].seed: must be a whole number from 0 to 4294967295",
            "scene.json:3:53: layers[1].emitterCells[0].birthRate: must not be negative",
            #"scene.json:3:57: layers[1].emitterCells[0].lifetme: unknown key (did you mean "lifetime"?)"#,
            ##"scene.json:3:80: layers[1].emitterCells[0].color: expected a colour: "#RRGGBB", "#RRGGBBAA" or [r, g, b, a] with numbers in 0...1, got "red""##,
            "scene.json:4:38: layers[2].emitterCells: expected an array of emitter cells, got an object",
            "scene.json:5:38: layers[3].emitterCells: keep about 1000000 particles alive (birthRate x lifetime, times the layer's, with sub-cells), over the limit of 100000 per emitter layer",
            "scene.json:6:3: layers[4].emitterPosition: only an emitter layer has this key",
            #"scene.json:7:36: layers[5].renderMode: unknown render mode "additiv" (did you mean "additive"?)"#,
            #"scene.json:7:62: layers[5].emitterMode: unknown emitter mode "edge" (expected one of "points", "outline", "surface" or "volume")"#,
        ])
    }

    @Test func nestingDeeperThanTheLimitIsAnError() {
        var cells = #"[{"birthRate": 1, "lifetime": 1}]"#
        for _ in 0..<EmitterStyle.mostCellDepth { cells = #"[{"birthRate": 1, "lifetime": 1, "emitterCells": \#(cells)}]"# }
        let found = problems(sceneWithLayer(#""type": "emitter", "emitterCells": \#(cells)"#))
        #expect(found.count == 1)
        #expect(found.first?.contains("cells nest 5 deep, over the limit of 4") == true, "\(found)")
    }
}
