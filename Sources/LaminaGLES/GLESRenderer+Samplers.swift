import CEGL
import LaminaCore

// The nearest program reads textures through the GPU's own nearest filter (texture.frag): one filtered read, which
// GPUs do in fixed function and llvmpipe on a fast 8-bit path, instead of an integer clamp and a texelFetch. A
// sampler object carries the filter, so textures, atlas pages and group buffers need no filter of their own. The
// bilinear program keeps its four texelFetch reads: llvmpipe's filter rounds differently from pixman (up to 4 apart
// at hard edges, on more pixels than parity allows), even with the sample point moved to pixman's 7-bit weights.

extension GLESRenderer {
    func makeSampler() {
        glGenSamplers(1, &nearestSampler)
        glSamplerParameteri(nearestSampler, GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glSamplerParameteri(nearestSampler, GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glSamplerParameteri(nearestSampler, GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glSamplerParameteri(nearestSampler, GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }

    func releaseSampler() {
        if nearestSampler != 0 { glDeleteSamplers(1, &nearestSampler) }
        nearestSampler = 0
    }

    /// Binds to unit 0 the sampler `kind` reads through (none for programs that only use texelFetch).
    func bindSampler(for kind: GLESProgram.Kind) {
        glBindSampler(0, kind == .nearest || kind == .nearestCoverage ? nearestSampler : 0)
    }
}
