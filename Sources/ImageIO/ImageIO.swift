// `import ImageIO` on Linux: CGImageSource and CGImageDestination over Lamina's PNG and JPEG codecs.
@_exported import CoreGraphics
import Foundation
import LaminaCore
import LaminaImageIO

/// The width of an image in pixels (an Int in a properties dictionary).
public let kCGImagePropertyPixelWidth: CFString = "PixelWidth"
/// The height of an image in pixels.
public let kCGImagePropertyPixelHeight: CFString = "PixelHeight"
/// Bits per sample (8).
public let kCGImagePropertyDepth: CFString = "Depth"
/// Whether the image may have alpha (true for PNG, false for JPEG).
public let kCGImagePropertyHasAlpha: CFString = "HasAlpha"
/// The colour model: `kCGImagePropertyColorModelRGB` (Lamina decodes greyscale files to RGB too).
public let kCGImagePropertyColorModel: CFString = "ColorModel"
/// The RGB colour model.
public let kCGImagePropertyColorModelRGB: CFString = "RGB"
/// The grey colour model.
public let kCGImagePropertyColorModelGray: CFString = "Gray"
/// The EXIF orientation (always 1 here: orientation is not read).
public let kCGImagePropertyOrientation: CFString = "Orientation"
/// Compression quality for lossy formats, 0 (smallest) to 1 (best); JPEG's default here is 0.8.
public let kCGImageDestinationLossyCompressionQuality: CFString = "kCGImageDestinationLossyCompressionQuality"
/// A hint of the type of source data (accepted, not needed: the format is read from the bytes).
public let kCGImageSourceTypeIdentifierHint: CFString = "kCGImageSourceTypeIdentifierHint"
/// Whether to cache decoded images (accepted, ignored: every call decodes).
public let kCGImageSourceShouldCache: CFString = "kCGImageSourceShouldCache"
/// Thumbnails: the longest side, in pixels, of `CGImageSourceCreateThumbnailAtIndex`'s image.
public let kCGImageSourceThumbnailMaxPixelSize: CFString = "kCGImageSourceThumbnailMaxPixelSize"
/// Thumbnails: make one from the full image (always done here).
public let kCGImageSourceCreateThumbnailFromImageAlways: CFString = "kCGImageSourceCreateThumbnailFromImageAlways"
/// Thumbnails: make one from the full image when the file has none (always done here).
public let kCGImageSourceCreateThumbnailFromImageIfAbsent: CFString = "kCGImageSourceCreateThumbnailFromImageIfAbsent"

/// The type identifiers Lamina reads and writes.
private let supportedTypes: [String] = ["public.png", "public.jpeg"]

/// Encoded image data to read images from (PNG or JPEG, told from the bytes).
public final class CGImageSource: @unchecked Sendable {
    let data: Data
    /// "public.png", "public.jpeg", or nil for data that is neither.
    let type: String?

    init(data: Data) {
        self.data = data
        type = ImageDataInfo.typeIdentifier(of: data)
    }
}

/// A source reading `data`; always made, like Apple's: for data that is not PNG or JPEG its count is 0 and it
/// gives no image.
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? {
    CGImageSource(data: data)
}

/// A source reading the file at `url`; nil when it is not a file URL or the file cannot be read (Apple makes a
/// source that then fails).
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    guard url.isFileURL,
          let data = try? Data(contentsOf: url, options: .mappedIfSafe), data.count <= FileInput.defaultImageFileLimit
    else { return nil }
    return CGImageSource(data: data)
}

/// The type identifiers sources read: "public.png", "public.jpeg".
public func CGImageSourceCopyTypeIdentifiers() -> CFArray { supportedTypes as NSArray }

/// The source's type identifier ("public.png" or "public.jpeg"); nil when the data is neither.
public func CGImageSourceGetType(_ isrc: CGImageSource) -> CFString? { isrc.type }

/// 1 for PNG or JPEG data whose header gives a size, 0 otherwise (only the first frame of an animated PNG is read).
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int {
    isrc.type != nil && ImageDataInfo.size(of: isrc.data) != nil ? 1 : 0
}

/// The image at `index` (only 0), decoded; nil for a bad index, undecodable data or a size beyond
/// `PixelLimits.default` (16384 pixels a side, 2^28 pixels).
public func CGImageSourceCreateImageAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    guard index == 0, isrc.type != nil else { return nil }
    return try? Image(data: isrc.data)
}

/// Properties of the image at `index` (only 0), from its header: pixel width and height, depth, alpha, colour
/// model, orientation. Nil for a bad index or data without a readable header.
public func CGImageSourceCopyPropertiesAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?)
    -> CFDictionary?
{
    guard index == 0, let type = isrc.type, let size = ImageDataInfo.size(of: isrc.data) else { return nil }
    let properties: [String: Any] = [
        kCGImagePropertyPixelWidth: size.width, kCGImagePropertyPixelHeight: size.height,
        kCGImagePropertyDepth: 8, kCGImagePropertyHasAlpha: type == "public.png",
        kCGImagePropertyColorModel: kCGImagePropertyColorModelRGB, kCGImagePropertyOrientation: 1,
    ]
    return properties as NSDictionary
}

/// Properties of the whole source (its file size is not given): empty for readable data, nil otherwise.
public func CGImageSourceCopyProperties(_ isrc: CGImageSource, _ options: CFDictionary?) -> CFDictionary? {
    isrc.type == nil ? nil : NSDictionary()
}

/// The image at `index` scaled down (never up) so that its longer side is at most
/// `kCGImageSourceThumbnailMaxPixelSize` (without it: the full image); bilinear.
public func CGImageSourceCreateThumbnailAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?)
    -> CGImage?
{
    guard let image = CGImageSourceCreateImageAtIndex(isrc, index, nil) else { return nil }
    let limit = ((options as? [String: Any])?[kCGImageSourceThumbnailMaxPixelSize] as? NSNumber)?.doubleValue
    guard let limit, limit >= 1, Double(max(image.width, image.height)) > limit else { return image }
    let scale = limit / Double(max(image.width, image.height))
    let w = max(1, Int((Double(image.width) * scale).rounded())), h = max(1, Int((Double(image.height) * scale).rounded()))
    guard let thumbnail = try? Image(width: w, height: h), let context = try? CGContext(image: thumbnail) else {
        return nil
    }
    context.draw(image, in: CGRect(x: 0, y: 0, width: w, height: h))
    context.flush()
    return thumbnail
}
