import CEGL
import Foundation
import LaminaCore

// Reuse of the last frame's encoded instances. A live compositor draws the same plan frame after frame while
// nothing changes (a kiosk between events; the planner's plan cache hands back the very same quads), and encoding
// it again (coverage, texel maps, tiles, tens of floats a quad) and uploading megabytes of instances costs the CPU
// as much as the frame before. The encoder's output depends only on the quads and groups, the target size, and the
// textures the quads sample (their tiles: texture names, atlas slots, uploads of changed pixels). So when the plan's
// quads are the same storage as last frame's (held here, so the address cannot be reused by another array), the
// groups and size are equal, no shadow or mip texture is involved, and every image asked for last time answers
// with the same tiles (asking also re-uploads changed pixels and marks them used), the batches and the instance
// buffer already on the GPU are drawn again as they are. The cost: a renderer holds the plan it drew last (and so its
// images) until its next frame.

/// What the last encoded plan was and what it sampled.
struct EncodedFrame {
    var quads: [Quad]
    var groups: Int
    var width: Int, height: Int
    var images: [ObjectIdentifier: (image: Image, tiles: [GLESTile])]
    /// The instance buffer of the ring that holds its instances.
    var buffer: Int
}

extension GLESRenderer {
    /// Whether `plan` is the plan encoded last, with everything it samples unchanged (see above).
    func canReuseEncoding(of plan: RenderPlan, shadowTiles: [ShadowSource: GLESTile]) throws -> Bool {
        guard reusesEncodedFrames, shadowTiles.isEmpty, let last = lastEncoded, last.width == plan.width,
            last.height == plan.height, last.groups == plan.groups.count, last.quads.count == plan.quads.count,
            plan.quads.withUnsafeBufferPointer({ a in last.quads.withUnsafeBufferPointer { $0.baseAddress == a.baseAddress } })
        else { return false }
        for (_, entry) in last.images where try textures.tiles(for: entry.image) != entry.tiles { return false }
        return true
    }

    /// Encodes `plan`, recording what it samples for the next frame's reuse check (the shadows' silhouettes, which
    /// share the encoder, leave nothing to reuse).
    func encodeRecording(_ plan: RenderPlan, shadowTiles: [ShadowSource: GLESTile]) throws -> EncodedFrame? {
        textures.recorded = [:]
        textures.recordedMips = false
        defer { textures.recorded = nil }
        lastEncoded = nil
        try encoder.encode(plan, textures: textures)
        guard shadowTiles.isEmpty, !textures.recordedMips, let images = textures.recorded else { return nil }
        return EncodedFrame(quads: plan.quads, groups: plan.groups.count, width: plan.width, height: plan.height,
                            images: images, buffer: 0)
    }
}
