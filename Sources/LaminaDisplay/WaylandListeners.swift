import CWayland
import CXdgShell
import Foundation

/// The listener tables given to libwayland, one per interface, allocated once and never freed (libwayland keeps
/// their addresses for the life of each proxy). Each C callback finds its Swift object in the listener's user data
/// (unretained: the object outlives its proxies, which it destroys before it goes) and forwards the event.
///
/// Every slot of every table is filled, also for events of versions Lamina does not bind: libwayland calls a
/// slot without checking it for NULL.
enum WaylandListeners {
    private static func connection(_ data: UnsafeMutableRawPointer?) -> WaylandConnection {
        Unmanaged<WaylandConnection>.fromOpaque(data!).takeUnretainedValue()
    }

    private static func output(_ data: UnsafeMutableRawPointer?) -> WaylandOutput {
        Unmanaged<WaylandOutput>.fromOpaque(data!).takeUnretainedValue()
    }

    private static func table<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }

    nonisolated(unsafe) static let registry = table(wl_registry_listener(
        global: { data, _, id, interface, version in
            connection(data).announce(global: id, interface: String(cString: interface!), version: version)
        },
        global_remove: { data, _, id in connection(data).remove(global: id) }
    ))

    /// wl_display.sync's done (`WaylandConnection.roundtrip`).
    nonisolated(unsafe) static let sync = table(wl_callback_listener(
        done: { data, callback, _ in
            wl_callback_destroy(callback)
            connection(data).syncsDone += 1
        }
    ))

    nonisolated(unsafe) static let shm = table(wl_shm_listener(format: { _, _, _ in }))

    nonisolated(unsafe) static let wmBase = table(xdg_wm_base_listener(
        ping: { data, _, serial in connection(data).ping(serial: serial) }
    ))

    nonisolated(unsafe) static let seat = table(wl_seat_listener(
        capabilities: { data, seat, capabilities in connection(data).seat(seat!, capabilities: capabilities) },
        name: { _, _, _ in }
    ))

    nonisolated(unsafe) static let pointer = table(wl_pointer_listener(
        enter: { data, pointer, serial, _, _, _ in connection(data).pointerEntered(pointer!, serial: serial) },
        leave: { _, _, _, _ in },
        motion: { _, _, _, _, _ in },
        button: { _, _, _, _, _, _ in },
        axis: { _, _, _, _, _ in },
        frame: { _, _ in },
        axis_source: { _, _, _ in },
        axis_stop: { _, _, _, _ in },
        axis_discrete: { _, _, _, _ in },
        axis_value120: { _, _, _, _ in }
    ))

    nonisolated(unsafe) static let output = table(wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { data, output, flags, width, height, refresh in
            connection(data).output(output!, mode: flags, width: width, height: height, refresh: refresh)
        },
        done: { _, _ in },
        scale: { _, _, _ in },
        name: { _, _, _ in },
        description: { _, _, _ in }
    ))

    /// wl_surface: which output the window is on (its refresh rate paces the frames).
    nonisolated(unsafe) static let surface = table(wl_surface_listener(
        enter: { data, _, output in WaylandListeners.output(data).surfaceEntered(output!) },
        leave: { data, _, output in WaylandListeners.output(data).surfaceLeft(output!) }
    ))

    nonisolated(unsafe) static let xdgSurface = table(xdg_surface_listener(
        configure: { data, _, serial in output(data).configureSurface(serial: serial) }
    ))

    nonisolated(unsafe) static let toplevel = table(xdg_toplevel_listener(
        configure: { data, _, width, height, _ in output(data).configureToplevel(width: width, height: height) },
        close: { data, _ in output(data).closeRequested() },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in }
    ))

    /// The frame callback of the frame presented last: done when the compositor shows it (or the next).
    nonisolated(unsafe) static let frame = table(wl_callback_listener(
        done: { data, callback, _ in output(data).frameDone(callback!) }
    ))

    /// wl_buffer.release: the compositor no longer reads the buffer; it may be written again.
    nonisolated(unsafe) static let buffer = table(wl_buffer_listener(
        release: { data, _ in Unmanaged<WaylandShmBuffer>.fromOpaque(data!).takeUnretainedValue().released() }
    ))
}
