import CWayland
import CXdgShell
import Foundation
import LaminaCore

/// The CPU path: frames copied into wl_shm buffers, only their damage.
extension WaylandOutput {
    /// The most buffers kept at one size: two, and a third while the compositor holds both (it may keep the one
    /// shown and the one before until its next repaint).
    static let maxBuffers = 3

    /// Copies the damaged pixels of `frame` into a buffer the compositor does not hold, attaches it, damages those
    /// pixels and commits with a frame callback. A buffer written a frame or more ago also gets the damage of the
    /// frames it missed. A frame of another size than the buffers' (a resize) makes new buffers.
    public func present(_ frame: Image, damage: DamageRegion) throws {
        guard let surface else { throw DisplayError("Wayland: the window on \"\(socketName)\" is closed") }
        guard let shm = connection.shm else {
            throw DisplayError("Wayland: the compositor at \"\(socketName)\" has no wl_shm (needed by the CPU renderer)")
        }
        let bounds = PixelBox(x0: 0, y0: 0, x1: frame.width, y1: frame.height)
        if let first = buffers.first, first.width != frame.width || first.height != frame.height {
            // Held ones are freed when released (dispatchEvents); destroying them now would leave the compositor
            // showing freed memory until the new frame is on screen.
            retiredBuffers += buffers.filter(\.busy)
            for buffer in buffers where !buffer.busy { buffer.destroy() }
            buffers = []
            lastBuffer = nil
        }
        let damage = damage.clipped(to: bounds)
        guard !damage.isEmpty else { return }
        let key = bufferDamage.add(damage, width: frame.width, height: frame.height)

        let buffer = try freeBuffer(shm: shm, width: frame.width, height: frame.height)
        buffer.update(from: frame, stale: bufferDamage.damage(since: buffer.frame), key: key)
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        for rect in damage.rects where !rect.isEmpty {
            if connection.compositorVersion >= 4 {
                wl_surface_damage_buffer(surface, Int32(rect.x0), Int32(rect.y0), Int32(rect.width), Int32(rect.height))
            } else {
                // Before version 4 damage is in surface coordinates, the same as the buffer's at scale 1.
                wl_surface_damage(surface, Int32(rect.x0), Int32(rect.y0), Int32(rect.width), Int32(rect.height))
            }
        }
        requestFrameCallback()
        wl_surface_commit(surface)
        buffer.busy = true
        lastBuffer = buffer
        try connection.flush()
    }

    /// A buffer of the size the compositor does not hold: a free one, a new one while fewer than `maxBuffers` exist,
    /// else the first released (waiting at most a second for it).
    private func freeBuffer(shm: OpaquePointer, width: Int, height: Int) throws -> WaylandShmBuffer {
        if let free = buffers.first(where: { !$0.busy }) { return free }
        if buffers.count < Self.maxBuffers {
            let buffer = try WaylandShmBuffer(shm: shm, width: width, height: height)
            buffers.append(buffer)
            return buffer
        }
        try connection.wait(for: "wl_buffer release", timeout: 1) { buffers.contains { !$0.busy } }
        return buffers.first { !$0.busy }!
    }
}
