import Foundation
import LaminaCore
import LaminaDisplay
import LaminaImageIO

/// A weston with the kiosk shell on its X11 backend, on an Xvfb of its own (docs/kiosk.md, "Wayland on weston"; weston
/// 10's headless backend has no seat, so kiosk-shell shows no client there): a real compositor for the Wayland
/// output's tests and `lamina play --output wayland`.
///
///     let weston = try WestonServer.start()
///     defer { weston.stop() }
///     let output = try WaylandOutput(options: .init(), gpu: false, socket: weston.socketPath)
///     ... let picture = try weston.screenshot()
///
/// A child process finds it through `environment` (WAYLAND_DISPLAY, XDG_RUNTIME_DIR). `stop()` (also in deinit)
/// ends weston and Xvfb and removes the folders.
final class WestonServer: @unchecked Sendable {
    static let executables = ["/usr/bin/weston", XvfbServer.executable, "/usr/bin/weston-screenshooter",
                              "/usr/lib/x86_64-linux-gnu/libweston-10/x11-backend.so",
                              "/usr/lib/x86_64-linux-gnu/weston/kiosk-shell.so"]

    /// Whether weston tests run: weston and Xvfb are there, or LAMINA_REQUIRE_DISPLAYS=1 (their absence then fails
    /// the tests). Prints why they are skipped otherwise.
    static var canRun: Bool { DisplayTestRequirement.shouldRun("weston tests", needing: executables) }

    /// The socket's name in `runtimeDirectory` (WAYLAND_DISPLAY for a client whose XDG_RUNTIME_DIR is it).
    let socketName: String
    /// A fresh 0700 folder: weston's XDG_RUNTIME_DIR, with its socket and log.
    let runtimeDirectory: URL
    /// The socket's absolute path, which libwayland takes as a display name whatever XDG_RUNTIME_DIR is.
    var socketPath: String { runtimeDirectory.appendingPathComponent(socketName).path }
    let xvfb: XvfbServer
    let width: Int
    let height: Int
    /// Seconds from the start of Xvfb until weston answered a client with its globals.
    private(set) var startSeconds = 0.0
    private var weston: DisplayServerProcess?

    /// WAYLAND_DISPLAY and XDG_RUNTIME_DIR for a client process.
    var environment: [String: String] {
        ["WAYLAND_DISPLAY": socketName, "XDG_RUNTIME_DIR": runtimeDirectory.path]
    }

    /// Starts Xvfb and weston (a `width` x `height` output, pixman, kiosk shell, --debug for the screenshooter)
    /// and waits (10 s at most) until a client sees xdg_wm_base. Throws, with weston's log, when it does not
    /// come up or something it needs is missing.
    static func start(width: Int = 640, height: Int = 480) throws -> WestonServer {
        if let missing = DisplayTestRequirement.missing(executables) {
            throw WestonServerError("cannot start weston: \(missing) (tools/setup.sh installs weston and xvfb)")
        }
        return try WestonServer(width: width, height: height)
    }

    private init(width: Int, height: Int) throws {
        let began = Date()
        self.width = width
        self.height = height
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("lamina-weston-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        runtimeDirectory = folder
        socketName = "lamina-test"
        do {
            xvfb = try XvfbServer(width: width, height: height, logFolder: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        do {
            weston = try DisplayServerProcess(
                name: "weston", executable: "/usr/bin/weston",
                arguments: ["--backend=x11-backend.so", "--use-pixman", "--width=\(width)", "--height=\(height)",
                            "--shell=kiosk-shell.so", "--debug", "--idle-time=0", "--socket=\(socketName)"],
                environment: ["DISPLAY": xvfb.display, "XDG_RUNTIME_DIR": folder.path],
                log: folder.appendingPathComponent("weston.log"))
            try waitUntilReady()
        } catch {
            stop()
            throw error
        }
        startSeconds = Date().timeIntervalSince(began)
    }

    deinit { stop() }

    /// Polls until the socket exists and a client finds xdg_wm_base on it.
    private func waitUntilReady() throws {
        let deadline = Date().addingTimeInterval(10)
        var last = "no socket"
        while Date() < deadline {
            guard let weston, weston.isRunning else {
                throw WestonServerError("weston exited: \(weston?.logTail ?? "")")
            }
            if FileManager.default.fileExists(atPath: socketPath) {
                let probe = WaylandOutput.probe(socket: socketPath)
                if probe.first?.usable == true { return }
                last = probe.first?.detail ?? last
            }
            usleep(20_000)
        }
        throw WestonServerError("weston did not come up within 10 s (\(last)): \(weston?.logTail ?? "")")
    }

    /// The output's picture now, from weston-screenshooter (it writes wayland-screenshot-*.png in its working
    /// folder, here a fresh one removed after): opaque pixels, 0xFFRRGGBB words.
    func screenshot() throws -> Image {
        let folder = runtimeDirectory.appendingPathComponent("shot-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/weston-screenshooter")
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        guard process.finishes(within: 10) else {
            throw WestonServerError("weston-screenshooter did not finish within 10 s")
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        guard process.terminationStatus == 0, let file = files.first(where: { $0.hasSuffix(".png") }) else {
            throw WestonServerError("weston-screenshooter failed (status \(process.terminationStatus)): \(message)")
        }
        return try Image(contentsOfFile: folder.appendingPathComponent(file).path)
    }

    /// weston's log so far (for failure messages).
    var log: String { weston?.logTail ?? "" }

    /// Ends weston, then Xvfb, and removes the runtime folder. Safe to call twice.
    func stop() {
        weston?.stop()
        xvfb.stop()
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }
}

/// Weston or Xvfb could not be started or used.
struct WestonServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
