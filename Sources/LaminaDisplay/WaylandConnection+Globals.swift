import CWayland
import CXdgShell
import Foundation

/// The registry's globals and the events of the objects bound from them (WaylandListeners.swift forwards here).
extension WaylandConnection {
    /// Binds the globals Lamina uses, at the highest version it knows and the compositor has.
    func announce(global id: UInt32, interface: String, version: UInt32) {
        guard let registry else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        switch interface {
        case "wl_compositor" where compositor == nil:
            // Version 4 has wl_surface.damage_buffer (damage in buffer pixels).
            compositorVersion = min(version, 4)
            compositor = lamina_wl_bind_compositor(registry, id, compositorVersion)
        case "wl_shm" where shm == nil:
            shm = lamina_wl_bind_shm(registry, id, 1)
            wl_shm_add_listener(shm, WaylandListeners.shm, me)
        case "xdg_wm_base" where wmBase == nil:
            // Version 1 has everything used here (fullscreen, configure, close).
            wmBase = lamina_wl_bind_xdg_wm_base(registry, id, 1)
            xdg_wm_base_add_listener(wmBase, WaylandListeners.wmBase, me)
        case "wl_seat":
            // Version 5 has wl_seat.release and wl_pointer.release; the pointer events of later versions are unused.
            let bound = min(version, 5)
            guard let seat = lamina_wl_bind_seat(registry, id, bound) else { return }
            seats.append((seat, bound))
            wl_seat_add_listener(seat, WaylandListeners.seat, me)
        case "wl_output":
            // Version 3 has wl_output.release; 2 the done event.
            let bound = min(version, 3)
            guard let output = lamina_wl_bind_output(registry, id, bound) else { return }
            outputs.append(WaylandOutputInfo(output: output, version: bound, globalName: id))
            wl_output_add_listener(output, WaylandListeners.output, me)
        default:
            break
        }
    }

    /// xdg_wm_base.ping: a client that does not answer is taken for hung (weston greys it out).
    func ping(serial: UInt32) {
        if let wmBase { xdg_wm_base_pong(wmBase, serial) }
    }

    /// A seat's capabilities: each seat with a pointer gets a wl_pointer, so that Lamina can hide the cursor; a
    /// pointer that went away (a mouse unplugged) is released.
    func seat(_ seat: OpaquePointer, capabilities: UInt32) {
        guard let index = seats.firstIndex(where: { $0.seat == seat }) else { return }
        let hasPointer = capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let existing = pointers.firstIndex { $0.seat == seat }
        if hasPointer, existing == nil {
            guard let pointer = wl_seat_get_pointer(seat) else { return }
            pointers.append((pointer, seats[index].version, seat))
            wl_pointer_add_listener(pointer, WaylandListeners.pointer, Unmanaged.passUnretained(self).toOpaque())
        } else if !hasPointer, let existing {
            let (pointer, version, _) = pointers.remove(at: existing)
            if version >= 3 { wl_pointer_release(pointer) } else { wl_pointer_destroy(pointer) }
        }
    }

    /// The pointer entered one of Lamina's surfaces: no cursor over the picture, as kiosks expect (a NULL cursor
    /// surface hides it until the pointer leaves).
    func pointerEntered(_ pointer: OpaquePointer, serial: UInt32) {
        wl_pointer_set_cursor(pointer, serial, nil, 0, 0)
        cursorsHidden += 1
    }

    /// wl_output.mode: the current mode's size and refresh rate (mHz).
    func output(_ output: OpaquePointer, mode flags: UInt32, width: Int32, height: Int32, refresh: Int32) {
        guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0,
              let index = outputs.firstIndex(where: { $0.output == output }) else { return }
        outputs[index].width = Int(width)
        outputs[index].height = Int(height)
        outputs[index].refreshMillihertz = refresh
    }

    /// A global went away (an output unplugged): forget it; the compositor moves the window elsewhere.
    func remove(global id: UInt32) {
        guard let index = outputs.firstIndex(where: { $0.globalName == id }) else { return }
        let info = outputs.remove(at: index)
        if info.version >= 3 { wl_output_release(info.output) } else { wl_output_destroy(info.output) }
    }
}
