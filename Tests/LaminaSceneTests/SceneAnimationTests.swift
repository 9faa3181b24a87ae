import Foundation
import Lamina
import Testing

@testable import LaminaScene

/// `animations` on layers and the layer timing keys: every key lands in the Animation objects with the Swift type
/// of its key path.
@Suite struct SceneAnimationTests {
    /// The animations attached to the first layer of a scene whose layer has `members`.
    private func animations(_ members: String) throws -> (Layer, [String: Animation]) {
        let layer = try loadLayer(sceneWithLayer(members))
        var result: [String: Animation] = [:]
        for key in layer.animationKeys() ?? [] { result[key] = layer.animation(forKey: key) }
        return (layer, result)
    }

    @Test func basicAnimationKeysAndTiming() throws {
        let (_, found) = try animations(#"""
            "animations": [{"type": "basic", "name": "move", "keyPath": "position", "fromValue": [1, 2],
              "toValue": [30, 40], "duration": 2, "beginTime": 0.5, "speed": 2, "timeOffset": 0.25,
              "repeatCount": 2.5, "autoreverses": true, "fillMode": "both", "removedOnCompletion": false,
              "additive": true, "cumulative": true, "timingFunction": "easeIn"}]
            """#)
        let move = try #require(found["move"] as? BasicAnimation)
        #expect(move.keyPath == "position")
        #expect(move.fromValue as? CGPoint == CGPoint(x: 1, y: 2))
        #expect(move.toValue as? CGPoint == CGPoint(x: 30, y: 40))
        #expect(move.byValue == nil)
        #expect(move.duration == 2 && move.beginTime == 0.5 && move.speed == 2 && move.timeOffset == 0.25)
        #expect(move.repeatCount == 2.5 && move.autoreverses && move.fillMode == .both)
        #expect(!move.isRemovedOnCompletion && move.isAdditive && move.isCumulative)
        #expect(move.timingFunction == MediaTimingFunction(name: .easeIn))
    }

    @Test func valuesHaveTheTypeOfTheKeyPath() throws {
        let (_, found) = try animations(#"""
            "animations": [
              {"type": "basic", "name": "o", "keyPath": "opacity", "toValue": 0.25},
              {"type": "basic", "name": "c", "keyPath": "backgroundColor", "fromValue": "#FF0000", "toValue": [0, 0, 1, 0.5]},
              {"type": "basic", "name": "b", "keyPath": "bounds", "byValue": [0, 0, 10, 20]},
              {"type": "basic", "name": "s", "keyPath": "shadowOffset", "toValue": [3, 4]},
              {"type": "basic", "name": "t", "keyPath": "transform", "toValue": [{"scale": [2, 3]}]},
              {"type": "basic", "name": "r", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 720},
              {"type": "basic", "name": "tr", "keyPath": "transform.translation", "toValue": [5, 6]},
              {"type": "basic", "name": "sc", "keyPath": "transform.scale", "toValue": 2},
              {"type": "basic", "name": "h", "keyPath": "hidden", "toValue": true},
              {"type": "basic", "name": "img", "keyPath": "contents", "toValue": "red-4x4.png"},
              {"type": "basic", "name": "a", "keyPath": "repeatCount", "toValue": 1, "repeatCount": "infinity"}
            ]
            """#.replacingOccurrences(of: #""keyPath": "repeatCount""#, with: #""keyPath": "zPosition""#))
        func basic(_ key: String) throws -> BasicAnimation { try #require(found[key] as? BasicAnimation) }
        #expect(try basic("o").toValue as? Double == 0.25)
        #expect(try basic("c").fromValue as? Color == Color(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(try basic("c").toValue as? Color == Color(red: 0, green: 0, blue: 1, alpha: 0.5))
        #expect(try basic("b").byValue as? CGRect == CGRect(x: 0, y: 0, width: 10, height: 20))
        #expect(try basic("s").toValue as? CGSize == CGSize(width: 3, height: 4))
        #expect(try basic("t").toValue as? Transform3D == Transform3D(scaleX: 2, y: 3, z: 1))
        // Degrees in the file, radians in the API, not reduced to one turn.
        #expect(try basic("r").fromValue as? Double == 0)
        #expect(abs(try #require(try basic("r").toValue as? Double) - 4 * .pi) < 1e-12)
        #expect(try basic("tr").toValue as? CGSize == CGSize(width: 5, height: 6))
        #expect(try basic("sc").toValue as? Double == 2)
        #expect(try basic("h").toValue as? Bool == true)
        let image = try #require(try basic("img").toValue as? Image)
        #expect(image.width == 4)
        #expect(try basic("a").repeatCount == .infinity)
    }

    /// A positive angle in the file turns clockwise on screen, as the `rotate` step does: the presentation's
    /// transform at the end equals the step's matrix.
    @Test func rotationDegreesTurnLikeTheRotateStep() throws {
        let layer = try loadLayer(sceneWithLayer(#"""
            "frame": [0, 0, 10, 10], "animations": [{"type": "basic", "keyPath": "transform.rotation.z",
              "fromValue": 0, "toValue": 30, "duration": 1, "fillMode": "forwards", "removedOnCompletion": false}]
            """#))
        let stepped = try loadLayer(sceneWithLayer(#""transform": [{"rotate": 30}]"#))
        let presented = try #require(layer.presentationSnapshot(at: 2))
        let a = presented.transform, b = stepped.transform
        for (x, y) in zip([a.m11, a.m12, a.m21, a.m22], [b.m11, b.m12, b.m21, b.m22]) { #expect(abs(x - y) < 1e-9) }
    }

    @Test func keyframeKeys() throws {
        let (_, found) = try animations(#"""
            "animations": [
              {"type": "keyframe", "name": "k", "keyPath": "position.x", "values": [0, 10, 40],
               "keyTimes": [0, 0.25, 1], "timingFunctions": ["easeOut", [0.1, 0.2, 0.3, 0.4]],
               "calculationMode": "cubic", "duration": 3},
              {"type": "keyframe", "name": "d", "keyPath": "opacity", "values": [1, 0.5], "keyTimes": [0, 0.5, 1],
               "calculationMode": "discrete"},
              {"type": "keyframe", "name": "p", "keyPath": "position", "path": [{"moveTo": [0, 0]},
               {"lineTo": [50, 0]}], "rotationMode": "autoReverse"}
            ]
            """#)
        let k = try #require(found["k"] as? KeyframeAnimation)
        #expect(k.values?.compactMap { $0 as? Double } == [0, 10, 40])
        #expect(k.keyTimes == [0, 0.25, 1])
        #expect(k.timingFunctions == [MediaTimingFunction(name: .easeOut),
                                      MediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 0.4)])
        #expect(k.calculationMode == .cubic && k.duration == 3)
        let d = try #require(found["d"] as? KeyframeAnimation)
        #expect(d.calculationMode == .discrete && d.keyTimes == [0, 0.5, 1])
        let p = try #require(found["p"] as? KeyframeAnimation)
        #expect(p.path?.path.elements == [.move(to: CGPoint(x: 0, y: 0)), .line(to: CGPoint(x: 50, y: 0))])
        #expect(p.rotationMode == .rotateAutoReverse && p.values == nil)
    }

    @Test func springGroupAndLayerTiming() throws {
        let (layer, found) = try animations(#"""
            "beginTime": 1, "speed": 0.5, "timeOffset": 2,
            "animations": [
              {"type": "spring", "name": "s", "keyPath": "position.y", "fromValue": 0, "toValue": 10,
               "mass": 2, "stiffness": 300, "damping": 5, "initialVelocity": -1, "duration": 4},
              {"type": "group", "name": "g", "duration": 2, "animations": [
                {"type": "basic", "keyPath": "opacity", "toValue": 0},
                {"type": "keyframe", "keyPath": "cornerRadius", "values": [0, 5]}]}
            ]
            """#)
        #expect(layer.beginTime == 1 && layer.speed == 0.5 && layer.timeOffset == 2)
        let s = try #require(found["s"] as? SpringAnimation)
        #expect(s.mass == 2 && s.stiffness == 300 && s.damping == 5 && s.initialVelocity == -1 && s.duration == 4)
        #expect(s.toValue as? Double == 10)
        let g = try #require(found["g"] as? AnimationGroup)
        #expect(g.animations?.count == 2 && g.duration == 2)
        #expect((g.animations?[0] as? BasicAnimation)?.keyPath == "opacity")
        #expect((g.animations?[1] as? KeyframeAnimation)?.keyPath == "cornerRadius")
    }

    /// Sprite frames animate contentsRect over their sheet: a flip-book.
    @Test func spriteFramesBecomeAContentsRectAnimation() throws {
        let scene = try loadScene(#"""
            {"size": [100, 100], "spriteSheets": {"hero": "sheet.plist"},
             "layers": [{"frame": [0, 0, 20, 20], "animations": [{"type": "keyframe", "name": "walk",
               "keyPath": "contents", "values": ["hero/idle.png", "hero/trimmed.png"], "calculationMode": "discrete"}]}]}
            """#)
        let layer = try #require(scene.root.sublayers?.first)
        let walk = try #require(layer.animation(forKey: "walk") as? KeyframeAnimation)
        #expect(walk.keyPath == "contentsRect")
        #expect(walk.values?.count == 2 && walk.values?.allSatisfy { $0 is CGRect } == true)
        #expect(layer.contents != nil)
    }

    /// Without `type`, keys only one type takes tell it; a `keyPath` alone means basic.
    @Test func aMissingTypeFollowsFromTheKeys() throws {
        let (_, found) = try animations(#"""
            "animations": [
              {"name": "b", "keyPath": "opacity", "toValue": 0},
              {"name": "k", "keyPath": "opacity", "values": [1, 0]},
              {"name": "s", "keyPath": "opacity", "toValue": 0, "damping": 4},
              {"name": "g", "animations": [{"keyPath": "opacity", "toValue": 0}]}
            ]
            """#)
        #expect(type(of: try #require(found["b"])) == BasicAnimation.self)
        #expect(found["k"] is KeyframeAnimation && found["s"] is SpringAnimation && found["g"] is AnimationGroup)
        #expect(SceneLoader.impliedType([:]) == nil)
    }

    @Test func animationsKeepTheirBeginTimeAsWritten() throws {
        let layer = try loadLayer(sceneWithLayer(#"""
            "animations": [{"type": "basic", "name": "late", "keyPath": "opacity", "toValue": 0, "beginTime": 0}]
            """#))
        #expect(layer.animation(forKey: "late")?.beginTime == 0)
    }
}
