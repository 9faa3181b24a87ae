import Foundation
import LaminaCore
import LaminaLayers

/// A scene's `timeline` (docs/scene-format.md, "Timeline"): changes to named layers at given times, each made in a
/// transaction of its own whose media time is the entry's time, so the implicit animations it starts begin then
/// whenever the change is applied.
///
/// Time may be visited in any order (docs/animation.md, "Random access in time"): after `advance(to: t)` the layers
/// are what a fresh load advanced to `t` makes them, so a frame at `t` has the same pixels, whatever was drawn
/// before, later times included. Going back restores what the timeline changed (and the animations that live frames
/// took off finished) to what it was before the first entry, then applies the entries up to `t` again.
/// Edits (`Scene.edit(controlLine:file:line:path:)`) and control lines (`Scene.apply(controlLine:lineNumber:at:)`)
/// are changes of the file itself: they survive going back. It is a class because the changes it applies are to the
/// scene's layers, which every copy of a `Scene` shares.
public final class SceneTimeline: @unchecked Sendable {
    /// One change: what a timeline entry of the file does.
    struct Entry {
        var at: Double
        var layer: Layer
        /// The layer of its own that the entry's `set` was read into, and the keys given: applying copies them from
        /// there to `layer`. nil: the entry sets nothing (a transition alone).
        var source: Layer?
        var keys: [String] = []
        var animationDuration: Double?
        var timingFunction: MediaTimingFunction?
        var disableActions: Bool?
        var transition: SceneAnimation?

        /// Sets the entry's properties on its layer.
        func applyChanges() {
            guard let source else { return }
            for key in keys { SceneLoader.copy(key, from: source, to: layer) }
        }
    }

    /// What one layer was before the timeline changed it: the file as loaded, with the edits and control lines since.
    private final class Baseline {
        let layer: Layer
        /// A layer of the same type (never drawn) holding the layer's values of `keys`: every key the timeline sets on
        /// it. nil when the timeline sets none (the layer is here for its animations).
        let shadow: Layer?
        let keys: [String]
        /// The layer's animations before any entry or control line added one, finished ones included.
        let animations: [AttachedAnimation]

        /// Takes the layer's values now. In a transaction (the shadow's values are set in it).
        init(_ layer: Layer, keys: [String]) {
            self.layer = layer
            self.keys = keys
            animations = layer.attachedAnimations
            guard !keys.isEmpty else {
                shadow = nil
                return
            }
            let shadow = SceneLoader.makeLayer(SceneLoader.layerType(of: layer))
            for key in keys { SceneTimeline.copyExactly(key, from: layer, to: shadow) }
            self.shadow = shadow
        }

        /// An edit's or a control line's `set` becomes part of what the layer was (so going back keeps it).
        func absorb(_ entry: Entry) {
            guard let shadow, let source = entry.source else { return }
            for key in entry.keys { SceneLoader.copy(key, from: source, to: shadow) }
        }

        /// Puts the values and animations back. In a transaction with actions disabled.
        func restore() {
            if let shadow {
                for key in keys { SceneTimeline.copyExactly(key, from: shadow, to: layer) }
            }
            layer.restoreAttachedAnimations(animations)
        }
    }

    /// In the order they apply: by time, and in file order at one time.
    let entries: [Entry]
    /// The keys the entries set on each layer, by layer.
    private let keysByLayer: [ObjectIdentifier: [String]]
    /// How many entries have been applied (under `lock`).
    private var applied = 0
    /// The time of the last `advance(to:)`; -infinity before any.
    private var time = -Double.infinity
    /// The layers' baselines, in the order they were taken (under `lock`).
    private var baselines: [Baseline] = []
    private var baselineIndex: [ObjectIdentifier: Int] = [:]
    private let lock = NSLock()

    init(entries: [Entry]) {
        self.entries = entries.enumerated().sorted { a, b in
            a.element.at != b.element.at ? a.element.at < b.element.at : a.offset < b.offset
        }.map(\.element)
        var keys: [ObjectIdentifier: [String]] = [:]
        for entry in entries {
            let id = ObjectIdentifier(entry.layer)
            for key in entry.keys where !(keys[id]?.contains(key) ?? false) { keys[id, default: []].append(key) }
        }
        keysByLayer = keys
    }

    /// A timeline with no entries.
    public convenience init() { self.init(entries: []) }

    /// The entries' times, in the order they apply.
    public var times: [Double] { entries.map(\.at) }

    /// How many entries are applied now: those at or before the time of the last `advance(to:)`.
    public var appliedCount: Int { lock.withLock { applied } }

    /// The time up to which entries have been applied: the last applied entry's, or -infinity before any.
    public var appliedTime: Double {
        lock.withLock { applied == 0 ? -.infinity : entries[applied - 1].at }
    }

    /// Makes the scene's layers what they are at `time`: every entry at or before it applied, none after it.
    ///
    /// Forwards, it applies the entries not applied yet, in order, each in a transaction of its own
    /// (`Transaction.Key.mediaTime` set to the entry's time, then its animation duration, timing function and
    /// disableActions, its properties, and its transition added for the key "transition" or its `name`). Backwards
    /// past an applied entry, or when a live frame has taken a finished animation off a layer since, it first puts
    /// back, in one transaction with actions disabled, every property the timeline sets and every layer's animations
    /// as they were before the first entry (with the edits and control lines since), then applies the entries up to
    /// `time` again. Calling it again with the same time changes nothing; a NaN changes nothing.
    ///
    /// Frames drawn on other threads while it runs may show the layers between two of its transactions; draw the
    /// frame of `time` after it returns.
    public func advance(to time: Double) {
        lock.withLock { advanceLocked(to: time) }
    }

    private func advanceLocked(to time: Double) {
        guard !time.isNaN else { return }
        if applied > 0, entries[applied - 1].at > time {
            rewindLocked()
        } else if time < self.time, baselines.contains(where: { !$0.layer.stillHasAttachedAnimations($0.animations) }) {
            // Going back before the end of an animation a live frame took off: it must be there again.
            rewindLocked()
        }
        while applied < entries.count, entries[applied].at <= time {
            let entry = entries[applied]
            _ = baselineLocked(for: entry.layer)
            Self.apply(entry)
            applied += 1
        }
        self.time = time
    }

    /// Puts every layer the timeline or a control line changed back as it was before the first entry; no entry is
    /// applied afterwards.
    private func rewindLocked() {
        Transaction.begin()
        Transaction.setValue(0.0, forKey: Transaction.Key.mediaTime)
        Transaction.setDisableActions(true)
        for baseline in baselines { baseline.restore() }
        Transaction.commit()
        applied = 0
    }

    /// The baseline of `layer`, taken now if it has none.
    private func baselineLocked(for layer: Layer) -> Baseline {
        let id = ObjectIdentifier(layer)
        if let index = baselineIndex[id] { return baselines[index] }
        Transaction.begin()
        Transaction.setDisableActions(true)
        let baseline = Baseline(layer, keys: keysByLayer[id] ?? [])
        Transaction.commit()
        baselineIndex[id] = baselines.count
        baselines.append(baseline)
        return baseline
    }

    /// Takes the baselines a loaded scene needs before anything changes it: every layer an entry changes, and every
    /// layer under `root` with an animation that a live frame may take off when it finishes.
    func recordBaselines(under root: Layer) {
        lock.withLock {
            for entry in entries { _ = baselineLocked(for: entry.layer) }
            var stack = [root]
            while let layer = stack.popLast() {
                if layer.attachedAnimations.contains(where: \.canFinish) { _ = baselineLocked(for: layer) }
                stack += layer.sublayers ?? []
                if let mask = layer.mask { stack.append(mask) }
            }
        }
    }

    /// A control line (`Scene.apply(controlLine:lineNumber:at:)`): applied now as `apply` does, and kept when the
    /// timeline goes back (its change stays, its animation goes).
    func applyControl(_ entry: Entry) {
        lock.withLock {
            let baseline = baselineLocked(for: entry.layer)
            Self.apply(entry)
            baseline.absorb(entry)
        }
    }

    /// An edit (`Scene.edit`): applied as the file would have it, before every entry (the entries applied already
    /// are applied again after it).
    func applyEdit(_ entry: Entry) {
        lock.withLock {
            let baseline = baselineLocked(for: entry.layer)
            Self.apply(entry)
            baseline.absorb(entry)
            if applied > 0 {
                rewindLocked()
                advanceLocked(to: time)
            }
        }
    }

    /// Applies one entry as one transaction at media time `entry.at` (a control line's too).
    static func apply(_ entry: Entry) {
        Transaction.begin()
        Transaction.setValue(entry.at, forKey: Transaction.Key.mediaTime)
        if let duration = entry.animationDuration { Transaction.setAnimationDuration(duration) }
        if let function = entry.timingFunction { Transaction.setAnimationTimingFunction(function) }
        if let disable = entry.disableActions { Transaction.setDisableActions(disable) }
        entry.applyChanges()
        if let transition = entry.transition {
            // Added even when actions are disabled: it is explicit, as in a program.
            entry.layer.add(transition.animation, forKey: transition.name ?? "transition")
        }
        Transaction.commit()
    }

    /// Copies what layer key `key` may set, all of it (`SceneLoader.copy` leaves a sprite frame's rectangle alone
    /// when the source shows a whole image), so that a value taken and put back is the value there was.
    static func copyExactly(_ key: String, from source: Layer, to target: Layer) {
        if key == "contents" {
            target.contents = source.contents
            target.contentsScale = source.contentsScale
            target.contentsRect = source.contentsRect
            target.contentsAreRotated = source.contentsAreRotated
        } else {
            SceneLoader.copy(key, from: source, to: target)
        }
    }
}

extension Scene {
    /// Makes the scene's layers what they are at `time` (see `SceneTimeline.advance(to:)`), so that
    /// `renderer.render(scene.root, scale:, at: time)` draws the scene at `time` with the same pixels as a scene
    /// loaded afresh and advanced to `time`. Times may come in any order, earlier ones included
    /// (docs/animation.md, "Random access in time").
    public func advance(to time: Double) {
        timeline.advance(to: time)
    }
}
