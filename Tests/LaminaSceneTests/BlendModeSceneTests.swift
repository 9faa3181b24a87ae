import Foundation
import Lamina
import Testing

/// The scene key `compositingFilter` (docs/scene-format.md): Core Animation's and Core Image's names, and the
/// errors for anything else, with a suggestion for a near miss.
@Suite struct BlendModeSceneTests {
    @Test func namesLoad() throws {
        for (name, mode) in [("multiplyBlendMode", LayerBlendMode.multiply), ("CIColorBurnBlendMode", .colorBurn),
                             ("plusDarker", .plusDarker), ("CISourceAtopCompositing", .sourceAtop)] {
            let scene = try loadScene(sceneWithLayer(#""frame": [0, 0, 10, 10], "compositingFilter": "\#(name)""#))
            #expect(scene.root.sublayers?.first?.blendMode == mode, "\(name)")
        }
    }

    @Test func aNearMissIsSuggested() {
        #expect(problems(sceneWithLayer(#""compositingFilter": "multiplyBlendMod""#)) == [
            #"scene.json:1:55: layers[0].compositingFilter: unknown value "multiplyBlendMod" (did you mean "multiplyBlendMode"?)"#
        ])
        #expect(problems(sceneWithLayer(#""compositingFilter": "CIScreenBlendmode""#)) == [
            #"scene.json:1:55: layers[0].compositingFilter: unknown value "CIScreenBlendmode" (did you mean "CIScreenBlendMode"?)"#
        ])
    }

    @Test func otherValuesAreErrors() {
        let unknown = problems(sceneWithLayer(#""compositingFilter": "gaussianBlur""#))
        #expect(unknown.count == 1)
        #expect(unknown.first?.hasPrefix(#"scene.json:1:55: layers[0].compositingFilter: unknown value "gaussianBlur" (expected "normalBlendMode", "multiplyBlendMode""#) == true, "\(unknown)")
        let number = problems(sceneWithLayer(#""compositingFilter": 3"#))
        #expect(number.count == 1 && number.first?.contains("layers[0].compositingFilter") == true, "\(number)")
    }
}
