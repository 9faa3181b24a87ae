import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Drawing layers driven by function animations (docs/animation.md, "Function animations"): the function's time
/// follows the layer's and the animation's timing, frames differ as the function says, and a live frame's damage
/// covers only the drawing that changed.
@Suite struct DrawingLayerAnimationTests {
    static let red = Color(red: 1, green: 0, blue: 0)

    /// A 10 x 10 red square at x = 10 + 10 t (t clamped to 0...6), y 10.
    static let mover = FunctionAnimation { time, state in
        let x = 10 + 10 * min(max(time, 0), 6)
        state.drawing = VectorDrawing(items: [.fill(Path(rect: CGRect(x: x, y: 10, width: 10, height: 10)),
                                                    .color(red), .winding)])
    }

    /// A 100 x 60 white root with a drawing layer over all of it, and the drawing layer.
    static func scene() -> (Layer, DrawingLayer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 60)
        root.backgroundColor = .white
        let layer = DrawingLayer()
        layer.frame = root.bounds
        root.addSublayer(layer)
        return (root, layer)
    }

    /// The x of the first red pixel of row 15 (nil: none).
    static func squareX(_ image: Image, scale: Int = 1) -> Int? {
        (0..<image.width).first { image.rgba(x: $0, y: 15 * scale).g < 128 }
    }

    @Test func theFunctionGetsTheLayersTimeThroughItsTiming() throws {
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        for renderer in ReferenceScenes.renderers() {
            let (root, layer) = Self.scene()
            layer.add(Self.mover, forKey: "lottie", keepingBeginTime: true)
            #expect(layer.animation(forKey: "lottie")?.beginTime == 0)
            #expect(layer.animation(forKey: "lottie")?.duration == FunctionAnimation.forever, "forever")
            #expect(Self.squareX(try renderer.render(root, at: 0)) == 10, "\(renderer.name) at 0")
            let x1 = Self.squareX(try renderer.render(root, at: 1))
            #expect(x1 == 20, "\(renderer.name) at 1: \(String(describing: x1))")
            #expect(Self.squareX(try renderer.render(root, at: 2.5)) == 35, "\(renderer.name) at 2.5")
            // The layer's own timing: begins at 1, runs twice as fast, from 0.5 on: t = (T - 1) x 2 + 0.5.
            layer.beginTime = 1
            layer.speed = 2
            layer.timeOffset = 0.5
            #expect(Self.squareX(try renderer.render(root, at: 1)) == 15, "\(renderer.name): t = 0.5")
            #expect(Self.squareX(try renderer.render(root, at: 2)) == 35, "\(renderer.name): t = 2.5")
            // The animation's own timing: a 2-second cycle, repeated: t is the time into the cycle.
            layer.beginTime = 0
            layer.speed = 1
            layer.timeOffset = 0
            let looping = Self.mover.copy()
            looping.duration = 2
            looping.repeatCount = .infinity
            layer.add(looping, forKey: "lottie", keepingBeginTime: true)
            #expect(Self.squareX(try renderer.render(root, at: 1)) == 20, "\(renderer.name): 1 into the cycle")
            #expect(Self.squareX(try renderer.render(root, at: 3.5)) == 25, "\(renderer.name): 1.5 into the second")
        }
    }

    @Test func frameTimesAreTheMovingSquaresOnBothRenderersWithParity() throws {
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        var images: [[Image]] = []
        for renderer in ReferenceScenes.renderers() {
            let (root, layer) = Self.scene()
            layer.add(Self.mover, forKey: "lottie", keepingBeginTime: true)
            images.append(try [0.0, 1.0, 3.0].map { try renderer.render(root, scale: 2, at: $0) })
        }
        for frames in images {
            #expect(frames.map { Self.squareX($0, scale: 2) } == [20, 40, 80], "in pixels at scale 2")
        }
        if images.count == 2 {
            for (a, b) in zip(images[0], images[1]) { #expect(ImageDifference.meetsParity(a, b)) }
        }
    }

    @Test func aLiveFramesDamageCoversOnlyTheChangedDrawing() throws {
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let (root, layer) = Self.scene()
        layer.add(Self.mover, forKey: "lottie", keepingBeginTime: true)
        let still = DrawingLayer()
        still.frame = root.bounds
        still.drawing = VectorDrawing(items: [.fill(Path(rect: CGRect(x: 70, y: 40, width: 10, height: 10)),
                                                    .color(Self.red), .winding)])
        // A function that sets the same drawing every frame changes nothing.
        let steady = still.drawing
        still.add(FunctionAnimation { _, state in state.drawing = steady }, forKey: "same", keepingBeginTime: true)
        root.addSublayer(still)
        let planner = CPURenderer()
        _ = try planner.plan(root, at: 0)
        let region = try #require(try planner.plan(root, at: 1).damage?.region)
        // The square moved from x 10..20 to 20..30 (y 10..20): the damage is there and nowhere near the still one.
        #expect(region.intersects(PixelBox(x0: 12, y0: 12, x1: 18, y1: 18)))
        #expect(region.intersects(PixelBox(x0: 22, y0: 12, x1: 28, y1: 18)))
        #expect(!region.intersects(PixelBox(x0: 60, y0: 30, x1: 100, y1: 60)), "\(region)")
        #expect(!region.intersects(PixelBox(x0: 35, y0: 0, x1: 100, y1: 60)), "\(region)")
        // A frame at the same time again: nothing.
        #expect(try planner.plan(root, at: 1).damage?.region.isEmpty == true)
        // Frames keep coming: the tree is animated while the function animation is attached.
        #expect(try planner.livePlan(root, scale: 1, at: 100).animated)
    }

    @Test func aPlacementOnlyFunctionMovesTheLayersPlan() throws {
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        let (root, layer) = Self.scene()
        layer.drawing = VectorDrawing(items: [.fill(Path(rect: CGRect(x: 10, y: 10, width: 10, height: 10)),
                                                    .color(Self.red), .winding)])
        let slide = FunctionAnimation { time, state in state.position.x = 50 + 10 * time }
        slide.changesPlacementOnly = true
        layer.add(slide, forKey: "slide", keepingBeginTime: true)
        #expect((layer.animation(forKey: "slide") as? FunctionAnimation)?.changesPlacementOnly == true, "copied")
        for renderer in ReferenceScenes.renderers() {
            #expect(Self.squareX(try renderer.render(root, at: 0)) == 10, "\(renderer.name)")
            #expect(Self.squareX(try renderer.render(root, at: 2)) == 30, "\(renderer.name): moved by 20")
        }
        let planner = CPURenderer()
        _ = try planner.plan(root, at: 0)
        let region = try #require(try planner.plan(root, at: 1).damage?.region)
        #expect(region.intersects(PixelBox(x0: 12, y0: 12, x1: 18, y1: 18)))
        #expect(region.intersects(PixelBox(x0: 22, y0: 12, x1: 28, y1: 18)))
        #expect(!region.intersects(PixelBox(x0: 35, y0: 0, x1: 100, y1: 60)), "\(region)")
        // With three sublayers, the layer's subtree is moved as it is; without the promise it is planned again.
        func planned(placementOnly: Bool) throws -> Int {
            let (root, layer) = Self.scene()
            for index in 0..<3 {
                let child = Layer(frame: CGRect(x: 10 * index, y: 40, width: 5, height: 5))
                child.backgroundColor = .blue
                layer.addSublayer(child)
            }
            let slide = FunctionAnimation { time, state in state.position.x = 50 + 10 * time }
            slide.changesPlacementOnly = placementOnly
            layer.add(slide, forKey: "slide", keepingBeginTime: true)
            let planner = CPURenderer()
            _ = try planner.plan(root, at: 0)
            _ = try planner.plan(root, at: 1)
            return planner.planCache(for: root).statistics.layersPlanned
        }
        let (moved, replanned) = (try planned(placementOnly: true), try planned(placementOnly: false))
        #expect(moved < replanned, "\(moved) against \(replanned)")
    }

    @Test func thePresentationCopyIsADrawingLayerShowingTheFunctionsDrawing() throws {
        let (root, layer) = Self.scene()
        layer.add(Self.mover, forKey: "lottie", keepingBeginTime: true)
        Transaction.flush()
        _ = root
        // Now is long past t = 6, where the square stops at x = 70.
        let shown = try #require(layer.presentation())
        #expect(type(of: shown) == DrawingLayer.self)
        let expected = VectorDrawing(items: [.fill(Path(rect: CGRect(x: 70, y: 10, width: 10, height: 10)),
                                                   .color(Self.red), .winding)])
        #expect(shown.drawing == expected)
        #expect(layer.drawing == VectorDrawing(), "the model is unchanged")
    }
}
