import CEGL
import Foundation
import LaminaCore

/// The pool of offscreen render targets that groups, masks and shadows draw into, reused between groups and
/// frames and freed when idle.
extension GLESRenderer {
    /// Offscreen buffers for groups, reused between groups and frames.
    struct GroupTarget {
        var texture: GLuint
        var framebuffer: GLuint
        var width: Int, height: Int
        var inUse: Bool
        /// The frame (`framesDrawn`) that last took it.
        var lastUsed = 0
    }
    /// Offscreen buffers held for groups, masks and shadows between frames (in use or idle).
    public var pooledTargetCount: Int { pool.targets.count }

    /// A side rounded up to its size bucket: 16-pixel steps up to 128, 64-pixel steps up to 512, then 256-pixel
    /// steps, never past the largest texture. A group that moves, or grows and shrinks a little from frame to frame
    /// (an animated card, a shadow's silhouette), then keeps taking the same buffer instead of freeing one size and
    /// allocating the next, and groups of similar sizes share buffers. The steps grow with the side so that the
    /// spare memory stays a small share (at most 1/8 of a side past 128) while small buffers stay small.
    func bucketed(_ side: Int) -> Int {
        let step = side <= 128 ? 16 : side <= 512 ? 64 : 256
        return max(side, min((side + step - 1) / step * step, textures.maxTextureSize))
    }

    /// A free buffer of this size's bucket from the pool, or a new one. Callers draw into its `width` x `height`
    /// corner (their viewport) and read only texels there (clamp rectangles, the blur's `u_size`); the rest is
    /// cleared with it or never read.
    func acquireGroupTarget(width: Int, height: Int) throws -> Int {
        let (width, height) = (bucketed(width), bucketed(height))
        if let index = pool.targets.firstIndex(where: { !$0.inUse && $0.width == width && $0.height == height }) {
            pool.targets[index].inUse = true
            pool.targets[index].lastUsed = pool.framesDrawn
            return index
        }
        let (texture, framebuffer) = try makeRenderTarget(width: width, height: height, for: "group buffer")
        pool.targets.append(GroupTarget(texture: texture, framebuffer: framebuffer, width: width, height: height,
                                        inUse: true, lastUsed: pool.framesDrawn))
        return pool.targets.count - 1
    }

    /// A new RGBA8 texture of `width` x `height` (nearest, one level) and a framebuffer drawing into it, left bound.
    func makeRenderTarget(width: Int, height: Int, for what: String) throws -> (GLuint, GLuint) {
        var texture: GLuint = 0, framebuffer: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        try reserveTarget(texture, width: width, height: height, what: what)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        if glGetError() == GLenum(GL_OUT_OF_MEMORY) {
            glDeleteTextures(1, &texture)
            throw RenderError.failed("out of GPU memory allocating a \(width)x\(height) \(what)")
        }
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        return (texture, framebuffer)
    }

    /// Frees idle buffers not taken in the last 4 frames (a one-off large silhouette or a deep nest of groups does not
    /// keep its memory), and keeps at most 16 idle ones.
    func trimGroupTargets() {
        while let index = pool.targets.firstIndex(where: { !$0.inUse && $0.lastUsed + 4 <= pool.framesDrawn }) {
            var target = pool.targets.remove(at: index)
            glDeleteFramebuffers(1, &target.framebuffer)
            glDeleteTextures(1, &target.texture)
        }
        while pool.targets.count > 16, let index = pool.targets.firstIndex(where: { !$0.inUse }) {
            var target = pool.targets.remove(at: index)
            glDeleteFramebuffers(1, &target.framebuffer)
            glDeleteTextures(1, &target.texture)
        }
    }
}
