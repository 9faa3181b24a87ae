import Foundation
import LaminaCore
import LaminaDrawing

/// Where alpha is in a pixel and whether colour is premultiplied by it, with Core Graphics' raw values.
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none, premultipliedLast, premultipliedFirst, last, first, noneSkipLast, noneSkipFirst, alphaOnly
}

/// The byte order of a pixel's components, with Core Graphics' raw values.
public enum CGImageByteOrderInfo: UInt32, Sendable {
    case orderDefault = 0, order16Little = 4096, order32Little = 8192, order16Big = 12288, order32Big = 16384
    case orderMask = 28672
}

/// A pixel format's flags: the alpha info in the low five bits, the byte order, float components.
public struct CGBitmapInfo: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let floatInfoMask = CGBitmapInfo(rawValue: 0xF00)
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    public static let byteOrderDefault = CGBitmapInfo([])
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)

    /// The format with `alphaInfo` in its low bits.
    public init(alphaInfo: CGImageAlphaInfo) { self.init(rawValue: alphaInfo.rawValue) }
}

/// Where the components of an 8-bit pixel of `info` are, or nil when Lamina cannot draw into or read that
/// format: 8 bits per component only; RGB in 32 bits with premultiplied or skipped alpha first or last (straight
/// alpha, `.last`/`.first`, too for images: `straight` says so), byte order default, 32Big or 32Little; grey in 8 bits
/// without alpha.
func bitmapLayout(bitsPerComponent: Int, bitsPerPixel: Int, model: CGColorSpaceModel, info: UInt32,
                  allowStraight: Bool) -> (layout: BitmapMemory.Layout, straight: Bool)? {
    let alpha = CGImageAlphaInfo(rawValue: info & 0x1F)
    let order = info & 0x7000
    guard bitsPerComponent == 8, info & 0xF00 == 0, let alpha else { return nil }
    switch model {
    case .monochrome:
        guard bitsPerPixel == 8, alpha == .none, order == 0 else { return nil }
        return (.gray, false)
    case .rgb:
        guard bitsPerPixel == 32, order == 0 || order == 2 << 12 || order == 4 << 12 else { return nil }
        let last: Bool, premultiplied: Bool, skipped: Bool
        switch alpha {
        case .premultipliedLast: (last, premultiplied, skipped) = (true, true, false)
        case .premultipliedFirst: (last, premultiplied, skipped) = (false, true, false)
        case .noneSkipLast: (last, premultiplied, skipped) = (true, true, true)
        case .noneSkipFirst: (last, premultiplied, skipped) = (false, true, true)
        case .last where allowStraight: (last, premultiplied, skipped) = (true, false, false)
        case .first where allowStraight: (last, premultiplied, skipped) = (false, false, false)
        default: return nil
        }
        // Offsets in big-endian order (R G B A or A R G B), reversed for a 32-bit little-endian word.
        var (r, g, b, a) = last ? (0, 1, 2, 3) : (1, 2, 3, 0)
        if order == 2 << 12 { (r, g, b, a) = (3 - r, 3 - g, 3 - b, 3 - a) }
        return (.fourBytes(red: r, green: g, blue: b, alpha: skipped ? nil : a), !premultiplied)
    default:
        return nil
    }
}

extension CGContext {
    /// A bitmap context drawing into `data` (nil: memory the context allocates and owns), `height` rows of
    /// `bytesPerRow` bytes (0: width x bytes a pixel, without Apple's padding), in the format of `space` and
    /// `bitmapInfo` (see `bitmapLayout`; nil for any other). User space is pixels, origin at the bottom-left, y up:
    /// the first row in memory is the top of the picture. What is drawn is in `data` when each drawing call returns.
    public convenience init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                             bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32) {
        let bitsPerPixel = space.model == .monochrome ? 8 : 32
        guard width > 0, height > 0, bytesPerRow >= 0,
              PixelLimits.default.violation(width: width, height: height) == nil,
              let (layout, _) = bitmapLayout(bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                                             model: space.model, info: bitmapInfo, allowStraight: false),
              let memory = BitmapMemory(data: data, width: width, height: height,
                                        bytesPerRow: bytesPerRow == 0 ? width * layout.bytesPerPixel : bytesPerRow,
                                        layout: layout)
        else { return nil }
        memory.formatTag = bitmapInfo
        memory.colorSpaceName = space.name
        self.init(bitmap: memory)
    }

    /// The pixel memory: the caller's (or the context's own) for a bitmap context, the image's for a context on an
    /// Image.
    public var data: UnsafeMutableRawPointer? { bitmap?.data ?? image.baseAddress }
    /// Pixels a row.
    public var width: Int { bitmap?.width ?? image.width }
    /// Rows.
    public var height: Int { bitmap?.height ?? image.height }
    /// Bytes between the starts of two rows.
    public var bytesPerRow: Int { bitmap?.bytesPerRow ?? image.bytesPerRow }
    /// 8.
    public var bitsPerComponent: Int { 8 }
    /// 8 for grey, 32 for RGB.
    public var bitsPerPixel: Int { bitmap?.layout == .gray ? 8 : 32 }
    /// The space the context was made with (sRGB for a context on an Image).
    public var colorSpace: CGColorSpace? {
        CGColorSpace(name: bitmap?.colorSpaceName ?? CGColorSpace.sRGB)
    }
    /// The format the context was made with (premultipliedFirst | byteOrder32Little for a context on an Image).
    public var bitmapInfo: CGBitmapInfo {
        CGBitmapInfo(rawValue: bitmap?.formatTag ?? (CGImageAlphaInfo.premultipliedFirst.rawValue | 2 << 12))
    }
    /// The alpha part of `bitmapInfo`.
    public var alphaInfo: CGImageAlphaInfo { CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & 0x1F) ?? .none }

    /// A copy of the pixels (for a bitmap context, of its memory as it is now), as a CGImage: Lamina's
    /// premultiplied BGRA whatever the context's format, a grey context's pixels as equal red, green and blue.
    /// Nil when memory cannot be had.
    public func makeImage() -> CGImage? {
        flush()
        guard let bitmap else { return try? image.duplicate() }
        guard let copy = try? Image(width: bitmap.width, height: bitmap.height) else { return nil }
        bitmap.load(into: copy, box: (0, 0, bitmap.width, bitmap.height))
        return copy
    }
}

extension DrawingContext {
    /// Adds `path`'s elements to the current path (CGContext's `addPath(_:)`), in user space.
    public func addPath(_ path: CGPath) {
        addPath(path.path)
    }
}
