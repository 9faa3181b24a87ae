import Foundation
import LaminaCore

/// An animation whose effect at each moment is worked out by a function of time (docs/animation.md, "Function
/// animations"): at every frame the function gets the animation's local time and the layer's presented state, and
/// changes what it likes (a drawing layer's drawing, the position, the opacity...). Lottie layers are animated this
/// way.
///
/// `time` is the layer's local time run through the animation's own timing, as for any animation: beginTime,
/// speed, timeOffset, repeatCount/repeatDuration, autoreverses and fillMode apply. With a finite duration it is the
/// time into the current cycle (0...duration, turned back in an autoreversed half); with the default duration
/// (`FunctionAnimation.forever`; an infinite one becomes it when added) it is (layer time - beginTime) x speed +
/// timeOffset. Add it with
/// `Layer.add(_:forKey:keepingBeginTime: true)` to keep a beginTime of 0 (Core Animation's `add` reads 0 as "now").
/// The layer counts as animated while it has one, so frames keep coming; a frame redraws only what the function
/// actually changed (the planner matches unchanged pictures by value).
public final class FunctionAnimation: Animation, @unchecked Sendable {
    /// The function; it must not touch layers (it runs while a frame is being made, on any thread).
    public let update: @Sendable (_ time: Double, _ state: inout LayerState) -> Void

    /// The function promises to change only where the layer sits in its superlayer (position, anchorPoint,
    /// anchorPointZ, zPosition, transform): then a frame moves the layer's last plan instead of planning its subtree
    /// again (as for a position animation). False by default; with it set, other changes the function makes may not
    /// be drawn.
    public var changesPlacementOnly = false

    public init(update: @escaping @Sendable (_ time: Double, _ state: inout LayerState) -> Void) {
        self.update = update
        super.init()
        duration = Self.forever
    }

    /// A copy with the same function and timing.
    public override func copy() -> Animation {
        let copy = FunctionAnimation(update: update)
        copy.copyAnimationProperties(from: self)
        copy.changesPlacementOnly = changesPlacementOnly
        return copy
    }

    /// The default duration: 1e300 seconds, forever in practice (an infinite duration would be a 0.25 s one, as
    /// for every animation; 1e300 keeps the timing arithmetic finite, autoreverses included).
    public static let forever: Double = 1e300

    /// The function's time at the layer's local time `parent`: the time into the current cycle, as the timing
    /// says; nil when the animation has no effect then.
    public func localTime(atLayerTime parent: Double) -> Double? {
        timing.phase(parent: parent).map(\.time)
    }

    override func apply(to state: inout PresentedState, model: LayerState, time: Double) -> Bool {
        guard let local = localTime(atLayerTime: time) else { return false }
        update(local, &state.state)
        // The subtree is planned again (unless only its place changes); pictures and quads that come out the same
        // as the last frame's are matched by value, so they are not drawn again.
        if !changesPlacementOnly { state.contentChanged = true }
        return true
    }
}
