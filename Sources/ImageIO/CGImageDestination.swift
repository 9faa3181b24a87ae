import Foundation
import LaminaCore
import LaminaImageIO

/// Where images are encoded to (PNG or JPEG), written on `CGImageDestinationFinalize`.
public final class CGImageDestination: @unchecked Sendable {
    enum Target {
        case url(URL)
        case data(NSMutableData)
    }

    let target: Target
    let type: String
    let count: Int
    var quality: Double?
    var images: [(image: CGImage, quality: Double?)] = []
    var finalized = false

    init?(target: Target, type: String, count: Int, options: CFDictionary?) {
        guard type == "public.png" || type == "public.jpeg", count >= 1 else { return nil }
        self.target = target
        self.type = type
        self.count = count
        quality = lossyQuality(options)
    }
}

/// The lossy compression quality in `options`, if any.
private func lossyQuality(_ options: CFDictionary?) -> Double? {
    guard let dictionary = options as? [String: Any] else { return nil }
    return (dictionary[kCGImageDestinationLossyCompressionQuality] as? NSNumber)?.doubleValue
}

/// The type identifiers destinations write: "public.png", "public.jpeg".
public func CGImageDestinationCopyTypeIdentifiers() -> CFArray { ["public.png", "public.jpeg"] as NSArray }

/// A destination writing a `type` file ("public.png" or "public.jpeg") of `count` images at `url` on finalize;
/// nil for another type, a count below 1 or a URL that is not a file URL.
public func CGImageDestinationCreateWithURL(_ url: CFURL, _ type: CFString, _ count: Int, _ options: CFDictionary?)
    -> CGImageDestination?
{
    guard url.isFileURL else { return nil }
    return CGImageDestination(target: .url(url), type: type, count: count, options: options)
}

/// A destination appending the encoded bytes to `data` on finalize; nil for an unsupported type or count.
public func CGImageDestinationCreateWithData(_ data: CFMutableData, _ type: CFString, _ count: Int,
                                             _ options: CFDictionary?) -> CGImageDestination? {
    CGImageDestination(target: .data(data), type: type, count: count, options: options)
}

/// Adds an image; `properties` may give `kCGImageDestinationLossyCompressionQuality`. Images beyond the count
/// are ignored (Apple logs them as an error).
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    guard !idst.finalized, idst.images.count < idst.count else { return }
    idst.images.append((image, lossyQuality(properties)))
}

/// Sets properties for the whole destination (the lossy compression quality is used; the rest ignored).
public func CGImageDestinationSetProperties(_ idst: CGImageDestination, _ properties: CFDictionary?) {
    if let quality = lossyQuality(properties) { idst.quality = quality }
}

/// Encodes and writes the image; false when it was already finalized, the number of images added is not the count
/// given (PNG and JPEG hold one image, so only a count of 1 can succeed), encoding fails (an image with no pixels)
/// or the file cannot be written.
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool {
    guard !idst.finalized, idst.images.count == idst.count, idst.count == 1, let entry = idst.images.first else {
        return false
    }
    idst.finalized = true
    let bytes: Data
    do {
        if idst.type == "public.jpeg" {
            bytes = try entry.image.jpegData(quality: entry.quality ?? idst.quality ?? 0.8)
        } else {
            bytes = try entry.image.pngData(compression: .small)
        }
        switch idst.target {
        case .data(let data): data.append(bytes)
        case .url(let url): try bytes.write(to: url, options: .atomic)
        }
    } catch {
        return false
    }
    return true
}
