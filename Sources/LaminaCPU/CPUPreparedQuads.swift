import LaminaCore

/// A frame's prepared quads, and their fast forms (`CPUFastQuad`), which the bands read in place: an array's
/// subscript hands each band a copy of every quad it draws, a retain and a release for each of the quad's
/// references, which for 10,000 sprites in four bands cost more than their preparation.
final class CPUPreparedQuads: RandomAccessCollection, @unchecked Sendable {
    private let base: UnsafeMutablePointer<CPUPreparedQuad>
    private let fastBase: UnsafeMutablePointer<CPUFastQuad>
    /// The quads prepared so far (all of them once `init` returns).
    private(set) var endIndex = 0
    var startIndex: Int { 0 }
    /// The image and clamp rectangle of each blit slot (`CPUTextureSlots`), for the bands' views.
    private(set) var slotSources: [(image: Image, clamp: TexelRect)] = []

    /// Each of `quads` prepared by `prepare`, in order.
    init(_ quads: [Quad], prepare: (Quad) throws -> CPUPreparedQuad) rethrows {
        base = .allocate(capacity: Swift.max(1, quads.count))
        fastBase = .allocate(capacity: Swift.max(1, quads.count))
        for quad in quads {
            let prepared = try prepare(quad)
            if let blit = prepared.blit, blit.slot == slotSources.count {
                slotSources.append((blit.image, blit.clamp))
            }
            (fastBase + endIndex).initialize(to: CPUFastQuad(prepared))
            (base + endIndex).initialize(to: prepared)
            endIndex += 1
        }
    }

    deinit {
        base.deinitialize(count: endIndex)
        base.deallocate()
        fastBase.deinitialize(count: endIndex)
        fastBase.deallocate()
    }

    subscript(position: Int) -> CPUPreparedQuad {
        unsafeAddress {
            precondition(position >= 0 && position < endIndex, "prepared quad \(position) out of range")
            return UnsafePointer(base + position)
        }
    }

    /// The fast form of quad `position` (plain numbers: a copy costs nothing).
    func fast(_ position: Int) -> CPUFastQuad {
        precondition(position >= 0 && position < endIndex, "prepared quad \(position) out of range")
        return fastBase[position]
    }
}
