import Foundation
import LaminaCore

/// The memory libjpeg needs beyond the image (docs/reliability.md, "Hostile images"). A baseline JPEG whose first
/// scan holds every component is decoded a row of blocks at a time, in a few rows of memory. A progressive JPEG,
/// or a sequential one split into several scans, is not: libjpeg keeps every DCT coefficient of the image until
/// the last scan (2 bytes each, 64 a block, for every block of every component: 6 bytes a pixel for 4:4:4 colour,
/// 3 for 4:2:0, 2 for grey), so a 16384 x 16384 progressive JPEG of a few hundred kilobytes would take 1.5 GiB on
/// top of its 1 GiB of pixels. Lamina reads the frame header and the first scan header itself, before libjpeg
/// allocates anything, and refuses a file whose coefficients and bytes together pass `decodingLimit`.
extension JPEGDecoder {
    /// The most memory besides the image that decoding a JPEG may take: the file's bytes (held while it decodes)
    /// and the coefficients, 352 MiB, which leaves room under 400 MB for libjpeg's row buffers and tables. A 10 MB
    /// progressive photo may have 4:2:0 coefficients of 342 MiB: 119 million pixels (4:4:4, 59 million).
    static let decodingLimit = 352 << 20

    /// What the headers before the first scan say about decoding memory.
    struct Layout {
        var width: Int
        var height: Int
        var progressive: Bool
        /// Each component's horizontal and vertical sampling factors.
        var sampling: [(h: Int, v: Int)]
        /// The components of the first scan.
        var firstScanComponents: Int

        /// Whether libjpeg keeps every coefficient (its `has_multiple_scans`).
        var keepsCoefficients: Bool { progressive || firstScanComponents < sampling.count }

        /// The coefficient memory libjpeg allocates when it keeps them (jdcoefct.c's whole-image arrays: each
        /// component's blocks, rounded up to whole MCUs), else 0.
        var coefficientBytes: Int {
            guard keepsCoefficients, let hMax = sampling.map(\.h).max(), let vMax = sampling.map(\.v).max(),
                  hMax > 0, vMax > 0 else { return 0 }
            var total = 0
            for (h, v) in sampling {
                let columns = (width * h + 8 * hMax - 1) / (8 * hMax)
                let rows = (height * v + 8 * vMax - 1) / (8 * vMax)
                let paddedColumns = (columns + h - 1) / h * h, paddedRows = (rows + v - 1) / v * v
                total += paddedColumns * paddedRows * 128
            }
            return total
        }
    }

    /// The frame and first scan headers of a JPEG stream (markers from SOI up to the first SOS); nil when they
    /// cannot be read (libjpeg then words the error).
    static func layout(_ bytes: UnsafeRawBufferPointer) -> Layout? {
        var offset = 2
        var frame: Layout?
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1  // A fill byte.
                continue
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let body = offset + 4
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                // SOFn: precision, height, width, the component count, then id, sampling and table per component.
                guard length >= 8 else { return nil }
                let count = Int(bytes[body + 5])
                guard length >= 8 + 3 * count else { return nil }
                let sampling = (0..<count).map { index in
                    let factors = bytes[body + 6 + 3 * index + 1]
                    return (h: Int(factors >> 4), v: Int(factors & 0x0F))
                }
                frame = Layout(width: Int(bytes[body + 3]) << 8 | Int(bytes[body + 4]),
                               height: Int(bytes[body + 1]) << 8 | Int(bytes[body + 2]),
                               progressive: [0xC2, 0xC6, 0xCA, 0xCE].contains(marker), sampling: sampling,
                               firstScanComponents: count)
            case 0xDA:
                guard var layout = frame, length >= 3 else { return nil }
                layout.firstScanComponents = Int(bytes[body])
                return layout
            default:
                break
            }
            offset += 2 + length
        }
        return nil
    }

    /// The most passes over pixels a JPEG of several scans may ask for: its scans times its pixels, 2^32. libjpeg
    /// goes over every block of a scan's components in each scan, even where the scan's data says nothing (a
    /// refinement scan costs about 3.5 ns a pixel here), so 500 scans of 4096 x 4096 pixels in a 60 KB file took 27 s;
    /// at the limit a JPEG decodes in about 15 s here. Ordinary progressive files have about 10 scans, so this
    /// refuses none up to 16384 x 16384.
    static let scanWorkLimit = 1 << 32

    /// The scans of the JPEG stream `bytes` (its SOS markers, found by walking the segments and the entropy-coded
    /// data between them, in one pass over the file), stopping at EOI.
    static func scanCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 4 else { return 0 }
        var scans = 0
        var offset = 2
        var inScan = false
        while offset + 1 < bytes.count {
            if inScan {
                // Entropy-coded data: a marker is an FF followed by neither 00 (a stuffed FF), FF (fill) nor RSTn.
                guard let found = memchr(base + offset, 0xFF, bytes.count - offset) else { break }
                offset = base.distance(to: UnsafeRawPointer(found))
                guard offset + 1 < bytes.count else { break }
                let next = bytes[offset + 1]
                if next == 0x00 || next == 0xFF || (0xD0...0xD7).contains(next) {
                    offset += next == 0xFF ? 1 : 2
                    continue
                }
                inScan = false
            }
            guard bytes[offset] == 0xFF else { break }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xD9 { break }
            guard offset + 4 <= bytes.count else { break }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            offset += 2 + length
            if marker == 0xDA {
                scans += 1
                inScan = true
            }
        }
        return scans
    }

    /// Throws `tooLarge` when decoding `bytes` (a JPEG `width` x `height`) would keep more coefficients than
    /// `decodingLimit` leaves beside the file's bytes, or take more passes over its pixels than `scanWorkLimit`.
    static func checkCoefficientMemory(_ bytes: UnsafeRawBufferPointer, name: String, width: Int, height: Int) throws {
        guard let layout = layout(bytes), layout.keepsCoefficients else { return }
        let kind = layout.progressive ? "a progressive JPEG" : "a JPEG of several scans"
        let scans = scanCount(bytes)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (work, passesOverflow) = pixels.multipliedReportingOverflow(by: scans)
        if overflow || passesOverflow || work > scanWorkLimit {
            throw ImageDecodingError.tooLarge(
                name: name, width: width, height: height,
                reason: "\(kind) of \(width)x\(height) in \(scans) scans would take \(scans) passes over its pixels, "
                    + "more than the limit of \(scanWorkLimit) pixels in all scans")
        }
        guard layout.coefficientBytes > decodingLimit - bytes.count else { return }
        throw ImageDecodingError.tooLarge(
            name: name, width: width, height: height,
            reason: "\(kind) of \(width)x\(height) keeps every DCT coefficient while it decodes, "
                + "\(MemorySize.describe(layout.coefficientBytes)), which with the file's "
                + "\(MemorySize.describe(bytes.count)) passes the limit of \(MemorySize.describe(decodingLimit))")
    }
}
