import CEGL
import Foundation
import LaminaCore

// Reuse of the last frame's encoded instances. A live compositor draws the same plan frame after frame while
// nothing changes (a kiosk between events; the planner's plan cache hands back the very same quads), and encoding
// it again (coverage, texel maps, tiles, tens of floats a quad) and uploading megabytes of instances costs the CPU
// as much as the frame before. The encoder's output depends only on the quads and groups, the target size, and the
// textures the quads sample (their tiles: texture names, atlas slots, uploads of changed pixels). So when the plan's
// quads are the same storage as last frame's, the groups and size are equal, no shadow or mip texture is involved,
// and every image asked for last time answers with the same tiles (asking also re-uploads changed pixels and marks
// them used), the batches and the instance buffer already on the GPU are drawn again as they are.
//
// The same storage: a plan from the planner (an identity other than 0) must have the identity and the storage of
// the last one. The planner changes the quads of its last plan in place when it patches them
// (Planner+Patch.swift), and gives the result a new identity, so the storage alone does not say the quads are
// the same; holding the array here would make every patch copy all the quads instead. A plan made some other way
// (identity 0) is held, so that its address cannot be reused by another array. Either way a renderer holds the
// images it drew last until its next frame.

/// What the last encoded plan was and what it sampled.
struct EncodedFrame {
    /// The plan's identity and where its quads were stored; the quads themselves are held only for a plan of
    /// identity 0 (see above).
    var identity: UInt64
    var storage: UnsafeRawPointer?
    var count: Int
    var quads: [Quad]?
    var groups: Int
    var width: Int, height: Int
    var images: [ObjectIdentifier: (image: Image, tiles: [GLESTile])]
    /// The instance buffer of the ring that holds its instances.
    var buffer: Int
    /// The encoding met an image whose opacity was not known yet (`GLESBatchEncoder.occlusionUndecided`): not reused.
    var occlusionUndecided = false
}

extension GLESRenderer {
    /// Whether `plan` is the plan encoded last, with everything it samples unchanged (see above).
    func canReuseEncoding(of plan: RenderPlan, shadowTiles: [ShadowSource: GLESTile]) throws -> Bool {
        guard reusesEncodedFrames, shadowTiles.isEmpty, let last = lastEncoded, !last.occlusionUndecided,
            last.width == plan.width,
            last.height == plan.height, last.groups == plan.groups.count, last.count == plan.quads.count,
            Self.sameQuads(plan, asEncoded: last), last.storage == Self.storage(of: plan.quads)
        else { return false }
        for (_, entry) in last.images where try textures.tiles(for: entry.image) != entry.tiles { return false }
        // An unchanged plan handed back under a new identity: the next one is measured against that identity.
        lastEncoded?.identity = plan.identity
        return true
    }

    /// Whether `plan` draws what the encoding `last` drew: it is that plan, or the planner's next plan of the same
    /// tree with no damage since it (the planner hands back its last plan unchanged under a new identity, so that
    /// damage and retained frames can name it; `Planner.unchangedPlan`). A patched plan has damage where it moved or
    /// faded quads, so it is encoded again.
    static func sameQuads(_ plan: RenderPlan, asEncoded last: EncodedFrame) -> Bool {
        if last.identity == plan.identity { return true }
        guard plan.identity != 0, last.identity != 0, let damage = plan.damage else { return false }
        return damage.since == last.identity && damage.region.isEmpty
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
        return EncodedFrame(identity: plan.identity, storage: Self.storage(of: plan.quads), count: plan.quads.count,
                            quads: plan.identity == 0 ? plan.quads : nil, groups: plan.groups.count,
                            width: plan.width, height: plan.height, images: images, buffer: 0,
                            occlusionUndecided: encoder.occlusionUndecided)
    }

    /// Where the elements of `quads` are stored.
    static func storage(of quads: [Quad]) -> UnsafeRawPointer? {
        quads.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }
}
