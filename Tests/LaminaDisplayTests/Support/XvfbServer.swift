import Foundation

/// An Xvfb X server on a free display number (`-displayfd` picks it), for the outputs' tests (here: under weston's
/// X11 backend, docs/kiosk.md, "Wayland on weston"). `stop()` (or deinit) ends it.
final class XvfbServer: @unchecked Sendable {
    static let executable = "/usr/bin/Xvfb"

    /// ":N".
    let display: String
    private let server: DisplayServerProcess

    /// Starts Xvfb with one `width` x `height` x 24 screen and waits (10 s at most) for it to say its display.
    /// `screenFolder`: Xvfb keeps its screen there as an XWD file, Xvfb_screen0 (`-fbdir`).
    init(width: Int = 640, height: Int = 480, logFolder: URL, screenFolder: URL? = nil) throws {
        let pipe = Pipe()
        server = try DisplayServerProcess(
            name: "Xvfb", executable: Self.executable,
            // -noreset: without it the server resets when its last client leaves, dropping the connections that
            // come during the reset (a program that closes its display and opens another at once).
            arguments: ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
                + (screenFolder.map { ["-fbdir", $0.path] } ?? []),
            log: logFolder.appendingPathComponent("xvfb.log"), stdout: pipe)
        // Xvfb writes the display number and a newline on fd 1 once it accepts connections.
        let fd = pipe.fileHandleForReading.fileDescriptor
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.hasSuffix("\n") {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard left > 0, poll(&descriptor, 1, left) > 0 else { break }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { break }
            text.append(Character(UnicodeScalar(byte)))
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            server.stop()
            throw WestonServerError("Xvfb did not start (said \"\(text)\"): \(server.logTail)")
        }
        display = ":\(number)"
    }

    /// Moves the X pointer (which weston's X11 backend follows) with xdotool; false when xdotool is missing.
    @discardableResult
    func movePointer(x: Int, y: Int) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = ["mousemove", "\(x)", "\(y)"]
        process.environment = ["DISPLAY": display]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    var isRunning: Bool { server.isRunning }

    func stop() { server.stop() }
}
