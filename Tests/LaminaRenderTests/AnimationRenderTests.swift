import Foundation
import Lamina
@testable import LaminaLayers
import LaminaTestSupport
import Testing

/// Frames of animated trees at explicit times, on every renderer: pixels, parity, and frames that depend only on
/// the model and the time.
@Suite struct AnimationRenderTests {
    /// A white 100 x 40 root holding a 20 x 20 red square at (0, 10).
    func scene() -> (root: Layer, square: Layer) {
        let root = Layer()
        let square = Layer()
        Transaction.begin()
        Transaction.setDisableActions(true)
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
        root.backgroundColor = .white
        square.frame = CGRect(x: 0, y: 10, width: 20, height: 20)
        square.backgroundColor = .red
        root.addSublayer(square)
        Transaction.commit()
        return (root, square)
    }

    func attach(_ animation: Animation, to layer: Layer, key: String = "a") {
        Transaction.begin()
        layer.attach(animation, forKey: key, keepingBeginTime: true)
        Transaction.commit()
    }

    @Test func aMovingLayerIsDrawnWhereItsAnimationPutsItOnEveryRenderer() throws {
        let (root, square) = scene()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 10.0
        move.toValue = 90.0
        move.duration = 1
        attach(move, to: square)
        var images: [String: [Image]] = [:]
        for renderer in ReferenceScenes.renderers() {
            for scale in [1.0, 2.0] {
                let start = try renderer.render(root, scale: scale, at: 0)
                let middle = try renderer.render(root, scale: scale, at: 0.5)
                let end = try renderer.render(root, scale: scale, at: 1)
                let s = Int(scale)
                #expect(near(start.rgba(x: 5 * s, y: 20 * s), 255, 0, 0), "\(renderer.name) @\(scale)")
                #expect(near(middle.rgba(x: 45 * s, y: 20 * s), 255, 0, 0), "\(renderer.name) @\(scale)")
                #expect(near(middle.rgba(x: 5 * s, y: 20 * s), 255, 255, 255), "\(renderer.name) @\(scale)")
                // Past its end the animation is gone: the model position (10).
                #expect(near(end.rgba(x: 5 * s, y: 20 * s), 255, 0, 0), "\(renderer.name) @\(scale)")
                #expect(near(end.rgba(x: 85 * s, y: 20 * s), 255, 255, 255), "\(renderer.name) @\(scale)")
                images[renderer.name, default: []] += [start, middle, end]
            }
        }
        if let cpu = images["cpu"], let gles = images["gles"] {
            for (a, b) in zip(cpu, gles) { #expect(ImageDifference.meetsParity(a, b)) }
        }
    }

    @Test func framesDependOnlyOnTheModelAndTheTime() throws {
        let (root, square) = scene()
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 2 * Double.pi
        spin.duration = 2
        spin.repeatCount = .infinity
        attach(spin, to: square, key: "spin")
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.2
        fade.duration = 1.5
        fade.autoreverses = true
        fade.repeatCount = .infinity
        attach(fade, to: square, key: "fade")
        for renderer in ReferenceScenes.renderers() {
            let times = [0.7, 0.1, 2.9, 0.7, 1.3]
            let inOrder = try times.map { try renderer.render(root, at: $0) }
            let fresh = renderer is CPURenderer ? CPURenderer() as Renderer : (GLESAvailability.renderer() ?? renderer)
            let reversed = try times.reversed().map { try fresh.render(root, at: $0) }
            for (a, b) in zip(inOrder, reversed.reversed()) {
                #expect(ImageDifference(a, b)?.maxChannelDifference == 0, "\(renderer.name)")
            }
            #expect(ImageDifference(inOrder[0], inOrder[3])?.maxChannelDifference == 0)
            #expect(ImageDifference(inOrder[0], inOrder[1])?.maxChannelDifference != 0)
        }
    }

    @Test func contentsCrossDissolveAndTwoOpaqueImagesStayOpaque() throws {
        let (root, square) = scene()
        let red = try Image(width: 4, height: 4, color: .red), blue = try Image(width: 4, height: 4, color: .blue)
        Transaction.begin()
        Transaction.setDisableActions(true)
        square.backgroundColor = nil
        square.contents = blue
        Transaction.commit()
        let dissolve = BasicAnimation(keyPath: "contents")
        dissolve.fromValue = red
        dissolve.toValue = blue
        dissolve.duration = 1
        attach(dissolve, to: square)
        var pictures: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            for (t, r, b) in [(0.25, 191, 64), (0.5, 128, 128), (0.75, 64, 191)] {
                let image = try renderer.render(root, at: t)
                let pixel = image.rgba(x: 10, y: 20)
                #expect(pixel.a == 255, "\(renderer.name) at \(t): \(pixel)")
                #expect(near(pixel, r, 0, b, tolerance: 2), "\(renderer.name) at \(t): \(pixel)")
                pictures.append(image)
            }
        }
        if pictures.count == 6 {
            for k in 0..<3 { #expect(ImageDifference.meetsParity(pictures[k], pictures[k + 3])) }
        }
    }

    /// A transition added with a change animates from the picture before it to the picture after it.
    func transitioned(_ type: Transition.Kind, subtype: Transition.Subtype? = nil) -> Layer {
        let (root, square) = scene()
        Transaction.begin()
        Transaction.setDisableActions(true)
        square.frame = CGRect(x: 40, y: 10, width: 20, height: 20)
        Transaction.commit()
        _ = root.presentationSnapshot(at: 0)
        let transition = Transition()
        transition.type = type
        transition.subtype = subtype
        transition.duration = 1
        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        square.backgroundColor = .blue
        square.add(transition, forKey: "transition")
        Transaction.commit()
        return root
    }

    @Test func transitionsMixAndSlideThePictures() throws {
        for renderer in ReferenceScenes.renderers() {
            let fade = transitioned(.fade)
            let mixed = try renderer.render(fade, at: 0.25).rgba(x: 50, y: 20)
            #expect(mixed.a == 255 && near(mixed, 191, 0, 64, tolerance: 2), "\(renderer.name) fade: \(mixed)")
            #expect(near(try renderer.render(fade, at: 1).rgba(x: 50, y: 20), 0, 0, 255), "\(renderer.name)")
            // push from the left, halfway: both pictures moved right by half the width (the new one from a width
            // to the left of the bounds, the old one out of them).
            let push = try renderer.render(transitioned(.push, subtype: .fromLeft), at: 0.5)
            #expect(near(push.rgba(x: 45, y: 20), 0, 0, 255), "\(renderer.name) push")
            #expect(near(push.rgba(x: 55, y: 20), 255, 0, 0), "\(renderer.name) push")
            #expect(near(push.rgba(x: 65, y: 20), 255, 0, 0), "\(renderer.name) push")
            #expect(near(push.rgba(x: 35, y: 20), 0, 0, 255), "\(renderer.name) push")
            #expect(near(push.rgba(x: 25, y: 20), 255, 255, 255), "\(renderer.name) push")
            #expect(near(push.rgba(x: 75, y: 20), 255, 255, 255), "\(renderer.name) push")
            // moveIn from the right: the new picture slides over the old, which stays.
            let moveIn = try renderer.render(transitioned(.moveIn, subtype: .fromRight), at: 0.5)
            #expect(near(moveIn.rgba(x: 45, y: 20), 255, 0, 0), "\(renderer.name) moveIn")
            #expect(near(moveIn.rgba(x: 55, y: 20), 0, 0, 255), "\(renderer.name) moveIn")
            #expect(near(moveIn.rgba(x: 65, y: 20), 0, 0, 255), "\(renderer.name) moveIn")
            // reveal from the top: the old picture slides down off the new one.
            let reveal = try renderer.render(transitioned(.reveal, subtype: .fromTop), at: 0.5)
            #expect(near(reveal.rgba(x: 50, y: 15), 0, 0, 255), "\(renderer.name) reveal")
            #expect(near(reveal.rgba(x: 50, y: 25), 255, 0, 0), "\(renderer.name) reveal")
            #expect(near(reveal.rgba(x: 50, y: 35), 255, 0, 0), "\(renderer.name) reveal")
        }
    }
}

/// The README's animation example, as written there, on the CPU renderer.
@Suite struct ReadmeAnimationExampleTests {
    @Test func theReadmeExampleAnimates() throws {
        let root = Layer()
        let snowman = Layer()
        Transaction.begin()
        Transaction.setDisableActions(true)
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 120)
        root.backgroundColor = .white
        snowman.frame = CGRect(x: 50, y: 10, width: 100, height: 100)
        snowman.backgroundColor = Color(hex: "#DDE6F0")
        root.addSublayer(snowman)
        Transaction.commit()
        let renderer = CPURenderer()
        _ = try renderer.render(root, scale: 2)

        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 2 * Double.pi
        spin.duration = 2
        spin.repeatCount = .infinity
        snowman.add(spin, forKey: "spin")

        Transaction.begin()
        Transaction.setAnimationDuration(0.5)
        snowman.position.x += 40
        Transaction.commit()

        let start = try #require(snowman.animation(forKey: "position")).beginTime
        let halfway = try renderer.render(root, scale: 2, at: start + 0.25)
        let shown = try #require(snowman.presentationSnapshot(at: start + 0.25)).position.x
        #expect(snowman.position.x == 140)
        #expect(shown > 100 && shown < 140)  // eased part of the way
        #expect(halfway.width == 400 && halfway.height == 240)
        // A quarter turn half a second into the spin.
        let spun = try #require(snowman.animation(forKey: "spin")).beginTime
        let turned = try #require(snowman.presentationSnapshot(at: spun + 0.5)).transform
        #expect(abs(turned.m12 - 1) < 1e-9 && abs(turned.m11) < 1e-9)
    }
}
