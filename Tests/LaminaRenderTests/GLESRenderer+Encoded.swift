import Lamina

@testable import LaminaGLES

extension GLESRenderer {
    /// `plan` encoded on one thread into instances and batches, as a frame of this renderer encodes it (its texture
    /// cache begun afresh): for tests that check which programs the batches are drawn with.
    func encodedSerially(_ plan: RenderPlan) throws -> GLESBatchEncoder {
        try glContext.makeCurrent()
        textures.beginFrame()
        var encoder = GLESBatchEncoder()
        encoder.allowsParallel = false
        try encoder.encode(plan, textures: textures)
        return encoder
    }
}
