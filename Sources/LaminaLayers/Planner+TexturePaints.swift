import Foundation
import LaminaCore

/// The texture paints of one plan, shared between quads that sample the same texture the same way.
///
/// A texture paint lives in a box of its own (`Paint.texture` is `indirect`, so that quads stay small). Planned one
/// box per quad, 10,000 sprites cut from one sheet make 10,000 boxes of about 120 bytes scattered through memory,
/// and every stage that reads a quad's texture (the plan's validation, the CPU renderer's preparation, the GLES
/// encoder) misses the cache on each one: profiles of `parent-moving-10k` put a quarter of the CPU preparation in
/// copying texture sources out of cold boxes. Sprites of one sheet sample a few dozen distinct cells, so the planner
/// hands every quad whose texture source is the same, bit for bit, the paint (and box) of the first: 64 boxes for
/// those sprites, which stay in the cache.
///
/// A table belongs to one planning call on one thread (`Planner.withTexturePaints()`); it keeps nothing the plan
/// does not keep, and goes with the call. Sharing changes no value: a paint is immutable, and a quad whose paint
/// is set again gets a box of its own.
final class TexturePaints {
    /// Open addressing: a source's paint lies in the first of `probes` slots from its hash's slot that holds the same
    /// source or nothing (nothing is ever taken out). Past that, the hash's own slot takes the new paint.
    private var slots: [Paint?]
    private let mask: Int
    private static let probes = 8
    /// Paints handed out again (`PlanStatistics.texturePaintsShared`).
    private(set) var shared = 0

    init(slots count: Int = 256) {
        precondition(count > 0 && count & (count - 1) == 0, "a power of two")
        slots = Array(repeating: nil, count: count)
        mask = count - 1
    }

    /// The paint of `source`: an earlier paint of this table with the same source bit for bit, or a new one (which
    /// later equal sources share).
    func paint(_ source: TextureSource) -> Paint {
        let home = Self.slot(of: source) & mask
        var free = home
        for step in 0..<Self.probes {
            let index = (home + step) & mask
            guard case .texture(let kept)? = slots[index] else {
                free = index
                break
            }
            if Self.sameBits(kept, source) {
                shared += 1
                return slots[index]!
            }
        }
        let paint = Paint.texture(source)
        slots[free] = paint
        return paint
    }

    /// Cells of one sheet differ in their clamp rectangles and maps; sizes in their levels of detail.
    private static func slot(of source: TextureSource) -> Int {
        var key = UInt(bitPattern: ObjectIdentifier(source.image).hashValue) >> 4
        key = key &* 31 &+ UInt(bitPattern: source.clamp.x0) &* 0x9E37
        key = key &* 31 &+ UInt(bitPattern: source.clamp.y0) &* 0x85EB
        key = key &* 31 &+ UInt(source.mipLevel.bitPattern)
        key = key &* 31 &+ UInt(truncatingIfNeeded: source.unitToTexel.m11.bitPattern >> 32)
        return Int(truncatingIfNeeded: key ^ (key >> 17))
    }

    /// Equal as values and in every bit: `==` takes 0 for -0, and a shared box must not change a sign a later
    /// division could see.
    static func sameBits(_ a: TextureSource, _ b: TextureSource) -> Bool {
        a.image === b.image && a.clamp == b.clamp && a.filter == b.filter
            && a.mipLevel.bitPattern == b.mipLevel.bitPattern && a.tint == nil && b.tint == nil
            && a.additive == b.additive && sameBits(a.unitToTexel, b.unitToTexel)
    }

    private static func sameBits(_ a: Matrix3, _ b: Matrix3) -> Bool {
        a.m11.bitPattern == b.m11.bitPattern && a.m12.bitPattern == b.m12.bitPattern
            && a.m13.bitPattern == b.m13.bitPattern && a.m21.bitPattern == b.m21.bitPattern
            && a.m22.bitPattern == b.m22.bitPattern && a.m23.bitPattern == b.m23.bitPattern
            && a.m31.bitPattern == b.m31.bitPattern && a.m32.bitPattern == b.m32.bitPattern
            && a.m33.bitPattern == b.m33.bitPattern
    }
}

extension Planner {
    /// This planner with a table of texture paints of its own, for one planning call (one it has already is kept:
    /// the call is inside another).
    func withTexturePaints() -> Planner {
        guard texturePaints == nil else { return self }
        var planner = self
        planner.texturePaints = TexturePaints()
        return planner
    }

    /// The paint of a texture `source` a quad of this plan samples: shared with earlier quads of the same source.
    func texturePaint(_ source: TextureSource) -> Paint {
        texturePaints?.paint(source) ?? .texture(source)
    }
}
