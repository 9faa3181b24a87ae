import LaminaCore

/// Where a clamp rectangle of an image has texels that are not fully transparent: per row, the span of columns
/// from the first such texel to the last. Compositing a fully transparent source over anything leaves it as it
/// was (pixman's OVER multiplies the destination by 255 - 0, exactly), so a copy skips the rectangles of its
/// source that hold none (the corners a rounded sprite cuts from a round picture, the empty margins of a
/// sprite), with the same pixels.
///
/// Worked out once per image generation and clamp, kept by the renderer while frames use it; only for clamps of
/// at most `maxTexels` (a 4K image changed every frame would cost a scan of its pixels every frame).
final class CPUTexelCoverage: @unchecked Sendable {
    static let maxTexels = 256 * 256

    /// The image, held so that its identity (the cache key) cannot be reused while this is kept.
    let image: Image
    let generation: UInt64
    let width: Int, height: Int
    /// Per row of the clamp: columns first ..< last hold every texel that is not fully transparent (first == last:
    /// none).
    private let first: [Int32], last: [Int32]
    /// The rows first ..< last and columns of all of them together (empty: the picture is transparent).
    let bounds: PixelBox

    /// The coverage of `clamp` in `image`, or nil when the clamp is larger than `maxTexels`.
    init?(_ image: Image, clamp: TexelRect) {
        guard clamp.width * clamp.height <= Self.maxTexels else { return nil }
        self.image = image
        generation = image.generation
        (width, height) = (clamp.width, clamp.height)
        var first = [Int32](repeating: 0, count: clamp.height), last = first
        var bounds = PixelBox(x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
        for row in 0..<clamp.height {
            let words = (image.baseAddress + (clamp.y0 + row) * image.bytesPerRow + clamp.x0 * 4)
                .assumingMemoryBound(to: UInt32.self)
            // Premultiplied: a texel with alpha 0 is 0 in every channel.
            var a = 0
            while a < clamp.width, words[a] >> 24 == 0 { a += 1 }
            var b = clamp.width
            while b > a, words[b - 1] >> 24 == 0 { b -= 1 }
            (first[row], last[row]) = (Int32(a), Int32(b))
            if b > a {
                bounds = PixelBox(x0: min(bounds.x0, a), y0: min(bounds.y0, row), x1: max(bounds.x1, b),
                                  y1: row + 1)
            }
        }
        (self.first, self.last) = (first, last)
        self.bounds = bounds.x0 == Int.max ? PixelBox(x0: 0, y0: 0, x1: 0, y1: 0) : bounds
    }

    /// The smallest rectangle within view pixels x0 ..< x1, y0 ..< y1 that holds every texel there that is not
    /// fully transparent; only for a rectangle inside the clamp (beyond it the PAD repeat samples edge texels for
    /// pixels elsewhere: returned as given). Nil when nothing is left.
    func trimmed(x0: Int, y0: Int, x1: Int, y1: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard x0 >= 0, y0 >= 0, x1 <= width, y1 <= height else { return (x0, y0, x1, y1) }
        let r0 = max(y0, bounds.y0), r1 = min(y1, bounds.y1)
        guard r1 > r0, x0 < bounds.x1, x1 > bounds.x0 else { return nil }
        var t = (x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
        for row in r0..<r1 {
            let a = max(Int(first[row]), x0), b = min(Int(last[row]), x1)
            guard b > a else { continue }
            t = (min(t.x0, a), min(t.y0, row), max(t.x1, b), row + 1)
        }
        return t.x0 == Int.max ? nil : t
    }
}
