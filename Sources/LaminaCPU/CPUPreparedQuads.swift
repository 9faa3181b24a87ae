import Foundation
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
    /// The prepared quads in `base` (all of them once `init` returns).
    private var initialized = 0
    /// The threads that prepared the quads (1: this one alone).
    private(set) var workers = 1
    /// In parallel, the seconds of the workers' pass and of finishing the quads on this thread (figures for
    /// docs/benchmarks.md; 0 when prepared serially).
    private(set) var passSeconds: (workers: Double, finishing: Double) = (0, 0)
    private let slots: CPUTextureSlots?
    var startIndex: Int { 0 }
    /// The image and clamp rectangle of each blit slot (`CPUTextureSlots`), for the bands' views, and where its
    /// texels are not transparent (kept alive here for the fast forms, which point at it unretained).
    private(set) var slotSources: [(image: Image, clamp: TexelRect, texels: CPUTexelCoverage?)] = []
    /// Each slot source's texels, unretained, for the fast forms: reading them from `slotSources` retained and
    /// released the tuple's references once per copy.
    private var slotTexels: [Unmanaged<CPUTexelCoverage>?] = []

    /// Each of `quads` prepared by `prepare`, in order; `slots` (the one `prepare` numbers copies with) gives the
    /// texel coverage of each copy's source.
    /// `prepare` is handed each quad in place (`CPUPreparedQuad.quadPointer`).
    init(_ quads: [Quad], slots: CPUTextureSlots? = nil, prepare: (UnsafePointer<Quad>) throws -> CPUPreparedQuad)
        rethrows {
        self.quads = quads
        self.slots = slots
        base = .allocate(capacity: Swift.max(1, quads.count))
        fastBase = .allocate(capacity: Swift.max(1, quads.count))
        // The array is held and never changed while the prepared quads live, so its storage stays where it is.
        guard let first = quads.withUnsafeBufferPointer({ $0.baseAddress }) else { return }
        for index in quads.indices {
            (base + index).initialize(to: try prepare(first + index))
            initialized += 1
            appendFast()
        }
    }

    /// Each of `quads` prepared for a `width` x `height` target (`CPUPreparedQuad`, with `coverages` and `slots`)
    /// with its mip levels (`withMipLevels(budget:)`): on `threads` threads when there are enough quads for more
    /// than one chunk, else on this one. `twoPasses`: the parallel way even on one thread (figures: the work the
    /// workers take off this thread).
    ///
    /// In parallel, workers prepare the quads chunk by chunk (their geometry, pixel coverage, texture copies, new
    /// analytic coverage and fast forms: `CPUPreparedQuad.init(... deferred: true ...)`), reading but never
    /// changing the caches, and list the quads left to finish; then this thread finishes those in plan order
    /// (`CPUPreparedQuad.finish`: slots numbered in order of first use, coverages taken from or put in `coverages`;
    /// mip chains built once and reserved from `budget`; their fast forms made again and `slotSources`). Solid and
    /// empty quads are not touched again. Everything is what the serial preparation makes, errors included: the
    /// first quad in plan order whose mip chain fails throws, and no later quad touches a cache or the budget.
    init(_ quads: [Quad], width: Int, height: Int, coverages: FrameCache<CoverageKey, CPUPreparedQuad.Coverage>?,
         slots: CPUTextureSlots?, budget: MemoryBudget, threads: Int, twoPasses: Bool = false) throws {
        self.quads = quads
        self.slots = slots
        base = .allocate(capacity: Swift.max(1, quads.count))
        fastBase = .allocate(capacity: Swift.max(1, quads.count))
        guard let first = quads.withUnsafeBufferPointer({ $0.baseAddress }) else { return }
        let chunk = Swift.max(Self.chunkMinimum, quads.count / (Swift.max(1, threads) * 8))
        let chunks = (quads.count + chunk - 1) / chunk
        guard twoPasses || threads > 1 && chunks > 1 else {
            for index in quads.indices {
                (base + index).initialize(to: try CPUPreparedQuad(
                    first + index, width: width, height: height, coverages: coverages, slots: slots)
                    .withMipLevels(budget: budget))
                initialized += 1
                appendFast()
            }
            return
        }
        workers = Swift.max(1, Swift.min(threads, chunks))
        // Each chunk's quads left for this thread, and their pending coverages, in plan order (written by the one
        // worker that takes the chunk).
        let finishing = UnsafeMutablePointer<ChunkFinish>.allocate(capacity: chunks)
        finishing.initialize(repeating: ChunkFinish(), count: chunks)
        defer {
            finishing.deinitialize(count: chunks)
            finishing.deallocate()
        }
        let pass = ParallelPass(first: first, base: base, fastBase: fastBase, count: quads.count, chunk: chunk,
                                finishing: finishing, width: width, height: height, coverages: coverages, slots: slots)
        let next = AreaCounter()
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = next.take(below: chunks) { pass.prepare(chunk: index) }
        }
        // Every quad and its fast form are made; the fast forms of the quads listed below are made again as they are
        // finished.
        initialized = quads.count
        endIndex = quads.count
        let finishingStart = DispatchTime.now().uptimeNanoseconds
        defer {
            passSeconds = (Double(finishingStart - start) / 1e9,
                           Double(DispatchTime.now().uptimeNanoseconds - finishingStart) / 1e9)
        }
        for index in 0..<chunks {
            var waiting = finishing[index].pending[...]
            for quad in finishing[index].quads {
                // A quad with a pending coverage is made again; any other keeps its worker's fast form, which
                // takes its slot (its coverage, and so its kind, are as the worker made them).
                var pending = false
                if let next = waiting.first, next.index == quad {
                    pending = true
                    (base + quad).pointee.finish(pending: next.coverage, width: width, height: height,
                                                 coverages: coverages, slots: slots)
                    waiting.removeFirst()
                } else {
                    (base + quad).pointee.finish(pending: nil, width: width, height: height, coverages: coverages,
                                                 slots: slots)
                }
                try (base + quad).pointee.addMipLevels(budget: budget)
                makeFast(quad, slotOnly: !pending)
            }
        }
    }

    /// The fewest quads a chunk of the parallel preparation holds.
    static let chunkMinimum = 16

    /// The fast form of the next prepared quad (`endIndex`, which it moves on).
    private func appendFast() {
        makeFast(endIndex, initialize: true)
        endIndex += 1
    }

    /// The fast form of prepared quad `position` (initialized, made again over the one its worker made, or with
    /// `slotOnly` that one given its copy's slot), and its copy's slot source when it is the slot's first use; in
    /// plan order.
    private func makeFast(_ position: Int, initialize: Bool = false, slotOnly: Bool = false) {
        let prepared = base + position
        // Changed where it lies: a copy of the fast form was most of a finished sprite's cost.
        let fast = fastBase + position
        if slotOnly {
            fast.pointee.takeSlot(of: prepared)
        } else if initialize {
            fast.initialize(to: CPUFastQuad(UnsafePointer(prepared)))
        } else {
            fast.pointee = CPUFastQuad(UnsafePointer(prepared))
        }
        let sources = slotTexels.count
        if let scaled = prepared.pointee.scaled, scaled.slot == sources {
            // Transparency is not worked out for scaled copies: a bilinear sample mixes neighbouring texels.
            slotSources.append((scaled.image, scaled.clamp, nil))
            slotTexels.append(nil)
        }
        if let blit = prepared.pointee.blit {
            if blit.slot == sources {
                let texels = slots?.texelCoverage(image: blit.image, clamp: blit.clamp)
                slotSources.append((blit.image, blit.clamp, texels))
                slotTexels.append(texels.map(Unmanaged.passUnretained))
            }
            fast.pointee.texels = slotTexels[blit.slot]
        }
    }

    deinit {
        base.deinitialize(count: initialized)
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

/// What a chunk of the parallel preparation leaves for the preparing thread: the quads it must finish
/// (`CPUPreparedQuad.finish`: texture copies to number, analytic coverages, mip chains), and the pending coverages
/// among them, both in plan order.
private struct ChunkFinish {
    var quads: [Int] = []
    var pending: [(index: Int, coverage: CPUPreparedQuad.PendingCoverage)] = []
}

/// The workers' side of the parallel preparation: each chunk of quads prepared in place (`deferred`) with its fast
/// form, the quads the preparing thread must finish listed for it. Chunks are disjoint and each is taken by one
/// worker.
private final class ParallelPass: @unchecked Sendable {
    let first: UnsafePointer<Quad>
    let base: UnsafeMutablePointer<CPUPreparedQuad>
    let fastBase: UnsafeMutablePointer<CPUFastQuad>
    let count: Int
    let chunk: Int
    let finishing: UnsafeMutablePointer<ChunkFinish>
    let width: Int
    let height: Int
    /// Only read here (`CPUPreparedQuad.init(... deferred: true ...)`).
    let coverages: FrameCache<CoverageKey, CPUPreparedQuad.Coverage>?
    let slots: CPUTextureSlots?

    init(first: UnsafePointer<Quad>, base: UnsafeMutablePointer<CPUPreparedQuad>,
         fastBase: UnsafeMutablePointer<CPUFastQuad>, count: Int, chunk: Int,
         finishing: UnsafeMutablePointer<ChunkFinish>, width: Int, height: Int,
         coverages: FrameCache<CoverageKey, CPUPreparedQuad.Coverage>?, slots: CPUTextureSlots?) {
        self.first = first
        self.base = base
        self.fastBase = fastBase
        self.count = count
        self.chunk = chunk
        self.finishing = finishing
        self.width = width
        self.height = height
        self.coverages = coverages
        self.slots = slots
    }

    func prepare(chunk index: Int) {
        var result = ChunkFinish()
        for quad in index * chunk..<min(count, (index + 1) * chunk) {
            var coverage: CPUPreparedQuad.PendingCoverage?
            let prepared = base + quad
            prepared.initialize(to: CPUPreparedQuad(first + quad, width: width, height: height, coverages: coverages,
                                                    slots: slots, deferred: true, pending: &coverage))
            (fastBase + quad).initialize(to: CPUFastQuad(UnsafePointer(prepared)))
            if let coverage { result.pending.append((quad, coverage)) }
            if coverage != nil || prepared.pointee.needsFinishing { result.quads.append(quad) }
        }
        finishing[index] = result
    }
}
