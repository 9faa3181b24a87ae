import CEGL
import Foundation
import LaminaCore
import LaminaDisplay
import LaminaGLES
import LaminaLayers
import Testing

/// A GLES `Display` run on one thread and released on another (a worker thread dropping the last reference, as
/// WaylandResizeCloseTests' worker can): `run` leaves no context current on the thread that ran it, so the
/// release destroys the EGL context, surface and display before the output disconnects from its server, and the
/// thread that ran it goes on to use GLES (a pool thread running the next test) without EGL touching the
/// disconnected wl_display (it crashed in libwayland-client: docs/reliability.md, "Displays").
@Suite(.serialized, .enabled(if: WestonServer.canRun))
struct DisplayThreadReleaseTests {
    final class Box: @unchecked Sendable { var display: Display? }

    @Test func aDisplayRunHereAndReleasedElsewhereLeavesThisThreadsGLESWorking() throws {
        let weston = try WestonServer.start()
        defer { weston.stop() }
        let box = Box()
        box.display = try Display(output: .wayland, backend: .gles,
                                  options: Display.Options(output: DisplayOutputOptions(device: weston.socketPath)))
        let root = Layer()
        Transaction.begin()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        root.backgroundColor = Color(red: 0, green: 1, blue: 0)
        Transaction.commit()
        var frames = 0
        try box.display?.run(root) { _ in
            frames += 1
            box.display?.stop()
        }
        #expect(frames == 1)
        // After run, no context of the display's is current here.
        #expect(eglGetCurrentContext() == nil)

        // The last reference goes on another thread.
        let released = DispatchSemaphore(value: 0)
        Thread {
            box.display = nil
            released.signal()
        }.start()
        released.wait()

        // This thread makes a context of its own current and draws: nothing of the released display is left here.
        let renderer = try GLESRenderer()
        let picture = try renderer.render(root)
        #expect(picture.word(x: 4, y: 4) == 0xFF_00_FF_00)
    }
}
