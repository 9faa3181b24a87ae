import Foundation

/// The progress bar of `lamina export` on standard error: frames written of the total, frames a second,
/// and the time left. Only when standard error is a terminal; in a pipe, a log file or a batch job it prints
/// nothing, so logs hold no carriage-return noise.
final class ExportProgress {
    private let total: Int
    private let enabled: Bool
    /// What is counted: "frames", or "jobs" for `lamina batch`.
    private let unit: String
    private let started = Date()
    private var lastDrawn = Date.distantPast

    /// A bar for `total` frames; `enabled` nil: when standard error is a terminal.
    init(total: Int, enabled: Bool? = nil, unit: String = "frames") {
        self.total = total
        self.unit = unit
        self.enabled = (enabled ?? (isatty(STDERR_FILENO) == 1)) && total > 0
    }

    /// `done` frames of `total` are written. Redraws at most ten times a second, and always at the end.
    func update(done: Int) {
        guard enabled else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        FileHandle.standardError.write(Data(("\r" + ExportProgress.line(done: done, total: total,
            seconds: now.timeIntervalSince(started), unit: unit) + "\u{1B}[K").utf8))
    }

    /// Ends the bar's line (after the last update, or when the export stops early).
    func finish() {
        guard enabled, lastDrawn != .distantPast else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    /// `[=========>          ]  120/600 frames  45.2 frames/s  0:10 left`.
    static func line(done: Int, total: Int, seconds: Double, width: Int = 24, unit: String = "frames") -> String {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let filled = min(width, Int(fraction * Double(width)))
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "")
            + String(repeating: " ", count: max(0, width - filled - 1))
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let left: String
        if done >= total {
            left = "done in \(clock(seconds))"
        } else if rate > 0 {
            left = "\(clock(Double(total - done) / rate)) left"
        } else {
            left = "--:-- left"
        }
        let pad = String(repeating: " ", count: max(0, String(total).count - String(done).count))
        return "[\(bar)] \(pad)\(done)/\(total) \(unit)  " + String(format: "%.1f", rate) + " \(unit)/s  " + left
    }

    /// `m:ss`, or `h:mm:ss` from an hour.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}
