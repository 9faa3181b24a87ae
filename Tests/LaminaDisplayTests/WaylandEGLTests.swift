import CEGL
import Foundation
import LaminaCore
@testable import LaminaDisplay
import Testing

/// The Wayland output's GPU path on weston (pixman, so an opaque config would show black): a wl_egl_window, an
/// 8-bit ARGB config on EGL_PLATFORM_WAYLAND_KHR (llvmpipe through wl_shm here), frames cleared with GLES,
/// swapped and paced by the output's frame callbacks, checked on weston's screenshots.
@Suite(.serialized, .enabled(if: WestonServer.canRun))
struct WaylandEGLTests {
    static let background: UInt32 = 0xFF_33_66_CC
    static let patch: UInt32 = 0xFF_E0_40_10

    @Test func anEGLWindowShowsWhatGLESDraws() throws {
        let weston = try WestonServer.start()
        defer { weston.stop() }
        let output = try WaylandOutput(options: .init(), gpu: true, socket: weston.socketPath)
        defer { output.close() }
        let target = try output.makeEGLWindow()
        #expect(target.platform == UInt32(EGL_PLATFORM_WAYLAND_KHR))
        #expect(target.needsAlpha)
        let egl = try EGLWindowContext(target)
        defer { egl.destroy() }
        let (width, height) = (output.size.width, output.size.height)

        let began = Date()
        clear(Self.background)
        try output.willSwapBuffers()
        #expect(eglSwapBuffers(egl.display, egl.surface) == EGL_TRUE)
        try output.didSwapBuffers(damage: .full(width: width, height: height))
        #expect(output.isWaitingForFrame)
        #expect(try WaylandFrames.waitUntilShown(output))
        print("wayland: EGL swap to frame shown \(String(format: "%.0f", Date().timeIntervalSince(began) * 1000)) ms")
        var picture = try weston.screenshot()
        #expect(WaylandFrames.mismatches(in: picture, PixelBox(x0: 0, y0: 0, x1: width, y1: height),
                                         word: Self.background, tolerance: 1) == [])

        // The whole frame again (the back buffer's contents are undefined after a swap) with a patch (GL's origin is
        // bottom-left), swapped without willSwapBuffers: the output then asks for the frame callback itself, with a
        // commit of its own.
        let box = PixelBox(x0: 40, y0: 30, x1: 200, y1: 130)
        clear(Self.background)
        glEnable(GLenum(GL_SCISSOR_TEST))
        glScissor(GLint(box.x0), GLint(height - box.y1), GLsizei(box.width), GLsizei(box.height))
        clear(Self.patch)
        glDisable(GLenum(GL_SCISSOR_TEST))
        #expect(eglSwapBuffers(egl.display, egl.surface) == EGL_TRUE)
        try output.didSwapBuffers(damage: DamageRegion(box))
        #expect(try WaylandFrames.waitUntilShown(output))
        picture = try weston.screenshot()
        #expect(WaylandFrames.mismatches(in: picture, box, word: Self.patch, tolerance: 1) == [])
        #expect(WaylandFrames.mismatches(in: picture, PixelBox(x0: 0, y0: 140, x1: width, y1: height),
                                         word: Self.background, tolerance: 1) == [])
    }

    private func clear(_ word: UInt32) {
        func channel(_ shift: UInt32) -> GLfloat { GLfloat((word >> shift) & 0xFF) / 255 }
        glClearColor(channel(16), channel(8), channel(0), 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }
}
