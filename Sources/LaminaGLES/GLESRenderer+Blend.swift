import CEGL
import Foundation
import LaminaCore

// Blend modes and compositing operations (docs/semantics.md, "Blend modes"): a group whose composite no GL blend
// function expresses is combined with the pixels beneath it by Shaders/blend.frag, with blending off. The pixels
// beneath are copied out of the enclosing buffer first (a shader cannot read the buffer it draws into).

extension GroupComposite {
    /// True when the group is combined by Shaders/blend.frag rather than by a GL blend function.
    var needsBlendShader: Bool {
        switch self {
        case .sourceOver, .plus, .plusLighter: false
        default: true
        }
    }
}

extension GLESRenderer {
    /// The program of blend.frag for `composite`, compiled on first use.
    func blendProgram(_ composite: GroupComposite) throws -> GLESProgram {
        if let program = compiled.blend[composite] { return program }
        let fetch = readsFramebufferInShaders ? ["FRAMEBUFFER_FETCH"] : []
        let program = try GLESProgram(vertex: "quad.vert", fragment: "blend.frag",
                                      defines: ["MODE_" + composite.rawValue] + fetch)
        compiled.blend[composite] = program
        return program
    }

    /// Draws instance `first` (a group's picture, in `picture`) into the bound framebuffer, `parentSize` pixels whose
    /// (0, 0) is target pixel `parentOrigin`, combined by `group.composite` with what that framebuffer holds under
    /// the group's bounds. `swap`: the framebuffer is a caller's RGBA target.
    func drawBlendedGroup(
        _ group: PlanGroup, picture: GLuint, first: Int, parentFramebuffer: GLuint,
        parentSize: (width: Int, height: Int), parentOrigin: (x: Int, y: Int), swap: Bool
    ) throws {
        let b = group.bounds
        let (width, height) = (b.x1 - b.x0, b.y1 - b.y0)
        if readsFramebufferInShaders {
            // The shader reads the pixels beneath from the framebuffer: no copy.
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), parentFramebuffer)
            try drawBlend(group, picture: picture, first: first, parentSize: parentSize, parentOrigin: parentOrigin,
                          swap: swap)
            return
        }
        // The picture's buffer has just been handed back to the pool: held while the backdrop's is taken, so that the
        // copy does not land in it.
        let pictureTarget = pool.targets.firstIndex { $0.texture == picture }
        if let pictureTarget { pool.targets[pictureTarget].inUse = true }
        let backdrop = try acquireGroupTarget(width: width, height: height)
        defer {
            pool.targets[backdrop].inUse = false
            if let pictureTarget { pool.targets[pictureTarget].inUse = false }
        }
        // acquireGroupTarget may have bound the new buffer's framebuffer: read from the enclosing one.
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), parentFramebuffer)
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), pool.targets[backdrop].texture)
        // The part of the group's bounds inside the enclosing buffer (a copy must not read outside it).
        let x0 = max(b.x0, parentOrigin.x), y0 = max(b.y0, parentOrigin.y)
        let x1 = min(b.x1, parentOrigin.x + parentSize.width), y1 = min(b.y1, parentOrigin.y + parentSize.height)
        if x1 > x0, y1 > y0 {
            glCopyTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(x0 - b.x0), GLint(y0 - b.y0),
                                GLint(x0 - parentOrigin.x), GLint(y0 - parentOrigin.y), GLsizei(x1 - x0),
                                GLsizei(y1 - y0))
        }
        try drawBlend(group, picture: picture, first: first, parentSize: parentSize, parentOrigin: parentOrigin,
                      swap: swap)
        // Unit 1 is the span table's: the quads drawn after the group read their rows there. (Leaving it unbound
        // made every quad drawn by coverage after a blended group vanish, on drivers without framebuffer fetch.)
        bindSpanTable()
    }

    /// Draws instance `first` with blend.frag into the bound framebuffer (the backdrop, if copied, on unit 1).
    private func drawBlend(
        _ group: PlanGroup, picture: GLuint, first: Int, parentSize: (width: Int, height: Int),
        parentOrigin: (x: Int, y: Int), swap: Bool
    ) throws {
        let b = group.bounds
        let program = try blendProgram(group.composite)
        glUseProgram(program.id)
        glUniform2f(program.targetSize, GLfloat(parentSize.width), GLfloat(parentSize.height))
        glUniform2f(program.origin, GLfloat(parentOrigin.x), GLfloat(parentOrigin.y))
        glUniform1i(program.swapRedBlue, swap ? 1 : 0)
        glUniform1i(program.image, 0)
        glUniform1i(program.uniform("u_backdrop"), 1)
        glUniform2i(program.uniform("u_backdropOffset"), GLint(parentOrigin.x - b.x0), GLint(parentOrigin.y - b.y0))
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), picture)
        glDisable(GLenum(GL_BLEND))
        drawInstances(first: first, count: 1)
        glEnable(GLenum(GL_BLEND))
    }

    /// Whether fragment shaders may read the framebuffer they draw into (GL_EXT_shader_framebuffer_fetch), asked
    /// once; `LAMINA_GLES_NO_FRAMEBUFFER_FETCH=1` turns it off (to test the copying path).
    var readsFramebufferInShaders: Bool {
        if let known = compiled.framebufferFetch { return known }
        var found = false
        if ProcessInfo.processInfo.environment["LAMINA_GLES_NO_FRAMEBUFFER_FETCH"] != "1" {
            var count: GLint = 0
            glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &count)
            for index in 0..<max(count, 0) {
                guard let name = glGetStringi(GLenum(GL_EXTENSIONS), GLuint(index)) else { continue }
                if strcmp(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self),
                          "GL_EXT_shader_framebuffer_fetch") == 0 { found = true }
            }
        }
        compiled.framebufferFetch = found
        return found
    }
}
