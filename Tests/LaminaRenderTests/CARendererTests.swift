import CEGL
import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// CARenderer (QuartzCore) draws a layer tree into the framebuffer bound in its renderer's GL context, as macOS's
/// draws into an OpenGL context (docs/porting.md).
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct CARendererTests {
    @Test func drawsTheLayerTreeIntoTheBoundFramebuffer() throws {
        let gles = try #require(GLESAvailability.renderer())
        let renderer = CARenderer(renderer: gles)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 32, height: 16)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let square = CALayer()
        square.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        square.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(square)
        renderer.layer = root
        renderer.bounds = CGRect(x: 0, y: 0, width: 32, height: 16)

        try gles.glContext.makeCurrent()
        var texture: GLuint = 0, framebuffer: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, 32, 16, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        defer {
            glDeleteFramebuffers(1, &framebuffer)
            glDeleteTextures(1, &texture)
        }
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))

        renderer.beginFrame(atTime: CACurrentMediaTime(), timeStamp: nil)
        #expect(renderer.updateBounds() == CGRect(x: 0, y: 0, width: 32, height: 16))
        renderer.render()
        renderer.endFrame()
        #expect(renderer.lastError == nil)
        #expect(renderer.nextFrameTime() == .infinity)

        try gles.glContext.makeCurrent()
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        var pixels = [UInt8](repeating: 0, count: 32 * 16 * 4)
        glReadPixels(0, 0, 32, 16, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &pixels)
        func rgba(_ x: Int, _ row: Int) -> [UInt8] { Array(pixels[(row * 32 + x) * 4 ..< (row * 32 + x) * 4 + 4]) }
        // The layer's bounds origin is at the framebuffer's first row: the red square in rows 0..<8.
        #expect(rgba(2, 2) == [255, 0, 0, 255])
        #expect(rgba(20, 2) == [0, 0, 255, 255])
        #expect(rgba(2, 12) == [0, 0, 255, 255])
    }

    @Test func anAnimatingTreeAsksForTheNextFrameNow() throws {
        let gles = try #require(GLESAvailability.renderer())
        let renderer = CARenderer(renderer: gles)
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        renderer.layer = layer
        CATransaction.flush()
        #expect(renderer.nextFrameTime() == .infinity)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0
        fade.duration = 60
        layer.add(fade, forKey: "fade")
        CATransaction.flush()
        #expect(renderer.nextFrameTime() <= CACurrentMediaTime())
    }

    @Test func nothingIsDrawnWithoutALayerOrAFrame() throws {
        let gles = try #require(GLESAvailability.renderer())
        let renderer = CARenderer(renderer: gles)
        renderer.render()
        #expect(renderer.lastError == nil)
        #expect(renderer.nextFrameTime() == .infinity)
    }
}
