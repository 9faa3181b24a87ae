import CWayland
import CXdgShell
import Foundation
import LaminaCore

/// A full-screen xdg-shell toplevel on a Wayland compositor (cage, weston's kiosk shell, any desktop one): the
/// `wayland` output of `lamina play` and `Display` (docs/kiosk.md, "Wayland").
///
/// - Size: what the compositor's configure gives; when it gives 0 x 0 (leaving it to the client), the size of
///   `options.mode`, else the current mode of the compositor's first output, else 1280 x 720. Each later configure
///   of another size is a `.resized` event.
/// - CPU path: double-buffered wl_shm (XRGB8888); each frame copies the damage it and the frames since the buffer
///   was last written changed, attaches, damages only those pixels (wl_surface.damage_buffer) and commits.
/// - GPU path: a wl_egl_window of the configured size, for an EGL window surface on EGL_PLATFORM_WAYLAND_KHR with an
///   8-bit ARGB config (`needsAlpha`); resized with the window. Call `willSwapBuffers()` before each
///   eglSwapBuffers so that the frame callback goes with the swap's commit, and set eglSwapInterval(0): the frames
///   are paced by this output's frame callbacks, not by Mesa's blocking wait.
/// - Frames are paced by frame callbacks: `isWaitingForFrame` from a present until its callback is done, which
///   `dispatchEvents()` reports as `.frameShown`.
/// - The pointer is hidden over the window; xdg_wm_base pings are answered; xdg_toplevel.close is
///   `.closeRequested`.
///
/// `close()` destroys the window and disconnects, in the order EGL needs (docs/reliability.md, "Displays"): the
/// EGL window surface and display made on `makeEGLWindow()`'s target must be destroyed before it (`Display`
/// releases its renderer first: eglDestroySurface, eglTerminate), then the wl_egl_window, the xdg objects and the
/// surface go, then the globals, then wl_display_disconnect; nothing stays behind.
public final class WaylandOutput: DisplayOutput {
    public let kind = DisplayOutputKind.wayland
    public let supportsEGLWindow = true
    /// The size now: the last configure's (see the type's notes for 0 x 0).
    public internal(set) var size = PixelSize(width: 0, height: 0)
    /// The socket connected to (`socket`, WAYLAND_DISPLAY or "wayland-0").
    public let socketName: String

    let options: DisplayOutputOptions
    let gpu: Bool
    let connection: WaylandConnection
    var surface: OpaquePointer?
    var xdgSurface: OpaquePointer?
    var toplevel: OpaquePointer?
    /// The outputs the surface is on (wl_surface.enter), for the refresh rate.
    var enteredOutputs: [OpaquePointer] = []
    /// The size the last xdg_toplevel.configure asked for; applied at the xdg_surface.configure that follows.
    var requestedSize = (width: Int32(0), height: Int32(0))
    /// Whether the first configure has been acknowledged (the window may be drawn from then on).
    var configured = false
    /// The frame callback of the frame presented last; nil when none is pending.
    var frameCallback: OpaquePointer?
    /// `willSwapBuffers()` asked for the frame callback of the swap to come.
    var frameRequestedBeforeSwap = false
    /// What the events dispatched since the last `dispatchEvents()` mean for the loop.
    var pendingEvents: [DisplayEvent] = []
    /// The CPU path's buffers at the current size; those of an old size, until the compositor releases them.
    var buffers: [WaylandShmBuffer] = []
    var retiredBuffers: [WaylandShmBuffer] = []
    /// The buffer of the frame presented last (for tests: it must hold the whole frame).
    var lastBuffer: WaylandShmBuffer?
    /// The damage of the frames presented through `buffers`: what each buffer lacks (docs/architecture.md, "Damage").
    var bufferDamage = DamageRing()
    /// The GPU path's window (wl_egl_window*).
    var eglWindow: OpaquePointer?
    private var isClosed = false

    /// Connects to `options.device` (`lamina play --device`: a socket name in XDG_RUNTIME_DIR, or a path), else to
    /// WAYLAND_DISPLAY, and shows a full-screen toplevel; returns once the compositor configured it.
    public convenience init(options: DisplayOutputOptions, gpu: Bool) throws {
        try self.init(options: options, gpu: gpu, socket: options.device)
    }

    /// Connects to `socket` (a socket name in XDG_RUNTIME_DIR, or a path; nil: WAYLAND_DISPLAY) and shows a
    /// full-screen toplevel titled "lamina"; returns once the compositor configured it (5 s at most). `gpu` only
    /// says which path will be used: the wl_shm buffers are made at the first `present`, the wl_egl_window by
    /// `makeEGLWindow()`.
    public init(options: DisplayOutputOptions, gpu: Bool, socket: String?, timeout: Double = 5) throws {
        self.options = options
        self.gpu = gpu
        connection = try WaylandConnection(socket: socket, timeout: timeout)
        socketName = connection.name
        guard let compositor = connection.compositor else { throw missing("wl_compositor") }
        guard let wmBase = connection.wmBase else { throw missing("xdg_wm_base (xdg-shell)") }
        if !gpu, connection.shm == nil { throw missing("wl_shm (needed by the CPU renderer)") }

        let me = Unmanaged.passUnretained(self).toOpaque()
        surface = wl_compositor_create_surface(compositor)
        wl_surface_add_listener(surface, WaylandListeners.surface, me)
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        xdg_surface_add_listener(xdgSurface, WaylandListeners.xdgSurface, me)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, WaylandListeners.toplevel, me)
        xdg_toplevel_set_title(toplevel, "lamina")
        xdg_toplevel_set_app_id(toplevel, "lamina")
        xdg_toplevel_set_fullscreen(toplevel, nil)
        // The first commit, with no buffer, asks for the first configure; nothing may be attached before its ack.
        wl_surface_commit(surface)
        try connection.wait(for: "configure", timeout: timeout) { configured }
        // The first configure sets the size: it is no resize for the loop.
        pendingEvents.removeAll { if case .resized = $0 { return true } else { return false } }
        options.log("wayland: \(summary)")
    }

    deinit { close() }

    private func missing(_ global: String) -> DisplayError {
        DisplayError("Wayland: the compositor at \"\(connection.name)\" has no \(global)")
    }

    /// "wayland "wayland-1" 640x480@60 (shm)".
    public var summary: String {
        "wayland \"\(socketName)\" \(size)@\(String(format: "%g", refreshRate)) (\(gpu ? "EGL" : "shm"))"
    }

    /// The refresh rate of the output the window is on (the first output's before it is shown); 60 when unknown.
    public var refreshRate: Double {
        let outputs = connection.outputs
        let shown = outputs.first { info in enteredOutputs.contains(info.output) && info.refreshMillihertz > 0 }
        guard let info = shown ?? outputs.first(where: { $0.refreshMillihertz > 0 }) else { return 60 }
        return Double(info.refreshMillihertz) / 1000
    }

    public var eventDescriptors: [Int32] { isClosed ? [] : [connection.fd] }

    public var isWaitingForFrame: Bool { frameCallback != nil }

    /// Destroys the window and its buffers and disconnects. Safe to call twice.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        for buffer in buffers + retiredBuffers { buffer.destroy() }
        buffers = []
        retiredBuffers = []
        lastBuffer = nil
        if let eglWindow { wl_egl_window_destroy(eglWindow) }
        eglWindow = nil
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
        toplevel = nil
        xdgSurface = nil
        surface = nil
        connection.disconnect()
    }
}
