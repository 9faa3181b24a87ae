import Foundation
import LaminaCore
import LaminaDrawing
import LaminaImageIO

/// Bytes an image is made from: in memory, or read from a file when made.
public final class CGDataProvider: @unchecked Sendable {
    /// The bytes.
    public let data: CFData?

    /// A provider of `data`'s bytes.
    public init?(data: CFData) { self.data = data }

    /// A provider of the bytes of the file at `url`; nil when it is not a file URL or cannot be read.
    public init?(url: CFURL) {
        guard url.isFileURL, let bytes = try? Data(contentsOf: url) else { return nil }
        data = bytes
    }
}

extension CGImage {
    /// An image from `provider`'s pixels: 8 bits per component, RGB in 32 bits (alpha premultiplied, straight or
    /// skipped, first or last, byte order default, 32Big or 32Little) or grey in 8 bits, rows `bytesPerRow` apart.
    /// The pixels are converted to Lamina's premultiplied BGRA (straight alpha premultiplied, rounding). `decode`
    /// arrays are not supported (nil), `shouldInterpolate` and `intent` are ignored. Nil for any other format, a
    /// provider with too few bytes, or a size beyond `PixelLimits.default`.
    public convenience init?(width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
                             space: CGColorSpace, bitmapInfo: CGBitmapInfo, provider: CGDataProvider,
                             decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool,
                             intent: CGColorRenderingIntent) {
        guard decode == nil, width > 0, height > 0,
              let (layout, straight) = bitmapLayout(bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                                                    model: space.model, info: bitmapInfo.rawValue,
                                                    allowStraight: true),
              let bytes = provider.data
        else { return nil }
        let row = width.multipliedReportingOverflow(by: layout.bytesPerPixel)
        guard !row.overflow, bytesPerRow >= row.partialValue else { return nil }
        let needed = bytesPerRow.multipliedReportingOverflow(by: height - 1)
        guard !needed.overflow, needed.partialValue <= bytes.count - row.partialValue else { return nil }
        do { try self.init(width: width, height: height) } catch { return nil }
        var copy = bytes
        copy.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress,
                  let memory = BitmapMemory(data: base, width: width, height: height, bytesPerRow: bytesPerRow,
                                            layout: layout)
            else { return }
            memory.load(into: self, box: (0, 0, width, height))
        }
        if straight { premultiplyInPlace() }
        markModified()
    }

    /// Premultiplies every pixel's colour by its alpha (rounding), for pixels loaded with straight alpha.
    private func premultiplyInPlace() {
        let bytes = baseAddress.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            let row = bytes + y * bytesPerRow
            for x in 0..<width {
                let p = row + 4 * x, a = Int(p[3])
                guard a < 255 else { continue }
                for c in 0..<3 { p[c] = UInt8((Int(p[c]) * a + 127) / 255) }
            }
        }
    }

    /// 8.
    public var bitsPerComponent: Int { 8 }
    /// 32: every CGImage is 8-bit premultiplied BGRA here.
    public var bitsPerPixel: Int { 32 }
    /// premultipliedFirst | byteOrder32Little: blue, green, red, alpha in memory.
    public var bitmapInfo: CGBitmapInfo {
        CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
    }
    /// premultipliedFirst.
    public var alphaInfo: CGImageAlphaInfo { .premultipliedFirst }
    /// sRGB.
    public var colorSpace: CGColorSpace? { CGColorSpace(name: CGColorSpace.sRGB) }
    /// The pixels as `bitmapInfo` and `bytesPerRow` describe them (a copy).
    public var dataProvider: CGDataProvider? {
        CGDataProvider(data: Data(bytes: baseAddress, count: bytesPerRow * height))
    }
    /// The same image: CGImages are not changed once shared.
    public func copy() -> CGImage? { self }

    /// The part of the image within `rect` (pixels, origin at the top-left, the first row at y 0; rounded out to
    /// whole pixels), as a new image; nil when it holds no pixel.
    public func cropping(to rect: CGRect) -> CGImage? {
        let r = rect.standardized.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !r.isNull, r.width > 0, r.height > 0 else { return nil }
        let (x0, y0, w, h) = (Int(r.minX), Int(r.minY), Int(r.width), Int(r.height))
        guard let out = try? Image(width: w, height: h) else { return nil }
        for y in 0..<h {
            memcpy(out.baseAddress + y * out.bytesPerRow, baseAddress + (y0 + y) * bytesPerRow + 4 * x0, 4 * w)
        }
        out.markModified()
        return out
    }
}

extension CGGradient {
    /// A gradient of `colors` (CGColors) at `locations` (nil: spread evenly from 0 to 1); the space is ignored
    /// (colours are sRGB). Nil when `colors` is empty or holds something other than colours.
    public init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: UnsafePointer<CGFloat>?) {
        let list = (colors as? [Any])?.compactMap { $0 as? CGColor } ?? []
        guard !list.isEmpty, list.count == colors.count else { return nil }
        self.init(colors: list, locations: locations.map { p in (0..<list.count).map { p[$0] } })
    }

    /// A gradient of `count` colours given as components in `space` (its components then alpha, each colour in
    /// turn) at `locations` (nil: spread evenly). Nil when `count` is not positive.
    public init?(colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>,
                 locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count > 0 else { return nil }
        let stride = space.numberOfComponents + 1
        var list: [CGColor] = []
        for i in 0..<count {
            guard let color = CGColor(colorSpace: space, components: components + i * stride) else { return nil }
            list.append(color)
        }
        self.init(colors: list, locations: locations.map { p in (0..<count).map { p[$0] } })
    }
}
