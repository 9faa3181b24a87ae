import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Gradient, shape, replicator, transform, tiled and emitter layers and blend modes on a real X server through `Display`, with each renderer: what the
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

    /// Issue 25's layer classes on the screen: a square multiplied over cyan (green where they meet), a transform
    /// layer whose nearer plane covers the one added after it, a tiled layer drawn on the tile threads and faded in
    /// on live frames, and an emitter's particles (velocity 0: each sits at the emitter's position).
    @Test(arguments: [Display.Backend.cpu, .gles])
    func compositingAndNewLayerClassesReachTheScreen(backend: Display.Backend) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let display = try Display(output: .x11, backend: backend,
                                  options: .init(output: DisplayOutputOptions(device: x.name)))
        let root = Layer()
        Transaction.begin()
        root.bounds = CGRect(origin: .zero, size: display.size)
        root.backgroundColor = .black
        let cyan = Layer(frame: CGRect(x: 20, y: 20, width: 100, height: 60))
        cyan.backgroundColor = Color(red: 0, green: 1, blue: 1)
        root.addSublayer(cyan)
        let yellow = Layer(frame: CGRect(x: 40, y: 30, width: 40, height: 40))
        yellow.backgroundColor = Color(red: 1, green: 1, blue: 0)
        yellow.compositingFilter = "multiplyBlendMode"
        root.addSublayer(yellow)
        let space = TransformLayer()
        space.frame = CGRect(x: 160, y: 20, width: 100, height: 100)
        let near = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        near.backgroundColor = .red
        near.transform = Transform3D(translationX: 0, y: 0, z: 10)
        let far = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        far.backgroundColor = .blue
        space.addSublayer(near)
        space.addSublayer(far)
        root.addSublayer(space)
        let tiled = TiledLayer()
        tiled.frame = CGRect(x: 20, y: 160, width: 300, height: 80)
        tiled.fadeDuration = 0.1
        tiled.ownedDelegate = Orange()
        root.addSublayer(tiled)
        let emitter = EmitterLayer()
        emitter.frame = CGRect(x: 360, y: 160, width: 40, height: 40)
        emitter.emitterPosition = CGPoint(x: 20, y: 20)
        let cell = EmitterCell()
        let white = try Image(width: 20, height: 20)
        for py in 0..<20 { for px in 0..<20 { white.setRGBA(RGBA8(r: 255, g: 255, b: 255, a: 255), x: px, y: py) } }
        cell.contents = white
        cell.birthRate = 10
        cell.lifetime = 100
        cell.velocity = 0
        cell.color = Color(red: 1, green: 0, blue: 1)
        emitter.emitterCells = [cell]
        root.addSublayer(emitter)
        Transaction.commit()
        let seen = ShownColours()
        let checker = Thread {
            seen.set((try? x.waitFor([
                (x: 60, y: 50, colour: "#00ff00"), (x: 30, y: 25, colour: "#00ffff"), (x: 210, y: 70, colour: "#ff0000"),
                (x: 170, y: 200, colour: "#ff8000"), (x: 380, y: 180, colour: "#ff00ff"), (x: 395, y: 195, colour: "#000000"),
            ])) ?? [])
            display.stop()
        }
        checker.start()
        try display.run(root)
        while checker.isExecuting { usleep(10_000) }
        #expect(seen.values == ["#00ff00", "#00ffff", "#ff0000", "#ff8000", "#ff00ff", "#000000"], "\(backend)")
    }

    /// A Lottie animation on the screen, live: a square that turns from red to green at frame 5 (a hold keyframe)
    /// and a blue one that stands still, from a LottieAnimation's layer.
    @Test(arguments: [Display.Backend.cpu, .gles])
    func aLottieAnimationPlaysOnTheScreen(backend: Display.Backend) throws {
        guard let x = try XvfbDisplay.start() else { return }
        let json = #"""
            {"v": "5.7.0", "fr": 30, "ip": 0, "op": 60, "w": 200, "h": 100,
             "layers": [
              {"ty": 4, "ind": 1, "ip": 0, "op": 60, "st": 0, "ks": {"p": {"k": [50, 50]}},
               "shapes": [{"ty": "rc", "p": {"k": [0, 0]}, "s": {"k": [60, 60]}, "r": {"k": 0}},
                          {"ty": "fl", "o": {"k": 100}, "c": {"a": 1, "k": [{"t": 0, "s": [1, 0, 0], "h": 1},
                                                                          {"t": 5, "s": [0, 1, 0]}]}}]},
              {"ty": 4, "ind": 2, "ip": 0, "op": 60, "st": 0, "ks": {"p": {"k": [150, 50]}},
               "shapes": [{"ty": "rc", "p": {"k": [0, 0]}, "s": {"k": [60, 60]}, "r": {"k": 0}},
                          {"ty": "fl", "o": {"k": 100}, "c": {"k": [0, 0, 1]}}]}]}
            """#
        let animation = try LottieAnimation(data: Data(json.utf8), fileName: "squares.json")
        let display = try Display(output: .x11, backend: backend,
                                  options: .init(output: DisplayOutputOptions(device: x.name)))
        let root = Layer()
        Transaction.begin()
        root.bounds = CGRect(origin: .zero, size: display.size)
        root.backgroundColor = .black
        let layer = animation.makeLayer()
        layer.position = CGPoint(x: 20, y: 20)
        root.addSublayer(layer)
        Transaction.commit()
        let seen = ShownColours()
        let checker = Thread {
            seen.set((try? x.waitFor([
                (x: 70, y: 70, colour: "#00ff00"), (x: 170, y: 70, colour: "#0000ff"), (x: 10, y: 10, colour: "#000000"),
            ])) ?? [])
            display.stop()
        }
        checker.start()
        try display.run(root)
        while checker.isExecuting { usleep(10_000) }
        #expect(seen.values == ["#00ff00", "#0000ff", "#000000"], "\(backend)")
    }

    /// Fills every tile it is asked for with orange.
    final class Orange: LayerDelegate, @unchecked Sendable {
        func draw(_ layer: Layer, in context: DrawingContext) {
            context.setFillColor(Color(red: 1, green: 128.0 / 255, blue: 0))
            context.fill(context.boundingBoxOfClipPath)
        }
    }

    final class ShownColours: @unchecked Sendable {
        private let lock = NSLock()
        private var colours: [String] = []
        func set(_ values: [String]) { lock.withLock { colours = values } }
        var values: [String] { lock.withLock { colours } }
    }
}
