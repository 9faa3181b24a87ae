import CEGL
import Foundation
import Lamina
import LaminaTestSupport
import Testing

@testable import LaminaCore
@testable import LaminaGLES

/// A renderer validates a plan once, at its front door (docs/architecture.md, "Validation at the front door"): every
/// public way into either renderer gives a bad plan the named `RenderError.invalidPlan` before it draws or allocates
/// anything (a bad plan is refused even where a caller's target of another size is given), and validates a good plan
/// exactly once, the whole plan, also where only a region is redrawn.
@Suite struct PlanValidationTests {
    static let box = PixelBox(x0: 0, y0: 0, x1: 16, y1: 16)
    /// A red square in the top-left corner of a 16 x 16 target.
    static let square = Quad(unitToTarget: .scale(4, 4), paint: .solid(Color.red.premultiplied))

    /// Plans every renderer must refuse, with their messages. The non-finite quad and the bad group lie in the
    /// bottom-right corner, away from the region a redraw of the top-left corner reaches.
    static func badPlans() -> [(plan: RenderPlan, message: String)] {
        var far = Quad(unitToTarget: Matrix3.scale(4, 4).concatenating(.translation(12, 12)),
                       paint: .solid(Color.blue.premultiplied))
        var notFinite = far
        notFinite.opacity = .nan
        far.opacity = 1
        return [
            (RenderPlan(width: 16, height: 16, quads: [square, notFinite]),
             "invalid render plan: quad 1: non-finite geometry or opacity"),
            (RenderPlan(width: 16, height: 16, quads: [square, far],
                        groups: [PlanGroup(range: 1..<5, opacity: 1, bounds: PixelBox(x0: 12, y0: 12, x1: 16, y1: 16))]),
             "invalid render plan: group 1..<5: out of the plan's 2 quads or empty"),
            (RenderPlan(width: 0, height: 16, quads: [square]), "invalid render plan: target size 0x16 is empty"),
            (RenderPlan(width: 20_000, height: 16, quads: [square]),
             "invalid render plan: target 20000x16 pixels exceeds the limit of 16384 pixels per side"),
        ]
    }

    /// The renderers under test: the CPU renderer and, when an EGL display opens, the GLES renderer.
    static func renderers() -> [Renderer] {
        [CPURenderer(threads: 2)] + [GLESAvailability.renderer()].compactMap { $0 }
    }

    /// Every public way into `renderer` that takes a plan, each drawing `plan` as a caller would. The region
    /// calls redraw the top-left corner only.
    static func entries(_ renderer: Renderer) -> [(name: String, call: (RenderPlan) throws -> Void)] {
        var entries: [(String, (RenderPlan) throws -> Void)] = [
            ("render(_:)", { _ = try renderer.render($0) }),
            ("render(_:into:)", { try renderer.render($0, into: try Image(width: 16, height: 16)) }),
            ("render(_:into:redrawing:) a corner", {
                try renderer.render($0, into: try Image(width: 16, height: 16),
                                    redrawing: DamageRegion(PixelBox(x0: 0, y0: 0, x1: 4, y1: 4)))
            }),
            ("render(_:into:redrawing:) nothing", {
                try renderer.render($0, into: try Image(width: 16, height: 16), redrawing: DamageRegion())
            }),
        ]
        if let gles = renderer as? GLESRenderer {
            entries += [
                ("renderOffscreen(_:)", { try gles.renderOffscreen($0) }),
                ("beginReadback(_:)", { _ = try gles.collect(try gles.beginReadback($0)) }),
                ("renderPipelined(_:)", { _ = try gles.renderPipelined($0); _ = try gles.drainReadbacks() }),
                // Headless: without the validation first, this would be "needs a renderer made with init(window:...)".
                ("present(_:)", { try gles.present($0) }),
                ("render(_:toFramebuffer:)", { try gles.render($0, toFramebuffer: 0) }),
            ]
        }
        return entries
    }

    @Test func everyWayInRefusesABadPlanWithItsNamedError() throws {
        for renderer in Self.renderers() {
            for (name, call) in Self.entries(renderer) {
                for (plan, message) in Self.badPlans() {
                    let probe = ValidationProbe()
                    let error = RenderPlan.$validationProbe.withValue(probe) { () -> Error? in
                        do { try call(plan) } catch { return error }
                        return nil
                    }
                    #expect(error.map { "\($0)" } == message, "\(renderer.name) \(name)")
                    #expect(probe.validated == [plan.quads.count], "\(renderer.name) \(name)")
                }
            }
        }
    }

    /// The damage path of a retained frame: the plan's damage is measured against the plan the renderer drew last,
    /// so only the damage would be drawn; the quads outside it are checked all the same.
    @Test func aRetainedFrameChecksTheQuadsOutsideItsDamage() throws {
        for renderer in Self.renderers() {
            var first = RenderPlan(width: 16, height: 16, quads: [Self.square])
            first.identity = PlanIdentity.next()
            let target = try renderer.render(first)
            for (bad, message) in Self.badPlans() where bad.width == 16 {
                var plan = bad
                plan.identity = PlanIdentity.next()
                plan.damage = PlanDamage(region: DamageRegion(PixelBox(x0: 0, y0: 0, x1: 4, y1: 4)),
                                         since: first.identity)
                #expect(throws: RenderError.invalidPlan(String(message.dropFirst("invalid render plan: ".count)))) {
                    try renderer.render(plan, into: target, redrawing: DamageRegion(PixelBox(x0: 0, y0: 0, x1: 4, y1: 4)))
                }
            }
        }
    }

    @Test func everyWayInValidatesAGoodPlanExactlyOnce() throws {
        var plan = RenderPlan(width: 16, height: 16, quads: [Self.square, Self.square, Self.square])
        plan.groups = [PlanGroup(range: 1..<3, opacity: 0.5, bounds: Self.box)]
        for renderer in Self.renderers() {
            // Headless, neither has a target of its own to draw a good plan into (their bad plans are above).
            for (name, call) in Self.entries(renderer) where !["present(_:)", "render(_:toFramebuffer:)"].contains(name) {
                let probe = ValidationProbe()
                try RenderPlan.$validationProbe.withValue(probe) { try call(plan) }
                #expect(probe.validated == [3], "\(renderer.name) \(name)")
            }
        }
    }

    /// A layer tree's live frames (`render(_:scale:at:)`, `RetainedFrames`): the first is drawn whole, the next
    /// redraw their damage into the frame let go; each validates its plan once, its shadow's silhouette with it
    /// (not again when the silhouette is drawn).
    @Test func liveFramesValidateEachPlanOnce() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 32, height: 32)
        root.backgroundColor = Color.white
        let dot = Layer(frame: CGRect(x: 2, y: 2, width: 6, height: 6))
        dot.backgroundColor = Color.red
        dot.shadowOpacity = 0.5
        dot.shadowRadius = 2
        root.addSublayer(dot)
        for renderer in Self.renderers() {
            var counts: [[Int]] = []
            for step in 0..<3 {
                dot.position.x = 5 + CGFloat(step) * 7
                let probe = ValidationProbe()
                _ = try RenderPlan.$validationProbe.withValue(probe) { try renderer.render(root, scale: 1) }
                counts.append(probe.validated)
            }
            // The plan (the background, the shadow and the dot) with its shadow's silhouette (the dot) inside the
            // one validation, and the silhouette not again when it is drawn.
            #expect(counts == [[3, 1], [3, 1], [3, 1]], "\(renderer.name)")
            #expect(renderer.statistics.damagedShare < 1, "\(renderer.name): the last frame redrew its damage only")
        }
    }
}
