import Foundation
import Lamina
import Testing

/// Every layer key of docs/scene-format.md, "A layer", read into the right Layer values.
@Suite struct SceneLayerTests {
    @Test func topLevelKeysSetTheRootAndTheScene() throws {
        let scene = try loadScene(##"{"size": [320, 240.5], "scale": 2, "backgroundColor": "#336699"}"##)
        #expect(scene.size == CGSize(width: 320, height: 240.5))
        #expect(scene.scale == 2)
        #expect(scene.root.bounds == CGRect(x: 0, y: 0, width: 320, height: 240.5))
        #expect(scene.root.frame == scene.root.bounds)
        #expect(scene.root.backgroundColor == Color(hex: "#336699"))
        #expect(scene.root.sublayers?.isEmpty != false)
        #expect(scene.images.isEmpty)
    }

    @Test func scaleDefaultsToOneAndBackgroundToNone() throws {
        let scene = try loadScene(#"{"size": [10, 10], "layers": []}"#)
        #expect(scene.scale == 1)
        #expect(scene.root.backgroundColor == nil)
    }

    @Test func anEmptyLayerHasCoreAnimationsDefaults() throws {
        let layer = try loadLayer(sceneWithLayer(""))
        #expect(layer.name == nil)
        #expect(layer.bounds == .zero)
        #expect(layer.position == .zero)
        #expect(layer.anchorPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(layer.zPosition == 0)
        #expect(layer.transform == .identity)
        #expect(layer.sublayerTransform == .identity)
        #expect(layer.isHidden == false)
        #expect(layer.opacity == 1)
        #expect(layer.backgroundColor == nil)
        #expect(layer.contents == nil)
        #expect(layer.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(layer.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(layer.contentsGravity == .resize)
        #expect(layer.contentsScale == 1)
        #expect(layer.contentsAreRotated == false)
        #expect(layer.masksToBounds == false)
        #expect(layer.minificationFilter == .linear)
        #expect(layer.magnificationFilter == .linear)
    }

    @Test func geometryKeys() throws {
        let layer = try loadLayer(
            sceneWithLayer(
                #""name": "box", "bounds": [1, 2, 30, 40], "position": [50, 60.5], "anchorPoint": [0, 1], "#
                    + #""zPosition": -3"#
            ))
        #expect(layer.name == "box")
        #expect(layer.bounds == CGRect(x: 1, y: 2, width: 30, height: 40))
        #expect(layer.position == CGPoint(x: 50, y: 60.5))
        #expect(layer.anchorPoint == CGPoint(x: 0, y: 1))
        #expect(layer.zPosition == -3)
    }

    @Test func frameSetsBoundsSizeAndPositionAboutTheDefaultAnchor() throws {
        let layer = try loadLayer(sceneWithLayer(#""frame": [10, 20, 30, 40]"#))
        #expect(layer.bounds == CGRect(x: 0, y: 0, width: 30, height: 40))
        #expect(layer.position == CGPoint(x: 25, y: 40))
        #expect(layer.frame == CGRect(x: 10, y: 20, width: 30, height: 40))
    }

    @Test func frameIsAppliedAfterAnchorPointWhateverTheKeyOrder() throws {
        let layer = try loadLayer(sceneWithLayer(#""frame": [10, 20, 30, 40], "anchorPoint": [0, 0]"#))
        #expect(layer.anchorPoint == .zero)
        #expect(layer.position == CGPoint(x: 10, y: 20))
        #expect(layer.frame == CGRect(x: 10, y: 20, width: 30, height: 40))

        let other = try loadLayer(sceneWithLayer(#""anchorPoint": [1, 0.5], "frame": [10, 20, 30, 40]"#))
        #expect(other.position == CGPoint(x: 40, y: 40))
    }

    @Test func transformAsSixteenNumbers() throws {
        let layer = try loadLayer(
            sceneWithLayer(#""transform": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]"#))
        #expect(layer.transform.entries == (1...16).map { CGFloat($0) })
        #expect(layer.transform.m41 == 13)
        #expect(layer.transform.m34 == 12)
    }

    @Test func transformStepsConcatenateInOrder() throws {
        let layer = try loadLayer(
            sceneWithLayer(#""transform": [{"translate": [10, 20]}, {"rotate": 90}, {"scale": [2, 3]}]"#))
        let expected = Transform3D(translationX: 10, y: 20)
            .concatenating(Transform3D(rotationAngle: .pi / 2))
            .concatenating(Transform3D(scaleX: 2, y: 3))
        #expect(layer.transform == expected)
        // The translation is applied first, so it is rotated and scaled: (10, 20) -> (-20, 10) -> (-40, 30).
        #expect(abs(layer.transform.m41 - -40) < 1e-9)
        #expect(abs(layer.transform.m42 - 30) < 1e-9)
    }

    @Test func transformStepsIn3D() throws {
        let layer = try loadLayer(
            sceneWithLayer(
                #""transform": [{"translate": [1, 2, 3]}, {"scale": [2, 3, 4]}, {"rotate": 45, "axis": [0, 1, 0]}, "#
                    + #"{"perspective": 500}]"#))
        let expected = Transform3D(translationX: 1, y: 2, z: 3)
            .concatenating(Transform3D(scaleX: 2, y: 3, z: 4))
            .concatenating(Transform3D(rotationAngle: 45 * .pi / 180, x: 0, y: 1, z: 0))
            .concatenating(Transform3D(perspectiveDistance: 500))
        #expect(layer.transform == expected)
    }

    @Test func rotatePositiveIsClockwiseOnScreen() throws {
        let layer = try loadLayer(sceneWithLayer(#""transform": [{"rotate": 30}]"#))
        #expect(layer.transform == Transform3D(rotationAngle: 30 * .pi / 180))
        // x' = x cos + y (-sin): the x axis turns toward +y, which is down on Lamina's y-down screen.
        #expect(layer.transform.m12 > 0)
    }

    @Test func perspectiveStepSetsM34() throws {
        let layer = try loadLayer(sceneWithLayer(#""sublayerTransform": [{"perspective": 400}]"#))
        #expect(layer.sublayerTransform.m34 == -1.0 / 400)
        #expect(layer.transform == .identity)
    }

    @Test func anEmptyStepListIsTheIdentity() throws {
        let layer = try loadLayer(sceneWithLayer(#""transform": []"#))
        #expect(layer.transform == .identity)
    }

    @Test func affineTransform() throws {
        let layer = try loadLayer(sceneWithLayer(#""affineTransform": [1, 0.5, -0.5, 2, 10, 20]"#))
        #expect(layer.transform == Transform3D(affine: 1, 0.5, -0.5, 2, 10, 20))
        #expect(layer.transform.m21 == -0.5)
        #expect(layer.transform.m42 == 20)
    }

    @Test func sublayerTransformTakesBothForms() throws {
        let steps = try loadLayer(sceneWithLayer(#""sublayerTransform": [{"scale": [2, 2]}]"#))
        #expect(steps.sublayerTransform == Transform3D(scaleX: 2, y: 2))
        let matrix = try loadLayer(
            sceneWithLayer(#""sublayerTransform": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1]"#))
        #expect(matrix.sublayerTransform == Transform3D(perspectiveDistance: 500))
    }

    @Test func appearanceKeys() throws {
        let layer = try loadLayer(sceneWithLayer(#""hidden": true, "opacity": 0.25, "masksToBounds": true"#))
        #expect(layer.isHidden)
        #expect(layer.opacity == 0.25)
        #expect(layer.masksToBounds)
    }

    @Test(arguments: [
        ("\"#FF000080\"", Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255)),
        ("\"#336699\"", Color(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0)),
        ("\"#abcdef\"", Color(red: 0xAB / 255.0, green: 0xCD / 255.0, blue: 0xEF / 255.0)),
        ("[0.1, 0.2, 0.3, 0.4]", Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)),
        ("[0, 0, 0, 0]", Color.clear),
    ])
    func colours(json: String, expected: Color) throws {
        let layer = try loadLayer(sceneWithLayer(#""backgroundColor": \#(json)"#))
        #expect(layer.backgroundColor == expected)
    }

    @Test(arguments: ContentsGravity.allCases)
    func everyGravityName(gravity: ContentsGravity) throws {
        let layer = try loadLayer(sceneWithLayer(#""contentsGravity": "\#(gravity.rawValue)""#))
        #expect(layer.contentsGravity == gravity)
    }

    @Test func gravityNamesAreTheTwelveOfTheFormat() {
        #expect(
            ContentsGravity.allCases.map(\.rawValue) == [
                "center", "top", "bottom", "left", "right", "topLeft", "topRight", "bottomLeft", "bottomRight",
                "resize", "resizeAspect", "resizeAspectFill",
            ])
    }

    @Test(arguments: [Filter.linear, .nearest, .trilinear])
    func minificationFilters(filter: Filter) throws {
        let layer = try loadLayer(sceneWithLayer(#""minificationFilter": "\#(filter.rawValue)""#))
        #expect(layer.minificationFilter == filter)
        #expect(layer.magnificationFilter == .linear)
    }

    @Test func minificationFilterBias() throws {
        #expect(try loadLayer(sceneWithLayer(#""minificationFilterBias": -1.25"#)).minificationFilterBias == -1.25)
        #expect(try loadLayer(sceneWithLayer(#""opacity": 1"#)).minificationFilterBias == 0)
    }

    @Test(arguments: [Filter.linear, .nearest])
    func magnificationFilters(filter: Filter) throws {
        let layer = try loadLayer(sceneWithLayer(#""magnificationFilter": "\#(filter.rawValue)""#))
        #expect(layer.magnificationFilter == filter)
        #expect(layer.minificationFilter == .linear)
    }

    @Test func contentsRectAndCenter() throws {
        let layer = try loadLayer(
            sceneWithLayer(#""contentsRect": [0.25, 0, 0.5, 1.5], "contentsCenter": [0.4, 0.3, 0.2, 0]"#))
        #expect(layer.contentsRect == CGRect(x: 0.25, y: 0, width: 0.5, height: 1.5))
        #expect(layer.contentsCenter == CGRect(x: 0.4, y: 0.3, width: 0.2, height: 0))
    }

    @Test func sublayersKeepArrayOrderAtEveryLevel() throws {
        let scene = try loadScene(
            #"""
            {"size": [10, 10], "layers": [
                {"name": "a", "sublayers": [{"name": "a1"}, {"name": "a2", "sublayers": [{"name": "a2x"}]}]},
                {"name": "b"},
                {"name": "c", "sublayers": [{"name": "c1"}]}
            ]}
            """#)
        let root = scene.root
        #expect(root.sublayers!.map(\.name) == ["a", "b", "c"])
        #expect(root.sublayers![0].sublayers!.map(\.name) == ["a1", "a2"])
        #expect(root.sublayers![0].sublayers![1].sublayers!.map(\.name) == ["a2x"])
        #expect((root.sublayers![1].sublayers ?? []).isEmpty)
        #expect(root.sublayers![2].sublayers!.map(\.name) == ["c1"])
        #expect(root.sublayers![2].sublayers![0].superlayer === root.sublayers![2])
    }

    @Test func aDeepButAllowedTreeLoads() throws {
        // 250 levels of layers nest 502 JSON levels deep, under the cap of 512.
        let depth = 250
        let json =
            #"{"size": [10, 10], "layers": ["# + String(repeating: #"{"sublayers": ["#, count: depth)
            + String(repeating: "]}", count: depth) + "]}"
        let scene = try loadScene(json)
        var levels = 0
        var layer = scene.root
        while let child = layer.sublayers?.first {
            levels += 1
            layer = child
        }
        #expect(levels == depth)
    }

    @Test func loadsAFileByURL() throws {
        let scene = try Scene.load(contentsOf: Fixtures.url("basic.json"))
        #expect(scene.size == CGSize(width: 40, height: 30))
        #expect(scene.scale == 2)
        #expect(scene.root.backgroundColor == Color(hex: "#336699"))
        let box = try #require(scene.root.sublayers?.first)
        #expect(box.name == "box")
        #expect(box.frame == CGRect(x: 10, y: 5, width: 20, height: 10))
        #expect(box.contentsImage === scene.images["red"])
        #expect(box.contentsImage?.width == 4)
    }

    @Test func byteOrderMarkAndUnicodeAreFine() throws {
        let json = "\u{FEFF}" + sceneWithLayer(#""name": "caf\u00e9 ☕ \ud83d\ude00 \"q\" \\ \/ \n""#)
        let layer = try loadLayer(json)
        #expect(layer.name == "café ☕ 😀 \"q\" \\ / \n")
    }
}
