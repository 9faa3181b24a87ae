import CZlib
import Foundation
import LaminaCore
import LaminaImageIO
import Testing

/// Decompression bombs in PNGs (docs/reliability.md, "Hostile images"): image data that inflates past its rows,
/// compressed text and profile chunks, chunk floods. Each gets a named error or the right picture, checked before
/// libpng reads the file, so they hold whatever limits libpng was built with.
@Suite struct PNGBombTests {
    /// A 16 x 16 8-bit RGBA PNG whose rows are opaque red, its IDAT stream holding `surplus` more zero bytes after
    /// them, and `extra` chunks (type and data) after IHDR.
    static func png(surplus: Int = 0, extra: [(String, [UInt8])] = [], interlaced: Bool = false) -> Data {
        var rows: [UInt8] = []
        // Adam7 of 16 x 16 has the same bytes in all (a filter byte a row of each pass) but in other rows;
        // solid red needs no care for which.
        let rowCount = interlaced ? 1 + 1 + 2 + 2 + 4 + 4 + 8 + 8 - 2 : 16
        let widths = interlaced ? [2, 2, 4, 4, 8, 8, 16] : []
        if interlaced {
            let passRows = [2, 2, 2, 4, 4, 8, 8]
            for (pass, width) in widths.enumerated() {
                for _ in 0..<passRows[pass] {
                    rows.append(0)
                    for _ in 0..<width { rows += [255, 0, 0, 255] }
                }
            }
        } else {
            for _ in 0..<rowCount {
                rows.append(0)
                for _ in 0..<16 { rows += [255, 0, 0, 255] }
            }
        }
        var ihdr = bigEndian(16) + bigEndian(16)
        ihdr += [8, 6, 0, 0, interlaced ? 1 : 0]
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", ihdr)
        for (type, data) in extra { file += chunk(type, data) }
        file += chunk("IDAT", deflate(rows, zeros: surplus))
        file += chunk("IEND", [])
        return Data(file)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        return bigEndian(data.count) + body + bigEndian(Int(crc))
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }

    /// A zlib stream of `bytes` followed by `zeros` zero bytes, at the best compression (about 1,000 to 1).
    static func deflate(_ bytes: [UInt8], zeros: Int) -> [UInt8] {
        var stream = z_stream()
        deflateInit_(&stream, 9, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var output: [UInt8] = []
        let zeroBlock = [UInt8](repeating: 0, count: 1 << 20)
        var out = [UInt8](repeating: 0, count: 1 << 16)
        func feed(_ input: [UInt8], count: Int, finish: Bool) {
            input.withUnsafeBufferPointer { buffer in
                stream.next_in = UnsafeMutablePointer(mutating: buffer.baseAddress)
                stream.avail_in = UInt32(count)
                repeat {
                    out.withUnsafeMutableBufferPointer { o in
                        stream.next_out = o.baseAddress
                        stream.avail_out = UInt32(o.count)
                        _ = CZlib.deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
                        output += o.prefix(o.count - Int(stream.avail_out))
                    }
                } while stream.avail_out == 0 || stream.avail_in > 0
            }
        }
        feed(bytes, count: bytes.count, finish: zeros == 0)
        var left = zeros
        while left > 0 {
            let count = min(left, zeroBlock.count)
            left -= count
            feed(zeroBlock, count: count, finish: left == 0)
        }
        return output
    }

    private func corruptReason(_ data: Data) -> String? {
        do {
            _ = try Image(data: data, name: "bomb.png")
            return nil
        } catch let error as ImageDecodingError {
            if case .corrupt(_, let reason) = error { return reason }
            return "\(error)"
        } catch {
            return "\(error)"
        }
    }

    @Test func imageDataPastTheRowsIsRefusedAsABomb() {
        // 1,040 bytes of rows, then 64 MiB of zeros in the same stream (a 64 KB file).
        let bomb = Self.png(surplus: 64 << 20)
        #expect(bomb.count < 100_000)
        #expect(corruptReason(bomb)
                    == "its image data inflates to more than its rows need (1040 bytes) by over 1 MiB: a decompression bomb")
        // Interlaced: the seven passes' rows are what is needed.
        #expect(corruptReason(Self.png(surplus: 64 << 20, interlaced: true))?.hasSuffix("a decompression bomb") == true)
    }

    @Test func aLittleSurplusStillDraws() throws {
        for interlaced in [false, true] {
            let image = try Image(data: Self.png(surplus: 1000, interlaced: interlaced), name: "extra.png")
            #expect(image.width == 16 && image.height == 16)
            #expect(image.rgba(x: 0, y: 0) == RGBA8(r: 255, g: 0, b: 0, a: 255))
            #expect(image.rgba(x: 15, y: 15) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        }
    }

    @Test func compressedTextIsDroppedUnread() throws {
        // zTXt and iTXt holding 64 MiB of zeros each: not pixels, so never inflated.
        let text = Array("Comment".utf8) + [0, 0] + Self.deflate([], zeros: 64 << 20)
        let itxt = Array("Comment".utf8) + [0, 1, 0, 0, 0] + Self.deflate([], zeros: 64 << 20)
        let image = try Image(data: Self.png(extra: [("zTXt", text), ("iTXt", itxt), ("tEXt", Array("a\u{0}b".utf8))]),
                              name: "text.png")
        #expect(image.rgba(x: 8, y: 8) == RGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func aProfileThatInflatesPastTheLimitIsRefused() throws {
        let profile = Array("bomb".utf8) + [0, 0] + Self.deflate([], zeros: 64 << 20)
        #expect(corruptReason(Self.png(extra: [("iCCP", profile)])) == "its iCCP profile inflates to more than 8388608 bytes")
    }

    @Test func chunkFloodsAreDroppedOrRefused() throws {
        // 5,000 private chunks (libpng's own cache would stop at 1,000): dropped, the image draws.
        let flood = Array(repeating: ("prVt", [UInt8](repeating: 1, count: 4)), count: 5000)
        let image = try Image(data: Self.png(extra: flood), name: "flood.png")
        #expect(image.rgba(x: 3, y: 3) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        // Past 100,000 chunks the file is refused.
        let deluge = Array(repeating: ("prVt", [UInt8]()), count: 100_001)
        #expect(corruptReason(Self.png(extra: deluge)) == "it has more than 100000 chunks")
    }
}
