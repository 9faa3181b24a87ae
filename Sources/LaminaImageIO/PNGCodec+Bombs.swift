import CZlib
import Foundation

/// Decompression bombs (docs/reliability.md, "Hostile images"), checked on the bytes before libpng reads them, so
/// that the limits hold whatever limits a distribution built libpng with:
///
/// - **Image data past the rows.** libpng inflates a file's whole IDAT stream, also past the bytes its rows need
///   (to find the stream's end): a 16 x 16 PNG whose 4 MB IDAT inflates to gigabytes took 9 s. The stream is
///   inflated here (into a small scratch buffer, nothing kept) only until it ends or gives more than the rows
///   need plus `surplusAllowance`; more is refused. So a PNG costs time in proportion to its pixels.
/// - **Compressed ancillary chunks.** zTXt and iTXt (text) are dropped before libpng sees them: they do not
///   change a pixel. An iCCP profile (which libpng inflates to recognise sRGB) is inflated here first, and one of
///   more than `profileLimit` bytes is refused.
/// - **Chunk floods.** Ancillary chunks that do not change pixels (text, time, physical size, private chunks)
///   are dropped; more than `chunkLimit` chunks in all is refused.
extension PNGCodec {
    /// Bytes of inflated image data past what the rows need that are still drawn (libpng calls a little
    /// "extra compressed data" a warning).
    static let surplusAllowance = 1 << 20
    /// The largest iCCP profile, inflated (libpng's own default limit for a chunk is 8 MB).
    static let profileLimit = 8 << 20
    /// The most chunks a file may have.
    static let chunkLimit = 100_000
    /// Ancillary chunks kept: those the simplified API reads to make pixels.
    static let pixelChunks: Set<String> = ["tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "bKGD"]

    /// One chunk's place in the file.
    struct Chunk {
        var type: String
        /// Where its length field starts, and where its data starts and ends.
        var start: Int
        var data: Range<Int>
        /// Where the next chunk starts (after the CRC).
        var end: Int { data.upperBound + 4 }
    }

    /// Makes `buffer` the bytes libpng should read: the chunks that cannot change a pixel are cut out, in place (no
    /// second copy of the file). Throws `corrupt` for a bomb. Structural damage is left to libpng, which words its
    /// own errors.
    static func defuse(_ buffer: ByteBuffer, name: String) throws {
        let bytes = buffer.bytes
        guard let size = headerSize(bytes), bytes.count >= 33 else { return }
        var chunks: [Chunk] = []
        var offset = signature.count
        while offset + 12 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
            guard length <= bytes.count - offset - 12 else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let chunk = Chunk(type: type, start: offset, data: (offset + 8)..<(offset + 8 + length))
            chunks.append(chunk)
            if chunks.count > chunkLimit {
                throw ImageDecodingError.corrupt(name: name, reason: "it has more than \(chunkLimit) chunks")
            }
            offset = chunk.end
            if type == "IEND" { break }
        }
        let bitDepth = Int(bytes[24]), colourType = Int(bytes[25]), interlaced = bytes[28] == 1
        if let needed = rowBytes(width: size.width, height: size.height, bitDepth: bitDepth, colourType: colourType,
                                 interlaced: interlaced) {
            let idat = chunks.filter { $0.type == "IDAT" }.map(\.data)
            if inflatesPast(bytes, idat, needed: needed) {
                throw ImageDecodingError.corrupt(
                    name: name, reason: "its image data inflates to more than its rows need (\(needed) bytes) by over "
                        + "\(surplusAllowance >> 20) MiB: a decompression bomb")
            }
        }
        for chunk in chunks where chunk.type == "iCCP" {
            // Name (1-79 bytes), a 0, the compression method, then the zlib stream.
            let data = UnsafeRawBufferPointer(rebasing: bytes[chunk.data])
            guard let zero = data.firstIndex(of: 0), zero + 2 <= data.count else { continue }
            let stream = (chunk.data.lowerBound + zero + 2)..<chunk.data.upperBound
            if let inflated = inflatedBytes(bytes, [stream], limit: profileLimit), inflated > profileLimit {
                throw ImageDecodingError.corrupt(
                    name: name, reason: "its iCCP profile inflates to more than \(profileLimit) bytes")
            }
        }
        let dropped = chunks.filter { chunk in
            let ancillary = chunk.type.utf8.first.map { $0 & 0x20 != 0 } ?? false
            return ancillary && !pixelChunks.contains(chunk.type)
        }
        guard !dropped.isEmpty else { return }
        buffer.remove(dropped.map { $0.start..<$0.end })
    }

    /// The bytes a PNG's rows take inflated (a filter byte and the packed samples a row, over the seven Adam7
    /// passes when interlaced); nil for a bit depth or colour type PNG does not have (libpng refuses it).
    static func rowBytes(width: Int, height: Int, bitDepth: Int, colourType: Int, interlaced: Bool) -> Int? {
        let channels: Int
        switch colourType {
        case 0, 3: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        guard [1, 2, 4, 8, 16].contains(bitDepth), width > 0, height > 0 else { return nil }
        let bits = bitDepth * channels
        func bytes(_ w: Int, _ h: Int) -> Int { w == 0 || h == 0 ? 0 : h * (1 + (w * bits + 7) / 8) }
        guard interlaced else { return bytes(width, height) }
        // Adam7: (x start, y start, x step, y step) of each pass.
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { total, pass in
            let w = (width - pass.0 + pass.2 - 1) / pass.2, h = (height - pass.1 + pass.3 - 1) / pass.3
            return total + bytes(max(0, w), max(0, h))
        }
    }

    /// Whether the zlib stream split over `ranges` inflates to more than `needed` + `surplusAllowance` bytes
    /// (false for a damaged stream: libpng reports that).
    static func inflatesPast(_ bytes: UnsafeRawBufferPointer, _ ranges: [Range<Int>], needed: Int) -> Bool {
        (inflatedBytes(bytes, ranges, limit: needed + surplusAllowance) ?? 0) > needed + surplusAllowance
    }

    /// The bytes the zlib stream split over `ranges` of `bytes` inflates to, counting stops just past `limit`; nil
    /// when the stream is damaged before that.
    static func inflatedBytes(_ bytes: UnsafeRawBufferPointer, _ ranges: [Range<Int>], limit: Int) -> Int? {
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        let scratchSize = 1 << 16
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchSize)
        defer { scratch.deallocate() }
        var total = 0
        for range in ranges where !range.isEmpty {
            var position = range.lowerBound
            while position < range.upperBound {
                let piece = min(range.upperBound - position, Int(UInt32.max))
                stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress!.advanced(by: position)
                    .assumingMemoryBound(to: UInt8.self))
                stream.avail_in = UInt32(piece)
                repeat {
                    stream.next_out = scratch
                    stream.avail_out = UInt32(scratchSize)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    total += scratchSize - Int(stream.avail_out)
                    if total > limit { return total }
                    if status == Z_STREAM_END { return total }
                    guard status == Z_OK || status == Z_BUF_ERROR else { return total > 0 ? total : nil }
                    if status == Z_BUF_ERROR, stream.avail_in == 0 { break }
                } while stream.avail_in > 0 || stream.avail_out == 0
                position += piece
            }
        }
        return total
    }
}
