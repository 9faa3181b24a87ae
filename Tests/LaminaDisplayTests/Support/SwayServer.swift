import Foundation
import LaminaCore
import LaminaDisplay
import LaminaImageIO

/// A sway on wlroots' headless backend (pixman), driven with swaymsg: a compositor that resizes a full-screen window
/// when its output's mode changes (an xdg_toplevel.configure with the new size) and asks a window to close
/// (`swaymsg kill`: xdg_toplevel.close), which weston's kiosk shell never does (docs/kiosk.md, "Wayland resize and
/// close"). grim captures the output (wlr-screencopy).
///
/// sway refuses to run as root: under root (CI) it runs as nobody through setpriv, in a runtime folder nobody owns
/// (root's clients connect to it all the same).
final class SwayServer: @unchecked Sendable {
    static let executables = ["/usr/bin/sway", "/usr/bin/swaymsg", "/usr/bin/grim", "/usr/bin/setpriv"]

    /// Whether sway tests run: sway, swaymsg and grim are there, or LAMINA_REQUIRE_DISPLAYS=1 (their absence then
    /// fails the tests).
    static var canRun: Bool { DisplayTestRequirement.shouldRun("sway tests", needing: executables) }

    let runtimeDirectory: URL
    /// The output's name on the headless backend.
    let outputName = "HEADLESS-1"
    private var sway: DisplayServerProcess?
    private(set) var socketName = ""
    private(set) var ipcSocket = ""

    /// The Wayland socket's absolute path.
    var socketPath: String { runtimeDirectory.appendingPathComponent(socketName).path }

    /// Starts sway with one `width` x `height` output and waits (10 s at most) until a client sees xdg_wm_base.
    init(width: Int, height: Int) throws {
        if let missing = DisplayTestRequirement.missing(Self.executables) {
            throw WestonServerError("cannot start sway: \(missing) (tools/setup.sh installs sway and grim)")
        }
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("lamina-sway-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        runtimeDirectory = folder
        let config = """
            xwayland disable
            default_border none
            output \(outputName) resolution \(width)x\(height) background #000000 solid_color
            """
        let configFile = folder.appendingPathComponent("config")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        var executable = "/usr/bin/sway"
        var arguments = ["-c", configFile.path]
        if getuid() == 0 {
            let nobody: UInt32 = 65534
            _ = chown(folder.path, nobody, nobody)
            _ = chmod(configFile.path, 0o644)
            executable = "/usr/bin/setpriv"
            arguments = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "/usr/bin/sway"] + arguments
        }
        do {
            sway = try DisplayServerProcess(
                name: "sway", executable: executable, arguments: arguments,
                environment: ["XDG_RUNTIME_DIR": folder.path, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman",
                              "WLR_LIBINPUT_NO_DEVICES": "1", "HOME": folder.path],
                unsetting: ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK"],
                log: URL(fileURLWithPath: "/tmp/lamina-sway-\(getpid())-\(UUID().uuidString.prefix(8)).log"))
            try waitUntilReady()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    private func waitUntilReady() throws {
        let deadline = Date().addingTimeInterval(10)
        var last = "no socket"
        while Date() < deadline {
            guard let sway, sway.isRunning else { throw WestonServerError("sway exited: \(sway?.logTail ?? "")") }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory.path)) ?? []
            if let wayland = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
               let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") })
            {
                socketName = wayland
                ipcSocket = runtimeDirectory.appendingPathComponent(ipc).path
                let probe = WaylandOutput.probe(socket: socketPath)
                if probe.first?.usable == true { return }
                last = probe.first?.detail ?? last
            }
            usleep(20_000)
        }
        throw WestonServerError("sway did not come up within 10 s (\(last)): \(sway?.logTail ?? "")")
    }

    /// Runs `swaymsg COMMAND...`; throws with its output when it fails.
    @discardableResult
    func message(_ command: String) throws -> String {
        try run("/usr/bin/swaymsg", ["-s", ipcSocket, command])
    }

    /// Changes the output's mode: a full-screen window is configured to the new size.
    func setOutputSize(width: Int, height: Int) throws {
        try message("output \(outputName) resolution \(width)x\(height)")
    }

    /// The output's picture now (grim): opaque pixels, 0xFFRRGGBB words.
    func screenshot() throws -> Image {
        let file = runtimeDirectory.appendingPathComponent("shot-\(UUID().uuidString.prefix(8)).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try run("/usr/bin/grim", ["-t", "png", file.path], environment: ["WAYLAND_DISPLAY": socketPath])
        return try Image(contentsOfFile: file.path)
    }

    private func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        guard process.finishes(within: 10) else {
            throw WestonServerError("\(executable) \(arguments) did not finish within 10 s")
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw WestonServerError("\(executable) \(arguments) failed (\(process.terminationStatus)): \(output)")
        }
        return output
    }

    /// sway's log so far.
    var log: String { sway?.logTail ?? "" }

    /// Ends sway and removes the runtime folder. Safe to call twice.
    func stop() {
        sway?.stop()
        if let sway { try? FileManager.default.removeItem(at: sway.log) }
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }
}
