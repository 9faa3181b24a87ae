import Foundation
import Synchronization

/// The largest images and outputs Lamina will allocate. Sizes are checked against these before any
/// allocation or decoding, so a hostile file or an absurd scene gets an error, not an out-of-memory kill.
public struct PixelLimits: Hashable, Sendable {
    /// The largest width or height, in pixels.
    public var maxDimension: Int
    /// The largest width x height, in pixels.
    public var maxPixels: Int

    public init(maxDimension: Int = 16384, maxPixels: Int = 268_435_456) {
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
    }

    /// 16384 x 16384 and 268 million pixels in all (docs/scene-format.md, "Errors").
    public static let `default` = PixelLimits()

    /// Nil when `width` x `height` is allowed, else why not.
    public func violation(width: Int, height: Int) -> String? {
        if width < 0 || height < 0 { return "negative size \(width)x\(height)" }
        if width > maxDimension || height > maxDimension {
            return "\(width)x\(height) pixels exceeds the limit of \(maxDimension) pixels per side"
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            return "\(width)x\(height) pixels exceeds the limit of \(maxPixels) pixels in all"
        }
        return nil
    }
}

/// Errors about image memory itself (decoding errors live in LaminaImageIO).
public enum ImageError: Error, Equatable, CustomStringConvertible {
    case tooLarge(width: Int, height: Int, reason: String)
    case outOfMemory(bytes: Int)

    public var description: String {
        switch self {
        case .tooLarge(_, _, let reason): return "image too large: \(reason)"
        case .outOfMemory(let bytes): return "could not allocate \(bytes) bytes of pixels"
        }
    }
}

/// A bitmap of 8-bit premultiplied BGRA pixels (pixman's a8r8g8b8, cairo's ARGB32 on little-endian),
/// rows top to bottom, `bytesPerRow` = width x 4. The one pixel format of Lamina, end to end
/// (docs/architecture.md, "Pixels").
///
/// An Image is a reference type: renderers cache their textures by its identity and `generation`.
/// Code that changes pixels in place calls `markModified()` so that caches upload it again.
public final class Image: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Bytes between the starts of two rows (width x 4).
    public let bytesPerRow: Int
    /// The first byte of row 0. Owned by the image; valid for its lifetime.
    public let baseAddress: UnsafeMutableRawPointer
    /// Bumped by `markModified()`; caches compare it with the generation they uploaded.
    public private(set) var generation: UInt64 = 0
    /// The generation whose pixels `markOpaque()` vouched for (nil: none).
    private var opaqueGeneration: UInt64?
    /// The mip chain, built on first use for trilinear minification (MipChain.swift).
    let mipStore = MipStore()
    /// The bytes of a `MemoryBudget` these pixels hold (set by whoever allocated the image under a budget: the
    /// scene loader, a renderer's `render(_:)`); given back when the image is freed.
    public var memoryReservation: MemoryReservation?

    /// A transparent image. Throws when the size breaks `limits` or memory cannot be had.
    public init(width: Int, height: Int, limits: PixelLimits = .default) throws {
        if let reason = limits.violation(width: width, height: height) {
            throw ImageError.tooLarge(width: width, height: height, reason: reason)
        }
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        let bytes = max(bytesPerRow * height, 4)
        guard let memory = calloc(bytes, 1) else { throw ImageError.outOfMemory(bytes: bytes) }
        self.baseAddress = memory
    }

    /// An image filled with one colour.
    public convenience init(width: Int, height: Int, color: Color, limits: PixelLimits = .default) throws {
        try self.init(width: width, height: height, limits: limits)
        fill(color)
    }

    deinit { free(baseAddress) }

    /// The number of bytes of pixel memory.
    public var byteCount: Int { bytesPerRow * height }

    /// Tells renderers that every pixel's alpha is 255 as the pixels are now, so that an opaque layer showing this
    /// image hides what is under it from its first frame, without a scan (RenderPlan+Occlusion.swift): what a
    /// decoder that knows it says (a JPEG, a PNG whose every alpha it read as 255). `markModified()` forgets it.
    public func markOpaque() { opaqueGeneration = generation }

    /// Whether `markOpaque()` vouched for the pixels as they are now.
    public var isKnownOpaque: Bool { opaqueGeneration == generation }

    /// Tells texture caches that the pixels changed.
    public func markModified() {
        generation &+= 1
        if sampled.load(ordering: .relaxed) { Self.sampledModifications.add(1, ordering: .releasing) }
    }

    /// Set once a plan samples the image (`markSampled()`): from then on, changing its pixels moves
    /// `sampledModificationCount`, which tells the planner's damage that some texture may have changed in place.
    private let sampled = Atomic<Bool>(false)
    private static let sampledModifications = Atomic<UInt64>(0)

    /// Notes that a plan samples this image (the planner calls it for every texture it plans).
    public func markSampled() {
        if !sampled.load(ordering: .relaxed) { sampled.store(true, ordering: .relaxed) }
    }

    /// Changes of images that plans sample, since the process started: while it stays the same, no such image's
    /// pixels changed in place.
    public static var sampledModificationCount: UInt64 { sampledModifications.load(ordering: .acquiring) }

    /// The premultiplied BGRA word of one pixel (0xAARRGGBB).
    @inlinable
    public func word(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        return baseAddress.load(fromByteOffset: y * bytesPerRow + x * 4, as: UInt32.self)
    }

    /// Sets the premultiplied BGRA word of one pixel (0xAARRGGBB).
    @inlinable
    public func setWord(_ value: UInt32, x: Int, y: Int) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        baseAddress.storeBytes(of: value, toByteOffset: y * bytesPerRow + x * 4, as: UInt32.self)
    }

    /// One pixel as straight 8-bit RGBA (premultiplication undone with rounding).
    public func rgba(x: Int, y: Int) -> RGBA8 {
        Image.straight(word(x: x, y: y))
    }

    /// Sets one pixel from straight RGBA.
    public func setRGBA(_ pixel: RGBA8, x: Int, y: Int) {
        setWord(Image.premultipliedWord(pixel), x: x, y: y)
    }

    /// Fills every pixel with one colour.
    public func fill(_ color: Color) {
        let word = Image.premultipliedWord(color)
        let words = baseAddress.bindMemory(to: UInt32.self, capacity: width * height)
        for i in 0..<(width * height) { words[i] = word }
        markModified()
    }

    /// A deep copy.
    public func duplicate() throws -> Image {
        let image = try Image(width: width, height: height, limits: PixelLimits(maxDimension: .max, maxPixels: .max))
        image.baseAddress.copyMemory(from: baseAddress, byteCount: byteCount)
        return image
    }

    /// Converts a premultiplied word to straight RGBA.
    @inlinable
    public static func straight(_ word: UInt32) -> RGBA8 {
        let a = (word >> 24) & 0xFF
        let r = (word >> 16) & 0xFF
        let g = (word >> 8) & 0xFF
        let b = word & 0xFF
        if a == 0 { return RGBA8(r: 0, g: 0, b: 0, a: 0) }
        if a == 255 { return RGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: 255) }
        func un(_ c: UInt32) -> UInt8 { UInt8(min(255, (c * 255 + a / 2) / a)) }
        return RGBA8(r: un(r), g: un(g), b: un(b), a: UInt8(a))
    }

    /// Converts straight RGBA to a premultiplied word (rounded, as pixman and cairo round).
    @inlinable
    public static func premultipliedWord(_ p: RGBA8) -> UInt32 {
        let a = UInt32(p.a)
        func mul(_ c: UInt8) -> UInt32 {
            let t = UInt32(c) * a + 0x80
            return (t + (t >> 8)) >> 8
        }
        return a << 24 | mul(p.r) << 16 | mul(p.g) << 8 | mul(p.b)
    }

    /// Converts a straight colour to a premultiplied word.
    public static func premultipliedWord(_ c: Color) -> UInt32 {
        func byte(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
        return premultipliedWord(RGBA8(r: byte(c.red), g: byte(c.green), b: byte(c.blue), a: byte(c.alpha)))
    }
}

extension Image: CustomStringConvertible {
    public var description: String { "Image(\(width)x\(height))" }
}
