import Foundation

/// What an animation shows once its time runs out, or before it starts: CAMediaTimingFillMode.
public enum FillMode: String, CaseIterable, Hashable, Sendable {
    /// No effect outside the active period (the default).
    case removed
    /// After the active period, the value at its end.
    case forwards
    /// Before the active period, the value at its start.
    case backwards
    /// Both.
    case both
}

/// Core Animation's CAMediaTiming properties, shared by layers and animations, and the arithmetic that maps a
/// parent's time to progress (docs/animation.md, "Timing"). A value: the same numbers always give the same
/// answer, so a frame at time t depends on nothing but t.
///
/// Any numbers give an answer: a time, duration or count that is not finite (infinite repeatCount and
/// repeatDuration excepted) counts as its default, and negative durations and counts as 0.
public struct MediaTiming: Hashable, Sendable {
    /// When the object starts, in its parent's time.
    public var beginTime: Double = 0
    /// One cycle in seconds; 0 (the default) means 0.25 s for an animation.
    public var duration: Double = 0
    /// How fast local time runs against the parent's: 0 freezes (pause), 2 doubles.
    public var speed: Float = 1
    /// Added to local time: with speed 0, the frozen moment.
    public var timeOffset: Double = 0
    /// Cycles played; fractions allowed, `.infinity` forever; 0 means once.
    public var repeatCount: Float = 0
    /// Seconds played, cycles included; wins over repeatCount when above 0.
    public var repeatDuration: Double = 0
    /// Each cycle plays forwards, then backwards.
    public var autoreverses = false
    /// What shows outside the active period.
    public var fillMode: FillMode = .removed

    public init(beginTime: Double = 0, duration: Double = 0, speed: Float = 1, timeOffset: Double = 0,
                repeatCount: Float = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
                fillMode: FillMode = .removed) {
        self.beginTime = beginTime
        self.duration = duration
        self.speed = speed
        self.timeOffset = timeOffset
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
        self.fillMode = fillMode
    }

    /// A layer's (or group's) local time: (parent - beginTime) x speed + timeOffset, with no wrapping.
    public func localTime(parent: Double) -> Double {
        (parent - begin) * Double(rate) + offset
    }

    /// Whether `localTime(parent:)` is t + 0 for every t: a beginTime and timeOffset of +0 (or not finite) and a speed
    /// of 1. A chain of such timings changes a time only by turning -0 into +0.
    public var keepsParentTime: Bool { begin.bitPattern == 0 && rate == 1 && offset.bitPattern == 0 }

    /// One cycle of an animation, in seconds (0 means 0.25).
    public var cycleDuration: Double {
        let d = duration.isFinite && duration > 0 ? duration : 0.25
        return autoreverses ? 2 * d : d
    }

    /// The active duration: repeatDuration if above 0, else a cycle x repeatCount if above 0, else a cycle; may be
    /// infinite.
    public var activeDuration: Double {
        if repeatDuration > 0, !repeatDuration.isNaN { return repeatDuration }
        if repeatCount > 0, !repeatCount.isNaN { return cycleDuration * Double(repeatCount) }
        return cycleDuration
    }

    /// Where an animation is at its parent's time `parent`: its progress through a cycle (0...1, before the timing
    /// function), or nil when it has no effect (before its start without a backwards fill, after its end without a
    /// forwards fill).
    public func progress(parent: Double) -> Double? {
        phase(parent: parent)?.progress
    }

    /// Where an animation is within its cycles at a moment of its active period (or of a fill).
    public struct Phase: Hashable, Sendable {
        /// Through the current cycle, 0...1 (turned back in an autoreversed half), before the timing function.
        public var progress: Double
        /// The cycles completed before this one (cumulative animations add one step per cycle).
        public var iteration: Double
        /// Seconds into the current cycle, turned back in an autoreversed half (springs run on it).
        public var time: Double
    }

    /// The phase at its parent's time `parent`, or nil when the animation has no effect then (see
    /// `progress(parent:)`).
    public func phase(parent: Double) -> Phase? {
        guard !parent.isNaN else { return nil }  // no time, no effect
        let active = activeDuration
        let a = (parent - begin) * Double(rate)
        if a < 0 {
            guard fillMode == .backwards || fillMode == .both else { return nil }
            return phase(activeTime: wrap(offset, active), atEnd: false)
        }
        if a >= active {
            guard fillMode == .forwards || fillMode == .both else { return nil }
            // The value being approached at the end of the active period (the limit from below).
            let t = active.isFinite ? wrap(active + offset, active) : offset
            return phase(activeTime: t == 0 ? active : t, atEnd: true)
        }
        return phase(activeTime: wrap(a + offset, active), atEnd: false)
    }

    /// Whether the animation's active period has begun at its parent's time `parent`.
    public func hasStarted(parent: Double) -> Bool {
        (parent - begin) * Double(rate) >= 0
    }

    /// Whether an animation is over at its parent's time `parent` (past its active period): one removed on
    /// completion may then be taken off its layer, which changes no picture.
    public func isFinished(parent: Double) -> Bool {
        (parent - begin) * Double(rate) >= activeDuration
    }

    /// The phase at active time t (0 ..< AD, or AD itself when `atEnd`): the cycle's position, turned back in an
    /// autoreversed half; at the very end of a cycle, the value approached (1 forwards, 0 reversed).
    private func phase(activeTime t: Double, atEnd: Bool) -> Phase {
        let cycle = cycleDuration
        let d = autoreverses ? cycle / 2 : cycle
        var iteration = (t / cycle).rounded(.down)
        if atEnd, t > 0, iteration * cycle == t { iteration -= 1 }  // the end of the previous cycle, not the next start
        var u = t - iteration * cycle
        if autoreverses, u > d { u = 2 * d - u }
        u = min(max(u, 0), d)
        return Phase(progress: min(max(u / d, 0), 1), iteration: max(iteration, 0), time: u)
    }

    private func wrap(_ t: Double, _ period: Double) -> Double {
        guard period.isFinite, period > 0, t.isFinite else { return t.isFinite ? t : 0 }
        let r = t.truncatingRemainder(dividingBy: period)
        return r < 0 ? r + period : r
    }

    private var begin: Double { beginTime.isFinite ? beginTime : 0 }
    private var offset: Double { timeOffset.isFinite ? timeOffset : 0 }
    private var rate: Float { speed.isFinite ? speed : 1 }
}
