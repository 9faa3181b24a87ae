import CWayland
import CXdgShell
import Foundation

/// One connection to a Wayland compositor and the globals Lamina binds on it: wl_compositor, wl_shm, xdg_wm_base
/// (pings answered), the seats (the pointer hidden over Lamina's surfaces) and the outputs (their current modes).
/// `WaylandOutput` builds its window on one; `WaylandOutput.probe(options:)` opens one to see what is there.
///
/// Every read goes through `pump(timeoutMilliseconds:)`, libwayland's non-blocking dance (prepare_read, flush,
/// poll, read_events or cancel_read, dispatch_pending), so a frame loop that polls `fd` never blocks in here, and
/// EGL's own event queue on the same display (Mesa's swap) can read concurrently with it.
final class WaylandConnection {
    /// The wl_display; nil once disconnected.
    private(set) var display: OpaquePointer?
    /// The socket as named in messages: the `socket` given, else WAYLAND_DISPLAY, else libwayland's "wayland-0".
    let name: String

    var registry: OpaquePointer?
    var compositor: OpaquePointer?
    var compositorVersion: UInt32 = 0
    var shm: OpaquePointer?
    var wmBase: OpaquePointer?
    var seats: [(seat: OpaquePointer, version: UInt32)] = []
    var pointers: [(pointer: OpaquePointer, version: UInt32, seat: OpaquePointer)] = []
    var outputs: [WaylandOutputInfo] = []
    /// How many times the pointer entered a surface and its cursor was hidden (for tests).
    var cursorsHidden = 0
    /// Bumped by each wl_display.sync's done (`roundtrip`).
    var syncsDone = 0

    /// Connects to `socket` (a name in XDG_RUNTIME_DIR or a path), or to WAYLAND_DISPLAY when nil, binds the globals
    /// and waits for the outputs' modes and the seats' capabilities (two round trips).
    init(socket: String?, timeout: Double = 5) throws {
        let environment = ProcessInfo.processInfo.environment
        name = socket ?? environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 } ?? "wayland-0"
        guard let display = wl_display_connect(socket) else {
            let code = errno
            var hint = ""
            if socket == nil, environment["WAYLAND_DISPLAY"] == nil { hint = "; WAYLAND_DISPLAY is not set" }
            if environment["XDG_RUNTIME_DIR"] == nil, !name.hasPrefix("/") { hint += "; XDG_RUNTIME_DIR is not set" }
            throw DisplayError("Wayland: cannot connect to \"\(name)\": \(String(cString: strerror(code)).lowercased())"
                                   + " (is a compositor running?\(hint))")
        }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, WaylandListeners.registry, Unmanaged.passUnretained(self).toOpaque())
        // The first round trip announces the globals (bound as they come); the second brings the events of the
        // objects bound: the outputs' modes and the seats' capabilities.
        try roundtrip(timeout: timeout)
        try roundtrip(timeout: timeout)
    }

    deinit { disconnect() }

    /// The descriptor the frame loop polls for readable.
    var fd: Int32 { display.map { wl_display_get_fd($0) } ?? -1 }

    /// Reads and dispatches what the compositor sent, waiting at most `timeoutMilliseconds` for it (0: not at all;
    /// -1: forever). Throws when the connection is lost (the compositor quit, or a protocol error).
    func pump(timeoutMilliseconds: Int32) throws {
        guard let display else { throw DisplayError("Wayland: the connection to \"\(name)\" is closed") }
        // Events already queued must be dispatched before a read may be prepared.
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { throw lostError() }
        }
        // Requests go out before waiting for their answers; a full socket (EAGAIN) is flushed on the next pump.
        if wl_display_flush(display) < 0, errno != EAGAIN {
            wl_display_cancel_read(display)
            throw lostError()
        }
        var descriptor = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat {
            ready = poll(&descriptor, 1, timeoutMilliseconds)
        } while ready < 0 && errno == EINTR
        if ready > 0 {
            // Readable, or hung up / in error: read_events reports the latter.
            if wl_display_read_events(display) < 0 { throw lostError() }
        } else {
            wl_display_cancel_read(display)
        }
        if wl_display_dispatch_pending(display) < 0 { throw lostError() }
    }

    /// Sends what is queued without reading; a full socket is left for the next pump.
    func flush() throws {
        guard let display else { return }
        if wl_display_flush(display) < 0, errno != EAGAIN { throw lostError() }
    }

    /// Pumps until `done()` holds; throws after `timeout` seconds, naming `what` was awaited.
    func wait(for what: String, timeout: Double, until done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !done() {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                throw DisplayError("Wayland: no \(what) from the compositor at \"\(name)\" within "
                                       + "\(String(format: "%g", timeout)) s")
            }
            try pump(timeoutMilliseconds: Int32(min(left * 1000 + 1, 1000)))
        }
    }

    /// wl_display.sync and a wait for its done: every event sent before it has been dispatched.
    func roundtrip(timeout: Double) throws {
        guard let display else { throw DisplayError("Wayland: the connection to \"\(name)\" is closed") }
        let target = syncsDone + 1
        let callback = wl_display_sync(display)
        wl_callback_add_listener(callback, WaylandListeners.sync, Unmanaged.passUnretained(self).toOpaque())
        do {
            try wait(for: "answer", timeout: timeout) { syncsDone >= target }
        } catch {
            wl_callback_destroy(callback)
            throw error
        }
    }

    /// Why the connection failed: libwayland's protocol error (interface and code) or the socket's errno.
    func lostError() -> DisplayError {
        guard let display else { return DisplayError("Wayland: the connection to \"\(name)\" is closed") }
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            let object = interface.map { String(cString: $0.pointee.name) } ?? "unknown object"
            return DisplayError("Wayland: protocol error \(protocolCode) on \(object)@\(id) from \"\(name)\"")
        }
        let reason = code == 0 ? "connection closed" : String(cString: strerror(code)).lowercased()
        return DisplayError("Wayland: the connection to \"\(name)\" was lost: \(reason)")
    }

    /// Destroys the globals' proxies and disconnects. Safe to call twice.
    ///
    /// EGL (Mesa) makes proxies of its own on the display of a window surface and destroys them when the surface is
    /// destroyed and the EGL display terminated: those must come first (disconnecting before makes them crash in
    /// libwayland). `Display` releases its renderer before it closes its output.
    func disconnect() {
        guard let display else { return }
        for (pointer, version, _) in pointers {
            if version >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
        }
        for (seat, version) in seats {
            if version >= 5 { wl_seat_release(seat) } else { wl_seat_destroy(seat) }
        }
        for output in outputs {
            if output.version >= 3 { wl_output_release(output.output) } else { wl_output_destroy(output.output) }
        }
        pointers = []
        seats = []
        outputs = []
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        wmBase = nil
        shm = nil
        compositor = nil
        registry = nil
        wl_display_flush(display)
        wl_display_disconnect(display)
        self.display = nil
    }
}

/// A wl_output and its current mode, as its events told.
struct WaylandOutputInfo {
    var output: OpaquePointer
    var version: UInt32
    /// The registry's name for it (global_remove names it).
    var globalName: UInt32
    var width = 0
    var height = 0
    /// mHz; 0 until a current mode is announced.
    var refreshMillihertz: Int32 = 0

    /// "640x480@60", or "mode unknown".
    var modeDescription: String {
        guard width > 0, height > 0 else { return "mode unknown" }
        guard refreshMillihertz > 0 else { return "\(width)x\(height)" }
        return "\(width)x\(height)@" + String(format: "%g", (Double(refreshMillihertz) / 1000 * 100).rounded() / 100)
    }
}
