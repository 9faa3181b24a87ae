import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The X11 output follows its window's size (ConfigureNotify): the scene is fitted and drawn again at the new size,
/// with each renderer.
@Suite(.serialized) struct X11ResizeTests {
    @Test(arguments: ["cpu", "gles"])
    func aResizedWindowIsDrawnAgainAtItsNewSize(backend: String) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let folder = try X11PlayTests.folder("""
            {"size": [100, 100], "backgroundColor": "#000080",
             "layers": [{"frame": [0, 0, 50, 100], "backgroundColor": "#ff0000"}]}
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let play = try PlayProcess(["play", folder.appendingPathComponent("scene.json").path, "--output", "x11",
                                    "--backend", backend, "--fit", "stretch"], environment: ["DISPLAY": x.name])
        // Stretched over 640 x 480: red on the left half, blue on the right.
        #expect(try x.waitFor([(x: 300, y: 240, colour: "#ff0000"), (x: 340, y: 240, colour: "#000080")])
                    == ["#ff0000", "#000080"], "\(play.stderr)")
        // No window manager here: the window is resized as a client may resize it (xdotool), to 200 x 100.
        let xdotool = Process()
        xdotool.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        xdotool.arguments = ["search", "--name", "^lamina$", "windowsize", "%@", "200", "100"]
        xdotool.environment = ["DISPLAY": x.name]
        try xdotool.run()
        xdotool.waitUntilExit()
        #expect(xdotool.terminationStatus == 0)
        // Stretched over 200 x 100 now: red to x 100, blue from 100 to 200; the root window (black) beyond.
        let probes = [(x: 90, y: 50, colour: "#ff0000"), (x: 110, y: 50, colour: "#000080"),
                      (x: 190, y: 90, colour: "#000080"), (x: 300, y: 240, colour: "#000000")]
        #expect(try x.waitFor(probes) == probes.map(\.colour), "\(play.stderr)")
        #expect(play.stop() == 0)
    }
}
