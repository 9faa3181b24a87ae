import Foundation

/// A control line that drives the player's clock rather than the scene's layers (`lamina play --control`,
/// docs/kiosk.md, "The control channel"): `{"seek": 12.5}`, `{"pause": true}`, `{"play": true}`, `{"rate": -1}`.
public enum PlaybackCommand: Equatable, Sendable {
    /// Jump to this scene time, in seconds (0 or more), backwards as well as forwards; pausing and the rate stay.
    case seek(Double)
    /// Stop the clock where it is (frames stop too while nothing else changes).
    case pause
    /// Start the clock again from where it stopped, at the rate.
    case play
    /// Scene seconds per real second, as CALayer's `speed` and AVPlayer's `rate`: 1 is normal, 0.5 half speed, 0
    /// stands the clock still, negative plays backwards (stopping at time 0). At most `maxRate` either way.
    case rate(Double)

    /// The keys that make a control line a playback line.
    public static let keys = ["seek", "pause", "play", "rate"]
    /// The fastest rate either way: 1000 times real time.
    public static let maxRate = 1000.0

    /// Reads `line` as a playback line: nil when it is not one (it is no JSON object, or has none of `keys`: a
    /// change of the scene's layers, for `Scene.apply(controlLine:lineNumber:at:)`, which reports its syntax errors).
    /// A playback line has exactly one of the keys and nothing else; a bad one throws `SceneError` whose problems
    /// name `<control>`, the line's number, the column and the key.
    public static func parse(_ line: String, lineNumber: Int) throws(SceneError) -> PlaybackCommand? {
        guard let parsed = try? JSONParser.parse(Data(line.utf8)), case .object(let members) = parsed.root.kind,
              members.contains(where: { keys.contains($0.key) }) else { return nil }
        var problems: [SceneProblem] = parsed.issues.map {
            SceneProblem(file: "<control>", line: lineNumber, column: $0.position.column, path: $0.path,
                         message: $0.message)
        }
        func report(_ path: String, _ position: JSONPosition, _ message: String) {
            problems.append(SceneProblem(file: "<control>", line: lineNumber, column: position.column, path: path,
                                         message: message))
        }
        var command: PlaybackCommand?
        for member in members {
            guard keys.contains(member.key) else {
                report(member.key, member.keyPosition,
                       "a playback line has one key, \"seek\", \"pause\", \"play\" or \"rate\", and nothing else")
                continue
            }
            if command != nil {
                report(member.key, member.keyPosition, "a playback line has one key: send another line for this one")
                continue
            }
            let value = member.value
            switch (member.key, value.kind) {
            case (_, .invalid):
                continue  // The parser reported it.
            case ("seek", .number(let time)):
                if time.isFinite, time >= 0 { command = .seek(time) } else {
                    report(member.key, value.position, "expected a time in seconds, 0 or more, got \(format(time))")
                }
            case ("rate", .number(let rate)):
                if rate.isFinite, abs(rate) <= maxRate { command = .rate(rate) } else {
                    report(member.key, value.position,
                           "expected a rate between -\(format(maxRate)) and \(format(maxRate)) (scene seconds a "
                           + "second), got \(format(rate))")
                }
            case ("pause", .bool(true)): command = .pause
            case ("play", .bool(true)): command = .play
            case ("pause", .bool(false)):
                report(member.key, value.position, "expected true (to start the clock again, send {\"play\": true})")
            case ("play", .bool(false)):
                report(member.key, value.position, "expected true (to stop the clock, send {\"pause\": true})")
            case ("seek", _), ("rate", _):
                report(member.key, value.position, "expected a number, got \(value.typeDescription)")
            default:
                report(member.key, value.position, "expected true, got \(value.typeDescription)")
            }
        }
        guard problems.isEmpty, let command else {
            throw SceneError(problems: problems.sorted { ($0.column ?? .max) < ($1.column ?? .max) })
        }
        return command
    }

    /// A number as a person writes it: 2, not 2.0.
    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
