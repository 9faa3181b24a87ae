import Foundation
import LaminaCore
@testable import LaminaLayers
import Testing

/// Hit testing through transform layers (docs/semantics.md, "Transform layers"): the planes of one 3D space are
/// tested nearest first, as they are drawn; the transform layer itself is never hit.
@Suite struct TransformLayerHitTestTests {
    /// A 200 x 200 root with perspective (d = 500) holding a transform layer at its centre, with `planes` as its
    /// sublayers: each a 100 x 100 square centred on the transform layer's anchor, moved `z` towards the eye.
    func scene(_ planes: [(name: String, z: CGFloat)]) -> (Layer, TransformLayer, [Layer]) {
        Transaction.begin()
        Transaction.setDisableActions(true)
        let root = Layer()
        // At the origin of the top space, so that hit points are the root's own.
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.sublayerTransform = Transform3D(perspectiveDistance: 500)
        let space = TransformLayer()
        space.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        var layers: [Layer] = []
        for plane in planes {
            let layer = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            layer.name = plane.name
            layer.transform = Transform3D(translationX: 0, y: 0, z: plane.z)
            space.addSublayer(layer)
            layers.append(layer)
        }
        root.addSublayer(space)
        Transaction.commit()
        return (root, space, layers)
    }

    @Test func theNearestPlaneWinsWhateverTheOrder() {
        let (root, _, layers) = scene([("near", 40), ("far", -40)])
        #expect(root.hitTest(CGPoint(x: 100, y: 100))?.name == "near", "drawn last, as it is nearest")
        // Perspective: the near plane is magnified by 500 / 460 about (100, 100), the far one shrunk by 500 / 540.
        #expect(root.hitTest(CGPoint(x: 152, y: 100))?.name == "near")
        #expect(root.hitTest(CGPoint(x: 148, y: 148))?.name == "near")
        #expect(root.hitTest(CGPoint(x: 196, y: 100)) === root, "beyond every plane: the root")
        // A plain layer flattens them instead: array order decides (the far one, listed last, is on top).
        let flat = Layer()
        Transaction.begin()
        flat.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        for layer in layers { flat.addSublayer(layer) }
        root.sublayers = [flat]
        Transaction.commit()
        #expect(root.hitTest(CGPoint(x: 100, y: 100))?.name == "far")
        // And the presentation tests the same way.
        let (other, _, _) = scene([("near", 40), ("far", -40)])
        let snapshot = other.presentationSnapshot(at: 0)
        #expect(snapshot?.hitTest(CGPoint(x: 100, y: 100))?.state.name == "near")
    }

    @Test func zPositionPlacesAPlaneInDepth() {
        let (root, _, layers) = scene([("a", 0), ("b", 0)])
        Transaction.begin()
        layers[0].zPosition = 10
        layers[1].zPosition = -10
        Transaction.commit()
        #expect(root.hitTest(CGPoint(x: 100, y: 100))?.name == "a")
    }

    @Test func theTransformLayerItselfIsNeverHit() {
        let (root, space, _) = scene([])
        space.backgroundColor = .red
        #expect(root.hitTest(CGPoint(x: 100, y: 100)) === root)
        // Asked directly, only its planes can answer.
        #expect(space.hitTest(CGPoint(x: 100, y: 100)) == nil)
    }

    @Test func singleSidedPlanesFacingAwayAreNotHit() {
        let (root, _, layers) = scene([("front", 20), ("turned", 40)])
        Transaction.begin()
        layers[1].transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
            .concatenating(Transform3D(translationX: 0, y: 0, z: 40))
        layers[1].isDoubleSided = false
        Transaction.commit()
        #expect(root.hitTest(CGPoint(x: 100, y: 100))?.name == "front")
        Transaction.begin()
        layers[1].isDoubleSided = true
        Transaction.commit()
        #expect(root.hitTest(CGPoint(x: 100, y: 100))?.name == "turned")
    }
}

/// Conversions through transform layers: composed in 3D as drawn, so a plane's point lands where it is drawn.
@Suite struct TransformLayerConversionTests {
    @Test func aPlanesPointConvertsToWhereItIsDrawn() {
        let (root, space, layers) = TransformLayerHitTestTests().scene([("near", 40)])
        // The near plane is magnified by 500 / 460 about (100, 100): its corner (0, 0) is at 100 - 50 x 500 / 460.
        let k: CGFloat = 500 / 460
        let corner = layers[0].convert(CGPoint(x: 0, y: 0), to: root)
        #expect(abs(corner.x - (100 - 50 * k)) < 1e-9 && abs(corner.y - (100 - 50 * k)) < 1e-9, "\(corner)")
        let back = layers[0].convert(CGPoint(x: 100 - 50 * k, y: 100 + 50 * k), from: root)
        #expect(abs(back.x) < 1e-9 && abs(back.y - 100) < 1e-9, "\(back)")
        // Between two layers of the same space, through the transform layer's own plane.
        let inSpace = layers[0].convert(CGPoint(x: 10, y: 10), to: space)
        #expect(abs(inSpace.x - 10) < 1e-9 && abs(inSpace.y - 10) < 1e-9)
        // The hit test agrees: the converted point of the plane hits it.
        #expect(root.hitTest(layers[0].convert(CGPoint(x: 99, y: 50), to: root)) === layers[0])
    }
}
