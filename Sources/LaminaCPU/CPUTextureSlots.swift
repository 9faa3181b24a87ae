import LaminaCore

/// Numbers the (image, clamp rectangle) pairs of one frame's whole-pixel texture quads (`CPUBlit`), so that each
/// band finds its pixman view of a pair by index instead of hashing the pair again for every quad it draws.
///
/// An open-addressed table with a cheap mix of the pair's words: the frame asks it once per such quad, on one
/// thread, and 100,000 sprites ask it 100,000 times. Emptied at the end of each frame (`endFrame`), so it holds no
/// image beyond the frame that drew it.
final class CPUTextureSlots {
    private struct Entry {
        var image: ObjectIdentifier
        var clamp: TexelRect
        var slot: Int
    }

    private struct CoverageKey: Hashable {
        var image: ObjectIdentifier
        var generation: UInt64
        var clamp: TexelRect
    }

    private var table: [Entry?] = Array(repeating: nil, count: 64)
    /// The pair numbered or found last this frame.
    private var last: Entry?
    /// The texel coverage of each (image generation, clamp) a frame copies from, kept while frames use it.
    private let texelCoverages = FrameCache<CoverageKey, CPUTexelCoverage?>()
    /// Slots in use this frame.
    private(set) var count = 0

    /// The slot of `clamp` in `image`, numbered from 0 in the order first asked for this frame.
    func slot(image: Image, clamp: TexelRect) -> Int {
        slot(image: ObjectIdentifier(image), clamp: clamp)
    }

    /// `slot(image:clamp:)` of the image with identity `id` (a copy keeps it: reading its unowned image retained it).
    func slot(image id: ObjectIdentifier, clamp: TexelRect) -> Int {
        // Sprites of one sheet come in runs: the pair asked last is the likeliest.
        if let last, last.image == id, last.clamp == clamp { return last.slot }
        let found = lookUp(id, clamp)
        last = Entry(image: id, clamp: clamp, slot: found)
        return found
    }

    private func lookUp(_ id: ObjectIdentifier, _ clamp: TexelRect) -> Int {
        if 2 * (count + 1) > table.count { grow() }
        let mask = table.count - 1
        var index = Self.mix(id, clamp) & mask
        while let entry = table[index] {
            if entry.image == id, entry.clamp == clamp { return entry.slot }
            index = (index + 1) & mask
        }
        table[index] = Entry(image: id, clamp: clamp, slot: count)
        count += 1
        return count - 1
    }

    /// Where `clamp` of `image` has texels that are not fully transparent; nil for a clamp too large to scan.
    func texelCoverage(image: Image, clamp: TexelRect) -> CPUTexelCoverage? {
        let key = CoverageKey(image: ObjectIdentifier(image), generation: image.generation, clamp: clamp)
        if let kept = texelCoverages.use(key), let coverage = kept, coverage.image === image { return coverage }
        let coverage = CPUTexelCoverage(image, clamp: clamp)
        texelCoverages.insert(coverage, for: key)
        return coverage
    }

    /// Forgets every pair (the next frame numbers its own from 0).
    func endFrame() {
        texelCoverages.endFrame()
        last = nil
        guard count > 0 else { return }
        for index in table.indices { table[index] = nil }
        count = 0
    }

    private func grow() {
        let old = table
        table = Array(repeating: nil, count: old.count * 2)
        let mask = table.count - 1
        for case let entry? in old {
            var index = Self.mix(entry.image, entry.clamp) & mask
            while table[index] != nil { index = (index + 1) & mask }
            table[index] = entry
        }
    }

    private static func mix(_ id: ObjectIdentifier, _ clamp: TexelRect) -> Int {
        var h = UInt64(UInt(bitPattern: id))
        func add(_ word: Int) {
            h = (h ^ UInt64(UInt(bitPattern: word))) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
        }
        add(clamp.x0)
        add(clamp.y0)
        add(clamp.x1)
        add(clamp.y1)
        return Int(truncatingIfNeeded: h)
    }
}
