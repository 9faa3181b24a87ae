import Foundation
import LaminaCore

/// The figures of one second of a display's frames (`lamina play --stats`, `Display.Options.statistics`).
public struct DisplayStatistics: Sendable, CustomStringConvertible {
    /// The seconds these figures cover.
    public var interval: Double = 0
    /// Frames drawn and presented.
    public var frames = 0
    /// Refresh intervals missed because a frame was late (their frames skipped, the clock not slowed).
    public var skipped = 0
    /// Mean and worst time to draw and present a frame, in seconds.
    public var meanFrameTime: Double = 0
    public var worstFrameTime: Double = 0
    /// The share of the output's pixels redrawn, over the frames drawn (0 to 1).
    public var damagedShare: Double = 0
    /// Process CPU time (user + system) over the interval, in percent of one core.
    public var cpuPercent: Double = 0
    /// The median and 99th percentile of the time between presented frames, in seconds (0 with fewer than two).
    public var medianInterval: Double = 0
    public var p99Interval: Double = 0
    /// What paced the frames at the end of the interval (docs/kiosk.md, "Pacing").
    public var pacing: DisplayPacing = .timer

    public var description: String {
        String(format: "%d frames, %d skipped, frame %.2f ms mean, %.2f ms worst, interval %.2f ms median, "
                   + "%.2f ms p99, %.1f%% redrawn, cpu %.1f%%",
               frames, skipped, meanFrameTime * 1000, worstFrameTime * 1000, medianInterval * 1000,
               p99Interval * 1000, damagedShare * 100, cpuPercent) + ", paced by \(pacing.rawValue)"
    }

    /// The value below which `fraction` of `values` lie (nearest rank); 0 for none.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

/// Gathers `DisplayStatistics` and reports them once a second.
struct StatisticsWindow {
    let report: (@Sendable (DisplayStatistics) -> Void)?
    var start: Double
    var cpuStart: Double
    var frames = 0
    var skipped = 0
    var total: Double = 0
    var worst: Double = 0
    var redrawn = 0
    var pixels = 0
    var intervals: [Double] = []
    /// When the last frame was presented (carried over from window to window).
    var lastPresent: Double?
    /// The output's pacing, set by the frame loop (carried over).
    var pacing = DisplayPacing.timer

    init(report: (@Sendable (DisplayStatistics) -> Void)?) {
        self.report = report
        start = currentMediaTime()
        cpuStart = Self.cpuSeconds()
    }

    mutating func frame(duration: Double, redrawn: Int, pixels: Int, presentedAt: Double) {
        if let lastPresent { intervals.append(presentedAt - lastPresent) }
        lastPresent = presentedAt
        frames += 1
        total += duration
        worst = max(worst, duration)
        self.redrawn += redrawn
        self.pixels += pixels
    }

    /// Reports when a second has passed since the last report.
    mutating func tick(now: Double) {
        if report != nil, now - start >= 1 { flush(now: now) }
    }

    mutating func flush(now: Double) {
        guard let report, now > start else { return }
        let cpu = Self.cpuSeconds()
        var figures = DisplayStatistics()
        figures.interval = now - start
        figures.frames = frames
        figures.skipped = skipped
        figures.meanFrameTime = frames > 0 ? total / Double(frames) : 0
        figures.worstFrameTime = worst
        figures.damagedShare = pixels > 0 ? Double(redrawn) / Double(pixels) : 0
        figures.cpuPercent = (cpu - cpuStart) / (now - start) * 100
        figures.medianInterval = DisplayStatistics.percentile(intervals, 0.5)
        figures.p99Interval = DisplayStatistics.percentile(intervals, 0.99)
        figures.pacing = pacing
        report(figures)
        let last = lastPresent, pacing = self.pacing
        self = StatisticsWindow(report: report)
        lastPresent = last
        self.pacing = pacing
        start = now
        cpuStart = cpu
    }

    /// User and system CPU time of the process so far, in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
