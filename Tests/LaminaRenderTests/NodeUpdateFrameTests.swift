import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Live frames of layers that are only moved, turned, scaled or faded (node updates, docs/architecture.md, "Property
/// trees") are the frames a fresh renderer draws from a plan made from scratch, byte for byte, on every renderer.
@Suite struct NodeUpdateFrameTests {
    /// A 96 x 64 white root with 24 textured 10 x 10 sprites (every third on a red background) and a container of 6
    /// more; each sprite moves, fades or turns.
    func scene() throws -> (root: Layer, sprites: [Layer], container: Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 96, height: 64)
        root.backgroundColor = .white
        let image = try Image(width: 8, height: 8)
        for y in 0..<8 {
            for x in 0..<8 {
                // Premultiplied: every component at most alpha.
                let a = UInt32((x + y) % 3 == 0 ? 255 : 128), c = UInt32((x * 29 + y * 13) % 128)
                image.setWord(a << 24 | c << 16 | (c / 2) << 8 | (a - c / 2), x: x, y: y)
            }
        }
        func sprite(_ index: Int) -> Layer {
            let layer = Layer(frame: CGRect(x: 4 + CGFloat(index % 8) * 11, y: 4 + CGFloat(index / 8) * 12,
                                            width: 10, height: 10))
            layer.contents = image
            if index % 3 == 0 { layer.backgroundColor = .red }
            return layer
        }
        let sprites = (0..<24).map(sprite)
        let container = Layer(frame: CGRect(x: 0, y: 40, width: 96, height: 24))
        container.sublayers = (0..<6).map { sprite($0) }
        root.sublayers = sprites + [container]
        return (root, sprites, container)
    }

    func fresh(for renderer: Renderer) throws -> Renderer {
        renderer is CPURenderer ? CPURenderer() as Renderer : try #require(GLESAvailability.renderer())
    }

    @Test func animatedMovesFadesAndTurnsEqualFreshFrames() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, sprites, container) = try scene()
            for (index, sprite) in sprites.enumerated() {
                let animation: BasicAnimation
                switch index % 4 {
                case 0:
                    animation = BasicAnimation(keyPath: "position")
                    animation.toValue = CGPoint(x: 48, y: 32)
                case 1:
                    animation = BasicAnimation(keyPath: "opacity")
                    animation.fromValue = 1.0
                    animation.toValue = 0.3
                case 2:
                    animation = BasicAnimation(keyPath: "transform.rotation.z")
                    animation.fromValue = 0.0
                    animation.toValue = Double.pi / 2
                default:
                    animation = BasicAnimation(keyPath: "transform.scale")
                    animation.fromValue = 1.0
                    animation.toValue = 1.5
                }
                animation.duration = 1
                animation.beginTime = 1
                sprite.add(animation, forKey: "a")
            }
            let slide = BasicAnimation(keyPath: "position.x")
            slide.fromValue = 48.0
            slide.toValue = 60.0
            slide.duration = 1
            slide.beginTime = 1
            container.add(slide, forKey: "slide")
            let reference = try fresh(for: renderer)
            for step in 0...10 {
                let time = 1 + Double(step) * 0.09
                let frame = try renderer.render(root, at: time)
                let expected = try reference.render(Planner().plan(root, at: time))
                #expect(memcmp(frame.baseAddress, expected.baseAddress, frame.byteCount) == 0,
                        "\(renderer.name) at \(time)")
            }
        }
    }

    @Test func spritesSetInOneTransactionEqualFreshFrames() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, sprites, container) = try scene()
            let reference = try fresh(for: renderer)
            let changes: [() -> Void] = [
                { for (i, s) in sprites.enumerated() { s.position.x += CGFloat(i % 3) - 1 } },
                { for (i, s) in sprites.enumerated() { s.opacity = 0.25 + Float(i % 4) * 0.25 } },
                { for s in sprites { s.transform = Transform3D(rotationAngle: 0.2) } },
                { container.position.y -= 3 },
                { for s in sprites { s.position.y += 0.5 } },
            ]
            _ = try renderer.render(root, at: 0)
            for (number, change) in changes.enumerated() {
                Transaction.begin()
                Transaction.setDisableActions(true)
                change()
                Transaction.commit()
                let frame = try renderer.render(root, at: 0)
                let expected = try reference.render(Planner().plan(root, at: 0))
                #expect(memcmp(frame.baseAddress, expected.baseAddress, frame.byteCount) == 0,
                        "\(renderer.name) after change \(number)")
            }
        }
    }
}
