import Foundation

/// Where media time comes from: every time Lamina takes or gives (render times, commit times, animations'
/// beginTime) is read from `MediaClock.current` (docs/animation.md, "Time"). The base clock is monotonic: seconds
/// since an arbitrary moment, never going back, unaffected by changes of the wall clock. Install a `ManualClock`
/// to drive time yourself (tests, exports).
open class MediaClock: @unchecked Sendable {
    public init() {}

    /// The time now, in seconds.
    open var time: Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The clock `currentMediaTime()` reads; the monotonic clock unless set. Safe to read and set from any thread.
    public static var current: MediaClock {
        get { lock.withLock { installed } }
        set { lock.withLock { installed = newValue } }
    }

    /// The monotonic clock.
    public static let monotonic = MediaClock()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed: MediaClock = monotonic
}

/// A clock that shows the time it is given and moves only when set: for tests, and for exports, which draw each
/// frame at the time of its number. Safe to read and set from any thread.
public final class ManualClock: MediaClock, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Double

    /// A clock showing `time` seconds (not finite counts as 0).
    public init(time: Double = 0) {
        stored = time.isFinite ? time : 0
    }

    /// The time the clock shows; setting it moves the clock there (a time that is not finite is ignored).
    public override var time: Double {
        get { lock.withLock { stored } }
        set { lock.withLock { if newValue.isFinite { stored = newValue } } }
    }

    /// Moves the clock on by `seconds` (not finite is ignored).
    public func advance(by seconds: Double) {
        lock.withLock { if seconds.isFinite { stored += seconds } }
    }
}

/// The current media time in seconds: Core Animation's CACurrentMediaTime(), read from `MediaClock.current`.
public func currentMediaTime() -> Double {
    MediaClock.current.time
}
