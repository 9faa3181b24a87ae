import Foundation
import LaminaCore
import LaminaDrawing
@testable import LaminaLayers
import Testing

/// Animations on layers, read through `presentationSnapshot(at:)`: explicit times only, so the tests never touch the shared
/// media clock.
@Suite struct AnimationTests {
    /// A committed, drawn layer at (10, 20) with a 10 x 10 bounds.
    func drawnLayer() -> Layer {
        let layer = Layer()
        Transaction.begin()
        Transaction.setDisableActions(true)
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.position = CGPoint(x: 10, y: 20)
        Transaction.commit()
        _ = layer.presentationSnapshot(at: 0)
        return layer
    }

    /// Adds `animation` as a scene file does: its beginTime as written.
    func attach(_ animation: Animation, to layer: Layer, key: String = "a") {
        Transaction.begin()
        layer.attach(animation, forKey: key, keepingBeginTime: true)
        Transaction.commit()
    }

    func x(_ layer: Layer, _ t: Double) -> Double { Double(layer.presentationSnapshot(at: t)!.position.x) }

    @Test func keyPathsResolve() {
        #expect(AnimatableProperty.named("position.x") != nil)
        #expect(AnimatableProperty.named("transform.rotation.z") != nil)
        #expect(AnimatableProperty.named("bounds.size.width") != nil)
        #expect(AnimatableProperty.named("nope") == nil)
    }

    @Test func aBasicAnimationMovesThePresentationNotTheModel() {
        let layer = drawnLayer()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 2
        attach(move, to: layer)
        #expect(x(layer, 0) == 0)
        #expect(abs(x(layer, 0.5) - 25) < 1e-9)
        #expect(abs(x(layer, 1.999) - 99.95) < 1e-6)
        #expect(x(layer, 2) == 10)  // removed fill: the model value from the end on
        #expect(x(layer, -1) == 10)  // before the start: no effect
        #expect(layer.position.x == 10)
    }

    @Test func fillModesHoldTheEndValues() {
        let layer = drawnLayer()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        move.beginTime = 1
        move.fillMode = .both
        move.isRemovedOnCompletion = false  // kept after its end, so the forwards fill shows
        attach(move, to: layer)
        #expect(x(layer, 0) == 0)  // backwards: the value at the start
        #expect(x(layer, 5) == 100)  // forwards: the value approached at the end
        move.fillMode = .forwards
        attach(move, to: layer)
        #expect(x(layer, 0) == 10)
        #expect(x(layer, 5) == 100)
        move.isRemovedOnCompletion = true  // Core Animation removes it at its end: the model shows
        attach(move, to: layer)
        #expect(x(layer, 5) == 10)
    }

    @Test func repeatsAutoreversesAndTimeOffset() {
        let layer = drawnLayer()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        move.autoreverses = true
        move.repeatCount = 2
        move.fillMode = .forwards
        move.isRemovedOnCompletion = false
        attach(move, to: layer)
        #expect(abs(x(layer, 0.25) - 25) < 1e-9)
        #expect(abs(x(layer, 1.25) - 75) < 1e-9)  // on the way back
        #expect(abs(x(layer, 2.25) - 25) < 1e-9)  // the second cycle
        #expect(x(layer, 4) == 0)  // ends where an autoreversed cycle ends
        let offset = BasicAnimation(keyPath: "position.x")
        offset.fromValue = 0.0
        offset.toValue = 100.0
        offset.duration = 1
        offset.timeOffset = 0.5
        attach(offset, to: layer)
        #expect(abs(x(layer, 0.25) - 75) < 1e-9)  // the second half first
        #expect(abs(x(layer, 0.75) - 25) < 1e-9)  // then the first
        #expect(x(layer, 1) == 10)  // and it still lasts one second
    }

    @Test func aLayersTimingIsItsSublayersTime() throws {
        let parent = drawnLayer()
        let child = drawnLayer()
        Transaction.begin()
        Transaction.setDisableActions(true)
        parent.addSublayer(child)
        parent.speed = 2
        Transaction.commit()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        attach(move, to: child)
        let atQuarter = try #require(parent.presentationSnapshot(at: 0.25))
        #expect(abs(Double(atQuarter.sublayers[0].position.x) - 50) < 1e-9)
        // Paused: speed 0 with timeOffset at the paused local time.
        Transaction.begin()
        parent.speed = 0
        parent.timeOffset = 0.8
        Transaction.commit()
        #expect(abs(Double(parent.presentationSnapshot(at: 123)!.sublayers[0].position.x) - 80) < 1e-9)
        #expect(abs(Double(child.presentationSnapshot(at: 123)!.position.x) - 80) < 1e-9)
    }

    @Test func anAnimationAddedInCodeBeginsWhenItIsAdded() {
        let layer = drawnLayer()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        Transaction.begin()
        Transaction.setValue(5.0, forKey: Transaction.Key.mediaTime)
        layer.add(move, forKey: "move")
        Transaction.commit()
        #expect(layer.animation(forKey: "move")?.beginTime == 5)
        #expect(move.beginTime == 0)  // the layer holds a copy
        #expect(abs(x(layer, 5.5) - 50) < 1e-9)
        #expect(layer.animationKeys() == ["move"])
        layer.removeAnimation(forKey: "move")
        #expect(layer.animationKeys() == nil)
        #expect(abs(x(layer, 5.5) - 50) < 1e-9)  // the removal is part of the implicit transaction, not yet committed
        Transaction.flush()
        #expect(x(layer, 5.5) == 10)
    }

    @Test func fromToByFollowCoreAnimation() {
        let layer = drawnLayer()  // position.x 10
        func value(_ from: Double?, _ to: Double?, _ by: Double?) -> (Double, Double) {
            let move = BasicAnimation(keyPath: "position.x")
            move.fromValue = from
            move.toValue = to
            move.byValue = by
            move.duration = 1
            move.fillMode = .both
            move.isRemovedOnCompletion = false  // the end value at t = 1 through the fill
            attach(move, to: layer)
            return (x(layer, 0), x(layer, 1))
        }
        #expect(value(0, 100, nil) == (0, 100))
        #expect(value(0, nil, 30) == (0, 30))
        #expect(value(nil, 100, 30) == (70, 100))
        #expect(value(50, nil, nil) == (50, 10))
        #expect(value(nil, 50, nil) == (10, 50))
        #expect(value(nil, nil, 5) == (10, 15))
    }

    @Test func additiveAndCumulative() {
        let layer = drawnLayer()
        let shake = BasicAnimation(keyPath: "position.x")
        shake.fromValue = 0.0
        shake.toValue = 4.0
        shake.duration = 1
        shake.isAdditive = true
        attach(shake, to: layer)
        #expect(abs(x(layer, 0.5) - 12) < 1e-9)  // 10 + 2
        let steps = BasicAnimation(keyPath: "position.x")
        steps.fromValue = 0.0
        steps.toValue = 10.0
        steps.duration = 1
        steps.repeatCount = 3
        steps.isCumulative = true
        attach(steps, to: layer)
        #expect(abs(x(layer, 2.5) - 25) < 1e-9)  // third cycle: 2 steps of 10, then halfway
    }

    @Test func severalAnimationsOnOneKeyPathApplyInOrder() {
        let layer = drawnLayer()
        let base = BasicAnimation(keyPath: "position.x")
        base.fromValue = 100.0
        base.toValue = 100.0
        base.duration = 1
        attach(base, to: layer, key: "base")
        let add = BasicAnimation(keyPath: "position.x")
        add.fromValue = 5.0
        add.toValue = 5.0
        add.duration = 1
        add.isAdditive = true
        attach(add, to: layer, key: "add")
        #expect(x(layer, 0.5) == 105)
        let replace = BasicAnimation(keyPath: "position.x")
        replace.fromValue = 1.0
        replace.toValue = 1.0
        replace.duration = 1
        attach(replace, to: layer, key: "replace")
        #expect(x(layer, 0.5) == 1)
    }

    @Test func timingFunctionsEaseProgress() {
        let layer = drawnLayer()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        move.timingFunction = MediaTimingFunction(name: .easeIn)
        attach(move, to: layer)
        let expected = MediaTimingFunction(name: .easeIn).evaluate(0.5) * 100
        #expect(abs(x(layer, 0.5) - expected) < 1e-9)
        #expect(x(layer, 0.5) < 40)
    }

    @Test func coloursInterpolateOnStraightComponents() throws {
        let layer = drawnLayer()
        let fade = BasicAnimation(keyPath: "backgroundColor")
        fade.fromValue = Color(red: 1, green: 0, blue: 0, alpha: 1)
        fade.toValue = Color(red: 0, green: 0, blue: 1, alpha: 0)
        fade.duration = 1
        attach(fade, to: layer)
        let c = try #require(layer.presentationSnapshot(at: 0.5)?.backgroundColor)
        #expect(abs(c.red - 0.5) < 1e-9 && abs(c.blue - 0.5) < 1e-9 && abs(c.alpha - 0.5) < 1e-9)
        // From no colour: the other colour at alpha 0, not black.
        let appear = BasicAnimation(keyPath: "backgroundColor")
        appear.toValue = Color.green
        appear.duration = 1
        attach(appear, to: layer)
        let d = try #require(layer.presentationSnapshot(at: 0.5)?.backgroundColor)
        #expect(d.green == 1 && abs(d.alpha - 0.5) < 1e-9)
    }

    @Test func transformsInterpolateByDecompositionAndSubPathsAsNumbers() throws {
        let layer = drawnLayer()
        let turn = BasicAnimation(keyPath: "transform")
        turn.fromValue = Transform3D.identity
        turn.toValue = Transform3D(rotationAngle: .pi / 2)
        turn.duration = 1
        attach(turn, to: layer)
        let half = try #require(layer.presentationSnapshot(at: 0.5)).transform
        let expected = Transform3D(rotationAngle: .pi / 4)
        for (a, b) in zip(half.entries, expected.entries) { #expect(abs(a - b) < 1e-9) }
        // A sub-path interpolates the number itself: 0 to 4π turns twice.
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 4 * Double.pi
        spin.duration = 1
        attach(spin, to: layer)
        let quarter = try #require(layer.presentationSnapshot(at: 0.125)).transform  // π/2
        let ninety = Transform3D(rotationAngle: .pi / 2)
        for (a, b) in zip(quarter.entries, ninety.entries) { #expect(abs(a - b) < 1e-9) }
        let scale = BasicAnimation(keyPath: "transform.scale")
        scale.fromValue = 1.0
        scale.toValue = 3.0
        scale.duration = 1
        attach(scale, to: layer)
        let scaled = try #require(layer.presentationSnapshot(at: 0.5)).transform
        #expect(abs(scaled.m11 - 2) < 1e-9 && abs(scaled.m22 - 2) < 1e-9)
    }

    @Test func hiddenSwitchesHalfway() throws {
        let layer = drawnLayer()
        let hide = BasicAnimation(keyPath: "hidden")
        hide.fromValue = false
        hide.toValue = true
        hide.duration = 1
        attach(hide, to: layer)
        #expect(layer.presentationSnapshot(at: 0.49)?.isHidden == false)
        #expect(layer.presentationSnapshot(at: 0.5)?.isHidden == true)
    }

    @Test func keyframesInEveryMode() {
        let layer = drawnLayer()
        let frames = KeyframeAnimation(keyPath: "position.x")
        frames.values = [0.0, 100.0, 0.0]
        frames.keyTimes = [0, 0.25, 1]
        frames.duration = 1
        attach(frames, to: layer)
        #expect(abs(x(layer, 0.125) - 50) < 1e-9)
        #expect(abs(x(layer, 0.625) - 50) < 1e-9)
        frames.calculationMode = .discrete
        frames.keyTimes = nil
        attach(frames, to: layer)
        #expect(x(layer, 0.3) == 0)
        #expect(x(layer, 0.34) == 100)
        #expect(x(layer, 0.9) == 0)
        frames.calculationMode = .paced
        frames.values = [0.0, 10.0, 40.0]
        attach(frames, to: layer)
        #expect(abs(x(layer, 0.5) - 20) < 1e-9)  // constant speed over 40 points
        frames.calculationMode = .cubic
        frames.values = [0.0, 10.0, 20.0, 30.0]
        attach(frames, to: layer)
        #expect(abs(x(layer, 0.5) - 15) < 1e-9)  // a straight run stays straight
        frames.values = [0.0, 10.0, 0.0]
        attach(frames, to: layer)
        #expect(x(layer, 0.25) > 5)  // the spline bulges towards the peak
        // cubicPaced: the spline with key times by distance: 10 of 40 points is reached at a quarter.
        frames.calculationMode = .cubicPaced
        frames.values = [0.0, 10.0, 40.0]
        frames.keyTimes = [0, 0.9, 1]  // ignored
        attach(frames, to: layer)
        #expect(abs(x(layer, 0.25) - 10) < 1e-9)
    }

    /// Right along x for 100 points, then down along y for 100: a path with one corner.
    static let elbow: CGPath = {
        var path = Path()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 100))
        return path.cgPath
    }()

    @Test func keyframesAlongAPathTurnTheLayer() throws {
        let layer = drawnLayer()
        let along = KeyframeAnimation(keyPath: "position")
        along.path = Self.elbow
        along.rotationMode = .rotateAuto
        along.duration = 1
        attach(along, to: layer)
        let first = try #require(layer.presentationSnapshot(at: 0.25))
        #expect(abs(first.position.x - 50) < 1e-6 && abs(first.position.y) < 1e-6)
        #expect(abs(first.transform.m12) < 1e-6)  // heading along +x: no turn
        let second = try #require(layer.presentationSnapshot(at: 0.75))
        #expect(abs(second.position.x - 100) < 1e-6 && abs(second.position.y - 50) < 1e-6)
        #expect(abs(second.transform.m12 - 1) < 1e-6)  // heading down: a quarter turn clockwise
    }

    @Test func pathKeyTimesPlaceEachElementInLinearMode() throws {
        // Two elements after the move: 100 along x, then 300 down. Key times 0, 0.5, 1: the corner at half time.
        var path = Path()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 300))
        for mode in [KeyframeAnimation.CalculationMode.linear, .paced] {
            let layer = drawnLayer()
            let along = KeyframeAnimation(keyPath: "position")
            along.path = path.cgPath
            along.keyTimes = [0, 0.5, 1]
            along.calculationMode = mode
            along.duration = 1
            attach(along, to: layer)
            let quarter = try #require(layer.presentationSnapshot(at: 0.25)).position
            let threeQuarters = try #require(layer.presentationSnapshot(at: 0.75)).position
            if mode == .linear {
                #expect(abs(quarter.x - 50) < 1e-9 && abs(quarter.y) < 1e-9)  // half the first element
                #expect(abs(threeQuarters.x - 100) < 1e-9 && abs(threeQuarters.y - 150) < 1e-9)
            } else {
                // Paced: constant speed over 400 points, key times ignored.
                #expect(abs(quarter.x - 100) < 1e-9 && abs(quarter.y) < 1e-9)
                #expect(abs(threeQuarters.x - 100) < 1e-9 && abs(threeQuarters.y - 200) < 1e-9)
            }
        }
        // Key times of another count than the path's keyframes (three here) are ignored: evenly spaced.
        let layer = drawnLayer()
        let along = KeyframeAnimation(keyPath: "position")
        along.path = path.cgPath
        along.keyTimes = [0, 1]
        along.duration = 1
        attach(along, to: layer)
        let quarter = try #require(layer.presentationSnapshot(at: 0.25)).position
        #expect(abs(quarter.x - 50) < 1e-9 && abs(quarter.y) < 1e-9)
    }

    @Test func springsFollowTheirClosedForm() {
        let layer = drawnLayer()
        let spring = SpringAnimation(keyPath: "position.x")
        spring.fromValue = 0.0
        spring.toValue = 100.0
        spring.duration = 5
        attach(spring, to: layer)
        let solution = SpringSolution(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)
        for t in [0.0, 0.1, 0.3, 0.7, 1.5] {
            #expect(abs(x(layer, t) - 100 * (1 - solution.displacement(at: t))) < 1e-9)
        }
        #expect(x(layer, 0.3) > 100)  // underdamped: it overshoots
        #expect(spring.settlingDuration > 1 && spring.settlingDuration < 2)
    }

    @Test func groupsRunOnTheirOwnTimeAndCutTheirAnimations() {
        let layer = drawnLayer()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 4
        move.beginTime = 0.5
        let group = AnimationGroup()
        group.animations = [move]
        group.duration = 2
        group.beginTime = 1
        attach(group, to: layer)
        #expect(x(layer, 1.25) == 10)  // the group has begun, its animation not yet
        #expect(abs(x(layer, 2.5) - 25) < 1e-9)  // one second into the animation
        #expect(x(layer, 3.5) == 10)  // past the group's end
    }

    @Test func aDrawnLayerAnimatesAChangeImplicitly() throws {
        let layer = drawnLayer()
        Transaction.begin()
        Transaction.setValue(10.0, forKey: Transaction.Key.mediaTime)
        Transaction.setAnimationDuration(1)
        Transaction.setAnimationTimingFunction(MediaTimingFunction(name: .linear))
        layer.position = CGPoint(x: 110, y: 20)
        Transaction.commit()
        #expect(layer.position.x == 110)
        #expect(abs(x(layer, 10.5) - 60) < 1e-9)
        #expect(x(layer, 11) == 110)
        let implicit = try #require(layer.animation(forKey: "position") as? BasicAnimation)
        #expect(implicit.duration == 1 && implicit.beginTime == 10)
    }

    @Test func theActionSearchCanStopOrReplaceTheAnimation() {
        let layer = drawnLayer()
        layer.actions = ["position": NullAction.shared]
        Transaction.begin()
        layer.position = CGPoint(x: 50, y: 50)
        Transaction.commit()
        #expect(layer.animationKeys() == nil)
        let custom = BasicAnimation(keyPath: "opacity")
        custom.fromValue = 0.0
        custom.toValue = 1.0
        layer.actions = ["opacity": custom]
        Transaction.begin()
        layer.opacity = 0.5
        Transaction.commit()
        #expect(layer.animationKeys() == ["opacity"])
        layer.actions = nil
        Transaction.begin()
        Transaction.setDisableActions(true)
        layer.backgroundColor = .red
        Transaction.commit()
        #expect(layer.animationKeys() == ["opacity"])
        // A layer never drawn does not animate.
        let fresh = Layer()
        fresh.position = CGPoint(x: 1, y: 1)
        Transaction.flush()
        #expect(fresh.animationKeys() == nil)
    }

    final class Recorder: AnimationDelegate, @unchecked Sendable {
        let lock = NSLock()
        var events: [String] = []
        func animationDidStart(_ animation: Animation) { lock.withLock { events.append("start") } }
        func animationDidStop(_ animation: Animation, finished: Bool) {
            lock.withLock { events.append(finished ? "stop" : "cut") }
        }
    }

    final class Flag: @unchecked Sendable {
        let lock = NSLock()
        var count = 0
        func hit() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    @Test func delegatesAndCompletionBlocksHearOfTheEnd() throws {
        let root = drawnLayer()
        let recorder = Recorder()
        let done = Flag()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        move.delegate = recorder
        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        Transaction.setCompletionBlock { done.hit() }
        root.add(move, forKey: "move")
        Transaction.commit()
        #expect(done.value == 0)  // waits for the animation
        let planner = Planner()
        _ = try planner.plan(root, at: 0.5)
        #expect(recorder.events == ["start"])
        _ = try planner.plan(root, at: 1.5)
        #expect(recorder.events == ["start", "stop"])
        #expect(done.value == 1)
        #expect(root.animationKeys() == ["move"])  // frames at explicit times do not remove it
        _ = try planner.plan(root, at: 2)
        #expect(recorder.events == ["start", "stop"])  // told once
    }

    @Test func aLiveFrameRemovesFinishedAnimations() throws {
        let root = drawnLayer()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        move.beginTime = -100
        attach(move, to: root)
        // Live frames read the media clock (which other tests may set to small times for a moment): an animation
        // that ended at -99 s has ended at any time they set.
        _ = try Planner().plan(root)
        #expect(root.animationKeys() == nil)
    }

    @Test func aZeroDurationTakesTheTransactionsWhenAdded() {
        let layer = drawnLayer()
        let fade = BasicAnimation(keyPath: "opacity")
        #expect(fade.duration == 0)
        Transaction.begin()
        Transaction.setAnimationDuration(2)
        layer.add(fade, forKey: "long")
        Transaction.commit()
        layer.add(fade, forKey: "default")
        Transaction.flush()
        #expect(layer.animation(forKey: "long")?.duration == 2)
        #expect(layer.animation(forKey: "default")?.duration == 0.25)
        #expect(fade.duration == 0)  // the caller's animation is not changed
        fade.duration = 3
        layer.add(fade, forKey: "own")
        Transaction.flush()
        #expect(layer.animation(forKey: "own")?.duration == 3)
    }

    @Test func aForwardsFillRemovedOnCompletionShowsTheModelAfterItsEnd() {
        for removed in [true, false] {
            let layer = drawnLayer()  // position.x 10
            let move = BasicAnimation(keyPath: "position.x")
            move.fromValue = 0.0
            move.toValue = 100.0
            move.duration = 1
            move.fillMode = .forwards
            move.isRemovedOnCompletion = removed
            attach(move, to: layer)
            #expect(abs(x(layer, 0.5) - 50) < 1e-9)
            // Core Animation removes it at its end, so the model shows, at any time drawn (live or not).
            #expect(x(layer, 1) == (removed ? 10 : 100))
            #expect(x(layer, 7) == (removed ? 10 : 100))
            #expect(layer.animationKeys() == ["a"])  // frames at explicit times never change the model
        }
    }

    @Test func removingAnAnimationTellsItsDelegate() {
        let layer = drawnLayer()
        let recorder = Recorder()
        let move = BasicAnimation(keyPath: "position.x")
        move.delegate = recorder
        attach(move, to: layer)
        layer.removeAllAnimations()
        #expect(recorder.events == ["cut"])
    }

    @Test func presentedNodesShareWhatDoesNotAnimate() throws {
        let root = drawnLayer()
        let still = drawnLayer(), moving = drawnLayer()
        Transaction.begin()
        Transaction.setDisableActions(true)
        root.sublayers = [still, moving]
        Transaction.commit()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        attach(move, to: moving)
        let a = try #require(root.presentationSnapshot(at: 0.25)), b = try #require(root.presentationSnapshot(at: 0.75))
        #expect(a.sublayers[0] === b.sublayers[0])
        #expect(a.sublayers[1] !== b.sublayers[1])
        // A moved layer's own content is unchanged: only its parent's version changes.
        #expect(a.sublayers[1].contentVersion == b.sublayers[1].contentVersion)
        #expect(a.contentVersion != b.contentVersion)
    }

    @Test func hitTestingWorksOnThePresentation() throws {
        let root = drawnLayer()
        let child = drawnLayer()
        Transaction.begin()
        Transaction.setDisableActions(true)
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        child.name = "moving"
        root.addSublayer(child)
        Transaction.commit()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 10.0
        move.toValue = 190.0
        move.duration = 1
        attach(move, to: child)
        let shown = try #require(root.presentationSnapshot(at: 0.5))
        #expect(shown.hitTest(CGPoint(x: 100, y: 20))?.name == "moving")
        #expect(shown.hitTest(CGPoint(x: 10, y: 20))?.id == root.id)
        // The model has not moved. A root's hitTest point is in the space the root is placed in (its position
        // (10, 20) puts its (100, 50) there).
        #expect(root.hitTest(root.convert(CGPoint(x: 10, y: 20), to: nil)) === child)
    }

    /// A tree large enough to be evaluated on all cores gives every layer the value its own animation has.
    @Test func aLargeTreeIsEvaluatedInParallelAlike() throws {
        let root = drawnLayer()
        var layers: [Layer] = []
        Transaction.begin()
        Transaction.setDisableActions(true)
        for index in 0..<5000 {
            let layer = Layer()
            layer.position = CGPoint(x: index, y: 0)
            root.addSublayer(layer)
            layers.append(layer)
        }
        Transaction.commit()
        Transaction.begin()
        for (index, layer) in layers.enumerated() {
            let move = BasicAnimation(keyPath: "position.y")
            move.fromValue = 0.0
            move.toValue = Double(index)
            move.duration = 1
            layer.attach(move, forKey: "move", keepingBeginTime: true)
        }
        Transaction.commit()
        let shown = try #require(root.presentationSnapshot(at: 0.5))
        #expect(shown.sublayers.count == 5000)
        for (index, node) in shown.sublayers.enumerated() {
            #expect(node.position == CGPoint(x: CGFloat(index), y: CGFloat(index) / 2))
            if node.position.y != CGFloat(index) / 2 { break }
        }
    }
}

