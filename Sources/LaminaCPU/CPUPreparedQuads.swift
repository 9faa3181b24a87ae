import LaminaCore

/// A frame's prepared quads, and their fast forms (`CPUFastQuad`), which the bands read in place: an array's
/// subscript hands each band a copy of every quad it draws, a retain and a release for each of the quad's
/// references, which for 10,000 sprites in four bands cost more than their preparation.
final class CPUPreparedQuads: RandomAccessCollection, @unchecked Sendable {
    /// The frame's quads, which the prepared quads point into.
    private let quads: [Quad]
    private let base: UnsafeMutablePointer<CPUPreparedQuad>
    private let fastBase: UnsafeMutablePointer<CPUFastQuad>
    /// The quads prepared so far (all of them once `init` returns).
    private(set) var endIndex = 0
    var startIndex: Int { 0 }
    /// The image and clamp rectangle of each blit slot (`CPUTextureSlots`), for the bands' views, and where its
    /// texels are not transparent (kept alive here for the fast forms, which point at it unretained).
    private(set) var slotSources: [(image: Image, clamp: TexelRect, texels: CPUTexelCoverage?)] = []

    /// Each of `quads` prepared by `prepare`, in order; `slots` (the one `prepare` numbers copies with) gives the
    /// texel coverage of each copy's source.
    /// `prepare` is handed each quad in place (`CPUPreparedQuad.quadPointer`).
    init(_ quads: [Quad], slots: CPUTextureSlots? = nil, prepare: (UnsafePointer<Quad>) throws -> CPUPreparedQuad)
        rethrows {
        self.quads = quads
        base = .allocate(capacity: Swift.max(1, quads.count))
        fastBase = .allocate(capacity: Swift.max(1, quads.count))
        // The array is held and never changed while the prepared quads live, so its storage stays where it is.
        guard let first = quads.withUnsafeBufferPointer({ $0.baseAddress }) else { return }
        for index in quads.indices {
            let quad = first + index
            let prepared = try prepare(quad)
            var fast = CPUFastQuad(prepared)
            if let scaled = prepared.scaled, scaled.slot == slotSources.count,
               case .texture(let texture) = quad.pointee.paint {
                // Transparency is not worked out for scaled copies: a bilinear sample mixes neighbouring texels.
                slotSources.append((texture.image, texture.clamp, nil))
            }
            if let blit = prepared.blit {
                if blit.slot == slotSources.count {
                    let texels = slots?.texelCoverage(image: blit.image, clamp: blit.clamp)
                    slotSources.append((blit.image, blit.clamp, texels))
                }
                fast.texels = slotSources[blit.slot].texels.map(Unmanaged.passUnretained)
            }
            (fastBase + endIndex).initialize(to: fast)
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
