import Foundation
import LaminaCore

/// Core Animation's CAAnimation: the timing every animation has (CAMediaTiming), a timing function, what happens at
/// its end, and a delegate.
///
/// An animation is a description. `Layer.add(_:forKey:)` attaches a copy, so changing an animation after adding it
/// changes nothing on screen, as in Core Animation; the copy is what `Layer.animation(forKey:)` returns.
open class Animation: @unchecked Sendable {
    /// The CAMediaTiming properties, as one value (each is also a property of its own below).
    public var timing = MediaTiming()
    /// Eases the progress of each cycle; nil: linear (for animations made in code, as in Core Animation).
    public var timingFunction: MediaTimingFunction?
    /// true (the default): past its end the animation shows nothing, whatever its fill (Core Animation removes it
    /// then), and the first live frame past its end takes it off the layer. false: it stays, and a forwards fill
    /// holds its end value.
    public var isRemovedOnCompletion = true
    /// Told when the animation starts and stops; held strongly, as CAAnimation holds its delegate.
    public var delegate: AnimationDelegate?
    /// The frame rates the animation would like (Core Animation's `preferredFrameRateRange`): a hint kept for ported
    /// code; frames come at the display's or the export's rate.
    public var preferredFrameRateRange: FrameRateRange = .default

    public init() {}

    /// The default value of an animation property by its key (CAAnimation's `defaultValue(forKey:)`): the
    /// CAMediaTiming keys (`beginTime`, `duration`, `speed`, `timeOffset`, `repeatCount`, `repeatDuration`,
    /// `autoreverses`, `fillMode`), `removedOnCompletion` (true), `additive` and `cumulative` (false); nil for any
    /// other key (timingFunction, delegate, keyPath, values...). Subclasses may override it.
    open class func defaultValue(forKey key: String) -> Any? {
        if let timing = MediaTiming.keyValueKeys[key] { return MediaTiming()[keyPath: timing] }
        switch key {
        case "removedOnCompletion", "isRemovedOnCompletion": return true
        case "additive", "isAdditive", "cumulative", "isCumulative": return false
        default: return nil
        }
    }

    /// A copy of every property (what `Layer.add(_:forKey:)` attaches).
    open func copy() -> Animation {
        let copy = Animation()
        copy.copyAnimationProperties(from: self)
        return copy
    }

    /// Copies what every animation has; subclasses' `copy()` call it.
    public func copyAnimationProperties(from other: Animation) {
        timing = other.timing
        timingFunction = other.timingFunction
        isRemovedOnCompletion = other.isRemovedOnCompletion
        delegate = other.delegate
        preferredFrameRateRange = other.preferredFrameRateRange
    }

    // MARK: CAMediaTiming

    /// When the animation begins, in its layer's local time; 0 in code means "when it is added" (the layer's
    /// local time at that moment is written here, as Core Animation does).
    public var beginTime: Double {
        get { timing.beginTime }
        set { timing.beginTime = newValue }
    }
    /// Seconds of one cycle; 0 means the transaction's `animationDuration()` (0.25 s unless set) when the animation
    /// is added to a layer.
    public var duration: Double {
        get { timing.duration }
        set { timing.duration = newValue }
    }
    /// How fast local time runs against the layer's; 0 freezes it.
    public var speed: Float {
        get { timing.speed }
        set { timing.speed = newValue }
    }
    /// Added to local time after speed.
    public var timeOffset: Double {
        get { timing.timeOffset }
        set { timing.timeOffset = newValue }
    }
    /// Cycles to play (fractions allowed, `.infinity` forever); 0: one.
    public var repeatCount: Float {
        get { timing.repeatCount }
        set { timing.repeatCount = newValue }
    }
    /// Seconds to play for, repeating as needed; 0: use repeatCount.
    public var repeatDuration: Double {
        get { timing.repeatDuration }
        set { timing.repeatDuration = newValue }
    }
    /// Plays each cycle forwards, then backwards.
    public var autoreverses: Bool {
        get { timing.autoreverses }
        set { timing.autoreverses = newValue }
    }
    /// What the animation shows outside its active period.
    public var fillMode: FillMode {
        get { timing.fillMode }
        set { timing.fillMode = newValue }
    }

    // MARK: Evaluation (overridden by the animation classes)

    /// Applies the animation's value at `time` (its layer's local time) to `state`, given the layer's committed
    /// (model) state `model`. Returns false when the animation has no effect at that time.
    func apply(to state: inout PresentedState, model: LayerState, time: Double) -> Bool { false }

    /// Applies the animation's value at `time` to a node's values (animated node values, Planner+AnimatedNodes.swift),
    /// given the committed ones `model`, as `apply(to:model:time:)` applies it to a state; only for animations that
    /// `followsNodeValues` (property animations of node values, and groups of them). Returns false when the
    /// animation has no effect at that time.
    func apply(to placement: inout NodePlacement, model: NodePlacement, time: Double) -> Bool { false }
}

extension Animation {
    /// Whether the animation, attached to a layer, is over at its layer's local time `time` and removed on
    /// completion: it then shows nothing, whatever its fill (Core Animation takes it off its layer at its end, so
    /// the model value shows). Frames at any time agree, live or not.
    func isRemovedAfterEnd(at time: Double) -> Bool {
        isRemovedOnCompletion && timing.activeDuration.isFinite && timing.isFinished(parent: time)
    }
}

/// CAAnimationDelegate: told when an animation starts and stops, once each: on the main run loop as time passes
/// (for animations added on the main thread), or in the first frame whose time reaches the event, on the frame's
/// thread, whichever comes first (docs/animation.md, "Frames, delegates and removal").
public protocol AnimationDelegate: AnyObject {
    /// The animation's active period began.
    func animationDidStart(_ animation: Animation)
    /// The animation ended (`finished` true) or was removed before its end (`finished` false).
    func animationDidStop(_ animation: Animation, finished: Bool)
}

extension AnimationDelegate {
    public func animationDidStart(_ animation: Animation) {}
    public func animationDidStop(_ animation: Animation, finished: Bool) {}
}

/// CAAction: what a layer runs when one of its properties changes (an implicit animation, for the default action).
/// Core Animation's signature: `anObject` is the layer, `dict` the action's arguments (nil for property changes).
public protocol Action: AnyObject {
    /// Runs the action for `event` on `anObject` (a layer): the default one adds an animation.
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

/// Core Animation's NSNull in the action search: stops the search with no action (the change does not animate).
/// `NSNull()` itself does the same (it is an `Action`, as on Apple platforms); this class is Lamina's spelling.
public final class NullAction: Action, @unchecked Sendable {
    public init() {}
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
    /// One shared instance, for `actions` dictionaries.
    public static let shared = NullAction()
}

/// `NSNull()` in `actions`, in `style["actions"]` or from a delegate's `action(for:forKey:)` stops the action search
/// with no action, as on Apple platforms; running it does nothing.
extension NSNull: Action {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

extension Action {
    /// Whether the action is one of the null actions that end the search with no action.
    var isNullAction: Bool { self is NullAction || self is NSNull }
}

/// An animation is an action: running it adds a copy to the layer for the key (as CAAnimation's
/// `run(forKey:object:arguments:)` does); on anything but a layer it does nothing.
extension Animation: Action {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? Layer)?.add(self, forKey: event)
    }
}

/// An animation attached to a layer: the layer's own copy, its key, and what frames have told its delegate.
public struct AttachedAnimation: @unchecked Sendable {
    /// The key it was added for (a generated one when added for nil).
    public let key: String
    /// The layer's copy: never changed after it is attached.
    public let animation: Animation
    /// Book-keeping shared by every state that holds this attachment (events told, completion group).
    let events: AnimationEvents
}

/// What frames have told an attached animation's delegate, and the transaction completion waiting for it. Guarded
/// by its own lock: frames on several threads may reach its events.
final class AnimationEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var started = false
    private var stopped = false
    /// The layer the animation is attached to (a finished one is taken off it).
    weak var layer: Layer?
    /// A transition's picture of the subtree before its change has been taken (model lock held to touch it).
    var captured = false
    /// The completion block of the transaction that added the animation, shared with that transaction's other
    /// animations.
    let completion: CompletionGroup?

    init(completion: CompletionGroup?) {
        self.completion = completion
        completion?.enter()
    }

    /// true the first time it is asked (the start is to be told now).
    func markStarted() -> Bool {
        lock.withLock {
            defer { started = true }
            return !started
        }
    }

    /// Whether the stop has been told.
    var isStopped: Bool { lock.withLock { stopped } }

    /// true the first time it is asked (the stop is to be told now).
    func markStopped() -> Bool {
        lock.withLock {
            defer { stopped = true }
            return !stopped
        }
    }
}

/// A transaction's completion block that waits for the animations the transaction added: it runs when the
/// transaction has committed and the last of them has stopped (finished or removed).
final class CompletionGroup: @unchecked Sendable {
    private let lock = NSLock()
    /// The transaction itself counts as one until it commits.
    private var pending = 1
    private var blocks: [@Sendable () -> Void] = []

    func enter() {
        lock.withLock { pending += 1 }
    }

    /// One animation stopped; returns the blocks to run now (when it was the last, after the commit).
    func leave() -> [@Sendable () -> Void] {
        lock.withLock {
            pending -= 1
            guard pending <= 0 else { return [] }
            defer { blocks = [] }
            return blocks
        }
    }

    /// The transaction committed with `blocks`: returns them to run now when no animation is pending.
    func commit(_ blocks: [@Sendable () -> Void]) -> [@Sendable () -> Void] {
        lock.withLock { self.blocks = blocks }
        return leave()
    }
}

/// A range of frame rates an animation or display link would like (Core Animation's `CAFrameRateRange`).
public struct FrameRateRange: Hashable, Sendable {
    public var minimum: Float
    public var maximum: Float
    /// nil: no preference within the range.
    public var preferred: Float?

    public init(minimum: Float, maximum: Float, preferred: Float? = nil) {
        (self.minimum, self.maximum, self.preferred) = (minimum, maximum, preferred)
    }

    public init(minimum: Float, maximum: Float, __preferred preferred: Float) {
        self.init(minimum: minimum, maximum: maximum, preferred: preferred)
    }

    /// No preference: the display's own rate.
    public static let `default` = FrameRateRange(minimum: 0, maximum: 0, preferred: 0)

    /// Whether two ranges are equal (Core Animation's `isEqual(to:)`).
    public func isEqual(to range: FrameRateRange) -> Bool { self == range }
}
