import CEGL
import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// GPU resets and the ways a context is made, on the live EGL display. A reset is simulated (no GPU here): the
/// context reports GL_GUILTY_CONTEXT_RESET as a robust context would, and the renderer must make a new context and
/// new GL objects (programs, textures, atlas pages, buffers, group targets, shadows) and draw the same pixels.
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct GLESResetTests {
    /// A tree using every kind of GL object: atlas images, a large image of its own, shadows, groups, masks, custom
    /// drawing and rounded corners (the soak's tree after a few frames), and its plan.
    func plan() throws -> RenderPlan {
        let scene = try SoakScene(seed: 11)
        for _ in 0..<14 { try scene.advance() }
        let big = Layer(frame: CGRect(x: 120, y: 60, width: 90, height: 60))
        big.contents = TestImages.quadrants(width: 400, height: 300)  // over the 256-texel atlas limit
        big.cornerRadius = 9
        big.masksToBounds = true
        scene.root.addSublayer(big)
        return try Planner().plan(scene.root)
    }

    @Test func aResetMakesANewContextAndTheNextFrameDrawsTheSamePixels() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let plan = try plan()
        let before = try renderer.render(plan)
        #expect(renderer.cachedTextureCount > 0 && renderer.cachedShadowCount > 0)
        let oldContext = renderer.glContext.context
        renderer.simulateContextLoss()
        let after = try renderer.render(plan)
        #expect(renderer.contextResets == 1)
        #expect(renderer.glContext.context != oldContext)
        #expect(renderer.glContext.resetStatus() == GLenum(GL_NO_ERROR))
        let difference = try #require(ImageDifference(before, after))
        #expect(difference.maxChannelDifference == 0, "\(difference)")
        // And it goes on drawing in the new context, from its caches.
        let again = try renderer.render(plan)
        #expect(ImageDifference(before, again)?.maxChannelDifference == 0)
        #expect(renderer.contextResets == 1)
    }

    @Test func aResetInTheMiddleOfAFrameIsCaughtAndTheFrameDrawnAgain() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let plan = try plan()
        let expected = try renderer.render(plan)
        // The frame starts (one status check passes); the reset shows at the next check, after drawing began.
        renderer.simulateContextLoss(afterChecks: 1)
        let drawn = try renderer.render(plan)
        #expect(renderer.contextResets == 1)
        #expect(ImageDifference(expected, drawn)?.maxChannelDifference == 0)
    }

    @Test func renderingIntoAnImageRecoversFromAnInnocentReset() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let plan = try plan()
        let expected = try renderer.render(plan)
        let target = try Image(width: plan.width, height: plan.height)
        renderer.simulateContextLoss(status: GLenum(GL_INNOCENT_CONTEXT_RESET_KHR))
        try renderer.render(plan, into: target)
        #expect(renderer.contextResets == 1)
        #expect(ImageDifference(expected, target)?.maxChannelDifference == 0)
    }

    @Test func aContextLostAgainAfterRecoveryIsANamedErrorAndTheNextFrameDraws() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let plan = try plan()
        let expected = try renderer.render(plan)
        renderer.simulateContextLoss(times: 2)
        #expect {
            _ = try renderer.render(plan)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("rendering failed: the GL context was lost to a GPU reset (GL_GUILTY_CONTEXT_RESET)")
                && text.contains("again right after a new context was made") && text.contains("try the cpu renderer")
        }
        // The second lost context is replaced by the next frame.
        #expect(renderer.contextResets == 1)
        let next = try renderer.render(plan)
        #expect(renderer.contextResets == 2)
        #expect(ImageDifference(expected, next)?.maxChannelDifference == 0)
    }

    @Test func aResetWhileDrawingIntoACallersFramebufferSaysItIsGone() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let plan = try plan()
        try renderer.glContext.makeCurrent()
        var framebuffer: GLuint = 0
        glGenFramebuffers(1, &framebuffer)
        renderer.simulateContextLoss()
        #expect {
            try renderer.render(plan, toFramebuffer: framebuffer)
        } throws: { error in
            "\(error)" == "rendering failed: the GL context was lost to a GPU reset (GL_GUILTY_CONTEXT_RESET) while "
                + "making the context current; the renderer made a new context (glContext), in which framebuffer "
                + "\(framebuffer) does not exist: make it again there and render again"
        }
        #expect(renderer.contextResets == 1)
        #expect(try renderer.render(plan).width == plan.width)
    }

    @Test func aConfigAndPbufferAreUsedWhereNoConfigAndSurfacelessContextsAreMissing() throws {
        let plain = try #require(GLESAvailability.renderer())
        var options = GLESRenderer.Options()
        options.ignoredExtensions = [
            "EGL_KHR_no_config_context", "EGL_MESA_configless_context", "EGL_KHR_surfaceless_context",
        ]
        let configured = try #require(GLESAvailability.renderer(options: options))
        let request = configured.glContext.request
        #expect(request.configAttributes != nil && request.needsPbuffer)
        #expect(plain.glContext.request.configAttributes == nil && !plain.glContext.request.needsPbuffer)
        let plan = try plan()
        let expected = try plain.render(plan)
        let drawn = try configured.render(plan)
        #expect(ImageDifference(expected, drawn)?.maxChannelDifference == 0)
        // Recovery makes the same kind of context again.
        configured.simulateContextLoss()
        let after = try configured.render(plan)
        #expect(configured.glContext.request.needsPbuffer)
        #expect(ImageDifference(expected, after)?.maxChannelDifference == 0)
    }

    @Test func mesaOffersAResetNotifyingContext() throws {
        let renderer = try #require(GLESAvailability.renderer())
        // Mesa (llvmpipe included) offers EGL_EXT_create_context_robustness and GL_KHR_robustness; a driver that
        // does not still renders, without recovery.
        if renderer.glContext.connection.extensions.contains("EGL_EXT_create_context_robustness") {
            #expect(renderer.glContext.isRobust)
            #expect(renderer.info.resetNotification == renderer.glContext.reportsResets)
        }
        #expect(renderer.info.context == renderer.glContext.request.summary)
    }
}
