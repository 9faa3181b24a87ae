import CEGL
import Foundation
import LaminaCore

// Pipelined readback for throughput runs (an export, a video encoder, a test harness drawing frame after frame).
// `render(_:)` reads a frame back with glReadPixels into client memory, which makes the CPU wait until the GPU has
// drawn that very frame: on a real GPU the CPU then idles while the GPU draws, and the GPU idles while the CPU plans
// and encodes the next frame. Here each frame is instead read into a pixel-pack buffer (GL_PIXEL_PACK_BUFFER), an
// asynchronous copy the GPU (or its DMA engine) performs after drawing, and a fence (glFenceSync) marks when it is
// done. The frame's pixels are mapped (glMapBufferRange) and copied out only when the caller collects it, normally a
// frame or two later, by which time the fence has long signalled and nothing waits. A ring of buffers lets that
// many frames be in flight; drawing the next frame into the renderer's target is ordered after the copy by GL, so
// one target suffices. That target is the retained framebuffer of live frames: a frame begun after another of the
// same tree redraws only the plan's damage, as `render(_:into:redrawing:)` does.
//
// `lamina export` reads GLES frames back this way (tools/lamina/ExportFrames.swift): each job begins frame n + 1
// before it collects and encodes frame n (docs/gpu.md, "Pipelined readback").

/// A frame drawn by `GLESRenderer.beginReadback(_:)` whose pixels are still on their way back from the GPU.
/// Collect it with `GLESRenderer.collect(_:)`; frames may be collected in any order, each once.
public final class GLESPendingFrame {
    /// The renderer's count of frames begun, from 1: the order frames were drawn in.
    public let sequence: Int
    public let width: Int, height: Int
    /// The ring slot holding its pixels; nil once they are out (in `image`) or lost.
    var slot: Int?
    /// The pixels, once copied out of the ring (when the ring needed the slot back before the caller collected).
    var image: Image?
    /// Why the pixels are gone (a GPU reset deleted the buffer).
    var lost: String?
    var collected = false

    init(sequence: Int, width: Int, height: Int, slot: Int) {
        self.sequence = sequence
        self.width = width
        self.height = height
        self.slot = slot
    }
}

/// One buffer of the ring: its storage, the fence of the copy last queued into it, and the frame it holds.
struct ReadbackSlot {
    var buffer: GLuint = 0
    var capacity = 0
    /// The storage's bytes in the renderer's `memoryBudget`, held while the buffer lives.
    var reservation: MemoryReservation?
    var fence: GLsync?
    var frame: GLESPendingFrame?
}

extension GLESRenderer {
    /// Frames that may be in flight between `beginReadback(_:)` and `collect(_:)` (pixel-pack buffers in the ring).
    /// When the ring is full, beginning another frame first copies the oldest frame's pixels out of its buffer
    /// (waiting for its fence) and keeps them for its collection. Changing it copies out the frames in flight and
    /// releases every buffer; the new ring is made as frames need it.
    public var readbackRingSize: Int {
        get { readback.depth }
        set {
            let depth = max(1, newValue)
            guard depth != readback.depth else { return }
            try? context.makeCurrent()
            for index in readback.slots.indices { try? evacuate(slot: index) }
            releaseReadbackRing()
            readback.depth = depth
        }
    }

    /// Pixel-pack buffers the ring holds now (for tests and memory accounting).
    public var readbackBuffersHeld: Int { readback.slots.filter { $0.buffer != 0 }.count }

    /// Frames begun and not yet collected.
    public var framesInFlight: Int { readback.slots.filter { $0.frame != nil }.count + readback.evacuated }

    /// Draws `plan` into the renderer's target and starts copying it back into a pixel-pack buffer of the ring,
    /// without waiting for the GPU. Collect the frame with `collect(_:)`; its pixels equal what `render(_:)` returns
    /// for the same plan. The target is retained between frames, so a plan whose damage is measured against the
    /// plan drawn just before redraws only that damage. A buffer's storage is reserved from `memoryBudget` when it is
    /// made or grown, and each collected image's bytes when it is copied out.
    public func beginReadback(_ plan: RenderPlan) throws -> GLESPendingFrame {
        try plan.validate()
        var pending: GLESPendingFrame?
        try recovering {
            _ = try drawRetained(plan)
            let bytes = plan.width * plan.height * 4
            let index = try freeSlot()
            if readback.slots[index].capacity < bytes {
                // Reserved before anything is bound, so that a refusal leaves no pack buffer bound.
                readback.slots[index].reservation = nil
                readback.slots[index].reservation = try memoryBudget.reserve(
                    bytes, for: "a \(plan.width)x\(plan.height) readback buffer")
                glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), readback.slots[index].buffer)
                glBufferData(GLenum(GL_PIXEL_PACK_BUFFER), bytes, nil, GLenum(GL_STREAM_READ))
                readback.slots[index].capacity = bytes
            }
            glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), readback.slots[index].buffer)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
            // With a pack buffer bound, the last argument is an offset into it and the call returns at once.
            glReadPixels(0, 0, GLsizei(plan.width), GLsizei(plan.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                         nil)
            glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
            readback.slots[index].fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
            // Submits the work now, so that the GPU starts while the CPU plans the next frame.
            glFlush()
            try checkErrors("starting a readback")
            readback.sequence += 1
            let frame = GLESPendingFrame(sequence: readback.sequence, width: plan.width, height: plan.height,
                                         slot: index)
            readback.slots[index].frame = frame
            pending = frame
        }
        return pending!
    }

    /// The pixels of `frame`: waits for its copy when the GPU has not finished it (a frame begun a ring's length
    /// ago normally has), maps its buffer and copies them into a new image. Throws for a frame already collected,
    /// a frame of another renderer, or one whose buffer a GPU reset destroyed.
    public func collect(_ frame: GLESPendingFrame) throws -> Image {
        guard !frame.collected else { throw RenderError.failed("frame \(frame.sequence) was already collected") }
        if let image = frame.image {
            frame.collected = true
            frame.image = nil
            readback.evacuated -= 1
            return image
        }
        if let lost = frame.lost { throw RenderError.failed("frame \(frame.sequence) was lost: \(lost)") }
        guard let index = frame.slot, readback.slots.indices.contains(index), readback.slots[index].frame === frame
        else { throw RenderError.failed("frame \(frame.sequence) is not in this renderer's readback ring") }
        try context.makeCurrent()
        let image = try copyOut(slot: index)
        frame.collected = true
        return image
    }

    /// Begins `plan` and returns the oldest frame in flight once the ring is full (the frame drawn
    /// `readbackRingSize - 1` frames before), else nil: a throughput loop's one call per frame. `drainReadbacks()`
    /// returns the frames still in flight at the end.
    public func renderPipelined(_ plan: RenderPlan) throws -> Image? {
        let frame = try beginReadback(plan)
        readback.pipeline.append(frame)
        guard readback.pipeline.count >= readback.depth else { return nil }
        return try collect(readback.pipeline.removeFirst())
    }

    /// The frames `renderPipelined(_:)` still holds, oldest first.
    public func drainReadbacks() throws -> [Image] {
        defer { readback.pipeline.removeAll() }
        return try readback.pipeline.map { try collect($0) }
    }

    // MARK: Ring

    /// A slot whose buffer is free, made if needed; when every slot holds a frame, the oldest is copied out first.
    private func freeSlot() throws -> Int {
        if readback.slots.count < readback.depth {
            readback.slots.append(ReadbackSlot())
        }
        let index: Int
        if let free = readback.slots.firstIndex(where: { $0.frame == nil }) {
            index = free
        } else {
            index = readback.slots.indices.min { readback.slots[$0].frame!.sequence < readback.slots[$1].frame!.sequence }!
            try evacuate(slot: index)
        }
        if readback.slots[index].buffer == 0 { glGenBuffers(1, &readback.slots[index].buffer) }
        return index
    }

    /// Copies a slot's frame out into its pending frame, freeing the slot.
    private func evacuate(slot index: Int) throws {
        guard let frame = readback.slots[index].frame else { return }
        frame.image = try copyOut(slot: index)
        frame.slot = nil
        readback.evacuated += 1
    }

    /// Waits for a slot's fence, maps its buffer and copies its frame into a new image; frees the slot.
    private func copyOut(slot index: Int) throws -> Image {
        let frame = readback.slots[index].frame!
        if let fence = readback.slots[index].fence {
            // Flushing on the first wait makes sure the fence is submitted; one second at a time, so that a reset
            // GPU is noticed rather than waited on for ever.
            var flags = GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT)
            while true {
                let status = glClientWaitSync(fence, flags, 1_000_000_000)
                if status == GLenum(GL_ALREADY_SIGNALED) || status == GLenum(GL_CONDITION_SATISFIED) { break }
                if status == GLenum(GL_WAIT_FAILED) { try checkErrors("waiting for a readback"); break }
                try checkErrors("waiting for a readback")
                flags = 0
            }
            glDeleteSync(fence)
            readback.slots[index].fence = nil
        }
        let bytes = frame.width * frame.height * 4
        let reservation = try memoryBudget.reserve(bytes, for: "the \(frame.width)x\(frame.height) output image")
        let image = try Image(width: frame.width, height: frame.height)
        image.memoryReservation = reservation
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), readback.slots[index].buffer)
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        guard let mapped = glMapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, bytes, GLbitfield(GL_MAP_READ_BIT)) else {
            try checkErrors("mapping a readback buffer")
            throw RenderError.failed("mapping a \(frame.width)x\(frame.height) readback buffer failed")
        }
        image.baseAddress.copyMemory(from: mapped, byteCount: bytes)
        glUnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER))
        image.markModified()
        readback.slots[index].frame = nil
        frame.slot = nil
        try checkErrors("reading a frame back")
        return image
    }

    /// Deletes the ring's buffers and fences. Frames still in them are marked lost (a GPU reset, or a renderer
    /// going away); `readbackRingSize` copies them out first.
    func releaseReadbackRing() {
        for slot in readback.slots {
            if let fence = slot.fence { glDeleteSync(fence) }
            if slot.buffer != 0 {
                var buffer = slot.buffer
                glDeleteBuffers(1, &buffer)
            }
            if let frame = slot.frame {
                frame.slot = nil
                frame.lost = "its readback buffer was released (GPU reset)"
            }
        }
        readback.slots.removeAll()
    }
}
