import Foundation
import LaminaCore
import LaminaLayers

/// A range of frame rates a display link or animation would like: Lamina's `FrameRateRange`.
public typealias CAFrameRateRange = LaminaLayers.FrameRateRange

/// Core Animation's display link: calls its handler once per frame on the run loop it is added to, with the frame's
/// `timestamp` and `targetTimestamp` on the media clock (`CACurrentMediaTime()`).
///
/// Linux has no Objective-C runtime, so there is no `init(target:selector:)`: the handler is a closure (see
/// docs/porting.md). With no display to follow, frames come from a run-loop timer at `preferredFramesPerSecond`
/// (or the preferred rate of `preferredFrameRateRange`; 60 by default).
public final class CADisplayLink: @unchecked Sendable {
    private let handler: (CADisplayLink) -> Void
    private var timers: [Timer] = []

    /// The time of the last frame the handler was called for (0 before the first).
    public private(set) var timestamp: CFTimeInterval = 0
    /// When the next frame is due: `timestamp + duration`.
    public private(set) var targetTimestamp: CFTimeInterval = 0
    /// Pauses the calls (the link stays on its run loops).
    public var isPaused = false
    /// Frames per second asked for; 0 (the default) means 60.
    public var preferredFramesPerSecond: Int = 0 {
        didSet { reschedule() }
    }
    /// The range of rates asked for; its `preferred` rate wins over `preferredFramesPerSecond` when set.
    public var preferredFrameRateRange: CAFrameRateRange = .default {
        didSet { reschedule() }
    }

    /// A display link that calls `handler` each frame once added to a run loop.
    public init(handler: @escaping (CADisplayLink) -> Void) {
        self.handler = handler
    }

    /// The time between frames, in seconds.
    public var duration: CFTimeInterval { 1 / Double(framesPerSecond) }

    private var framesPerSecond: Int {
        if let preferred = preferredFrameRateRange.preferred, preferred > 0 { return Int(preferred.rounded()) }
        if preferredFrameRateRange.maximum > 0 { return Int(preferredFrameRateRange.maximum.rounded()) }
        return preferredFramesPerSecond > 0 ? min(preferredFramesPerSecond, 1000) : 60
    }

    private var scheduled: [(RunLoop, RunLoop.Mode)] = []

    /// Starts calling the handler on `runloop` in `mode` (as many run loops and modes as wanted).
    public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        scheduled.append((runloop, mode))
        schedule(on: runloop, mode: mode)
    }

    /// Stops the calls on `runloop` in `mode`.
    public func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) {
        scheduled.removeAll { $0.0 === runloop && $0.1 == mode }
        reschedule()
    }

    /// Stops every call for good and lets go of the handler's run-loop timers.
    public func invalidate() {
        scheduled = []
        for timer in timers { timer.invalidate() }
        timers = []
    }

    private func schedule(on runloop: RunLoop, mode: RunLoop.Mode) {
        let timer = Timer(timeInterval: duration, repeats: true) { [weak self] _ in self?.tick() }
        runloop.add(timer, forMode: mode)
        timers.append(timer)
    }

    private func reschedule() {
        for timer in timers { timer.invalidate() }
        timers = []
        for (runloop, mode) in scheduled { schedule(on: runloop, mode: mode) }
    }

    private func tick() {
        guard !isPaused else { return }
        let now = CACurrentMediaTime()
        timestamp = now
        targetTimestamp = now + duration
        handler(self)
    }
}
