import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The Wayland output on a compositor that resizes and closes windows (sway, headless; docs/kiosk.md, "Wayland
/// resize and close"), each renderer: the CPU path's wl_shm buffers, the GPU path's wl_egl_window. A change of the
/// output's mode configures the full-screen window to the new size, whose next frame is drawn whole at it (the
/// screen's pixels checked, grim); `swaymsg kill` sends xdg_toplevel.close, after which `Display.run` returns
/// without an error.
@Suite(.serialized, .enabled(if: SwayServer.canRun))
struct WaylandResizeCloseTests {
    static let red: UInt32 = 0xFF_FF_00_00
    static let blue: UInt32 = 0xFF_00_00_FF

    /// Failures the worker thread saw, and the output sizes the frames were made at.
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private var failureList: [String] = []
        private var sizeList: [PixelSize] = []
        private var runEnded = false
        func end() { lock.withLock { runEnded = true } }
        var ended: Bool { lock.withLock { runEnded } }
        func fail(_ text: String) { lock.withLock { failureList.append(text) } }
        func frame(_ size: PixelSize) { lock.withLock { if sizeList.last != size { sizeList.append(size) } } }
        var failures: [String] { lock.withLock { failureList } }
        var sizes: [PixelSize] { lock.withLock { sizeList } }
    }

    /// Waits (10 s at most) until the screen is `width` x `height` with the left half red and the right half blue
    /// (the scene stretched); nil when it is, else what was seen last.
    static func waitForHalves(_ sway: SwayServer, width: Int, height: Int) -> String? {
        let deadline = Date().addingTimeInterval(10)
        var last = "no screenshot"
        while Date() < deadline {
            do {
                let picture = try sway.screenshot()
                if picture.width == width, picture.height == height {
                    let left = WaylandFrames.mismatches(in: picture, PixelBox(x0: 0, y0: 0, x1: width / 2, y1: height),
                                                        word: red, tolerance: 1)
                    let right = WaylandFrames.mismatches(
                        in: picture, PixelBox(x0: width / 2, y0: 0, x1: width, y1: height), word: blue, tolerance: 1)
                    if left.isEmpty, right.isEmpty { return nil }
                    last = "\(width)x\(height): left \(left), right \(right)"
                } else {
                    last = "a \(picture.width)x\(picture.height) screen"
                }
            } catch {
                last = "\(error)"
            }
            usleep(50_000)
        }
        return last
    }

    @Test(arguments: [Display.Backend.cpu, .gles])
    func aResizeRedrawsAtTheNewSizeAndACloseEndsRun(backend: Display.Backend) throws {
        let sway = try SwayServer(width: 320, height: 240)
        defer { sway.stop() }
        let display = try Display(output: .wayland, backend: backend,
                                  options: .init(fit: .stretch, output: DisplayOutputOptions(device: sway.socketPath)))
        #expect(display.output.size == PixelSize(width: 320, height: 240))
        let root = Layer(), left = Layer(), right = Layer()
        Transaction.begin()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        left.frame = CGRect(x: 0, y: 0, width: 50, height: 100)
        left.backgroundColor = Color(red: 1, green: 0, blue: 0)
        right.frame = CGRect(x: 50, y: 0, width: 50, height: 100)
        right.backgroundColor = Color(red: 0, green: 0, blue: 1)
        root.addSublayer(left)
        root.addSublayer(right)
        Transaction.commit()

        let record = Record()
        let finished = DispatchSemaphore(value: 0)
        let worker = Thread {
            defer { finished.signal() }
            if let seen = Self.waitForHalves(sway, width: 320, height: 240) {
                record.fail("the first frame: \(seen)")
            }
            do {
                try sway.setOutputSize(width: 480, height: 200)
                if let seen = Self.waitForHalves(sway, width: 480, height: 200) {
                    record.fail("after the resize to 480x200: \(seen)")
                }
                try sway.message("[app_id=\"lamina\"] kill")
                // A hang guard: a close that does not end the loop is a failure, not a stuck suite.
                let deadline = Date().addingTimeInterval(10)
                while !record.ended, Date() < deadline { usleep(20_000) }
                if !record.ended {
                    record.fail("run did not end within 10 s of xdg_toplevel.close")
                    display.stop()
                }
            } catch {
                record.fail("\(error)")
                display.stop()
            }
        }
        worker.start()
        let started = Date()
        var runError: Error?
        do {
            try display.run(root) { _ in record.frame(display.output.size) }
        } catch {
            runError = error
        }
        record.end()
        let ranFor = Date().timeIntervalSince(started)
        finished.wait()
        #expect(runError == nil, "run ended with \(runError.map { "\($0)" } ?? "")")
        #expect(record.failures == [], "sway: \(sway.log)")
        #expect(record.sizes == [PixelSize(width: 320, height: 240), PixelSize(width: 480, height: 200)])
        #expect(display.output.size == PixelSize(width: 480, height: 200))
        #expect(root.superlayer == nil)
        print("WaylandResizeCloseTests: \(backend.rawValue): run \(String(format: "%.1f", ranFor)) s")
    }
}
