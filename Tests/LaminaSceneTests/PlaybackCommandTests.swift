import Foundation
import LaminaScene
import Testing

/// Playback lines of `lamina play --control` (docs/kiosk.md, "The control channel"): `seek`, `pause`, `play` and
/// `rate` read, other lines left to the scene, and bad values named errors placed on `<control>`, the line and the
/// column.
@Suite struct PlaybackCommandTests {
    private func messages(_ line: String, number: Int = 4) -> [String] {
        do {
            _ = try PlaybackCommand.parse(line, lineNumber: number)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func readsEachCommand() throws {
        #expect(try PlaybackCommand.parse(#"{"seek": 12.5}"#, lineNumber: 1) == .seek(12.5))
        #expect(try PlaybackCommand.parse(#"{"seek": 0}"#, lineNumber: 1) == .seek(0))
        #expect(try PlaybackCommand.parse(#" {"pause": true} "#, lineNumber: 1) == .pause)
        #expect(try PlaybackCommand.parse(#"{"play": true}"#, lineNumber: 1) == .play)
        #expect(try PlaybackCommand.parse(#"{"rate": -0.5}"#, lineNumber: 1) == .rate(-0.5))
        #expect(try PlaybackCommand.parse(#"{"rate": 0}"#, lineNumber: 1) == .rate(0))
        #expect(try PlaybackCommand.parse(#"{"rate": 1000}"#, lineNumber: 1) == .rate(1000))
    }

    /// A layer change, a syntax error, anything that is no object: the scene's to read (and to report).
    @Test func otherLinesAreNotPlaybackLines() throws {
        #expect(try PlaybackCommand.parse(#"{"layer": "box", "set": {"opacity": 0.5}}"#, lineNumber: 1) == nil)
        #expect(try PlaybackCommand.parse(#"{"seek": "#, lineNumber: 1) == nil)
        #expect(try PlaybackCommand.parse(#"[{"seek": 1}]"#, lineNumber: 1) == nil)
        #expect(try PlaybackCommand.parse(#"{}"#, lineNumber: 1) == nil)
        #expect(try PlaybackCommand.parse(#"{"set": {"seek": 1}}"#, lineNumber: 1) == nil)
    }

    @Test func badValuesAreNamedErrors() {
        #expect(messages(#"{"seek": -1}"#) == ["<control>:4:10: seek: expected a time in seconds, 0 or more, got -1"])
        #expect(messages(#"{"seek": "2s"}"#) == [#"<control>:4:10: seek: expected a number, got a string"#])
        #expect(messages(#"{"seek": 1e999}"#).count == 1)
        #expect(messages(#"{"rate": 5000}"#)
                == ["<control>:4:10: rate: expected a rate between -1000 and 1000 (scene seconds a second), got 5000"])
        #expect(messages(#"{"rate": null}"#) == ["<control>:4:10: rate: expected a number, got null"])
        #expect(messages(#"{"pause": false}"#)
                == [#"<control>:4:11: pause: expected true (to start the clock again, send {"play": true})"#])
        #expect(messages(#"{"play": 1}"#) == ["<control>:4:10: play: expected true, got a number"])
        #expect(messages(#"{"play": false}"#)
                == [#"<control>:4:10: play: expected true (to stop the clock, send {"pause": true})"#])
    }

    /// One key and nothing else: a playback line mixed with a layer change, or two commands, is refused whole.
    @Test func aPlaybackLineHasOneKey() {
        #expect(messages(#"{"seek": 1, "layer": "box"}"#) == [
            #"<control>:4:13: layer: a playback line has one key, "seek", "pause", "play" or "rate", and nothing else"#,
        ])
        #expect(messages(#"{"pause": true, "rate": 2}"#)
                == ["<control>:4:17: rate: a playback line has one key: send another line for this one"])
        #expect(messages(#"{"seek": 1, "seek": 2}"#).count >= 1)
    }
}
