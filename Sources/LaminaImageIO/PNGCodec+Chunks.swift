import Foundation

extension PNGCodec {
    /// Nil when every ancillary chunk fits in the data; otherwise why the file is refused.
    ///
    /// Why: libpng (1.6.39 through the simplified API) allocates and zeroes an ancillary chunk's declared
    /// length before it reads the data, so a 68-byte file whose tEXt chunk claims 1.9 GB made it allocate and
    /// clear 1.9 GB (FuzzPNG found it). A chunk can never hold more than the bytes that follow its header, so
    /// such a file is truncated or damaged and is refused before libpng sees it. Critical chunks (IHDR,
    /// PLTE, IDAT, IEND) are left to libpng, which bounds them and words its own errors.
    static func oversizedChunk(_ bytes: UnsafeRawBufferPointer) -> String? {
        var offset = signature.count
        // Each chunk: length (4, big-endian), type (4), data (length), CRC (4).
        while offset + 8 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
            let type = bytes[(offset + 4)..<(offset + 8)]
            let left = bytes.count - offset - 8
            let isAncillary = type[type.startIndex] & 0x20 != 0
            if length > left {
                guard isAncillary else { return nil }
                let name = String(decoding: type.map { (0x21...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
                return "the \(name) chunk claims \(length) bytes but only \(left) follow"
            }
            if type.elementsEqual("IEND".utf8) { return nil }
            offset += 8 + length + 4
        }
        return nil
    }
}
