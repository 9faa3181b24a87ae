import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Gradient, shape and replicator layers on a real X server through `Display`, with each renderer: what the
/// offscreen tests check at probe pixels reaches the screen the same way (docs/kiosk.md, "Outputs").
@Suite(.serialized) struct X11SpecialLayerTests {
    @Test(arguments: [Display.Backend.cpu, .gles])
    func specialisedLayersReachTheScreen(backend: Display.Backend) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let display = try Display(output: .x11, backend: backend,
                                  options: .init(output: DisplayOutputOptions(device: x.name)))
        let root = Layer()
        Transaction.begin()
        root.bounds = CGRect(origin: .zero, size: display.size)
        root.backgroundColor = .black
        // A gradient with a hard edge in the middle: red on the left half, blue on the right.
        let gradient = GradientLayer()
        gradient.frame = CGRect(x: 20, y: 20, width: 200, height: 100)
        gradient.colors = [Color.red, Color.red, Color.blue, Color.blue]
        gradient.locations = [0, 0.5, 0.5, 1]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        root.addSublayer(gradient)
        // A green disc.
        let disc = ShapeLayer()
        disc.frame = CGRect(x: 260, y: 20, width: 100, height: 100)
        disc.path = Path(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100)).cgPath
        disc.fillColor = .green
        root.addSublayer(disc)
        // Three white squares tinted yellow, 60 points apart.
        let replicator = ReplicatorLayer()
        replicator.frame = CGRect(x: 20, y: 200, width: 300, height: 60)
        replicator.instanceCount = 3
        replicator.instanceTransform = Transform3D(translationX: 60, y: 0)
        replicator.instanceColor = Color(red: 1, green: 1, blue: 0)
        let square = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        square.backgroundColor = .white
        replicator.addSublayer(square)
        root.addSublayer(replicator)
        Transaction.commit()
        let seen = ShownColours()
        let checker = Thread {
            seen.set((try? x.waitFor([
                (x: 60, y: 70, colour: "#ff0000"), (x: 180, y: 70, colour: "#0000ff"), (x: 310, y: 70, colour: "#00ff00"),
                (x: 40, y: 220, colour: "#ffff00"), (x: 160, y: 220, colour: "#ffff00"), (x: 220, y: 220, colour: "#000000"),
            ])) ?? [])
            display.stop()
        }
        checker.start()
        try display.run(root)
        while checker.isExecuting { usleep(10_000) }
        #expect(seen.values == ["#ff0000", "#0000ff", "#00ff00", "#ffff00", "#ffff00", "#000000"], "\(backend)")
    }

    final class ShownColours: @unchecked Sendable {
        private let lock = NSLock()
        private var colours: [String] = []
        func set(_ values: [String]) { lock.withLock { colours = values } }
        var values: [String] { lock.withLock { colours } }
    }
}
