import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The code of the DocC article on animation (Sources/Lamina/Lamina.docc/AnimatingLayers.md), run as written and
/// checked by its values and pixels. Each test names the section its code is copied from. Only the first installs a
/// `ManualClock` (the article's first section), and puts the previous clock back; the others give their
/// transactions a media time of their own, as an export does, so they never depend on the shared clock.
@Suite struct DocCAnimationExampleTests {
    /// AnimatingLayers.md's tree: a white 120 x 40 root with a red 20 x 20 square at (0, 10).
    func makeTree() -> (root: Layer, square: Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 120, height: 40)
        root.backgroundColor = .white
        let square = Layer(frame: CGRect(x: 0, y: 10, width: 20, height: 20))
        square.backgroundColor = .red
        root.addSublayer(square)
        return (root, square)
    }

    /// Counts completion blocks run.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func hit() { lock.withLock { count += 1 } }
    }

    /// AnimatingLayers.md, "A first animation": the clock, implicit and explicit animations, presentation, frames.
    @Test func aFirstAnimation() throws {
        let previous = MediaClock.current
        defer { MediaClock.current = previous }

        let clock = ManualClock(time: 0)
        MediaClock.current = clock                  // currentMediaTime() now reads this clock

        let (root, square) = makeTree()
        let renderer = CPURenderer()
        _ = try renderer.render(root)               // drawn once: from now on, changes animate

        Transaction.begin()
        Transaction.setAnimationDuration(1)
        Transaction.setAnimationTimingFunction(MediaTimingFunction(name: .linear))
        square.position = CGPoint(x: 110, y: 20)    // an implicit animation, from x 10 to 110
        Transaction.commit()

        clock.time = 0.5
        let x = square.presentationSnapshot()?.position.x   // 60: halfway, on screen
        let model = square.position.x               // 110: the model changed at once

        #expect(x == 60 && model == 110)
        let halfway = try renderer.render(root, scale: 1)   // a frame at currentMediaTime(), 0.5
        #expect(near(halfway.rgba(x: 60, y: 20), 255, 0, 0) && near(halfway.rgba(x: 100, y: 20), 255, 255, 255))

        let done = Counter()
        Transaction.begin()
        Transaction.setCompletionBlock { done.hit() }   // once the fade has finished
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 2
        fade.fillMode = .forwards
        fade.isRemovedOnCompletion = false
        square.add(fade, forKey: "fade")            // begins now, at 0.5
        Transaction.commit()

        let opacity = square.presentationSnapshot(at: 1.5)?.opacity   // 0.5, a second into the fade
        let later = try renderer.render(root, scale: 1, at: 3)  // faded out and kept so by the fill

        #expect(opacity == 0.5)
        #expect(near(later.rgba(x: 110, y: 20), 255, 255, 255))
        #expect(done.value == 1)
        #expect(square.animationKeys() == ["position", "fade"])   // only live frames take finished ones off
        #expect(square.animation(forKey: "fade") is BasicAnimation)
    }

    /// AnimatingLayers.md, "Implicit animations": the action search, stopped for one key.
    @Test func actionsCanBeTurnedOffPerKey() throws {
        let (root, square) = makeTree()
        _ = try CPURenderer().render(root, at: 0)       // drawn: changes animate from now on
        square.actions = ["position": NullAction.shared]   // moves never animate; other keys still do
        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        square.position = CGPoint(x: 60, y: 20)
        square.opacity = 0.5
        Transaction.commit()

        #expect(square.animationKeys() == ["opacity"])
        #expect(square.presentationSnapshot(at: 0)?.position.x == 60)
        let opacity = try #require(square.presentationSnapshot(at: 0.125)?.opacity)
        #expect(opacity > 0.5 && opacity < 1)
    }

    /// AnimatingLayers.md, "Frames in any order, in parallel": no clock, the animations begin at a given media time.
    func spinningTree() -> Layer {
        let (root, square) = makeTree()
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 2 * Double.pi
        spin.duration = 1
        spin.repeatCount = .infinity
        let slide = BasicAnimation(keyPath: "position.x")
        slide.fromValue = 10.0
        slide.toValue = 110.0
        slide.duration = 2

        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)   // the animations begin at 0 s
        square.add(spin, forKey: "spin")
        square.add(slide, forKey: "slide")
        Transaction.commit()
        return root
    }

    @Test func framesInAnyOrderInParallel() async throws {
        let root = spinningTree()
        let times = (0..<8).map { Double($0) / 4 }    // 4 frames a second, 0 to 1.75 s

        let frames = try await withThrowingTaskGroup(of: (Int, Image).self) { group in
            for (index, time) in times.enumerated() {
                // A renderer is used by one thread at a time: one per task.
                group.addTask { (index, try CPURenderer(threads: 1).render(root, scale: 1, at: time)) }
            }
            var frames = [Image?](repeating: nil, count: times.count)
            for try await (index, image) in group { frames[index] = image }
            return frames.map { $0! }
        }

        // The same frames drawn one by one, backwards, give the same bytes.
        let renderer = CPURenderer()
        for index in times.indices.reversed() {
            let again = try renderer.render(root, scale: 1, at: times[index])
            #expect(try again.pngData() == frames[index].pngData(), "frame \(index)")
        }
        // At 1 s the square is back at its start angle, halfway along (x 60).
        #expect(near(frames[4].rgba(x: 60, y: 20), 255, 0, 0) && near(frames[4].rgba(x: 20, y: 20), 255, 255, 255))
    }

    /// AnimatingLayers.md, "Keyframes".
    @Test func keyframes() throws {
        let (root, square) = makeTree()
        let hop = KeyframeAnimation(keyPath: "position")
        hop.values = [CGPoint(x: 10, y: 20), CGPoint(x: 60, y: 5), CGPoint(x: 110, y: 20)]
        hop.keyTimes = [0, 0.5, 1]
        hop.duration = 2

        let blink = KeyframeAnimation(keyPath: "backgroundColor")
        blink.values = [Color.red, Color.green, Color.blue]
        blink.calculationMode = .discrete        // each colour held for a third, no blending
        blink.duration = 3

        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        square.add(hop, forKey: "hop")
        square.add(blink, forKey: "blink")
        Transaction.commit()

        let top = square.presentationSnapshot(at: 1)     // position (60, 5), green
        #expect(top?.position == CGPoint(x: 60, y: 5))
        #expect(top?.backgroundColor == .green)
        #expect(square.presentationSnapshot(at: 2.5)?.backgroundColor == .blue)
        let frame = try CPURenderer().render(root, at: 1)
        #expect(near(frame.rgba(x: 60, y: 5), 0, 255, 0) && near(frame.rgba(x: 60, y: 25), 255, 255, 255))

        var track = Path()
        track.move(to: CGPoint(x: 10, y: 20))
        track.addLine(to: CGPoint(x: 110, y: 20))
        let follow = KeyframeAnimation(keyPath: "position")
        follow.path = track.cgPath                     // constant speed along the path
        follow.rotationMode = .rotateAuto        // turned to the path's direction
        follow.duration = 2

        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        square.add(follow, forKey: "hop")        // replaces the animation for "hop"
        Transaction.commit()
        #expect(square.presentationSnapshot(at: 0.5)?.position == CGPoint(x: 35, y: 20))
    }

    /// AnimatingLayers.md, "Springs".
    @Test func springs() throws {
        let (_, square) = makeTree()
        let drop = SpringAnimation(keyPath: "position.y")
        drop.fromValue = 0.0
        drop.toValue = 100.0
        drop.damping = 12                        // with mass 1 and stiffness 100: overshoots, then settles
        drop.duration = drop.settlingDuration    // the spring's own end, not 0.25 s

        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        square.add(drop, forKey: "drop")
        Transaction.commit()

        let ys = stride(from: 0.0, to: drop.settlingDuration, by: 0.01).map {
            Double(square.presentationSnapshot(at: $0)!.position.y)
        }
        #expect(ys[0] == 0)
        #expect(ys.max()! > 105 && ys.max()! < 115)   // about 9.5 % overshoot at a damping ratio of 0.6
        #expect(abs(ys.last! - 100) < 0.2)
        #expect(drop.settlingDuration > 0.5 && drop.settlingDuration < 2)
    }

    /// AnimatingLayers.md, "Groups".
    @Test func groups() throws {
        let (_, square) = makeTree()
        let grow = BasicAnimation(keyPath: "transform.scale")
        grow.fromValue = 1.0
        grow.toValue = 2.0
        grow.duration = 1
        let appear = BasicAnimation(keyPath: "opacity")
        appear.fromValue = 0.0
        appear.toValue = 1.0
        appear.duration = 0.5
        let group = AnimationGroup()
        group.animations = [grow, appear]        // each on the group's time, with its own timing
        group.duration = 1

        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        square.add(group, forKey: "appear")
        Transaction.commit()

        let quarter = try #require(square.presentationSnapshot(at: 0.25))
        #expect(quarter.opacity == 0.5 && abs(quarter.transform.m11 - 1.25) < 1e-9)
        let after = try #require(square.presentationSnapshot(at: 1.5))   // past the group's end: the model
        #expect(after.opacity == 1 && after.transform.m11 == 1)
    }

    /// AnimatingLayers.md, "Transitions".
    @Test func transitions() throws {
        let (root, square) = makeTree()
        _ = try CPURenderer().render(root, at: 0)   // commits the tree: the picture before the change

        let fade = Transition()
        fade.type = .fade                        // or .push, .moveIn, .reveal with a subtype
        fade.duration = 1
        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        square.backgroundColor = .blue
        square.add(fade, forKey: "transition")
        Transaction.commit()

        for renderer in ReferenceScenes.renderers() {
            let mixed = try renderer.render(root, at: 0.25).rgba(x: 10, y: 20)   // 3/4 red, 1/4 blue
            #expect(near(mixed, 191, 0, 64), "\(renderer.name): \(mixed)")
            #expect(near(try renderer.render(root, at: 1).rgba(x: 10, y: 20), 0, 0, 255), "\(renderer.name)")
        }
    }
}
