import Foundation
import LaminaCore

// Animations on layers (docs/animation.md): attaching them, the layer's own timing, and the presentation at a time.

extension Layer {
    // MARK: Attached animations

    /// Attaches a copy of `animation` for `key` (replacing one with that key; nil: a key of its own), as part of
    /// the current transaction. An animation with beginTime 0 begins at the layer's local time now (the
    /// transaction's media time), as Core Animation sets it to the current time; one with duration 0 takes the
    /// transaction's `animationDuration()` (0.25 s unless set), as Core Animation's does.
    public func add(_ animation: Animation, forKey key: String?) {
        attach(animation, forKey: key, keepingBeginTime: false)
    }

    /// `add(_:forKey:)`, with `keepingBeginTime`: a beginTime of 0 stays 0 (the animation is on the layer's timeline
    /// from its local time 0, as a scene file's or a Lottie file's animations are) instead of becoming "now".
    public func add(_ animation: Animation, forKey key: String?, keepingBeginTime: Bool) {
        attach(animation, forKey: key, keepingBeginTime: keepingBeginTime)
    }

    /// Attaches a copy of `animation`; with `keepingBeginTime`, its beginTime stays as given (a scene file's
    /// animations are on the timeline from 0).
    package func attach(_ animation: Animation, forKey key: String?, keepingBeginTime: Bool) {
        let copy = animation.copy()
        // Core Animation gives an animation of duration 0 the transaction's duration when it is added.
        // A function animation given an infinite duration runs for as long as it is attached.
        if copy is FunctionAnimation, copy.duration == .infinity { copy.duration = FunctionAnimation.forever }
        if copy.duration == 0 || !copy.duration.isFinite { copy.duration = Transaction.animationDuration() }
        let drawnKeys = resolveCustomKeyPaths(copy)
        copy.prepareForAttaching()
        let now = Transaction.mediaTime()
        let group = ThreadTransactions.current.currentAnimationGroup()
        var added: AttachedAnimation?
        let replaced: [AttachedAnimation] = write(.animations) { state in
            let local = modelLocalTimeLocked(media: now)
            if !keepingBeginTime, copy.beginTime == 0 { copy.beginTime = local }
            if let basic = copy as? BasicAnimation {
                basic.fillPreviousValue(from: everCommitted ? presentedStateLocked(at: local) : state)
            }
            let name = key ?? {
                anonymousAnimations += 1
                return "animation-\(anonymousAnimations)"
            }()
            let replaced = state.animations.filter { $0.key == name }
            state.animations.removeAll { $0.key == name }
            let events = AnimationEvents(completion: group)
            events.layer = self
            let attached = AttachedAnimation(key: name, animation: copy, events: events)
            state.animations.append(attached)
            added = attached
            return replaced
        }
        for attached in replaced { attached.events.stop(attached.animation, finished: false) }
        if let added { MainRunLoopEvents.shared.watch(added, on: self) }
        if !drawnKeys.isEmpty { registerAnimatedDisplay(keys: drawnKeys) }
    }

    /// Resolves the key paths of `animation` (and of a group's animations) that are custom keys of this layer
    /// (`setValue(_:forKey:)`): animated as the kind of the layer's value for the key (else its class's default,
    /// else the animation's own values). Gives the animated keys whose class says they need display.
    private func resolveCustomKeyPaths(_ animation: Animation) -> Set<String> {
        var drawn: Set<String> = []
        if let group = animation as? AnimationGroup {
            for member in group.animations ?? [] { drawn.formUnion(resolveCustomKeyPaths(member)) }
            return drawn
        }
        guard let animation = animation as? PropertyAnimation, let keyPath = animation.keyPath, !keyPath.isEmpty
        else { return drawn }
        let root = String(keyPath.prefix { $0 != "." })
        if type(of: self).needsDisplay(forKey: root) { drawn.insert(root) }
        guard animation.property == nil, !keyPath.contains(".") else { return drawn }
        let fallback = type(of: self).defaultValue(forKey: keyPath)
        let current = read { $0.customValues[keyPath] } ?? fallback
        var given: Any?
        if let basic = animation as? BasicAnimation {
            given = basic.fromValue ?? basic.toValue ?? basic.byValue
        } else if let keyframe = animation as? KeyframeAnimation {
            given = keyframe.values?.first
        }
        guard let kind = AnimatedValueKind.inferred(from: current) ?? AnimatedValueKind.inferred(from: given)
        else { return drawn }
        animation.property = .custom(keyPath, kind: kind, fallback: fallback)
        return drawn
    }

    /// `time` on this layer's timeline converted to `layer`'s (nil: media time): CALayer's `convertTime(_:to:)`.
    public func convertTime(_ time: Double, to layer: Layer?) -> Double {
        guard let layer else { return ModelLock.shared.withLock { modelMediaTimeLocked(local: time) } }
        return layer.convertTime(time, from: self)
    }

    /// The layer's copy of the animation attached for `key` (changing it changes nothing on screen).
    public func animation(forKey key: String) -> Animation? {
        read { state in state.animations.last { $0.key == key }?.animation }
    }

    /// The keys of the attached animations, in the order they were added; nil when there are none.
    public func animationKeys() -> [String]? {
        let keys = read { $0.animations.map(\.key) }
        return keys.isEmpty ? nil : keys
    }

    /// Detaches the animation for `key`; its delegate is told it stopped unfinished.
    public func removeAnimation(forKey key: String) {
        let removed: [AttachedAnimation] = write(.animations) { state in
            defer { state.animations.removeAll { $0.key == key } }
            return state.animations.filter { $0.key == key }
        }
        for attached in removed { attached.events.stop(attached.animation, finished: false) }
    }

    /// Detaches every animation.
    public func removeAllAnimations() {
        let removed: [AttachedAnimation] = write(.animations) { state in
            defer { state.animations = [] }
            return state.animations
        }
        for attached in removed { attached.events.stop(attached.animation, finished: false) }
    }

    // MARK: The layer's timing (CAMediaTiming)

    /// Where the layer's time starts, in its superlayer's time (0 by default).
    public var beginTime: Double {
        get { read { $0.timing.beginTime } }
        set { write(.timing) { $0.timing.beginTime = newValue } }
    }
    /// How fast the layer's time runs against its superlayer's (1 by default; 0 pauses the layer, its sublayers
    /// and their animations).
    public var speed: Float {
        get { read { $0.timing.speed } }
        set { write(.timing) { $0.timing.speed = newValue } }
    }
    /// Added to the layer's time after speed (0 by default): with speed 0, the paused time.
    public var timeOffset: Double {
        get { read { $0.timing.timeOffset } }
        set { write(.timing) { $0.timing.timeOffset = newValue } }
    }
    /// Kept for CAMediaTiming's sake: a layer's active period is infinite whatever these say (as in Core
    /// Animation, where they have no visible effect on a layer).
    public var duration: Double {
        get { read { $0.timing.duration } }
        set { write(.timing) { $0.timing.duration = newValue } }
    }
    public var repeatCount: Float {
        get { read { $0.timing.repeatCount } }
        set { write(.timing) { $0.timing.repeatCount = newValue } }
    }
    public var repeatDuration: Double {
        get { read { $0.timing.repeatDuration } }
        set { write(.timing) { $0.timing.repeatDuration = newValue } }
    }
    public var autoreverses: Bool {
        get { read { $0.timing.autoreverses } }
        set { write(.timing) { $0.timing.autoreverses = newValue } }
    }
    public var fillMode: FillMode {
        get { read { $0.timing.fillMode } }
        set { write(.timing) { $0.timing.fillMode = newValue } }
    }

    /// `time` on `layer`'s timeline (nil: media time) converted to this layer's (both through the model's
    /// superlayers' timing; CALayer's `convertTime(_:from:)`).
    public func convertTime(_ time: Double, from layer: Layer?) -> Double {
        ModelLock.shared.withLock {
            let media = layer.map { $0.modelMediaTimeLocked(local: time) } ?? time
            return modelLocalTimeLocked(media: media)
        }
    }

    /// This layer's local time at media time `media`, through the model's superlayers. Model lock held.
    func modelLocalTimeLocked(media: Double) -> Double {
        var chain: [MediaTiming] = []
        var node: Layer? = self
        while let layer = node {
            chain.append(layer.model.timing)
            node = layer.modelSuperlayer ?? layer.maskOwner
        }
        return chain.reversed().reduce(media) { $1.localTime(parent: $0) }
    }

    /// The media time at which this layer's local time is `local` (speed 0: its beginTime). Model lock held.
    func modelMediaTimeLocked(local: Double) -> Double {
        var time = local
        var node: Layer? = self
        while let layer = node {
            let timing = layer.model.timing
            time = timing.speed != 0 ? (time - timing.timeOffset) / Double(timing.speed) + timing.beginTime
                : timing.beginTime
            node = layer.modelSuperlayer ?? layer.maskOwner
        }
        return time
    }

    /// The committed state with this layer's own animations applied at its local time `local`. Model lock held.
    func presentedStateLocked(at local: Double) -> LayerState {
        var presented = PresentedState(committed)
        for attached in committed.animations where !attached.animation.isRemovedAfterEnd(at: local) {
            _ = attached.animation.apply(to: &presented, model: committed, time: local)
        }
        return presented.state
    }

    // MARK: Presentation

    /// The layer and its subtree as a frame at media time `time` shows them: the committed state with every
    /// animation applied (Core Animation's presentation layer). nil while the layer has never been committed.
    public func presentationSnapshot(at time: Double) -> LayerSnapshot? {
        let committed: (LayerSnapshot, Double)? = ModelLock.shared.withLock {
            guard everCommitted else { return nil }
            // The time of this layer's superlayer: media time through the committed ancestors' timing.
            var chain: [MediaTiming] = []
            var node = committedParent
            while let layer = node {
                chain.append(layer.committed.timing)
                node = layer.committedParent
            }
            return (snapshotLocked(), chain.reversed().reduce(time) { $1.localTime(parent: $0) })
        }
        guard let (snapshot, parentTime) = committed else { return nil }
        var events: [AnimationEvent] = []
        return snapshot.presented(at: parentTime, stamp: Layer.presentationStamp(), events: &events)
    }

    /// A new version number for presented nodes (shared with commits, so never equal to a committed version).
    static func presentationStamp() -> UInt64 {
        ModelLock.shared.withLock {
            Transaction.commits &+= 1
            return Transaction.commits
        }
    }

    /// What a frame of this tree at `time` (nil: now, a live frame) draws: the frame's snapshot with every
    /// animation applied. The frame then tells animation delegates what started and stopped, runs completion
    /// blocks whose animations are all done, and, for a live frame, takes finished animations that are removed on
    /// completion off their layers (which changes no picture).
    /// `removingFinished`: whether animations past their end come off the layers (with `isRemovedOnCompletion`), as
    /// on a live clock; nil: only for a frame of now (time nil), since an export may draw earlier times later.
    /// `stages`: marks the snapshot's end, for the frame's build time (FramePlanTimings.swift).
    func presentationForFrame(at time: Double?, removingFinished: Bool? = nil, stages: FrameStageClock? = nil) throws
        -> LayerSnapshot
    {
        try FramePipeline.presentation(of: self, at: time, removingFinished: removingFinished, stages: stages).snapshot
    }

    /// Takes the finished animation `events` belongs to off the layer's model and committed state at once,
    /// outside any transaction: past its end it has no effect, so no picture changes.
    func removeFinished(_ events: AnimationEvents) {
        ModelLock.shared.withLock {
            model.animations.removeAll { $0.events === events }
            let before = committed.animations.count
            committed.animations.removeAll { $0.events === events }
            if committed.animations.count != before { markCommittedChangeLocked() }
        }
    }

    /// Gives the transitions among `animations` that have no picture yet the committed subtree as it is now.
    /// Model lock held.
    func captureTransitionsLocked(_ animations: [AttachedAnimation]) {
        for attached in animations {
            guard let transition = attached.animation as? Transition, !attached.events.captured else { continue }
            attached.events.captured = true
            transition.before = everCommitted ? snapshotLocked() : nil
        }
    }
}

extension Animation {
    /// Readies the layer's copy for frames: key paths resolved, values converted (frames only read it).
    func prepareForAttaching() {
        if let basic = self as? BasicAnimation { basic.prepare() }
        if let keyframe = self as? KeyframeAnimation { keyframe.prepare() }
        if let group = self as? AnimationGroup { group.animations?.forEach { $0.prepareForAttaching() } }
    }
}

extension AnimationEvents {
    /// Tells the delegates and completion groups of `events`, on the calling thread (a frame's, or the main
    /// queue's), outside every lock; with `removingFinished`, finished animations removed on completion leave their
    /// layers. Starts first; then the completion blocks that the stops make due, then the stops' delegates (as Core
    /// Animation runs a transaction's completion block before its animations' `animationDidStop`).
    /// True when anything was told (a delegate, a completion block) or taken off a layer: the committed tree may
    /// then differ from the frame's snapshot.
    @discardableResult
    static func deliver(_ events: [AnimationEvent], removingFinished: Bool) -> Bool {
        var stopped: [AnimationEvent] = []
        var told = false
        for event in events {
            let animation = event.attached.animation
            if event.attached.events.markStarted(), let delegate = animation.delegate {
                delegate.animationDidStart(animation)
                told = true
            }
            if event.kind == .finished, event.attached.events.markStopped() { stopped.append(event) }
        }
        var blocks: [@Sendable () -> Void] = []
        for event in stopped { blocks += event.attached.events.completion?.leave() ?? [] }
        for block in blocks { block() }
        for event in stopped {
            let animation = event.attached.animation
            animation.delegate?.animationDidStop(animation, finished: true)
            if removingFinished, animation.isRemovedOnCompletion, let layer = event.attached.events.layer {
                layer.removeFinished(event.attached.events)
            }
        }
        return told || !stopped.isEmpty
    }

    /// The animation stopped (finished, or removed before its end): its transaction's completion blocks run when it
    /// was the last of theirs, then its delegate is told, once.
    func stop(_ animation: Animation, finished: Bool) {
        guard markStopped() else { return }
        for block in completion?.leave() ?? [] { block() }
        animation.delegate?.animationDidStop(animation, finished: finished)
    }
}
