import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The stages of a frame's CPU build time (FramePlanTimings.swift, `RenderStatistics.prepareSeconds`) are recorded
/// by both renderers for frames of a layer tree, and the pictures do not change for being timed. No time is compared
/// with a threshold: only that the stages are numbers of the right sign, where they are recorded, and which calls
/// leave them alone.
@Suite struct FrameBuildTimingTests {
    /// A tree with a few sprites, one of them animated, whose live frame is drawn by `renderer`.
    static func tree() throws -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 96, height: 64)
        root.backgroundColor = .white
        let image = TestImages.quadrants(width: 16, height: 16)
        for index in 0..<4 {
            let sprite = Layer(frame: CGRect(x: 4 + index * 22, y: 8, width: 16, height: 16))
            sprite.contents = image
            root.addSublayer(sprite)
        }
        let moving = BasicAnimation(keyPath: "position.y")
        moving.fromValue = 20.0
        moving.toValue = 40.0
        moving.duration = 2
        moving.repeatCount = .infinity
        root.sublayers?[1].add(moving, forKey: "move")
        return root
    }

    static func renderers() -> [Renderer] {
        var renderers: [Renderer] = [CPURenderer(threads: 2)]
        if GLESAvailability.skipReason == nil, let gles = GLESAvailability.renderer() { renderers.append(gles) }
        return renderers
    }

    @Test func framesOfATreeRecordTheirStagesOnBothRenderers() throws {
        for renderer in Self.renderers() {
            #expect(renderer.lastPlanTimings == FramePlanTimings(), "\(renderer.name): zero before any frame")
            let root = try Self.tree()
            let timed = try renderer.render(root, scale: 1, at: 0.5)
            let stages = renderer.lastPlanTimings
            #expect(stages.snapshotSeconds >= 0 && stages.presentationSeconds >= 0 && stages.planSeconds >= 0,
                    "\(renderer.name): \(stages)")
            #expect(stages.totalSeconds > 0, "\(renderer.name): the stages were timed")
            #expect(abs(stages.totalSeconds - (stages.snapshotSeconds + stages.presentationSeconds
                                               + stages.planSeconds)) < 1e-12)
            // Rendering prepared the plan's quads (cpu) or encoded them (gles).
            #expect(renderer.statistics.prepareSeconds > 0, "\(renderer.name)")
            #expect(renderer.statistics.quadsDrawn == 5, "\(renderer.name): the background and four sprites")

            // A plan rendered on its own (no layer tree) leaves the tree frame's stages as they were.
            let plan = try Planner(scale: 1).plan(root, at: 0.5)
            _ = try renderer.render(plan)
            #expect(renderer.lastPlanTimings == stages, "\(renderer.name)")
            // The live plan records them too.
            _ = try renderer.livePlan(root, scale: 1, at: 0.75)
            #expect(renderer.lastPlanTimings != stages && renderer.lastPlanTimings.totalSeconds > 0,
                    "\(renderer.name)")

            // Timing changes no pixel: the timed frame is the untimed plan's picture.
            let fresh: Renderer = renderer is CPURenderer ? CPURenderer(threads: 1) : try #require(GLESAvailability.renderer())
            let expected = try fresh.render(plan)
            #expect(timed.byteCount == expected.byteCount
                    && memcmp(timed.baseAddress, expected.baseAddress, timed.byteCount) == 0, "\(renderer.name)")
        }
    }

    /// A frame with nothing to redraw prepares nothing: the cpu renderer's empty damage sets the stage to 0.
    @Test func anEmptyRedrawPreparesNothing() throws {
        let renderer = CPURenderer(threads: 1)
        let root = try Self.tree()
        let plan = try renderer.plan(root, scale: 1, at: 0.5)
        let image = try renderer.render(plan)
        #expect(renderer.statistics.prepareSeconds > 0)
        try renderer.render(plan, into: image, redrawing: DamageRegion())
        #expect(renderer.statistics.prepareSeconds == 0)
    }
}
