import Foundation

/// The mip levels of an image for trilinear minification (docs/semantics.md, "Contents": Sampling), made on the CPU
/// so that every renderer samples exactly the same bytes: level k + 1 is the 2 x 2 box average of level k
/// (premultiplied, each channel (a + b + c + d + 2) / 4 rounded down, i.e. halves up), max(1, floor(w / 2)) x max(1, floor(h / 2))
/// texels; level k + 1's texel (i, j) averages level k's (2i, 2j) ... (2i + 1, 2j + 1), reads clamped to the edge
/// (so an odd level's last row or column is left out, except when it halves to one texel). The chain ends at 1 x 1.
///
/// Built lazily, once per image generation, and kept on the image (docs/architecture.md, "Mip chains").
final class MipStore: @unchecked Sendable {
    private let lock = NSLock()
    private var generation: UInt64 = 0
    /// Levels 1 ... of the chain; empty: not built (or built for another generation).
    private var levels: [Image] = []
    /// The chain's bytes in the budget it was built under (docs/architecture.md, "Memory budget"); given back with
    /// the chain (a new generation, or the image freed).
    private var reservation: MemoryReservation?

    func levels(of image: Image, budget: MemoryBudget?) throws -> [Image] {
        lock.lock()
        defer { lock.unlock() }
        if !levels.isEmpty && generation == image.generation { return levels }
        // The old chain goes first, so a new generation's chain does not count twice.
        levels = []
        reservation = nil
        let bytes = MipChain.chainBytes(width: image.width, height: image.height)
        let held = try budget?.reserve(bytes, for: "the CPU mip chain of \(image) (levels 1 to "
            + "\(MipChain.levelCount(width: image.width, height: image.height) - 1))")
        var chain: [Image] = []
        var level = image
        while level.width > 1 || level.height > 1 {
            level = try MipChain.halved(level)
            chain.append(level)
        }
        levels = chain
        reservation = held
        generation = image.generation
        return chain
    }
}

/// Mip level arithmetic shared by the planner and both renderers.
public enum MipChain {
    /// The number of levels of a width x height image: 1 + floor(log2(max(width, height))) (1 for an empty one).
    public static func levelCount(width: Int, height: Int) -> Int {
        let side = max(width, height, 1)
        return Int.bitWidth - side.leadingZeroBitCount
    }

    /// The size of level `level` of a width x height image.
    public static func size(width: Int, height: Int, level: Int) -> (width: Int, height: Int) {
        (max(1, width >> level), max(1, height >> level))
    }

    /// The bytes of levels 1 ... of a width x height image's chain (level 0 is the image): about a third of it.
    public static func chainBytes(width: Int, height: Int) -> Int {
        var total = 0
        for level in 1..<max(1, levelCount(width: width, height: height)) {
            let (w, h) = size(width: width, height: height, level: level)
            total += w * h * 4
        }
        return total
    }

    /// The next level of `image`: each channel the 2 x 2 box average, (a + b + c + d + 2) / 4 rounded down.
    public static func halved(_ image: Image) throws -> Image {
        let (w, h) = size(width: image.width, height: image.height, level: 1)
        let result = try Image(width: w, height: h, limits: PixelLimits(maxDimension: .max, maxPixels: .max))
        let source = image.baseAddress
        let rowBytes = image.bytesPerRow
        let out = result.baseAddress.assumingMemoryBound(to: UInt32.self)
        for j in 0..<h {
            let row0 = source.advanced(by: min(2 * j, image.height - 1) * rowBytes).assumingMemoryBound(to: UInt32.self)
            let row1 = source.advanced(by: min(2 * j + 1, image.height - 1) * rowBytes)
                .assumingMemoryBound(to: UInt32.self)
            for i in 0..<w {
                let x0 = min(2 * i, image.width - 1), x1 = min(2 * i + 1, image.width - 1)
                let a = row0[x0], b = row0[x1], c = row1[x0], d = row1[x1]
                var word: UInt32 = 0
                for shift in stride(from: UInt32(0), through: 24, by: 8) {
                    let sum = (a >> shift & 0xFF) + (b >> shift & 0xFF) + (c >> shift & 0xFF) + (d >> shift & 0xFF)
                    word |= ((sum + 2) >> 2) << shift
                }
                out[j * w + i] = word
            }
        }
        return result
    }
}

extension Image {
    /// The image's mip chain: [self, level 1, level 2, ..., the 1 x 1 level], built on first use per generation
    /// (thread-safe; renderers build it before drawing in parallel). `budget`: where the levels' bytes are reserved
    /// before they are made (held while the chain is kept); over it, `MemoryLimitError`. A chain already built is
    /// returned as it is, counted in the budget it was built under.
    public func mipChain(budget: MemoryBudget? = nil) throws -> [Image] {
        [self] + (try mipStore.levels(of: self, budget: budget))
    }
}

/// The two mip levels a trilinear quad samples and how they mix (docs/semantics.md, "Contents": Sampling).
public struct MipSelection: Hashable, Sendable {
    /// The finer level (0: the image itself).
    public var level: Int
    /// The weight of level + 1, out of 255: the result is round(finer x (255 - fraction) / 255) +
    /// round(coarser x fraction / 255), per 8-bit channel. 0 when level is the last one (nothing coarser).
    public var fraction: UInt8

    public init(level: Int, fraction: UInt8) {
        self.level = level
        self.fraction = fraction
    }

    /// The selection for level of detail `lod` (lambda plus bias) of a width x height image: lod clamped to
    /// 0 ... the last level, split into its whole part and its fraction rounded to 8 bits (a fraction that
    /// rounds to 255 selects the next level whole).
    public init(lod: Float, width: Int, height: Int) {
        let last = MipChain.levelCount(width: width, height: height) - 1
        let clamped = lod.isNaN ? 0 : min(max(lod, 0), Float(last))
        var level = Int(clamped.rounded(.down))
        var fraction = Int((clamped - Float(level)) * 255 + 0.5)
        if fraction >= 255 {
            level += 1
            fraction = 0
        }
        if level >= last {
            level = last
            fraction = 0
        }
        self.init(level: level, fraction: UInt8(fraction))
    }

    /// The texel map of level `level` from that of level 0 (level k's texel coordinates are level 0's / 2^k).
    public static func map(_ levelZero: Matrix3, level: Int) -> Matrix3 {
        guard level > 0 else { return levelZero }
        let s = 1 / CGFloat(1 << level)
        return levelZero.concatenating(.scale(s, s))
    }
}

extension TexelRect {
    /// This no-bleed clamp rectangle (of level 0) at mip level `level` of a width x height image: the level's
    /// texels that hold any of it (x0 >> level, rounded-up x1 >> level), kept inside the level and never empty.
    /// The GLES trilinear shader computes the same from the level-0 rectangle.
    public func atMipLevel(_ level: Int, width: Int, height: Int) -> TexelRect {
        guard level > 0 else { return self }
        let (w, h) = MipChain.size(width: width, height: height, level: level)
        let round = (1 << level) - 1
        let nx0 = min(x0 >> level, w - 1), ny0 = min(y0 >> level, h - 1)
        let nx1 = min(max((x1 + round) >> level, nx0 + 1), w)
        let ny1 = min(max((y1 + round) >> level, ny0 + 1), h)
        return TexelRect(x0: nx0, y0: ny0, x1: nx1, y1: ny1)
    }
}

extension TextureSource {
    /// The mip levels this texture samples: nil unless the filter is trilinear and the level of detail selects
    /// more than level 0 alone (level 0 with no fraction samples exactly as `linear`, so renderers draw it so).
    public var mipSelection: MipSelection? {
        MipSelection.sampled(filter: filter, lod: mipLevel, width: image.width, height: image.height)
    }
}

extension MipSelection {
    /// The mip levels a texture of `filter` at level of detail `lod` samples in an image of `width` x `height`
    /// (`TextureSource.mipSelection`).
    static func sampled(filter: Filter, lod: Float, width: Int, height: Int) -> MipSelection? {
        guard filter == .trilinear else { return nil }
        let selection = MipSelection(lod: lod, width: width, height: height)
        return selection.level == 0 && selection.fraction == 0 ? nil : selection
    }
}
