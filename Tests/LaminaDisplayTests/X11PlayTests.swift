import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `lamina play --output x11` on a real X server (Xvfb), each renderer: the fitted picture, animation, SIGTERM,
/// hot reload, control lines, --stats, and the errors (docs/kiosk.md).
@Suite(.serialized) struct X11PlayTests {
    /// 320 x 200 points on a 640 x 480 screen, `contain`: scale 2, 40 pixels of letterbox above and below.
    static let scene = """
        {"size": [320, 200], "backgroundColor": "#204080",
         "layers": [{"name": "box", "frame": [20, 20, 100, 60], "backgroundColor": "#ff0000"},
                    {"name": "mover", "frame": [0, 150, 20, 20], "backgroundColor": "#00ff00",
                     "animations": [{"keyPath": "position.x", "fromValue": 10, "toValue": 310, "duration": 1.5,
                                     "autoreverses": true, "repeatCount": "infinity"}]}]}
        """

    static func folder(_ scene: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-play-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(scene.utf8).write(to: folder.appendingPathComponent("scene.json"))
        return folder
    }

    @Test(arguments: ["cpu", "gles"])
    func aSceneIsFittedAnimatedAndStoppedCleanly(backend: String) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let folder = try Self.folder(Self.scene)
        defer { try? FileManager.default.removeItem(at: folder) }
        let play = try PlayProcess(["play", folder.appendingPathComponent("scene.json").path, "--output", "x11",
                                    "--backend", backend], environment: ["DISPLAY": x.name])
        // Letterbox (the scene's colour), the box at (20,20)-(120,80) points = (40,80)-(240,200) pixels.
        let probes = [(x: 5, y: 5, colour: "#204080"), (x: 600, y: 470, colour: "#204080"),
                      (x: 100, y: 100, colour: "#ff0000"), (x: 239, y: 199, colour: "#ff0000"),
                      (x: 241, y: 100, colour: "#204080")]
        let seen = try x.waitFor(probes)
        #expect(seen == probes.map(\.colour), "\(play.stderr)")
        // The mover crosses row 360 (points 150-170): its column changes as the animation runs.
        func moverColumn() throws -> Int? {
            let image = try x.screen()
            return (0..<640).first { image.rgba(x: $0, y: 360) == RGBA8(r: 0, g: 255, b: 0, a: 255) }
        }
        let first = try moverColumn()
        usleep(400_000)
        let second = try moverColumn()
        #expect(first != nil && second != nil && first != second, "mover at \(String(describing: first)), then \(String(describing: second))")
        #expect(play.stop(SIGTERM) == 0, "\(play.stderr)")
        #expect(play.stderr.contains("with the \(backend) renderer") && play.stderr.contains("lamina: stopped"))
        // The window is gone: the screen is the root window's black again.
        #expect(try x.waitFor([(x: 100, y: 100, colour: "#000000")]) == ["#000000"])
    }

    @Test func rotationAndFitAreDoneInThePlan() throws {
        guard let x = try XvfbDisplay.start() else { return }
        let folder = try Self.folder("""
            {"size": [200, 100], "backgroundColor": "#000080",
             "layers": [{"frame": [0, 0, 100, 100], "backgroundColor": "#ff0000"}]}
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Turned 90° clockwise the scene is 100 x 200 points; contain on 640 x 480: scale 2.4, 240 x 480 pixels
        // centred (x 200-440). The red left half of the scene becomes the top half.
        let play = try PlayProcess(["play", folder.appendingPathComponent("scene.json").path, "--output", "x11",
                                    "--backend", "cpu", "--rotate", "90"], environment: ["DISPLAY": x.name])
        let probes = [(x: 320, y: 100, colour: "#ff0000"), (x: 320, y: 380, colour: "#000080"),
                      (x: 100, y: 240, colour: "#000080"), (x: 560, y: 240, colour: "#000080"),
                      (x: 205, y: 235, colour: "#ff0000")]
        #expect(try x.waitFor(probes) == probes.map(\.colour), "\(play.stderr)")
        #expect(play.stop() == 0)
    }

    @Test func hotReloadShowsGoodEditsAndKeepsTheLastGoodSceneOnABadOne() throws {
        guard let x = try XvfbDisplay.start() else { return }
        func scene(_ colour: String) -> String {
            "{\"size\": [640, 480], \"layers\": [{\"frame\": [0, 0, 640, 480], \"backgroundColor\": \"\(colour)\"}]}"
        }
        let folder = try Self.folder(scene("#ff0000"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("scene.json")
        let play = try PlayProcess(["play", file.path, "--output", "x11", "--backend", "cpu"],
                                   environment: ["DISPLAY": x.name])
        #expect(try x.waitFor([(x: 50, y: 50, colour: "#ff0000")]) == ["#ff0000"], "\(play.stderr)")
        try Data(scene("#0000ff").utf8).write(to: file, options: .atomic)
        #expect(try x.waitFor([(x: 50, y: 50, colour: "#0000ff")]) == ["#0000ff"], "\(play.stderr)")
        // A broken edit: the error names the file, line and column; the blue scene stays.
        try Data("{\"size\": [640, 480],\n \"layers\": [{\"frame\": [0, 0, 640, 480], \"backgroundColor\": 12}]}".utf8)
            .write(to: file, options: .atomic)
        #expect(play.waitFor("scene.json:2:"), "\(play.stderr)")
        #expect(play.stderr.contains("kept the last good scene"))
        #expect(try x.colour(x: 50, y: 50) == "#0000ff")
        // SIGHUP reloads too; the fixed file shows.
        try Data(scene("#00ff00").utf8).write(to: file)
        kill(play.process.processIdentifier, SIGHUP)
        #expect(try x.waitFor([(x: 50, y: 50, colour: "#00ff00")]) == ["#00ff00"], "\(play.stderr)")
        #expect(play.stop(SIGINT) == 0)
    }

    @Test func controlLinesApplyAsTransactionsAndBadOnesChangeNothing() throws {
        guard let x = try XvfbDisplay.start() else { return }
        let folder = try Self.folder(Self.scene)
        defer { try? FileManager.default.removeItem(at: folder) }
        let play = try PlayProcess(["play", folder.appendingPathComponent("scene.json").path, "--output", "x11",
                                    "--backend", "cpu", "--control", "-"], environment: ["DISPLAY": x.name])
        #expect(try x.waitFor([(x: 100, y: 100, colour: "#ff0000")]) == ["#ff0000"], "\(play.stderr)")
        play.send(##"{"layer": "box", "set": {"backgroundColor": "#ffff00"}, "disableActions": true}"##)
        #expect(play.waitFor(#"{"ok":true}"#, onStdout: true))
        #expect(try x.waitFor([(x: 100, y: 100, colour: "#ffff00")]) == ["#ffff00"])
        play.send(##"{"layer": "bx", "set": {"backgroundColor": "#ffffff"}}"##)
        #expect(play.waitFor(#"{"error":"<control>:2:"#, onStdout: true), "\(play.stdout)")
        #expect(play.stdout.contains(#"did you mean \"box\"?"#), "\(play.stdout)")
        play.send(#"{"layer": "box", "set": {"opacity": "high"}}"#)
        #expect(play.waitFor(#"<control>:3:"#, onStdout: true), "\(play.stdout)")
        usleep(200_000)
        #expect(try x.colour(x: 100, y: 100) == "#ffff00")
        #expect(play.stop() == 0)
    }

    @Test func aStillSceneDrawsOneFrameThenSleeps() throws {
        guard let x = try XvfbDisplay.start() else { return }
        let folder = try Self.folder("{\"size\": [100, 100], \"backgroundColor\": \"#336699\"}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let play = try PlayProcess(["play", folder.appendingPathComponent("scene.json").path, "--output", "x11",
                                    "--backend", "cpu", "--stats"], environment: ["DISPLAY": x.name])
        #expect(try x.waitFor([(x: 320, y: 240, colour: "#336699")]) == ["#336699"])
        // Two full seconds after the first frame: each says no frame was drawn.
        #expect(play.waitFor("first frame"))
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, play.stderr.components(separatedBy: "lamina: 0 frames").count < 3 { usleep(100_000) }
        #expect(play.stderr.components(separatedBy: "lamina: 0 frames, 0 skipped").count >= 3, "\(play.stderr)")
        #expect(play.stop() == 0)
    }

    @Test func errorsAreNamedWithTheirExitStatus() throws {
        let folder = try Self.folder("{\"size\": [100, \"wide\"]}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = try PlayProcess(["play", folder.appendingPathComponent("scene.json").path, "--output", "x11"],
                                  environment: ["DISPLAY": ":1"])
        #expect(bad.waitForExit(seconds: 20) == 2)
        #expect(bad.stderr.contains("scene.json:1:"), "\(bad.stderr)")
        try Data("{\"size\": [100, 100]}".utf8).write(to: folder.appendingPathComponent("scene.json"))
        let missing = try PlayProcess(["play", folder.appendingPathComponent("scene.json").path, "--output", "x11"],
                                      environment: ["DISPLAY": ":987"])
        #expect(missing.waitForExit(seconds: 20) == 1)
        #expect(missing.stderr.contains("X11: cannot open display \":987\""), "\(missing.stderr)")
        let usage = try PlayProcess(["play", folder.appendingPathComponent("scene.json").path, "--rotate", "45"],
                                    environment: [:])
        #expect(usage.waitForExit(seconds: 20) == 2)
        #expect(usage.stderr.contains("--rotate 45: expected 0, 90, 180 or 270"))
    }
}
