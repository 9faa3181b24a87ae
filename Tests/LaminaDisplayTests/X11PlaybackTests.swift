import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Playback lines of `lamina play --control` on a real X server (Xvfb), each renderer (docs/kiosk.md, "The control
/// channel"): a pause holds the frame, a seek shows the time asked for (backwards too, the timeline's change taken
/// back), a negative rate plays backwards down to 0, and bad values are answered with errors.
@Suite(.serialized) struct X11PlaybackTests {
    /// 320 x 200 points on a 640 x 480 screen: scale 2, 40 pixels of letterbox above and below. The mover's left edge
    /// is at 10 t points (20 t pixels) at time t; the box turns from red to yellow at 20 s.
    static let scene = """
        {"size": [320, 200], "backgroundColor": "#204080",
         "layers": [{"name": "box", "frame": [20, 20, 100, 60], "backgroundColor": "#ff0000"},
                    {"name": "mover", "frame": [0, 150, 20, 20], "backgroundColor": "#00ff00",
                     "animations": [{"keyPath": "position.x", "fromValue": 10, "toValue": 330, "duration": 32,
                                     "timingFunction": "linear", "fillMode": "forwards",
                                     "removedOnCompletion": false}]}],
         "timeline": [{"at": 20, "layer": "box", "set": {"backgroundColor": "#ffff00"}, "disableActions": true}]}
        """

    /// The mover's left edge in pixels (row 360), or nil when it is not on screen.
    private func moverColumn(_ x: XvfbDisplay) throws -> Int? {
        let image = try x.screen()
        return (0..<640).first { image.rgba(x: $0, y: 360) == RGBA8(r: 0, g: 255, b: 0, a: 255) }
    }

    /// Waits up to 20 s for the mover's left edge at `column` (the frame of time column / 20).
    private func waitForMover(_ x: XvfbDisplay, at column: Int) throws -> Int? {
        let deadline = Date().addingTimeInterval(20)
        var seen: Int?
        repeat {
            seen = try moverColumn(x)
            if seen == column { return seen }
            usleep(50_000)
        } while Date() < deadline
        return seen
    }

    /// Sends `line` and waits for its answer (the `count`th answer line on stdout); the answer.
    private func send(_ play: PlayProcess, _ line: String, answer count: Int) -> String? {
        play.send(line)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let lines = play.stdout.split(separator: "\n")
            if lines.count >= count { return String(lines[count - 1]) }
            usleep(20_000)
        }
        return nil
    }

    @Test(arguments: ["cpu", "gles"])
    func pauseSeekAndRateChangeTheFramesTime(backend: String) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let folder = try X11PlayTests.folder(Self.scene)
        defer { try? FileManager.default.removeItem(at: folder) }
        let play = try PlayProcess(["play", folder.appendingPathComponent("scene.json").path, "--output", "x11",
                                    "--backend", backend, "--control", "-"], environment: ["DISPLAY": x.name])
        #expect(try x.waitFor([(x: 100, y: 100, colour: "#ff0000")]) == ["#ff0000"], "\(play.stderr)")
        // Paused: the frame holds.
        #expect(send(play, #"{"pause": true}"#, answer: 1) == #"{"ok":true}"#)
        usleep(200_000)
        let held = try moverColumn(x)
        usleep(400_000)
        let still = try moverColumn(x)
        #expect(held != nil && still == held, "paused at \(String(describing: held)), then \(String(describing: still))")
        // Forwards past the timeline's entry, then back before it: the box's colour follows.
        #expect(send(play, #"{"seek": 25}"#, answer: 2) == #"{"ok":true}"#)
        #expect(try waitForMover(x, at: 500) == 500)
        #expect(try x.waitFor([(x: 100, y: 100, colour: "#ffff00")]) == ["#ffff00"])
        #expect(send(play, #"{"seek": 5}"#, answer: 3) == #"{"ok":true}"#)
        #expect(try waitForMover(x, at: 100) == 100)
        #expect(try x.waitFor([(x: 100, y: 100, colour: "#ff0000")]) == ["#ff0000"])
        // Bad values: named errors, nothing changed.
        #expect(send(play, #"{"rate": "fast"}"#, answer: 4)?.hasPrefix(#"{"error":"<control>:4:10: rate: expected a number"#) == true)
        #expect(send(play, #"{"seek": -3}"#, answer: 5)?.contains("expected a time in seconds, 0 or more") == true)
        // Backwards at twice real time from 5 s: the mover goes left, and stops at time 0.
        #expect(send(play, #"{"rate": -2}"#, answer: 6) == #"{"ok":true}"#)
        #expect(try moverColumn(x) == 100, "the rate alone does not start a paused clock")
        #expect(send(play, #"{"play": true}"#, answer: 7) == #"{"ok":true}"#)
        usleep(300_000)
        let going = try moverColumn(x)
        #expect(going != nil && going! < 100, "\(String(describing: going))")
        #expect(try waitForMover(x, at: 0) == 0)
        // Rate 0 stands still; a seek while still shows the time asked for.
        #expect(send(play, #"{"rate": 0}"#, answer: 8) == #"{"ok":true}"#)
        #expect(send(play, #"{"seek": 12}"#, answer: 9) == #"{"ok":true}"#)
        #expect(try waitForMover(x, at: 240) == 240)
        #expect(play.stop() == 0, "\(play.stderr)")
    }
}
