import Foundation
import LaminaCore
import LaminaDisplay
import LaminaLayers
import Testing

/// `Display` on the Wayland output (weston's kiosk shell), each renderer: a layer tree fitted to the window and
/// shown through the frame loop, the socket given as the output's device.
@Suite(.serialized, .enabled(if: WestonServer.canRun))
struct WaylandDisplayTests {
    @Test(arguments: [Display.Backend.cpu, .gles])
    func aLayerTreeIsShownAndTheLoopStops(backend: Display.Backend) throws {
        let weston = try WestonServer.start()
        defer { weston.stop() }
        // 320 x 240 points on 640 x 480 pixels: scale 2, the box at (20, 20)-(120, 80) points = (40, 40)-(240, 160).
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.backgroundColor = Color(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0xCC / 255.0)
        let box = Layer()
        box.frame = CGRect(x: 20, y: 20, width: 100, height: 60)
        box.backgroundColor = Color(red: 0xE0 / 255.0, green: 0x40 / 255.0, blue: 0x10 / 255.0)
        root.addSublayer(box)

        let loop = RunningLoop(backend: backend, socket: weston.socketPath, root: root)
        Thread { loop.run() }.start()
        defer { loop.stopAndWait() }
        loop.ready.wait()
        #expect(loop.size == PixelSize(width: 640, height: 480))
        #expect(loop.backendName == backend.rawValue)

        let samples = [(x: 5, y: 5, word: UInt32(0xFF_33_66_CC)), (x: 600, y: 400, word: 0xFF_33_66_CC),
                       (x: 45, y: 45, word: 0xFF_E0_40_10), (x: 239, y: 159, word: 0xFF_E0_40_10),
                       (x: 241, y: 100, word: 0xFF_33_66_CC), (x: 100, y: 161, word: 0xFF_33_66_CC)]
        let seen = loop.display == nil ? [] : try waitForPicture(weston, samples.map { ($0.x, $0.y) },
                                                                 expecting: samples.map(\.word))
        #expect(seen == samples.map(\.word))
        loop.stopAndWait()
        #expect(loop.error == nil)
    }

    /// Screenshots until the words at `points` are `expected` (or 10 s pass, a hang guard); the last words seen.
    private func waitForPicture(_ weston: WestonServer, _ points: [(Int, Int)], expecting expected: [UInt32]) throws
        -> [UInt32] {
        let deadline = Date().addingTimeInterval(10)
        var seen: [UInt32] = []
        repeat {
            let picture = try weston.screenshot()
            seen = points.map { picture.word(x: $0.0, y: $0.1) }
            if seen == expected { break }
            usleep(50_000)
        } while Date() < deadline
        return seen
    }
}

/// A `Display` made and run on a thread of its own (a GLES context is current on the thread that made it, so the
/// loop runs where the display was opened).
private final class RunningLoop: @unchecked Sendable {
    let backend: Display.Backend
    let socket: String
    let root: Layer
    /// Signalled once the display is open (or failed to open).
    let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private(set) var display: Display?
    private(set) var size: PixelSize?
    private(set) var backendName: String?
    private var done = false
    var error: String?

    init(backend: Display.Backend, socket: String, root: Layer) {
        self.backend = backend
        self.socket = socket
        self.root = root
    }

    func run() {
        defer { finished.signal() }
        do {
            let display = try Display(output: .wayland, backend: backend,
                                      options: Display.Options(output: DisplayOutputOptions(device: socket)))
            lock.withLock { self.display = display }
            size = display.output.size
            backendName = display.backendName
            ready.signal()
            try display.run(root)
        } catch {
            self.error = "\(error)"
            ready.signal()
        }
    }

    /// Stops the loop and waits for `run` to return. Safe to call twice.
    func stopAndWait() {
        guard !lock.withLock({ done }) else { return }
        lock.withLock { display }?.stop()
        finished.wait()
        lock.withLock { done = true }
    }
}
