import Foundation

/// How two images of the same size differ, channel by channel on straight RGBA (what `lamina diff` prints), or on
/// the premultiplied values the renderers write (what parity is measured on).
public struct ImageDifference: Sendable, Equatable {
    /// The largest difference of any channel of any pixel, 0...255.
    public var maxChannelDifference: Int
    /// The mean over all channels of all pixels.
    public var meanChannelDifference: Double
    /// Pixels with any channel differing at all.
    public var differingPixels: Int
    /// Pixels with any channel differing by more than `tolerance`.
    public var pixelsOverTolerance: Int
    /// The tolerance `pixelsOverTolerance` was counted with.
    public var tolerance: Int
    public var pixelCount: Int

    /// Compares `a` and `b`; nil when their sizes differ. `premultiplied`: compare the stored premultiplied channels
    /// instead of straight RGBA.
    public init?(_ a: Image, _ b: Image, tolerance: Int = 0, premultiplied: Bool = false) {
        guard a.width == b.width, a.height == b.height else { return nil }
        var maxDiff = 0, differing = 0, over = 0
        var sum = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let wa = a.word(x: x, y: y), wb = b.word(x: x, y: y)
                if wa == wb { continue }
                let pa = premultiplied ? Self.channels(wa) : Image.straight(wa)
                let pb = premultiplied ? Self.channels(wb) : Image.straight(wb)
                let d = pa.maxChannelDifference(to: pb)
                sum += abs(Int(pa.r) - Int(pb.r)) + abs(Int(pa.g) - Int(pb.g)) + abs(Int(pa.b) - Int(pb.b))
                    + abs(Int(pa.a) - Int(pb.a))
                if d > 0 { differing += 1 }
                if d > tolerance { over += 1 }
                maxDiff = max(maxDiff, d)
            }
        }
        maxChannelDifference = maxDiff
        pixelCount = a.width * a.height
        meanChannelDifference = pixelCount == 0 ? 0 : Double(sum) / Double(pixelCount * 4)
        differingPixels = differing
        pixelsOverTolerance = over
        self.tolerance = tolerance
    }

    /// A stored BGRA word's channels as they are (premultiplied).
    private static func channels(_ word: UInt32) -> RGBA8 {
        RGBA8(r: UInt8((word >> 16) & 0xFF), g: UInt8((word >> 8) & 0xFF), b: UInt8(word & 0xFF),
              a: UInt8(word >> 24))
    }

    /// docs/semantics.md, "Parity": at most 2 per channel on at least 99.9% of pixels, at most 8 on every pixel, on
    /// the premultiplied values the renderers write. (On straight RGBA a pixel of alpha 2 against one of alpha 3,
    /// a one-step difference, reads as up to 85.)
    public static func meetsParity(_ a: Image, _ b: Image) -> Bool {
        guard let d = ImageDifference(a, b, tolerance: 2, premultiplied: true) else { return false }
        return d.maxChannelDifference <= 8 && Double(d.pixelsOverTolerance) <= Double(d.pixelCount) * 0.001
    }

    /// An image showing where `a` and `b` differ: black where equal, brighter red the larger the difference,
    /// over a faint grey copy of `a` so the picture stays recognisable. Nil when the sizes differ.
    public static func visualize(_ a: Image, _ b: Image) throws -> Image? {
        guard a.width == b.width, a.height == b.height else { return nil }
        let out = try Image(width: a.width, height: a.height)
        for y in 0..<a.height {
            for x in 0..<a.width {
                let pa = a.rgba(x: x, y: y), pb = b.rgba(x: x, y: y)
                let d = pa.maxChannelDifference(to: pb)
                if d == 0 {
                    let grey = UInt8((Int(pa.r) + Int(pa.g) + Int(pa.b)) / 12)
                    out.setRGBA(RGBA8(r: grey, g: grey, b: grey, a: 255), x: x, y: y)
                } else {
                    out.setRGBA(RGBA8(r: UInt8(min(255, 64 + d * 4)), g: 0, b: 0, a: 255), x: x, y: y)
                }
            }
        }
        return out
    }
}
