import Foundation
import LaminaCore
import LaminaLayers

/// A scene's `timeline` (docs/scene-format.md, "Timeline"): changes to named layers at given times, each made in a
/// transaction of its own whose media time is the entry's time, so the implicit animations it starts begin then
/// whenever the change is applied. A frame at time t is the same whatever was drawn before, once every entry up
/// to t has been applied.
///
/// A timeline only goes forwards: entries once applied stay applied. To draw an earlier time than one already
/// reached, load the scene again. It is a class because the changes it applies are to the scene's layers, which
/// every copy of a `Scene` shares.
public final class SceneTimeline: @unchecked Sendable {
    /// One change: what a timeline entry of the file does.
    struct Entry {
        var at: Double
        var layer: Layer
        /// Sets the entry's properties on its layer.
        var apply: (Layer) -> Void
        var animationDuration: Double?
        var timingFunction: MediaTimingFunction?
        var disableActions: Bool?
        var transition: SceneAnimation?
    }

    /// In the order they apply: by time, and in file order at one time.
    let entries: [Entry]
    /// How many entries have been applied.
    public private(set) var appliedCount = 0
    private let lock = NSLock()

    init(entries: [Entry]) {
        self.entries = entries.enumerated().sorted { a, b in
            a.element.at != b.element.at ? a.element.at < b.element.at : a.offset < b.offset
        }.map(\.element)
    }

    /// A timeline with no entries.
    public convenience init() { self.init(entries: []) }

    /// The entries' times, in the order they apply.
    public var times: [Double] { entries.map(\.at) }

    /// The time up to which entries have been applied: the last applied entry's, or -infinity before any.
    public var appliedTime: Double {
        lock.withLock { appliedCount == 0 ? -.infinity : entries[appliedCount - 1].at }
    }

    /// Applies, in order, every entry at or before `time` not applied yet, each in a transaction of its own
    /// (`Transaction.Key.mediaTime` set to the entry's time, then its animation duration, timing function and
    /// disableActions, its properties, and its transition added for the key "transition" or its `name`).
    /// Calling it again with the same or an earlier time changes nothing.
    public func advance(to time: Double) {
        lock.withLock {
            while appliedCount < entries.count, entries[appliedCount].at <= time {
                Self.apply(entries[appliedCount])
                appliedCount += 1
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
        entry.apply(entry.layer)
        if let transition = entry.transition {
            // Added even when actions are disabled: it is explicit, as in a program.
            entry.layer.add(transition.animation, forKey: transition.name ?? "transition")
        }
        Transaction.commit()
    }
}

extension Scene {
    /// Applies every timeline entry at or before `time` not applied yet (see `SceneTimeline.advance(to:)`), so that
    /// `renderer.render(scene.root, scale:, at: time)` draws the scene at `time`. Times go forwards only: for an
    /// earlier time than one already reached, load the scene again.
    public func advance(to time: Double) {
        timeline.advance(to: time)
    }
}
