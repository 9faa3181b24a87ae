import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The X server going away under a running display (a kiosk's server restarting, a test's Xvfb stopping first):
/// `run` ends with a `DisplayError` naming the lost connection, and the process goes on. Xlib's default would print
/// "XIO: fatal IO error" and exit(1) the whole process (docs/kiosk.md, "Outputs").
@Suite(.serialized) struct X11ConnectionLossTests {
    @Test(arguments: [Display.Backend.cpu, .gles])
    func aLostServerEndsRunWithANamedError(backend: Display.Backend) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let display = try Display(output: .x11, backend: backend,
                                  options: .init(output: DisplayOutputOptions(device: x.name)))
        let root = Layer()
        Transaction.begin()
        root.bounds = CGRect(origin: .zero, size: display.size)
        root.backgroundColor = .red
        Transaction.commit()
        let shown = X11SpecialLayerTests.ShownColours()
        let killer = Thread {
            shown.set((try? x.waitFor([(x: 10, y: 10, colour: "#ff0000")])) ?? [])
            x.stopServer()
            // A frame after the server is gone: the loop must find the loss while presenting or polling.
            Transaction.begin()
            root.backgroundColor = .blue
            Transaction.commit()
            // Should the loss go unnoticed, the test fails rather than hangs.
            sleep(10)
            display.stop()
        }
        killer.start()
        var message = ""
        do {
            try display.run(root)
        } catch let error as DisplayError {
            message = "\(error)"
        }
        #expect(shown.values == ["#ff0000"], "\(backend)")
        #expect(message.contains("x11: the connection to display \"\(x.name)\" was lost"), "\(backend): \(message)")
    }
}
