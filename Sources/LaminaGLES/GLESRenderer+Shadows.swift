import CEGL
import Foundation
import LaminaCore

/// Shadows: each distinct `ShadowSource` of a frame has its silhouette drawn, reduced when the blur is large, and
/// blurred into a texture of its own, kept for the next frames that use it.
extension GLESRenderer {
    /// A blurred shadow kept on the GPU: its texture and the framebuffer that drew it.
    struct ShadowEntry {
        var texture: GLuint
        var framebuffer: GLuint

        /// Deletes both, in the current context (the cache's eviction).
        func delete() {
            var (texture, framebuffer) = (texture, framebuffer)
            glDeleteFramebuffers(1, &framebuffer)
            glDeleteTextures(1, &texture)
        }
    }

    /// Shadows whose blurred picture is kept on the GPU.
    public var cachedShadowCount: Int { shadows.count }

    /// The blurred picture of every shadow `plan` paints: from the cache when an equal shadow was made in the
    /// last few frames, else drawn and blurred now.
    func prepareShadows(
        _ plan: RenderPlan, statistics stats: inout RenderStatistics
    ) throws -> [ShadowSource: GLESTile] {
        var tiles: [ShadowSource: GLESTile] = [:]
        for quad in plan.quads {
            guard case .shadow(let source) = quad.paint, tiles[source] == nil else { continue }
            let texture: GLuint
            let key = ShadowKey(source)
            if let entry = shadows.use(key) {
                texture = entry.texture
                stats.shadowsReused += 1
            } else {
                let entry = try makeShadow(source, statistics: &stats)
                shadows.insert(entry, for: key)
                texture = entry.texture
                stats.shadowsBlurred += 1
                stats.offscreenPasses += 2
            }
            let all = TexelRect(x0: 0, y0: 0, x1: source.blurWidth, y1: source.blurHeight)
            tiles[source] = GLESTile(texture: texture, stored: all, core: all)
        }
        return tiles
    }

    /// Draws a shadow's silhouette into a pooled buffer, reduces it by the blur's factor when that is above 1 (box
    /// average into a second pooled buffer, blur.frag with DOWNSAMPLE), blurs its alpha across into another and
    /// down into a texture of the shadow's own (`blurWidth` x `blurHeight`), tinting it on the way.
    private func makeShadow(_ source: ShadowSource, statistics stats: inout RenderStatistics) throws -> ShadowEntry {
        let (width, height) = (source.blurWidth, source.blurHeight)
        let inner = try prepareShadows(source.silhouette, statistics: &stats)
        let silhouette = try acquireGroupTarget(width: source.width, height: source.height)
        var silhouetteInUse = true
        defer { if silhouetteInUse { pool.targets[silhouette].inUse = false } }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), pool.targets[silhouette].framebuffer)
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        try drawPlan(source.silhouette, framebuffer: pool.targets[silhouette].framebuffer, swapRedBlue: false,
                     shadowTiles: inner, statistics: &stats)
        var blurInput = pool.targets[silhouette].texture
        var reduced: Int?
        defer { if let reduced { pool.targets[reduced].inUse = false } }
        if source.blur.factor > 1 {
            let target = try acquireGroupTarget(width: width, height: height)
            reduced = target
            try downsamplePass(source, from: blurInput, into: pool.targets[target].framebuffer)
            stats.drawCalls += 1
            // The full-size silhouette is no longer needed: free it for the blur's own buffers.
            pool.targets[silhouette].inUse = false
            silhouetteInUse = false
            blurInput = pool.targets[target].texture
        }
        let across = try acquireGroupTarget(width: width, height: height)
        defer { pool.targets[across].inUse = false }

        let (texture, framebuffer) = try makeRenderTarget(width: width, height: height, for: "shadow")
        let q = source.color.quantized
        try blurPass(source, from: blurInput, into: pool.targets[across].framebuffer, direction: (1, 0), tint: nil)
        try blurPass(source, from: pool.targets[across].texture, into: framebuffer, direction: (0, 1),
                 tint: (Float(q.blue) / 255, Float(q.green) / 255, Float(q.red) / 255, Float(q.alpha) / 255))
        stats.drawCalls += 2
        try checkErrors("blurring a shadow")
        return ShadowEntry(texture: texture, framebuffer: framebuffer)
    }

    /// One pass of the blur over the whole (reduced) buffer (blur.frag), replacing what `framebuffer` held.
    private func blurPass(
        _ source: ShadowSource, from texture: GLuint, into framebuffer: GLuint, direction: (Int32, Int32),
        tint: (Float, Float, Float, Float)?
    ) throws {
        let program = try self.program(.blur)
        beginShadowPass(program, width: source.blurWidth, height: source.blurHeight, into: framebuffer, from: texture)
        glUniform2i(program.uniform("u_direction"), direction.0, direction.1)
        glUniform1i(program.uniform("u_radius"), GLint(source.kernel.radius))
        glUniform1f(program.uniform("u_sigma"), max(source.kernel.sigma, 1e-3))
        glUniform1f(program.uniform("u_normalisation"), source.kernel.normalisation)
        let color = tint ?? (0, 0, 0, 1)
        glUniform4f(program.uniform("u_color"), color.0, color.1, color.2, color.3)
        glUniform1i(program.uniform("u_tint"), tint == nil ? 0 : 1)
        glUniform2i(program.uniform("u_size"), GLint(source.blurWidth), GLint(source.blurHeight))
        endShadowPass(width: source.blurWidth, height: source.blurHeight)
    }

    /// The silhouette's alpha box-averaged over blocks of the blur's factor into the reduced buffer (blur.frag
    /// with DOWNSAMPLE; the same whole-number arithmetic as ShadowSource.downsampled).
    private func downsamplePass(_ source: ShadowSource, from texture: GLuint, into framebuffer: GLuint) throws {
        let program = try self.program(.downsample)
        beginShadowPass(program, width: source.blurWidth, height: source.blurHeight, into: framebuffer, from: texture)
        glUniform1i(program.uniform("u_factor"), GLint(source.blur.factor))
        endShadowPass(width: source.blurWidth, height: source.blurHeight)
    }

    /// Binds `framebuffer` (`width` x `height`) and `texture` for a pass of `program` over the whole buffer.
    private func beginShadowPass(_ program: GLESProgram, width: Int, height: Int, into framebuffer: GLuint,
                                 from texture: GLuint) {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
        glDisable(GLenum(GL_BLEND))
        glUseProgram(program.id)
        glUniform2f(program.targetSize, GLfloat(width), GLfloat(height))
        glUniform2f(program.origin, 0, 0)
        glUniform1i(program.image, 0)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
    }

    /// Draws one box over the buffer (the identity map makes v_texel the pixel centre) and restores blending.
    /// The box lives in a buffer of the passes' own, written only when its size changes: the three passes of a
    /// shadow (reduce, across, down) and every shadow of the same size draw the same instance, and the frame's
    /// instance buffers are left alone.
    private func endShadowPass(width: Int, height: Int) {
        glBindVertexArray(instancing.vertexArray)
        if instancing.pass == 0 { glGenBuffers(1, &instancing.pass) }
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instancing.pass)
        if instancing.passSize.width != width || instancing.passSize.height != height {
            let instance: [Float] = [0, 0, Float(width), Float(height), 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1]
            instance.withUnsafeBytes {
                glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW))
            }
            instancing.passSize = (width, height)
        }
        for location in GLESProgram.attributes.indices {
            glEnableVertexAttribArray(GLuint(location))
            glVertexAttribDivisor(GLuint(location), 1)
        }
        drawInstances(first: 0, count: 1)
        glBindVertexArray(0)
        glEnable(GLenum(GL_BLEND))
    }
}
