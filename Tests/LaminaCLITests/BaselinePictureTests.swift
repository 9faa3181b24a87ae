import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing
@testable import lamina

/// The benchmark's baselines draw the picture Lamina draws, so that their ratios compare like with like: here the
/// rounded sprites, whose corners cairo fills with its own antialiasing and the GL loop covers in its shader.
@Suite struct BaselinePictureTests {
    /// rounded-sprites-1k at 320 x 180, its sheet swapped for an opaque one so that the rounded corners show (on
    /// the bench's sheet of discs they cut only clear texels), over an opaque black background (the GL loop's
    /// clear colour).
    static func roundedPlan() throws -> RenderPlan {
        let root = try BenchScene.roundedSprites1k.makeRoot(size: CGSize(width: 320, height: 180))
        var plan = try Planner().plan(root)
        let opaque = try Image(width: 512, height: 512)
        for y in 0..<512 {
            for x in 0..<512 {
                opaque.setWord(0xFF00_0000 | UInt32(x / 2) << 16 | UInt32(y / 2) << 8 | UInt32((x + y) % 256),
                               x: x, y: y)
            }
        }
        opaque.markModified()
        var rounded = 0
        for index in plan.quads.indices {
            switch plan.quads[index].paint {
            case .texture(var texture):
                texture.image = opaque
                plan.quads[index].paint = .texture(texture)
                if plan.quads[index].shape != nil { rounded += 1 }
            default:
                plan.quads[index].paint = .solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1))
            }
        }
        #expect(rounded == 1_000)
        return plan
    }

    @Test func cairoDrawsTheRoundedSpritesLamina() throws {
        let plan = try Self.roundedPlan()
        let lamina = try CPURenderer().render(plan)
        let cairo = try CairoBaseline(plan: plan)
        try cairo.drawFrame()
        let difference = try #require(ImageDifference(cairo.snapshot(), lamina, tolerance: 2))
        // Only antialiased corner pixels may differ: cairo's coverage of an arc is not the signed distance's (measured:
        // 2.5% of the pixels by more than 2, at most 24; without the rounding corners would differ by up to 255).
        let share = Double(difference.pixelsOverTolerance) / Double(difference.pixelCount)
        #expect(share < 0.04,
                "\(difference.pixelsOverTolerance) of \(difference.pixelCount) pixels differ by more than 2")
        #expect(difference.maxChannelDifference <= 48, "max \(difference.maxChannelDifference)")
    }

    @Test(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display"))
    func theInstancedGLLoopDrawsTheRoundedSpritesLamina() throws {
        let plan = try Self.roundedPlan()
        let lamina = try CPURenderer().render(plan)
        let (gl, note) = try #require(try GLESInstancedBaseline.make(for: plan))
        #expect(note == nil, "\(note ?? "")")
        try gl.drawFrame()
        let difference = try #require(ImageDifference(gl.snapshot(), lamina, tolerance: 2))
        // The same signed-distance coverage in floats: only rounding apart (measured: none by more than 2).
        let share = Double(difference.pixelsOverTolerance) / Double(difference.pixelCount)
        #expect(share < 0.001,
                "\(difference.pixelsOverTolerance) of \(difference.pixelCount) pixels differ by more than 2")
        #expect(difference.maxChannelDifference <= 4, "max \(difference.maxChannelDifference)")
    }

    @Test func aRoundedPlanStillSuitsTheGLLoop() throws {
        #expect(GLESInstancedBaseline.whyNot(try Self.roundedPlan()) == "")
    }
}
