import CWayland
import CXdgShell
import Foundation
import LaminaCore

/// One wl_shm buffer of the CPU path: an anonymous shared-memory file (memfd) mapped here and by the compositor,
/// XRGB8888 (Lamina's premultiplied BGRA words read as little-endian ARGB8888, the alpha ignored so the window is
/// opaque whatever the scene's background), with the frame it holds (its key in the output's `DamageRing`).
final class WaylandShmBuffer {
    let width: Int
    let height: Int
    let stride: Int
    private let byteCount: Int
    /// The mapped pixels (rows of `stride` bytes).
    let memory: UnsafeMutableRawPointer
    private(set) var buffer: OpaquePointer?
    /// Attached and committed, not yet released by the compositor: must not be written.
    var busy = false
    /// The frame whose pixels the buffer holds (nil: none yet): what the frames presented since changed must be
    /// copied into it before it is shown again.
    var frame: UInt64?

    init(shm: OpaquePointer, width: Int, height: Int) throws {
        self.width = width
        self.height = height
        stride = width * 4
        byteCount = stride * height
        guard width > 0, height > 0, byteCount <= Int(Int32.max) else {
            throw DisplayError("Wayland: cannot make a \(width)x\(height) wl_shm buffer (too large for a pool)")
        }
        let fd = lamina_wl_shm_file("lamina-wayland", Int64(byteCount))
        guard fd >= 0 else {
            throw DisplayError("Wayland: cannot make a \(byteCount)-byte wl_shm file: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED
        else { throw DisplayError("Wayland: cannot map \(byteCount) bytes of wl_shm: \(String(cString: strerror(errno)))") }
        memory = mapped
        // The pool only serves to make the one buffer; the buffer keeps the compositor's mapping alive.
        let pool = wl_shm_create_pool(shm, fd, Int32(byteCount))
        buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride),
                                           WL_SHM_FORMAT_XRGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        wl_buffer_add_listener(buffer, WaylandListeners.buffer, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { destroy() }

    /// Copies the `stale` rectangles of `frame` (the buffer's size) into the buffer, which then holds frame `key`.
    func update(from frame: Image, stale: DamageRegion, key: UInt64) {
        precondition(frame.width == width && frame.height == height, "frame \(frame.width)x\(frame.height) "
                         + "in a \(width)x\(height) wl_shm buffer")
        let bounds = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        for rect in stale.clipped(to: bounds).rects where !rect.isEmpty {
            let rowBytes = rect.width * 4
            for y in rect.y0..<rect.y1 {
                memcpy(memory + y * stride + rect.x0 * 4,
                       frame.baseAddress + y * frame.bytesPerRow + rect.x0 * 4, rowBytes)
            }
        }
        self.frame = key
    }

    /// wl_buffer.release.
    func released() { busy = false }

    /// Destroys the wl_buffer and unmaps the memory. Safe to call twice.
    func destroy() {
        guard let buffer else { return }
        wl_buffer_destroy(buffer)
        munmap(memory, byteCount)
        self.buffer = nil
    }
}
