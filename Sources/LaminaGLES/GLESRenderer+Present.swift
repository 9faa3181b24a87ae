import CEGL
import Foundation
import LaminaCore

/// Presenting to a window surface (a display output's): the plan is drawn into the retained framebuffer as for any
/// live frame (only its damage redrawn), then the pixels the window's back buffer lacks are copied into it by one
/// scissored triangle per rectangle, flipped and swizzled (present.frag), and the surface is swapped with the frame's
/// damage. Nothing is read back.
///
/// The back buffer's age (EGL_EXT_buffer_age) says which older frame it holds, so only that frame's damage since is
/// copied; without the extension, or for a buffer of unknown age, the whole frame is.
extension GLESRenderer {
    /// Draws `plan` (the window surface's size) and swaps. Returns the pixels that changed on screen (the plan's
    /// damage, or the whole frame). Throws `RenderError.unavailable` for a renderer made without a window.
    @discardableResult
    public func present(_ plan: RenderPlan) throws -> DamageRegion {
        try plan.validate()
        guard context.hasWindowSurface, let surface = context.surface else {
            throw RenderError.unavailable("present(_:) needs a renderer made with init(window:on:options:)")
        }
        var changed = DamageRegion()
        try recovering {
            changed = try drawRetained(plan)
            let presenter = try presenter ?? GLESPresenter(context: context)
            self.presenter = presenter
            let age = presenter.bufferAge(of: surface, on: context.connection.display)
            let copy = presenter.region(toCopy: changed, age: age, width: plan.width, height: plan.height)
            presenter.copy(copy, from: colorTexture, width: plan.width, height: plan.height)
            try checkErrors("presenting to the window")
            try presenter.swap(surface, on: context.connection.display, damage: changed, height: plan.height)
        }
        return changed
    }
}

/// The present program and the damage of the frames presented last (for buffer age).
final class GLESPresenter {
    private var program: GLuint = 0
    private let frameLocation: GLint
    private let heightLocation: GLint
    private var vertexArray: GLuint = 0
    /// The damage of the frames presented (ages up to 4 are copied by their damage).
    private var damage = DamageRing(limit: 5)
    private let queriesAge: Bool
    private let swapWithDamage: PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC?

    init(context: GLESContext) throws {
        let vertex = try GLESProgram.compile("present.vert", type: GLenum(GL_VERTEX_SHADER))
        defer { glDeleteShader(vertex) }
        let fragment = try GLESProgram.compile("present.frag", type: GLenum(GL_FRAGMENT_SHADER))
        defer { glDeleteShader(fragment) }
        program = glCreateProgram()
        glAttachShader(program, vertex)
        glAttachShader(program, fragment)
        glLinkProgram(program)
        var linked: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &linked)
        guard linked == GL_TRUE else {
            glDeleteProgram(program)
            throw RenderError.failed("linking the present program failed")
        }
        frameLocation = glGetUniformLocation(program, "u_frame")
        heightLocation = glGetUniformLocation(program, "u_height")
        glGenVertexArrays(1, &vertexArray)
        let extensions = context.connection.extensions
        queriesAge = extensions.contains("EGL_EXT_buffer_age")
        swapWithDamage = extensions.contains("EGL_KHR_swap_buffers_with_damage")
            ? EGLDisplayConnection.procedure("eglSwapBuffersWithDamageKHR")
            : extensions.contains("EGL_EXT_swap_buffers_with_damage")
                ? EGLDisplayConnection.procedure("eglSwapBuffersWithDamageEXT") : nil
    }

    func release() {
        if program != 0 { glDeleteProgram(program) }
        if vertexArray != 0 { glDeleteVertexArrays(1, &vertexArray) }
        (program, vertexArray) = (0, 0)
    }

    /// The back buffer's age: 0 when unknown (its pixels are undefined), n when it holds the frame presented n
    /// swaps ago.
    func bufferAge(of surface: EGLSurface, on display: EGLDisplay) -> Int {
        guard queriesAge else { return 0 }
        var age: EGLint = 0
        guard eglQuerySurface(display, surface, EGL_BUFFER_AGE_EXT, &age) == EGLBoolean(EGL_TRUE) else { return 0 }
        return Int(age)
    }

    /// Records this frame's change and returns what the back buffer lacks: this frame's change and the changes of
    /// the frames since the one it holds; all of it when its age is unknown, older than the ring, or from another
    /// size.
    func region(toCopy changed: DamageRegion, age: Int, width: Int, height: Int) -> DamageRegion {
        damage.add(changed, width: width, height: height)
        return damage.damage(forAge: age)
    }

    /// Copies `region` (plan pixels, row 0 at the top) of the retained frame into the window's back buffer.
    func copy(_ region: DamageRegion, from texture: GLuint, width: Int, height: Int) {
        guard !region.isEmpty else { return }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
        glDisable(GLenum(GL_BLEND))
        glUseProgram(program)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glUniform1i(frameLocation, 0)
        glUniform1i(heightLocation, GLint(height))
        glBindVertexArray(vertexArray)
        glEnable(GLenum(GL_SCISSOR_TEST))
        for rect in region.rects {
            glScissor(GLint(rect.x0), GLint(height - rect.y1), GLsizei(rect.width), GLsizei(rect.height))
            glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        }
        glDisable(GLenum(GL_SCISSOR_TEST))
        glBindVertexArray(0)
        glEnable(GLenum(GL_BLEND))
    }

    /// Swaps, telling the compositor which pixels changed (bottom-left origin) where EGL can.
    func swap(_ surface: EGLSurface, on display: EGLDisplay, damage: DamageRegion, height: Int) throws {
        var ok: EGLBoolean
        if let swapWithDamage, !damage.isEmpty {
            var rects: [EGLint] = []
            rects.reserveCapacity(damage.rects.count * 4)
            for rect in damage.rects {
                rects += [EGLint(rect.x0), EGLint(height - rect.y1), EGLint(rect.width), EGLint(rect.height)]
            }
            ok = swapWithDamage(display, surface, &rects, EGLint(damage.rects.count))
        } else {
            ok = eglSwapBuffers(display, surface)
        }
        guard ok == EGLBoolean(EGL_TRUE) else {
            let error = eglGetError()
            if error == EGL_CONTEXT_LOST {
                throw GLESContextLost(status: nil, during: "swapping the window's buffers (EGL_CONTEXT_LOST)")
            }
            throw RenderError.failed("eglSwapBuffers failed: \(EGLDisplayConnection.errorName(error))")
        }
    }
}
