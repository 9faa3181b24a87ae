import CEGL
import Foundation
import LaminaCore

// Recovery from a GPU reset (docs/gpu-and-kiosk.md, "GPU resets"). A robust context (EGL_EXT_create_context_robustness,
// EGL_LOSE_CONTEXT_ON_RESET_EXT) reports a reset through glGetGraphicsResetStatus, and EGL reports EGL_CONTEXT_LOST
// when a lost context is made current. Every GL object dies with the context, so the renderer forgets them all,
// makes a new context and new objects, and draws the frame again; textures are uploaded again from the images,
// which live in ordinary memory.

extension GLESRenderer {
    /// Runs a frame's GL work; after a GPU reset, makes a new context and runs it once more. A second loss in a
    /// row is a named `RenderError.failed`.
    func recovering(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            guard let lost = lostContext(behind: error) else { throw error }
            try recover(from: lost)
            do {
                try body()
            } catch {
                guard let again = lostContext(behind: error) else { throw error }
                throw RenderError.failed(
                    "\(again), again right after a new context was made for an earlier reset (\(lost.statusName)); "
                        + "the GPU may be unusable: try the cpu renderer")
            }
        }
    }

    /// The reset behind `error`: the error itself, or a GL error (GL_CONTEXT_LOST, or any other) raised by a call
    /// made after the context was reset, which the reset status then reports.
    private func lostContext(behind error: Error) -> GLESContextLost? {
        if let lost = error as? GLESContextLost { return lost }
        let status = context.resetStatus()
        return status == GLenum(GL_NO_ERROR) ? nil : GLESContextLost(status: status, during: "drawing (\(error))")
    }

    /// Makes the context current and checks that it has not been reset since the last frame.
    func startFrame() throws {
        try context.makeCurrent()
        let status = context.resetStatus()
        if status != GLenum(GL_NO_ERROR) { throw GLESContextLost(status: status, during: "starting a frame") }
    }

    /// Forgets every GL object of the lost context, makes a new context and the objects every frame needs.
    /// Throws `RenderError.unavailable` naming the reset when no new context can be made.
    func recover(from lost: GLESContextLost) throws {
        log("gles: \(lost); making a new context")
        context.bindForRelease()
        releaseGLObjects()
        do {
            // The old context is released when the new one replaces it; its deinit leaves the new one current.
            context = try GLESContext(connection: context.connection, ignoring: ignoredExtensions, log: log)
            try makeGLObjects()
        } catch {
            throw RenderError.unavailable("\(lost), and no new context could be made: \(error)")
        }
        contextResets += 1
        if simulatedLossesToCome > 0 {
            simulatedLossesToCome -= 1
            context.simulateReset(lost.status ?? GLenum(GL_UNKNOWN_CONTEXT_RESET_KHR))
        }
    }

    /// Test seam: the next frame finds the context reset as after a GPU reset this context caused
    /// (GL_GUILTY_CONTEXT_RESET by default), as a real reset would report it; with `times` above 1, each new
    /// context made to recover is lost too, until `times` contexts have been lost. `afterChecks` lets that many
    /// reset-status checks pass first: 1 lets the frame start and reports the reset in the middle of it.
    func simulateContextLoss(status: GLenum = GLenum(GL_GUILTY_CONTEXT_RESET_KHR), times: Int = 1, afterChecks: Int = 0) {
        simulatedLossesToCome = max(0, times - 1)
        context.simulateReset(status, afterChecks: afterChecks)
    }
}
