import CEGL
import Foundation
import LaminaCore

/// Texture uploads through pixel-unpack buffers. `glTexSubImage2D` from client memory makes a GPU driver copy the
/// texels into memory the GPU can read before the call returns (or stall until the GPU is done with the texture).
/// Copying them instead into a mapped GL_PIXEL_UNPACK_BUFFER and uploading from that buffer lets the driver queue a
/// DMA transfer and return: the CPU's copy is the only one it waits for. The buffers are a ring used in turn, each
/// keeping its storage (grown when an upload needs more) and mapped with GL_MAP_INVALIDATE_BUFFER_BIT, so that a
/// buffer the GPU may still be reading is renamed by the driver instead of waited for.
///
/// Off on software rasterisers (llvmpipe keeps textures in ordinary memory: the buffer is one more copy there) and for
/// uploads under `minimumBytes` (a small image costs more in buffer calls than it saves); see docs/gpu.md.
final class GLESUnpackRing {
    static let count = 4
    /// Uploads smaller than this go straight from the image.
    static let minimumBytes = 64 << 10

    private(set) var buffers = [GLuint](repeating: 0, count: count)
    private var capacities = [Int](repeating: 0, count: count)
    private var turn = 0
    /// Uploads made through the ring (for tests).
    private(set) var uploads = 0

    /// Copies the `width` x `height` texels starting at `first` (rows `bytesPerRow` apart) into the next buffer,
    /// leaves it bound as GL_PIXEL_UNPACK_BUFFER with GL_UNPACK_ROW_LENGTH 0, and returns false (with nothing bound)
    /// when the buffer cannot be mapped, for the caller to upload from memory instead.
    func stage(_ first: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int) -> Bool {
        let row = width * 4
        let bytes = row * height
        turn = (turn + 1) % Self.count
        if buffers[turn] == 0 { glGenBuffers(1, &buffers[turn]) }
        glBindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), buffers[turn])
        if capacities[turn] < bytes {
            glBufferData(GLenum(GL_PIXEL_UNPACK_BUFFER), bytes, nil, GLenum(GL_STREAM_DRAW))
            capacities[turn] = bytes
        }
        guard let mapped = glMapBufferRange(
            GLenum(GL_PIXEL_UNPACK_BUFFER), 0, bytes,
            GLbitfield(GL_MAP_WRITE_BIT) | GLbitfield(GL_MAP_INVALIDATE_BUFFER_BIT))
        else {
            glBindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), 0)
            return false
        }
        if row == bytesPerRow {
            mapped.copyMemory(from: first, byteCount: bytes)
        } else {
            for y in 0..<height { (mapped + y * row).copyMemory(from: first + y * bytesPerRow, byteCount: row) }
        }
        glUnmapBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER))
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
        uploads += 1
        return true
    }

    /// Deletes the buffers (renderer release, GPU reset); the ring makes new ones as uploads need them.
    func removeAll() {
        for index in buffers.indices where buffers[index] != 0 { glDeleteBuffers(1, &buffers[index]) }
        buffers = [GLuint](repeating: 0, count: Self.count)
        capacities = [Int](repeating: 0, count: Self.count)
    }
}
