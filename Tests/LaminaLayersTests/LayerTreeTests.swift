import Foundation
import LaminaCore
import Testing

@testable import LaminaLayers

@Suite struct LayerTreeTests {
    @Test func defaultsMatchCALayer() {
        let layer = Layer()
        #expect(layer.bounds == .zero && layer.position == .zero)
        #expect(layer.anchorPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(layer.transform == .identity && layer.sublayerTransform == .identity)
        #expect(layer.opacity == 1 && !layer.isHidden && !layer.masksToBounds && layer.zPosition == 0)
        #expect(layer.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(layer.contentsCenter == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(layer.contentsGravity == .resize && layer.contentsScale == 1)
        #expect(layer.minificationFilter == .linear && layer.magnificationFilter == .linear)
        #expect(layer.backgroundColor == nil && layer.contents == nil && layer.sublayers == nil)
    }

    @Test func frameIsDerivedFromPositionAnchorAndBounds() {
        let layer = Layer()
        layer.anchorPoint = CGPoint(x: 0, y: 1)
        layer.bounds = CGRect(x: 7, y: 9, width: 0, height: 0)
        layer.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        #expect(layer.position == CGPoint(x: 10, y: 60))
        #expect(layer.bounds == CGRect(x: 7, y: 9, width: 30, height: 40))
        #expect(layer.frame == CGRect(x: 10, y: 20, width: 30, height: 40))
    }

    @Test func frameUnderATransformIsTheBoundingBox() {
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
        layer.transform = Transform3D(rotationAngle: .pi / 2)
        let frame = layer.frame
        #expect(abs(frame.minX - 10) < 1e-9 && abs(frame.minY - (-10)) < 1e-9)
        #expect(abs(frame.width - 20) < 1e-9 && abs(frame.height - 40) < 1e-9)
    }

    @Test func addingMovesALayerBetweenParents() {
        let a = Layer(), b = Layer(), child = Layer()
        a.addSublayer(child)
        b.addSublayer(child)
        #expect(a.sublayers?.isEmpty != false && b.sublayers?.count == 1 && child.superlayer === b)
        child.removeFromSuperlayer()
        #expect(b.sublayers?.isEmpty != false && child.superlayer == nil)
    }

    @Test func insertionOrder() {
        let parent = Layer()
        let (x, y, z, w) = (Layer(), Layer(), Layer(), Layer())
        parent.addSublayer(x)
        parent.insertSublayer(y, at: 0)
        parent.insertSublayer(z, above: y)
        parent.insertSublayer(w, below: x)
        #expect(parent.sublayers!.map { ObjectIdentifier($0) } == [y, z, w, x].map { ObjectIdentifier($0) })
        let v = Layer()
        parent.replaceSublayer(z, with: v)
        #expect(parent.sublayers![1] === v && z.superlayer == nil)
        parent.sublayers = [x]
        #expect(parent.sublayers?.count == 1 && y.superlayer == nil && x.superlayer === parent)
    }

    @Test func addingALayerToItselfStopsWithAClearMessage() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let layer = Layer()
            layer.name = "loop"
            layer.addSublayer(layer)
        }
    }

    @Test func addingAnAncestorAsASublayerStops() async {
        await #expect(processExitsWith: .failure) {
            let top = Layer(), middle = Layer(), bottom = Layer()
            top.addSublayer(middle)
            middle.addSublayer(bottom)
            bottom.addSublayer(top)
        }
    }

    @Test func cycleMessageNamesBothLayers() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let top = Layer(), bottom = Layer()
            top.name = "top"
            bottom.name = "bottom"
            top.addSublayer(bottom)
            bottom.addSublayer(top)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("cannot add layer \"top\" as a sublayer of layer \"bottom\""))
    }
}
