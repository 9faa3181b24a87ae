import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Emitter layers on both renderers (docs/semantics.md, "Emitter layers"): particles where birthRate, lifetime,
/// velocity and acceleration put them, at scales 1 and 2, tinted, turned, added, nested, seeded, and the same
/// whatever order frames are drawn in.
@Suite struct EmitterLayerTests {
    /// A `width` x `height` image of one colour.
    static func solid(_ width: Int, _ height: Int, _ pixel: RGBA8 = RGBA8(r: 255, g: 255, b: 255, a: 255)) -> Image {
        let image = try! Image(width: width, height: height)
        for y in 0..<height { for x in 0..<width { image.setRGBA(pixel, x: x, y: y) } }
        return image
    }

    /// A 200 x 100 black root with an emitter over it at (20, 50).
    func scene(_ cells: [EmitterCell], _ setUp: (EmitterLayer) -> Void = { _ in }) -> (Layer, EmitterLayer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = .black
        let emitter = EmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterPosition = CGPoint(x: 20, y: 50)
        emitter.emitterCells = cells
        setUp(emitter)
        root.addSublayer(emitter)
        return (root, emitter)
    }

    func cell(rate: Float = 2, lifetime: Float = 10, velocity: CGFloat = 40, image: Image? = solid(4, 4),
              _ setUp: (EmitterCell) -> Void = { _ in }) -> EmitterCell {
        let cell = EmitterCell()
        cell.birthRate = rate
        cell.lifetime = lifetime
        cell.velocity = velocity
        cell.contents = image
        setUp(cell)
        return cell
    }

    func close(_ p: RGBA8, _ r: Int, _ g: Int, _ b: Int, tolerance: Int = 2) -> Bool {
        p.maxChannelDifference(to: RGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: 255)) <= tolerance
    }

    /// Renders with every renderer at `time`; checks parity between them.
    func pictures(_ make: () -> Layer, scale: CGFloat = 1, at time: Double) throws -> [(String, Image)] {
        var result: [(String, Image)] = []
        for renderer in ReferenceScenes.renderers() {
            result.append((renderer.name, try renderer.render(make(), scale: scale, at: time)))
        }
        if result.count == 2 {
            #expect(ImageDifference.meetsParity(result[0].1, result[1].1), "parity at scale \(scale), time \(time)")
        }
        return result
    }

    @Test func particlesAreWhereVelocityAndBirthTimesPutThem() throws {
        for scale in [CGFloat(1), 2] {
            for (name, image) in try pictures({ scene([cell()]).0 }, scale: scale, at: 2.25) {
                // Born at 0, 0.5, ..., 2 (rate 2): ages 2.25 ... 0.25, moving right at 40 points a second.
                for x in [110, 90, 70, 50, 30] {
                    let p = image.rgba(x: Int(CGFloat(x) * scale), y: Int(50 * scale))
                    #expect(close(p, 255, 255, 255), "\(name) at scale \(scale): particle at \(x): \(p)")
                }
                for x in [40, 60, 80, 100, 130] {
                    let p = image.rgba(x: Int(CGFloat(x) * scale), y: Int(50 * scale))
                    #expect(close(p, 0, 0, 0), "\(name) at scale \(scale): nothing at \(x): \(p)")
                }
                // 4 x 4 points: the particle at 110 covers 108 ..< 112.
                #expect(close(image.rgba(x: Int(108.5 * scale), y: Int(48.5 * scale)), 255, 255, 255), "\(name)")
                #expect(close(image.rgba(x: Int(112.5 * scale), y: Int(50 * scale)), 0, 0, 0), "\(name)")
            }
        }
    }

    @Test func accelerationAndLifetimeDecideWhatIsShown() throws {
        // Lifetime 1: only the particles born in the last second; falling at 20 pt/s^2 with no velocity.
        let make = { self.scene([self.cell(rate: 1, lifetime: 1, velocity: 0) { $0.yAcceleration = 20 }]).0 }
        for (name, image) in try pictures(make, at: 2.5) {
            // k = 2, age 0.5: y = 50 + 20 x 0.25 / 2 = 52.5; k = 1 (age 1.5) is gone.
            #expect(close(image.rgba(x: 20, y: 52), 255, 255, 255), "\(name)")
            #expect(close(image.rgba(x: 20, y: 56), 0, 0, 0), "\(name)")
            #expect(close(image.rgba(x: 20, y: 48), 0, 0, 0), "\(name): the particle moved down")
        }
    }

    @Test func colourTintsAndAlphaFades() throws {
        let make = {
            self.scene([self.cell(rate: 1, velocity: 0) {
                $0.color = Color(red: 1, green: 0.5, blue: 0.25, alpha: 1)
                $0.alphaSpeed = -0.5
            }]).0
        }
        for (name, image) in try pictures(make, scale: 2, at: 1) {
            // Born at 0 and 1: the older (alpha 0.5) under the newer (alpha 1), both tinted.
            let p = image.rgba(x: 40, y: 100)
            #expect(close(p, 255, 128, 64), "\(name): \(p)")
        }
        for (name, image) in try pictures(make, at: 0.5) {
            // One particle of age 0.5: alpha 0.75 over black.
            let p = image.rgba(x: 20, y: 50)
            #expect(close(p, 191, 96, 48), "\(name): \(p)")
        }
    }

    @Test func additiveRenderModeAddsOverlappingParticles() throws {
        func make(_ mode: EmitterRenderMode) -> Layer {
            let red = Color(red: 0.4, green: 0, blue: 0.2, alpha: 1)
            return scene([cell(rate: 1, velocity: 0) { $0.color = red }, cell(rate: 1, velocity: 0) { $0.color = red }]) {
                $0.renderMode = mode
            }.0
        }
        for (name, image) in try pictures({ make(.additive) }, scale: 2, at: 0.5) {
            #expect(close(image.rgba(x: 40, y: 100), 204, 0, 102), "\(name): \(image.rgba(x: 40, y: 100))")
        }
        for (name, image) in try pictures({ make(.unordered) }, at: 0.5) {
            #expect(close(image.rgba(x: 20, y: 50), 102, 0, 51), "\(name): \(image.rgba(x: 20, y: 50))")
        }
    }

    @Test func spinAndScaleTurnAndSizeTheContents() throws {
        // An 8 x 2 bar turned a quarter turn after 1 s, drawn at scale 2 (16 x 4 points, then 4 x 16).
        let make = {
            self.scene([self.cell(rate: 1, velocity: 0, image: Self.solid(8, 2)) {
                $0.spin = .pi / 2
                $0.scale = 2
            }]).0
        }
        for (name, image) in try pictures(make, at: 1) {
            // The particle born at 1 is not turned: 16 wide; the one born at 0 is upright: 16 tall.
            #expect(close(image.rgba(x: 20, y: 43), 255, 255, 255), "\(name): turned particle reaches up")
            #expect(close(image.rgba(x: 20, y: 57), 255, 255, 255), "\(name): and down")
            #expect(close(image.rgba(x: 27, y: 50), 255, 255, 255), "\(name): the newer one is wide")
            #expect(close(image.rgba(x: 20, y: 40), 0, 0, 0), "\(name)")
            #expect(close(image.rgba(x: 30, y: 50), 0, 0, 0), "\(name)")
        }
    }

    @Test func subCellsAreEmittedFromTheirParents() throws {
        // The parent has no contents (it draws nothing); each parent particle emits a white spark every second.
        let make = {
            self.scene([self.cell(rate: 1, velocity: 0, image: nil) {
                $0.emitterCells = [self.cell(rate: 1, velocity: 40)]
            }]).0
        }
        for scale in [CGFloat(1), 2] {
            for (name, image) in try pictures(make, scale: scale, at: 1.5) {
                // Parent 0 (age 1.5) sparked at ages 0 and 1, parent 1 (age 0.5) at 0: sparks at x 80, 40.
                #expect(close(image.rgba(x: Int(80 * scale), y: Int(50 * scale)), 255, 255, 255), "\(name)")
                #expect(close(image.rgba(x: Int(40 * scale), y: Int(50 * scale)), 255, 255, 255), "\(name)")
                #expect(close(image.rgba(x: Int(20 * scale), y: Int(50 * scale)), 0, 0, 0), "\(name)")
                #expect(close(image.rgba(x: Int(60 * scale), y: Int(50 * scale)), 0, 0, 0), "\(name)")
            }
        }
    }

    @Test func seedsAndTimesGiveTheSameFrameInAnyOrder() throws {
        func make(seed: UInt32) -> Layer {
            scene([cell(rate: 30, lifetime: 3) {
                $0.velocityRange = 30
                $0.emissionRange = .pi
                $0.redRange = 0.5
                $0.scaleRange = 0.5
                $0.spinRange = 3
            }]) { $0.seed = seed; $0.emitterPosition = CGPoint(x: 100, y: 50) }.0
        }
        for renderer in ReferenceScenes.renderers() {
            let root = make(seed: 1)
            let first = try renderer.render(root, at: 2)
            _ = try renderer.render(root, at: 0.7)
            _ = try renderer.render(root, at: 5)
            let again = try renderer.render(root, at: 2)
            #expect(ImageDifference(first, again, tolerance: 0)?.pixelsOverTolerance == 0, "\(renderer.name)")
            let fresh = try renderer.render(make(seed: 1), at: 2)
            #expect(ImageDifference(first, fresh, tolerance: 0)?.pixelsOverTolerance == 0, "\(renderer.name)")
            let other = try renderer.render(make(seed: 2), at: 2)
            #expect((ImageDifference(first, other, tolerance: 0)?.pixelsOverTolerance ?? 0) > 50, "\(renderer.name)")
        }
        _ = try pictures({ make(seed: 1) }, scale: 2, at: 2)
    }

    @Test func liveFramesKeepComingWhileTheEmitterEmits() throws {
        let renderer = CPURenderer()
        let (root, emitter) = scene([cell()])
        #expect(try renderer.livePlan(root, scale: 1, at: 1).animated)
        emitter.birthRate = 0
        #expect(try !renderer.livePlan(root, scale: 1, at: 1).animated)
        // With birthRate 0 nothing is drawn.
        let image = try renderer.render(root, at: 2)
        #expect(close(image.rgba(x: 60, y: 50), 0, 0, 0))
    }

    @Test func theLayersTimingShiftsItsParticles() throws {
        // beginTime 1: at media time 3.25 the layer's time is 2.25, the frame of the first test.
        let make = { self.scene([self.cell()]) { $0.beginTime = 1 }.0 }
        for (name, image) in try pictures(make, at: 3.25) {
            #expect(close(image.rgba(x: 110, y: 50), 255, 255, 255), "\(name)")
            #expect(close(image.rgba(x: 130, y: 50), 0, 0, 0), "\(name)")
        }
    }
}

/// examples/emitter.json, a fountain of additive drops with mist sub-cells, on every renderer.
@Suite struct EmitterExampleTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/emitter.json")

    @Test func theFountainRisesAndAgreesOnEveryRenderer() throws {
        for scale in [CGFloat(1), 2] {
            var pictures: [Image] = []
            for renderer in ReferenceScenes.renderers() {
                let scene = try Scene.load(contentsOf: Self.file)
                let image = try renderer.render(scene.root, scale: scale, at: 2)
                // Drops above the emitter add blue to the dark background (0x18) on average; the top corners stay
                // dark.
                var blue = 0, count = 0
                for y in stride(from: Int(100 * scale), to: Int(180 * scale), by: 2) {
                    for x in stride(from: Int(140 * scale), to: Int(180 * scale), by: 2) {
                        blue += Int(image.rgba(x: x, y: y).b)
                        count += 1
                    }
                }
                #expect(blue / count > 0x18 + 10, "\(renderer.name) at \(scale): mean blue \(blue / count)")
                #expect(image.rgba(x: 2, y: 2) == RGBA8(r: 0x10, g: 0x10, b: 0x18, a: 255), "\(renderer.name)")
                pictures.append(image)
            }
            if pictures.count == 2 { #expect(ImageDifference.meetsParity(pictures[0], pictures[1]), "scale \(scale)") }
        }
    }
}
