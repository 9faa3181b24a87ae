import Foundation
import LaminaCore
import LaminaTestSupport
import Testing

/// `lamina play --output wayland` on weston's kiosk shell, each renderer: the fitted picture on weston's screenshots,
/// the animation moving, SIGTERM ending it cleanly; and the error when there is no compositor.
@Suite(.serialized, .enabled(if: WestonServer.canRun))
struct WaylandPlayTests {
    /// 320 x 240 points on 640 x 480 pixels (scale 2): the box at (40, 40)-(240, 160) pixels, the mover on rows
    /// 400-440 going from x 10 to 310 points and back.
    static let scene = """
        {"size": [320, 240], "backgroundColor": "#3366CC",
         "layers": [{"name": "box", "frame": [20, 20, 100, 60], "backgroundColor": "#E04010"},
                    {"name": "mover", "frame": [0, 200, 20, 20], "backgroundColor": "#00FF00",
                     "animations": [{"keyPath": "position.x", "fromValue": 10, "toValue": 310, "duration": 1.5,
                                     "autoreverses": true, "repeatCount": "infinity"}]}]}
        """
    static let background: UInt32 = 0xFF_33_66_CC
    static let box: UInt32 = 0xFF_E0_40_10
    static let mover: UInt32 = 0xFF_00_FF_00

    @Test(arguments: ["cpu", "gles"])
    func aSceneIsShownAnimatedAndStoppedCleanly(backend: String) throws {
        let weston = try WestonServer.start()
        defer { weston.stop() }
        let folder = try PlayRun.folder(scene: Self.scene)
        defer { try? FileManager.default.removeItem(at: folder) }
        let play = try PlayRun.start(["play", PlayRun.scenePath(in: folder), "--output", "wayland",
                                      "--backend", backend], environment: weston.environment, folder: folder)
        defer { play.stop() }

        let samples = [(x: 5, y: 5, word: Self.background), (x: 600, y: 300, word: Self.background),
                       (x: 45, y: 45, word: Self.box), (x: 239, y: 159, word: Self.box),
                       (x: 241, y: 100, word: Self.background), (x: 100, y: 161, word: Self.background)]
        var picture = try weston.screenshot()
        let deadline = Date().addingTimeInterval(10)
        while samples.contains(where: { picture.word(x: $0.x, y: $0.y) != $0.word }), Date() < deadline {
            usleep(50_000)
            picture = try weston.screenshot()
        }
        #expect(samples.map { picture.word(x: $0.x, y: $0.y) } == samples.map(\.word), "\(play.logText)")

        // The mover's column on row 420 changes as the animation runs.
        func moverColumn() throws -> Int? {
            let image = try weston.screenshot()
            return (0..<image.width).first { image.word(x: $0, y: 420) == Self.mover }
        }
        let first = try moverColumn()
        usleep(400_000)
        let second = try moverColumn()
        #expect(first != nil && second != nil && first != second,
                "mover at \(String(describing: first)), then \(String(describing: second))")

        #expect(play.stop(signal: SIGTERM) == 0, "\(play.logText)")
        #expect(play.logText.contains("with the \(backend) renderer"), "\(play.logText)")
        #expect(play.logText.contains("lamina: stopped"), "\(play.logText)")
        // The window is gone: the kiosk shell shows its black background.
        var gone = try weston.screenshot()
        let goneBy = Date().addingTimeInterval(10)
        while gone.word(x: 45, y: 45) != 0xFF_00_00_00, Date() < goneBy {
            usleep(50_000)
            gone = try weston.screenshot()
        }
        #expect(gone.word(x: 45, y: 45) == 0xFF_00_00_00)
    }
}

/// Errors that need no compositor.
struct WaylandPlayErrorTests {
    @Test func noCompositorIsStatus1NamingTheSocket() throws {
        let folder = try PlayRun.folder(scene: WaylandPlayTests.scene)
        defer { try? FileManager.default.removeItem(at: folder) }
        let play = try PlayRun.start(["play", PlayRun.scenePath(in: folder), "--output", "wayland"],
                                     environment: ["WAYLAND_DISPLAY": "lamina-no-compositor",
                                                   "XDG_RUNTIME_DIR": folder.path],
                                     folder: folder)
        let deadline = Date().addingTimeInterval(10)
        while play.isRunning, Date() < deadline { usleep(10_000) }
        #expect(play.stop(signal: SIGKILL) == 1)
        #expect(play.logText.contains("Wayland: cannot connect to \"lamina-no-compositor\": no such file or directory"),
                "\(play.logText)")
    }
}

/// Running the built `lamina` binary for the play tests.
enum PlayRun {
    static var binary: String { LaminaExecutable.path }

    /// A fresh folder holding `scene` as scene/scene.json, and the log beside the scene's folder (a file changing
    /// next to the scene would make play load it again).
    static func folder(scene: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-wlplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("scene"),
                                                withIntermediateDirectories: true)
        try Data(scene.utf8).write(to: URL(fileURLWithPath: scenePath(in: folder)))
        return folder
    }

    static func scenePath(in folder: URL) -> String { folder.appendingPathComponent("scene/scene.json").path }

    /// Starts `lamina ARGUMENTS` with `environment` (DISPLAY and WAYLAND_DISPLAY of the test's own unset first), its
    /// output into FOLDER/play.log.
    static func start(_ arguments: [String], environment: [String: String], folder: URL) throws
        -> DisplayServerProcess {
        try DisplayServerProcess(name: "lamina", executable: binary, arguments: arguments, environment: environment,
                                 unsetting: ["DISPLAY", "WAYLAND_DISPLAY", "LAMINA_RENDERER"],
                                 log: folder.appendingPathComponent("play.log"))
    }
}
