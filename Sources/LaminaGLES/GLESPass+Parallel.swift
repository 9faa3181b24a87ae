import CEGL
import Dispatch
import Foundation
import LaminaCore

// Encoding a large plan on every core. Per quad, the encoder inverts and snaps the texel map, works out the pixel
// coverage and writes its instance floats: pure arithmetic once the quad's textures are known. So the textures
// are looked up first, in plan order, on the renderer's thread (a lookup may upload, a GL call), and then chunks of
// quads are encoded at once, each into an encoder of its own; the parts are joined in order, batches that meet at
// a seam merged as one encoder would have merged them, and the span table rows renumbered. The result is the
// instances and batches the one-thread encoding gives, float for float (GLESParallelEncodingTests).
//
// Only plans of plain quads (and quads seen through a shape alone, whose coverage the shader computes) go this way:
// antialiased quads use the coverage caches and may make fringe images (GL uploads), and groups and shadows need the encoder's group bookkeeping; such plans, and small ones,
// are encoded on one thread.

/// A quad's textures, looked up before a parallel encoding: its image's tiles (an index into the encoder's
/// `prefetchedTiles`; -1: none, not a drawn texture) and its mip texture. Small, since the looking up is the one
/// part done on one thread: a sampling per quad, written into the list there, was a fifth of a 10,000-sprite
/// encoding's time.
struct PrefetchedTexture {
    var tiles: Int32 = -1
    var mip: (GLuint, MipSelection)?
}

extension GLESBatchEncoder {
    /// Plans with fewer quads are encoded on one thread: splitting costs more than it saves.
    static let parallelMinimumQuads = 4096

    /// Whether `plan` is encoded in chunks on every core (see above).
    static func encodesInParallel(_ plan: RenderPlan) -> Bool {
        guard plan.quads.count >= parallelMinimumQuads, plan.groups.isEmpty,
            Processors.active > 1
        else { return false }
        // Read through the buffer: a call on each element would copy the quad (Quad.hasAnalyticCoverage(at:)).
        return plan.quads.withUnsafeBufferPointer { quads in
            guard let first = quads.baseAddress else { return true }
            for index in quads.indices {
                // Quads seen through a shape alone are encoded like plain ones (GLESPass+Shapes.swift).
                if Quad.hasAnalyticCoverage(at: first + index), !quads[index].hasShapeCoverageOnly { return false }
                if case .shadow = quads[index].paint { return false }
            }
            return true
        }
    }

    /// Encodes the quads from `start` on (those before it are hidden: `RenderPlan.lastOpaqueQuads`).
    mutating func encodeInParallel(_ plan: RenderPlan, from start: Int = 0, textures: GLESTextureCache) throws {
        // Textures first, in order, here: what the one-thread encoding would look up, and no more.
        var prefetch = [PrefetchedTexture](repeating: PrefetchedTexture(), count: plan.quads.count)
        var tileLists: [[GLESTile]] = []
        // The tiles of the image asked for last: sprites of one image follow one another, and asking the cache again,
        // with nothing asked in between, gives the same tiles (its side effects, the image marked used and recorded,
        // are done by the first ask). Forgotten after a mip lookup, which may upload.
        var last: (image: Image, generation: UInt64, list: Int32)?
        // Read where they lie (a quad read from the array is copied: a retain and a release of each reference), the
        // image unretained (`Quad.textureCopyFacts(at:)`) but where it is asked for.
        try plan.quads.withUnsafeBufferPointer { quads in
            guard let first = quads.baseAddress else { return }
            for index in start..<quads.count {
                guard let source = Quad.textureCopyFacts(at: first + index),
                    PremultipliedColor.byte(min(max(quads[index].opacity, 0), 1)) > 0
                else { continue }
                let generation = source.image._withUnsafeGuaranteedRef { $0.generation }
                if let last, Unmanaged.passUnretained(last.image).toOpaque() == source.image.toOpaque(),
                    last.generation == generation
                {
                    prefetch[index].tiles = last.list
                } else {
                    let image = source.image.takeUnretainedValue()
                    tileLists.append(try textures.tiles(for: image))
                    let list = Int32(tileLists.count - 1)
                    last = (image, generation, list)
                    prefetch[index].tiles = list
                }
                // Only a trilinear texture can have a mip texture (`trilinear` is nil for any other, and uploads
                // nothing): asking for every sprite forgot the tiles of the last image each time.
                if source.filter == .trilinear,
                    quads[index].unitToTarget.inverted?.concatenating(source.unitToTexel).snappedToAffine != nil,
                    case .texture(let texture) = quads[index].paint
                {
                    prefetch[index].mip = try Self.trilinear(texture, textures: textures)
                    last = nil
                }
            }
        }
        let count = plan.quads.count - start
        let chunks = min(max(2, Processors.active * 2), 32)
        let size = (count + chunks - 1) / chunks
        let work = ParallelEncoding(chunks: chunks, textures: textures)
        defer { work.free() }
        let shared = prefetch, sharedTiles = tileLists
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            // Few quads after `start` can leave the last chunks empty.
            let range = (start + min(chunk * size, count))..<(start + min((chunk + 1) * size, count))
            var part = GLESBatchEncoder()
            part.prefetched = shared
            part.prefetchedTiles = sharedTiles
            part.clearAllowed = chunk == 0
            do {
                // Read where they lie: see `encode(at:index:plan:insideGroup:textures:)`.
                try plan.quads.withUnsafeBufferPointer { quads in
                    for index in range {
                        try part.encode(at: quads.baseAddress! + index, index: index, plan: plan, insideGroup: false,
                                        textures: work.textures)
                    }
                }
                work.parts[chunk] = part
            } catch {
                work.errors[chunk] = error
            }
        }
        for chunk in 0..<chunks {
            if let error = work.errors[chunk] { throw error }
            if let part = work.parts[chunk] { join(part) }
        }
    }

    /// Appends `part`, encoded after what this encoder holds.
    private mutating func join(_ part: GLESBatchEncoder) {
        let floats = GLESProgram.instanceFloats
        let firstInstance = instances.count / floats
        let firstRow = Float(spanRows.count / 2)
        let start = instances.count
        instances.append(contentsOf: part.instances)
        if firstRow > 0, !part.spanRows.isEmpty {
            // The part numbered its span table rows from 0.
            for rows in stride(from: start + floats - 1, to: instances.count, by: floats) where instances[rows] >= 0 {
                instances[rows] += firstRow
            }
        }
        spanRows.append(contentsOf: part.spanRows)
        let firstShape = Float(shapeTable.count / ShapeCoverage.tableFloats)
        if firstShape > 0, !part.shapeTable.isEmpty {
            // The part numbered its shape table entries from 0 too (a_rows = -2 - entry).
            for rows in stride(from: start + floats - 1, to: instances.count, by: floats) where instances[rows] <= -2 {
                instances[rows] -= firstShape
            }
        }
        shapeTable.append(contentsOf: part.shapeTable)
        for var batch in part.batches {
            batch.first += firstInstance
            if let last = batches.last, last.group == nil, batch.group == nil, last.textured == batch.textured,
                last.texture == batch.texture, last.requested == batch.requested, last.additive == batch.additive
            {
                batches[batches.count - 1].count += batch.count
                if batch.filter != .nearest { batches[batches.count - 1].filter = batch.filter }
                if batch.coverage { batches[batches.count - 1].coverage = true }
                batches[batches.count - 1].addShape(batch.shape)
                batches[batches.count - 1].copies = batches[batches.count - 1].copies && batch.copies
            } else {
                batches.append(batch)
            }
        }
        quadsDrawn += part.quadsDrawn
        if let clear = part.clearColor { clearColor = clear }
    }
}

/// What the chunks of a parallel encoding write: each its own slot of `parts` or `errors`, so they share nothing
/// they write; the texture cache is only read through the prefetched lookups.
private final class ParallelEncoding: @unchecked Sendable {
    let parts: UnsafeMutablePointer<GLESBatchEncoder?>
    let errors: UnsafeMutablePointer<Error?>
    let chunks: Int
    let textures: GLESTextureCache

    init(chunks: Int, textures: GLESTextureCache) {
        self.chunks = chunks
        self.textures = textures
        parts = .allocate(capacity: chunks)
        parts.initialize(repeating: nil, count: chunks)
        errors = .allocate(capacity: chunks)
        errors.initialize(repeating: nil, count: chunks)
    }

    func free() {
        parts.deinitialize(count: chunks)
        parts.deallocate()
        errors.deinitialize(count: chunks)
        errors.deallocate()
    }
}
