import Foundation
import LaminaCore

/// Pixel memory in a caller's layout, which a bitmap `DrawingContext` keeps in step with the Image cairo draws
/// into (CGContext's `init(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)`). Pixels are 8 bits
/// per component: four bytes (red, green, blue and premultiplied alpha or an ignored byte, at `layout`'s offsets)
/// or one byte of grey.
public final class BitmapMemory {
    /// Where each component of a pixel is.
    public enum Layout: Equatable, Sendable {
        /// Four bytes a pixel: red, green and blue at these byte offsets; `alpha` the offset of premultiplied alpha,
        /// nil when the fourth byte is skipped (the picture is opaque; the byte is never written).
        case fourBytes(red: Int, green: Int, blue: Int, alpha: Int?)
        /// One byte of grey (luminance) a pixel, opaque.
        case gray

        /// Bytes a pixel.
        public var bytesPerPixel: Int { self == .gray ? 1 : 4 }
    }

    /// The first byte of row 0 (the top of the picture).
    public let data: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    public let layout: Layout
    /// What the creator calls the format (CoreGraphics keeps its `CGBitmapInfo` raw value here).
    public var formatTag: UInt32 = 0
    /// What the creator calls the colour space (CoreGraphics keeps its `CGColorSpace` name here).
    public var colorSpaceName: String?
    private let owned: Bool

    /// Memory of `height` rows of `bytesPerRow` bytes at `data`, or allocated (zeroed) and owned when `data` is nil.
    /// Nil when the sizes are negative or too small for `width` pixels a row, or the memory cannot be had.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bytesPerRow: Int, layout: Layout) {
        let minimum = width.multipliedReportingOverflow(by: layout.bytesPerPixel)
        guard width > 0, height > 0, !minimum.overflow, bytesPerRow >= minimum.partialValue else { return nil }
        let total = bytesPerRow.multipliedReportingOverflow(by: height)
        guard !total.overflow else { return nil }
        if let data {
            self.data = data
            owned = false
        } else {
            guard let memory = calloc(total.partialValue, 1) else { return nil }
            self.data = memory
            owned = true
        }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.layout = layout
    }

    deinit { if owned { free(data) } }

    /// Copies the pixels of `box` (clamped to the picture) from this memory into `image` (premultiplied BGRA, the
    /// same size).
    public func load(into image: Image, box: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let (x0, y0, x1, y1) = clamp(box)
        guard x0 < x1, y0 < y1 else { return }
        let target = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        let source = data.assumingMemoryBound(to: UInt8.self)
        for y in y0..<y1 {
            let row = source + y * bytesPerRow, out = target + y * image.bytesPerRow
            switch layout {
            case .gray:
                for x in x0..<x1 {
                    let g = row[x]
                    out[4 * x] = g; out[4 * x + 1] = g; out[4 * x + 2] = g; out[4 * x + 3] = 255
                }
            case .fourBytes(let r, let g, let b, let a):
                for x in x0..<x1 {
                    let p = row + 4 * x, q = out + 4 * x
                    q[0] = p[b]; q[1] = p[g]; q[2] = p[r]; q[3] = a.map { p[$0] } ?? 255
                }
            }
        }
    }

    /// Copies the pixels of `box` (clamped to the picture) from `image` into this memory. Grey is the Rec. 709
    /// luminance of the (premultiplied) red, green and blue, rounded.
    public func store(from image: Image, box: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let (x0, y0, x1, y1) = clamp(box)
        guard x0 < x1, y0 < y1 else { return }
        let source = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        let target = data.assumingMemoryBound(to: UInt8.self)
        for y in y0..<y1 {
            let row = source + y * image.bytesPerRow, out = target + y * bytesPerRow
            switch layout {
            case .gray:
                for x in x0..<x1 {
                    let p = row + 4 * x
                    // 0.2126 R + 0.7152 G + 0.0722 B in 16-bit fixed point (the weights add up to 65536).
                    let luma = 13933 * Int(p[2]) + 46871 * Int(p[1]) + 4732 * Int(p[0])
                    out[x] = UInt8((luma + 32768) >> 16)
                }
            case .fourBytes(let r, let g, let b, let a):
                for x in x0..<x1 {
                    let p = row + 4 * x, q = out + 4 * x
                    q[r] = p[2]; q[g] = p[1]; q[b] = p[0]
                    if let a { q[a] = p[3] }
                }
            }
        }
    }

    private func clamp(_ box: (x0: Int, y0: Int, x1: Int, y1: Int)) -> (Int, Int, Int, Int) {
        (max(0, box.x0), max(0, box.y0), min(width, box.x1), min(height, box.y1))
    }
}
