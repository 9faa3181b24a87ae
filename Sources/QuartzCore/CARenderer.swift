import CEGL
import Foundation
import LaminaCore
import LaminaGLES
import LaminaLayers

/// Core Animation's offscreen renderer: draws a layer tree into the framebuffer bound in a GL context, as macOS's
/// `CARenderer(cglContext:options:)` draws into an OpenGL context. On Linux the context is an EGL/OpenGL ES 3
/// context owned by a Lamina `GLESRenderer` (`glContext`): make it current, bind the framebuffer to draw into (0 is
/// the renderer's own surface, which is not shown anywhere), set `bounds` to its size in pixels, then
/// `beginFrame(atTime:timeStamp:)`, `render()`, `endFrame()` once per frame.
///
/// The framebuffer must be RGBA8; the layer tree is drawn over what it holds, the layer's bounds origin at the
/// framebuffer's first row (row 0 of `glReadPixels`). `layer` is drawn at one pixel per point.
public final class CARenderer: @unchecked Sendable {
    /// The GL side: its `glContext` is the context frames are drawn in.
    public let renderer: GLESRenderer
    /// The root of the tree to draw; nil draws nothing.
    public var layer: CALayer?
    /// The framebuffer's size in pixels, as Core Animation's `bounds`; the layer tree is drawn at its own bounds'
    /// size from the framebuffer's origin.
    public var bounds: CGRect = .zero
    private var frameTime: Double?
    private var updates: [CGRect] = []

    /// A renderer drawing with `renderer`'s GL context.
    public init(renderer: GLESRenderer) {
        self.renderer = renderer
    }

    /// A renderer with a new EGL context (Mesa's llvmpipe where there is no GPU); nil when no EGL display or
    /// OpenGL ES 3 context can be made. Core Animation's options are accepted and ignored.
    public convenience init?(options: [AnyHashable: Any]? = nil) {
        guard let renderer = try? GLESRenderer() else { return nil }
        self.init(renderer: renderer)
    }

    /// Starts a frame at media time `t` (the time animations are evaluated at). The time stamp is ignored.
    public func beginFrame(atTime t: CFTimeInterval, timeStamp ts: UnsafeMutableRawPointer?) {
        frameTime = t.isFinite ? t : CACurrentMediaTime()
    }

    /// The part of `bounds` the next `render()` changes: all of it (Lamina draws whole frames here).
    public func updateBounds() -> CGRect { bounds }

    /// Marks `r` as needing to be drawn (every frame is drawn whole, so this is only recorded).
    public func addUpdate(_ r: CGRect) { updates.append(r) }

    /// Draws `layer` at the frame's time into the framebuffer bound in `renderer.glContext`. Errors (a lost GPU,
    /// an absurd tree) draw nothing; `lastError` says why.
    public func render() {
        lastError = nil
        guard let layer, let time = frameTime else { return }
        do {
            try renderer.glContext.makeCurrent()
            var bound: GLint = 0
            glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &bound)
            let planner = Planner(scale: 1)
            let plan = try planner.plan(layer, at: time)
            try renderer.render(plan, toFramebuffer: GLuint(bound))
        } catch {
            lastError = "\(error)"
        }
    }

    /// Why the last `render()` drew nothing; nil when it drew.
    public private(set) var lastError: String?

    /// When the next frame needs drawing: now while any layer animates, else infinity (Core Animation's rule).
    public func nextFrameTime() -> CFTimeInterval {
        guard let layer, let snapshot = layer.presentationSnapshot() else { return .infinity }
        return snapshot.hasAnimationsInSubtree ? CACurrentMediaTime() : .infinity
    }

    /// Ends the frame begun by `beginFrame(atTime:timeStamp:)`.
    public func endFrame() {
        frameTime = nil
        updates = []
    }
}
