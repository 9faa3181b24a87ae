import Foundation
import LaminaCore
@testable import LaminaDisplay
import Testing

/// The Wayland output on a real compositor: weston's kiosk shell on its X11 backend on Xvfb (WestonServer),
/// checked through weston's own screenshots. Skipped (with the reason printed) where weston or Xvfb is missing,
/// unless LAMINA_REQUIRE_DISPLAYS=1 (CI), which makes that a failure.
@Suite(.serialized, .enabled(if: WestonServer.canRun))
struct WaylandOutputTests {
    /// Colours with different channels, so that a swapped channel order shows.
    static let background: UInt32 = 0xFF_33_66_CC
    static let patch: UInt32 = 0xFF_E0_40_10
    static let second: UInt32 = 0xFF_20_C0_60

    @Test func theWindowIsConfiguredFullScreenAtTheKioskShellsSize() throws {
        let weston = try WestonServer.start()
        defer { weston.stop() }
        let output = try WaylandOutput(options: .init(), gpu: false, socket: weston.socketPath)
        defer { output.close() }
        #expect(output.size == PixelSize(width: 640, height: 480))
        #expect(output.kind == .wayland)
        #expect(output.refreshRate == 60)
        #expect(output.eventDescriptors.count == 1)
        #expect(output.summary == "wayland \"\(weston.socketPath)\" 640x480@60 (shm)")

        let probe = WaylandOutput.probe(socket: weston.socketPath)
        #expect(probe.count == 1)
        #expect(probe.first?.usable == true)
        #expect(probe.first?.detail == "\"\(weston.socketPath)\": xdg_wm_base, wl_shm, 1 output (640x480@60)")
    }

    /// A solid frame, then a patch damaged alone: the picture on screen, channel order included.
    @Test func cpuFramesShowTheirPixelsInOrder() throws {
        let weston = try WestonServer.start()
        defer { weston.stop() }
        let began = Date()
        let output = try WaylandOutput(options: .init(), gpu: false, socket: weston.socketPath)
        defer { output.close() }
        let (width, height) = (output.size.width, output.size.height)
        let whole = PixelBox(x0: 0, y0: 0, x1: width, y1: height)

        let frame = try WaylandFrames.solid(width: width, height: height, word: Self.background)
        try output.present(frame, damage: .full(width: width, height: height))
        #expect(output.isWaitingForFrame)
        #expect(try WaylandFrames.waitUntilShown(output))
        print("wayland: weston up in \(ms(weston.startSeconds)) ms; window to first frame shown "
                  + "\(ms(Date().timeIntervalSince(began))) ms")
        var picture = try weston.screenshot()
        #expect(picture.width == 640 && picture.height == 480)
        #expect(WaylandFrames.mismatches(in: picture, whole, word: Self.background) == [])

        let first = PixelBox(x0: 40, y0: 30, x1: 200, y1: 130)
        WaylandFrames.fill(frame, first, word: Self.patch)
        try output.present(frame, damage: DamageRegion(first))
        #expect(try WaylandFrames.waitUntilShown(output))
        picture = try weston.screenshot()
        #expect(WaylandFrames.mismatches(in: picture, first, word: Self.patch) == [])
        #expect(WaylandFrames.mismatches(in: picture, PixelBox(x0: 0, y0: 140, x1: width, y1: height),
                                         word: Self.background) == [])
        #expect(WaylandFrames.mismatches(in: picture, PixelBox(x0: 210, y0: 0, x1: width, y1: 140),
                                         word: Self.background) == [])
    }

    /// The first two frames are presented back to back, so the compositor still holds the first buffer and the
    /// second frame goes into a new one; the third goes into the first buffer again, which missed the first patch:
    /// it must be copied in too (the union of the damages since the buffer was last written).
    @Test func aBufferReusedAfterOthersGetsTheDamageItMissed() throws {
        let weston = try WestonServer.start()
        defer { weston.stop() }
        let output = try WaylandOutput(options: .init(), gpu: false, socket: weston.socketPath)
        defer { output.close() }
        let (width, height) = (output.size.width, output.size.height)
        let frame = try WaylandFrames.solid(width: width, height: height, word: Self.background)
        try output.present(frame, damage: .full(width: width, height: height))
        let first = PixelBox(x0: 40, y0: 30, x1: 200, y1: 130)
        WaylandFrames.fill(frame, first, word: Self.patch)
        try output.present(frame, damage: DamageRegion(first))
        #expect(output.buffers.count == 2)
        #expect(output.lastBuffer === output.buffers.last)
        #expect(WaylandFrames.bufferRowsDiffering(output, from: frame) == [])
        #expect(try WaylandFrames.waitUntilShown(output))

        let second = PixelBox(x0: 400, y0: 300, x1: 600, y1: 460)
        WaylandFrames.fill(frame, second, word: Self.second)
        try output.present(frame, damage: DamageRegion(second))
        #expect(try WaylandFrames.waitUntilShown(output))
        // The first buffer again (weston released it when the second was shown), caught up with the first patch.
        #expect(output.buffers.count == 2)
        #expect(output.lastBuffer === output.buffers.first)
        #expect(WaylandFrames.bufferRowsDiffering(output, from: frame) == [])
        // weston repaints only the damage, so its screen would hide a stale buffer: the rows above say it all.
        let picture = try weston.screenshot()
        #expect(WaylandFrames.mismatches(in: picture, first, word: Self.patch) == [])
        #expect(WaylandFrames.mismatches(in: picture, second, word: Self.second) == [])
        #expect(WaylandFrames.mismatches(in: picture, PixelBox(x0: 0, y0: 140, x1: 390, y1: height),
                                         word: Self.background) == [])
    }

    /// A frame of another size (as after a resize) makes new buffers at its size; the old ones the compositor held
    /// are freed once released. weston's kiosk shell centres a smaller full-screen surface on black.
    @Test func aFrameOfAnotherSizeGetsBuffersOfItsSize() throws {
        let weston = try WestonServer.start()
        defer { weston.stop() }
        let output = try WaylandOutput(options: .init(), gpu: false, socket: weston.socketPath)
        defer { output.close() }
        try output.present(try WaylandFrames.solid(width: 640, height: 480, word: Self.background),
                           damage: .full(width: 640, height: 480))
        #expect(try WaylandFrames.waitUntilShown(output))
        try output.present(try WaylandFrames.solid(width: 320, height: 240, word: Self.second),
                           damage: .full(width: 320, height: 240))
        #expect(output.buffers.map { "\($0.width)x\($0.height)" } == ["320x240"])
        #expect(try WaylandFrames.waitUntilShown(output))
        #expect(output.retiredBuffers.isEmpty)
        let picture = try weston.screenshot()
        #expect(WaylandFrames.mismatches(in: picture, PixelBox(x0: 160, y0: 120, x1: 480, y1: 360),
                                         word: Self.second) == [])
        #expect(WaylandFrames.mismatches(in: picture, PixelBox(x0: 0, y0: 0, x1: 640, y1: 110),
                                         word: 0xFF_00_00_00) == [])
    }

    /// No cursor over the picture: the pointer entering the window hides the cursor (weston draws none for a client
    /// that sets none, so the pixels alone could not tell), and the pixels under it are the frame's.
    @Test func thePointerIsHiddenOverTheWindow() throws {
        let weston = try WestonServer.start()
        defer { weston.stop() }
        let output = try WaylandOutput(options: .init(), gpu: false, socket: weston.socketPath)
        defer { output.close() }
        let (width, height) = (output.size.width, output.size.height)
        try output.present(try WaylandFrames.solid(width: width, height: height, word: Self.background),
                           damage: .full(width: width, height: height))
        #expect(try WaylandFrames.waitUntilShown(output))
        #expect(weston.xvfb.movePointer(x: 100, y: 100))
        #expect(weston.xvfb.movePointer(x: 120, y: 110))
        // The enter event comes with the motion; the cursor is hidden in answer to it.
        try WaylandFrames.pump(output) { _ in output.connection.cursorsHidden > 0 }
        #expect(output.connection.cursorsHidden == 1)
        let picture = try weston.screenshot()
        #expect(WaylandFrames.mismatches(in: picture, PixelBox(x0: 90, y0: 90, x1: 160, y1: 160),
                                         word: Self.background) == [])
    }

    /// The compositor going away is an error of dispatchEvents naming the socket, not a hang or a crash.
    @Test func aCompositorThatQuitsIsALostConnection() throws {
        let weston = try WestonServer.start()
        let output = try WaylandOutput(options: .init(), gpu: false, socket: weston.socketPath)
        defer { output.close() }
        weston.stop()
        var failure: (any Error)?
        do {
            try WaylandFrames.pump(output) { _ in false }
        } catch {
            failure = error
        }
        let message = "\(failure.map { "\($0)" } ?? "no error")"
        #expect(message.hasPrefix("Wayland: the connection to \"\(weston.socketPath)\" was lost"), "\(message)")
    }

    @Test func closeIsSafeTwiceAndEndsTheEvents() throws {
        let weston = try WestonServer.start()
        defer { weston.stop() }
        let output = try WaylandOutput(options: .init(), gpu: false, socket: weston.socketPath)
        output.close()
        output.close()
        #expect(output.eventDescriptors == [])
        #expect(try output.dispatchEvents() == [])
        #expect(throws: DisplayError("Wayland: the window on \"\(weston.socketPath)\" is closed")) {
            try output.present(try Image(width: 4, height: 4), damage: .full(width: 4, height: 4))
        }
    }

    private func ms(_ seconds: Double) -> String { String(format: "%.0f", seconds * 1000) }
}

/// Errors that need no compositor.
struct WaylandOutputErrorTests {
    @Test func aMissingSocketIsNamedInTheError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-no-such-wayland").path
        #expect(throws: DisplayError("Wayland: cannot connect to \"\(path)\": no such file or directory "
                                         + "(is a compositor running?)")) {
            _ = try WaylandOutput(options: .init(), gpu: false, socket: path)
        }
        let probe = WaylandOutput.probe(socket: path)
        #expect(probe.map(\.usable) == [false])
        #expect(probe.first?.description
                    == "wayland: passed over: Wayland: cannot connect to \"\(path)\": no such file or directory "
                    + "(is a compositor running?)")
    }
}
