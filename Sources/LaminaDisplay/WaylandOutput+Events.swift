import CWayland
import CXdgShell
import Foundation
import LaminaCore

/// Events: reading them without blocking, configures (the size), close, frame callbacks.
extension WaylandOutput {
    /// Reads what the compositor sent, if anything, without blocking (the loop polls `eventDescriptors` first, but
    /// this is safe to call at any time), and returns the resizes, close requests and shown frames since the last
    /// call. Throws when the connection is lost (the compositor quit).
    public func dispatchEvents() throws -> [DisplayEvent] {
        guard surface != nil else { return [] }
        try connection.pump(timeoutMilliseconds: 0)
        // Buffers of an old size are freed once the compositor gave them back.
        retiredBuffers.removeAll { buffer in
            guard !buffer.busy else { return false }
            buffer.destroy()
            return true
        }
        let events = pendingEvents
        pendingEvents = []
        return events
    }

    /// xdg_toplevel.configure: the size asked for (0 x 0: the client's choice), applied at the surface configure.
    func configureToplevel(width: Int32, height: Int32) {
        requestedSize = (width, height)
    }

    /// xdg_surface.configure: acknowledges it and takes the size; a new size after the first is `.resized` (the
    /// loop draws the next frame whole at it, whose commit applies the acknowledged state).
    func configureSurface(serial: UInt32) {
        guard let xdgSurface else { return }
        xdg_surface_ack_configure(xdgSurface, serial)
        let newSize: PixelSize
        if requestedSize.width > 0, requestedSize.height > 0 {
            newSize = PixelSize(width: Int(requestedSize.width), height: Int(requestedSize.height))
        } else if configured {
            newSize = size
        } else {
            newSize = sizeOfChoice
        }
        let first = !configured
        configured = true
        guard newSize != size else { return }
        size = newSize
        if let eglWindow { wl_egl_window_resize(eglWindow, Int32(newSize.width), Int32(newSize.height), 0, 0) }
        if !first {
            options.log("wayland: configured to \(newSize)")
            pendingEvents.append(.resized(newSize))
        }
    }

    /// The size when the compositor leaves it to Lamina: `--mode`'s, else the first output's mode, else 1280x720.
    var sizeOfChoice: PixelSize {
        if let mode = options.mode { return PixelSize(width: mode.width, height: mode.height) }
        if let info = connection.outputs.first(where: { $0.width > 0 && $0.height > 0 }) {
            return PixelSize(width: info.width, height: info.height)
        }
        return PixelSize(width: 1280, height: 720)
    }

    /// xdg_toplevel.close: the user (or the compositor) closed the window.
    func closeRequested() {
        options.log("wayland: close requested")
        pendingEvents.append(.closeRequested)
    }

    func surfaceEntered(_ output: OpaquePointer) {
        if !enteredOutputs.contains(output) { enteredOutputs.append(output) }
    }

    func surfaceLeft(_ output: OpaquePointer) {
        enteredOutputs.removeAll { $0 == output }
    }

    /// Asks for a frame callback with the next commit, replacing one still pending (its done would be stale).
    func requestFrameCallback() {
        guard let surface else { return }
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = wl_surface_frame(surface)
        wl_callback_add_listener(frameCallback, WaylandListeners.frame, Unmanaged.passUnretained(self).toOpaque())
    }

    /// wl_callback.done of a frame callback: the compositor shows the frame, the next may be presented. Its time
    /// (milliseconds of an unspecified clock) cannot be set against the media clock, so `mediaTime` is nil.
    func frameDone(_ callback: OpaquePointer) {
        wl_callback_destroy(callback)
        guard callback == frameCallback else { return }
        frameCallback = nil
        pendingEvents.append(.frameShown(mediaTime: nil))
    }
}
