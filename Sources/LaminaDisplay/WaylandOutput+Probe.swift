import CWayland
import Foundation

/// `lamina info`: is there a Wayland compositor to show a window on?
extension WaylandOutput {
    /// One line: WAYLAND_DISPLAY unset, the connection failing, a global missing (passed over), or what the
    /// compositor offers (usable): `"wayland-1": xdg_wm_base, wl_shm, 1 output (640x480@60)`. The socket is
    /// `options.device` when given, else WAYLAND_DISPLAY.
    public static func probe(options: DisplayOutputOptions) -> [OutputProbe] {
        probe(socket: options.device)
    }

    /// As `probe(options:)`, for `socket` (nil: WAYLAND_DISPLAY, which must then be set).
    public static func probe(socket: String?) -> [OutputProbe] {
        let variable = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? ""
        if socket == nil, variable.isEmpty {
            return [OutputProbe(kind: .wayland, usable: false, detail: "WAYLAND_DISPLAY is not set")]
        }
        let connection: WaylandConnection
        do {
            connection = try WaylandConnection(socket: socket, timeout: 2)
        } catch {
            return [OutputProbe(kind: .wayland, usable: false, detail: "\(error)")]
        }
        defer { connection.disconnect() }
        let name = "\"\(connection.name)\""
        var missing: [String] = []
        if connection.compositor == nil { missing.append("wl_compositor") }
        if connection.wmBase == nil { missing.append("xdg_wm_base (xdg-shell)") }
        if !missing.isEmpty {
            return [OutputProbe(kind: .wayland, usable: false,
                                detail: "\(name): the compositor has no \(missing.joined(separator: " and "))")]
        }
        var found = ["xdg_wm_base"]
        // Without wl_shm only the GLES renderer can draw.
        found.append(connection.shm == nil ? "no wl_shm (GLES only)" : "wl_shm")
        let outputs = connection.outputs
        let modes = outputs.map(\.modeDescription).joined(separator: ", ")
        found.append("\(outputs.count) output\(outputs.count == 1 ? "" : "s")" + (outputs.isEmpty ? "" : " (\(modes))"))
        return [OutputProbe(kind: .wayland, usable: true, detail: "\(name): " + found.joined(separator: ", "))]
    }
}
