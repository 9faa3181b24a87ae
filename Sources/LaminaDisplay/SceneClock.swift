import Foundation

/// The clock of a `Display`'s frames: the scene time of each media time (`currentMediaTime()`), which `lamina play`'s
/// playback lines pause, seek and scale (docs/kiosk.md, "The control channel").
///
/// Scene time runs at `rate` scene seconds a real second from the last change (a seek, a pause, a new rate), stands
/// still while paused or at rate 0, and never goes below 0: a clock running backwards stops at 0, as a player
/// reaching the start of its item does. A fresh clock reads media time minus `origin`.
public struct SceneClock: Equatable, Sendable {
    /// The media time of the last change, and the scene time it read then.
    public private(set) var anchorMedia: Double
    public private(set) var anchorTime: Double
    /// Scene seconds per real second (1 by default); negative runs backwards.
    public private(set) var rate: Double = 1
    /// Whether the clock stands still (`pause`), whatever the rate.
    public private(set) var isPaused = false

    /// A clock that reads 0 at media time `origin` and runs at rate 1.
    public init(origin: Double = 0) {
        anchorMedia = origin
        anchorTime = 0
    }

    /// Whether scene time moves: not paused, and a rate other than 0.
    public var isRunning: Bool { !isPaused && rate != 0 }

    /// Whether scene time moves at media time `media`: running, and not held at 0 by a backwards rate.
    public func isMoving(atMedia media: Double) -> Bool {
        isRunning && !(rate < 0 && time(atMedia: media) <= 0)
    }

    /// The scene time at media time `media`: finite, 0 or more.
    public func time(atMedia media: Double) -> Double {
        guard isRunning else { return anchorTime }
        let time = anchorTime + rate * (media - anchorMedia)
        if time.isNaN { return anchorTime }
        return min(max(time, 0), .greatestFiniteMagnitude)
    }

    /// The media time at which the clock reaches scene time `time`, moving as it does now; nil when it never does
    /// (it stands still, or `time` lies behind it).
    public func mediaTime(reaching time: Double, from media: Double) -> Double? {
        guard isRunning, time.isFinite else { return nil }
        let now = self.time(atMedia: media)
        guard rate > 0 ? time >= now : time <= now else { return nil }
        let when = anchorMedia + (time - anchorTime) / rate
        return when.isFinite ? when : nil
    }

    /// Jumps to scene time `time` (made 0 or more) at media time `media`; the pause and the rate stay.
    public mutating func seek(to time: Double, atMedia media: Double) {
        anchorMedia = media
        anchorTime = time.isFinite ? max(time, 0) : (time > 0 ? .greatestFiniteMagnitude : 0)
    }

    /// Stops the clock at the time it reads at `media`.
    public mutating func pause(atMedia media: Double) {
        seek(to: time(atMedia: media), atMedia: media)
        isPaused = true
    }

    /// Starts a paused clock again from the time it stopped at.
    public mutating func play(atMedia media: Double) {
        seek(to: time(atMedia: media), atMedia: media)
        isPaused = false
    }

    /// Runs at `rate` from the time it reads at `media` (a rate that is not finite is taken as 0).
    public mutating func setRate(_ rate: Double, atMedia media: Double) {
        seek(to: time(atMedia: media), atMedia: media)
        self.rate = rate.isFinite ? rate : 0
    }
}
