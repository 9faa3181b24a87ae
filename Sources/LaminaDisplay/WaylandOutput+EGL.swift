import CWayland
import CXdgShell
import Foundation
import LaminaCore

/// The GPU path: a wl_egl_window for EGL's Wayland platform, paced by frame callbacks.
extension WaylandOutput {
    /// EGL_PLATFORM_WAYLAND_KHR (EGL_KHR_platform_wayland).
    public static let eglPlatformWayland: UInt32 = 0x31D8

    /// A wl_egl_window of the configured size (made once; resized with the window): the renderer makes an EGL
    /// display on EGL_PLATFORM_WAYLAND_KHR for the wl_display, an 8-bit ARGB window config and a window surface.
    public func makeEGLWindow() throws -> EGLWindowTarget {
        guard let surface, let display = connection.display else {
            throw DisplayError("Wayland: the window on \"\(socketName)\" is closed")
        }
        if eglWindow == nil {
            guard let window = wl_egl_window_create(surface, Int32(size.width), Int32(size.height)) else {
                throw DisplayError("Wayland: cannot make a \(size) wl_egl_window on \"\(socketName)\"")
            }
            eglWindow = window
        }
        return EGLWindowTarget(platform: Self.eglPlatformWayland, nativeDisplay: UnsafeMutableRawPointer(display),
                               nativeWindow: UnsafeMutableRawPointer(eglWindow!), needsAlpha: true)
    }

    /// Called just before eglSwapBuffers: asks for the frame callback that the swap's commit carries (asked after
    /// the swap, it would wait for a commit that may never come).
    public func willSwapBuffers() throws {
        guard surface != nil else { return }
        requestFrameCallback()
        frameRequestedBeforeSwap = true
    }

    /// Called after eglSwapBuffers (which attached, damaged and committed): the frame callback is pending. A loop
    /// that did not call `willSwapBuffers()` gets one asked for now, with a commit of its own that carries only it.
    public func didSwapBuffers(damage: DamageRegion) throws {
        guard let surface else { throw DisplayError("Wayland: the window on \"\(socketName)\" is closed") }
        if !frameRequestedBeforeSwap {
            requestFrameCallback()
            wl_surface_commit(surface)
        }
        frameRequestedBeforeSwap = false
        try connection.flush()
    }
}
