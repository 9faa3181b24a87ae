import Foundation
import Lamina
import Testing

/// The layer keys the property table adds (docs/scene-format.md, "A layer"): read into the layer, copied by the
/// timeline, and checked with exact messages.
@Suite struct ScenePropertyTableTests {
    @Test func newKeysSetTheLayer() throws {
        let layer = try loadLayer(sceneWithLayer(#"""
            "anchorPointZ": 12, "geometryFlipped": true, "opaque": true, "drawsAsynchronously": true,
            "edgeAntialiasingMask": ["layerLeftEdge", "layerTopEdge"], "contentsFormat": "RGBA16Float",
            "shouldRasterize": true, "rasterizationScale": 2, "cornerCurve": "continuous"
            """#))
        #expect(layer.anchorPointZ == 12)
        #expect(layer.isGeometryFlipped)
        #expect(layer.isOpaque)
        #expect(layer.drawsAsynchronously)
        #expect(layer.edgeAntialiasingMask == [.layerLeftEdge, .layerTopEdge])
        #expect(layer.contentsFormat == .rgba16Float)
        #expect(layer.shouldRasterize)
        #expect(layer.rasterizationScale == 2)
        #expect(layer.cornerCurve == .continuous)
    }

    @Test func anEmptyLayerHasTheNewDefaults() throws {
        let layer = try loadLayer(sceneWithLayer(""))
        #expect(layer.anchorPointZ == 0)
        #expect(!layer.isGeometryFlipped && !layer.isOpaque && !layer.drawsAsynchronously && !layer.shouldRasterize)
        #expect(layer.edgeAntialiasingMask == .all)
        #expect(layer.contentsFormat == .rgba8Uint)
        #expect(layer.rasterizationScale == 1)
        #expect(layer.cornerCurve == .circular)
    }

    @Test(arguments: [
        (#""cornerCurve": "round""#, #"layers[0].cornerCurve: unknown value "round" (expected "circular" or "continuous")"#),
        (#""cornerCurve": "continous""#, #"layers[0].cornerCurve: unknown value "continous" (did you mean "continuous"?)"#),
        (#""rasterizationScale": 0"#, "layers[0].rasterizationScale: must be a positive number"),
        (#""geometryFlipped": 1"#, "layers[0].geometryFlipped: expected true or false, got a number"),
    ])
    func badValuesAreNamed(member: String, expected: String) {
        #expect(problems(sceneWithLayer(member)) == ["scene.json:1:" + "\(34 + member.distance(to: ":") + 2): "
                                                     + expected])
    }

    @Test func theTimelineSetsTableKeys() throws {
        let scene = try loadScene(#"""
            {"size": [10, 10], "layers": [{"name": "a"}],
             "timeline": [{"at": 1, "layer": "a", "set": {"anchorPointZ": 5, "cornerCurve": "continuous"}}]}
            """#)
        let layer = try #require(scene.root.sublayers?.first)
        scene.advance(to: 2)
        #expect(layer.anchorPointZ == 5)
        #expect(layer.cornerCurve == .continuous)
    }
}

extension String {
    /// The offset of the first `character` from the start.
    fileprivate func distance(to character: Character) -> Int {
        firstIndex(of: character).map { self.distance(from: startIndex, to: $0) } ?? 0
    }
}
