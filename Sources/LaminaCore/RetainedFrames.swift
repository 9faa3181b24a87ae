import Foundation

/// The frames of a live tree that a renderer keeps to redraw only their damage (docs/architecture.md, "Damage"),
/// as a display keeps its buffers and redraws each by its age (EGL_EXT_buffer_age).
///
/// Each frame goes into a kept image that the caller no longer holds: the one whose picture is newest, redrawn
/// where the plans drawn since differ from it (the union of their damage). An image the caller still holds is never
/// written again: when every kept image is held, a new one is made, copied from the newest and redrawn where that
/// one is stale, and the held ones are forgotten (the caller owns them). So a loop that lets each frame go before
/// the next redraws one buffer in place, and one that keeps the last frame alternates between two.
public final class RetainedFrames: @unchecked Sendable {
    private struct Buffer {
        var image: Image
        /// The identity of the plan whose picture the image holds.
        var plan: UInt64
    }

    private var buffers: [Buffer] = []
    /// The plans drawn, keyed by identity, with their damage: how far back a buffer can be brought up to date.
    private var history: DamageRing
    /// Buffers kept at most (two: the frame on screen and the one being drawn).
    public let bufferLimit: Int
    /// Plans remembered: a buffer older than this many frames is drawn whole.
    public let historyLimit: Int

    public init(bufferLimit: Int = 2, historyLimit: Int = 8) {
        self.bufferLimit = max(1, bufferLimit)
        self.historyLimit = max(2, historyLimit)
        history = DamageRing(limit: self.historyLimit)
    }

    /// The images kept (for tests).
    public var keptImages: Int { buffers.count }

    /// Draws `plan` with `renderer` into a kept image, redrawing only what is stale in it, and returns the image:
    /// its pixels are those of `renderer.render(plan)`. A plan without an identity is drawn into a new image.
    public func render(_ plan: RenderPlan, with renderer: Renderer) throws -> Image {
        guard plan.identity != 0 else { return try renderer.render(plan) }
        history.add(plan.damage?.region, width: plan.width, height: plan.height, frame: plan.identity,
                    since: plan.damage?.since ?? 0)
        buffers.removeAll { $0.image.width != plan.width || $0.image.height != plan.height }
        // A buffer the caller let go: the one with the least to redraw.
        var best: (index: Int, region: DamageRegion?)?
        for index in buffers.indices where isKnownUniquelyReferenced(&buffers[index].image) {
            let region = stale(since: buffers[index].plan)
            if best == nil || Self.area(region, plan) < Self.area(best!.region, plan) { best = (index, region) }
        }
        if let best {
            let image = buffers[best.index].image
            buffers[best.index].plan = plan.identity
            do {
                try renderer.render(plan, into: image, redrawing: best.region ?? .full(width: plan.width,
                                                                                         height: plan.height))
            } catch {
                buffers.remove(at: best.index)
                throw error
            }
            return image
        }
        // Every kept image is held: a new one, copied from the newest where that saves drawing.
        let reservation = try renderer.memoryBudget.reserve(
            plan.width * plan.height * 4, for: "the \(plan.width)x\(plan.height) output image")
        let image = try Image(width: plan.width, height: plan.height)
        image.memoryReservation = reservation
        var region = DamageRegion.full(width: plan.width, height: plan.height)
        if let newest = buffers.last, let stale = stale(since: newest.plan), Self.area(stale, plan) < plan.width * plan.height {
            memcpy(image.baseAddress, newest.image.baseAddress, image.byteCount)
            region = stale
        }
        try renderer.render(plan, into: image, redrawing: region)
        if buffers.count >= bufferLimit { buffers.removeFirst(buffers.count - bufferLimit + 1) }
        buffers.append(Buffer(image: image, plan: plan.identity))
        return image
    }

    /// Forgets the kept images (the next frame is drawn whole).
    public func removeAll() {
        buffers.removeAll()
        history.removeAll()
    }

    /// What differs between the picture of plan `identity` and the newest plan drawn: the union of the damage of the
    /// plans since; nil when the chain of plans does not reach back to it.
    func stale(since identity: UInt64) -> DamageRegion? {
        history.staleRegion(since: identity)
    }

    private static func area(_ region: DamageRegion?, _ plan: RenderPlan) -> Int {
        region?.area ?? plan.width * plan.height
    }
}
