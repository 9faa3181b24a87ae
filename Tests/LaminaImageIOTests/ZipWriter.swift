import CZlib
import Foundation

/// A small zip writer for the archive tests: stored and deflated entries (zlib's raw deflate), zip64 records,
/// data descriptors, and every field overridable so that a test can make exactly the damaged archive it needs.
struct ZipWriter {
    struct Entry {
        var name: String
        var data: Data
        /// 0 stored, 8 deflate: how `data` is really compressed.
        var method: UInt16 = 0
        /// The method written into the headers (default `method`).
        var declaredMethod: UInt16?
        var flags: UInt16 = 0x0800
        /// The CRC written into the headers (default: the real one).
        var crc: UInt32?
        /// The uncompressed size written into the headers (default: the real one).
        var uncompressedSize: Int?
        /// The compressed bytes written (default: `data` stored or deflated).
        var compressed: Data?
        /// The name in the local header (default `name`).
        var localName: String?
        /// Sizes and offset go into a zip64 extra field, the 32-bit fields saturated.
        var zip64 = false
        /// Flag bit 3: zero CRC and sizes in the local header, a data descriptor after the data.
        var dataDescriptor = false

        init(_ name: String, _ data: Data, method: UInt16 = 0) {
            self.name = name
            self.data = data
            self.method = method
        }

        init(_ name: String, _ text: String, method: UInt16 = 0) {
            self.init(name, Data(text.utf8), method: method)
        }
    }

    /// The archive of `entries`, in order; `zip64` writes the zip64 end of central directory record and
    /// locator with the 32-bit end record saturated. `prefix` goes before the first entry without shifting
    /// the offsets (as a damaged file would have it).
    static func archive(_ entries: [Entry], comment: String = "", zip64: Bool = false) -> Data {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let compressed = [UInt8](entry.compressed ?? (entry.method == 8 ? deflate(entry.data) : entry.data))
            let crc = entry.crc ?? crc32(entry.data)
            let size = entry.uncompressedSize ?? entry.data.count
            let method = entry.declaredMethod ?? entry.method
            let flags = entry.flags | (entry.dataDescriptor ? 0x08 : 0)
            let offset = out.count
            let name = Array(entry.name.utf8)
            let localName = Array((entry.localName ?? entry.name).utf8)
            var extra: [UInt8] = []
            if entry.zip64 { extra = le16(1) + le16(16) + le64(size) + le64(compressed.count) }
            // Local header.
            out += le32(0x0403_4B50) + le16(45) + le16(flags) + le16(method) + le16(0) + le16(0x21)
            if entry.dataDescriptor {
                out += le32(0) + le32(0) + le32(0)
            } else if entry.zip64 {
                out += le32(crc) + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF)
            } else {
                out += le32(crc) + le32(UInt32(truncatingIfNeeded: compressed.count)) + le32(UInt32(truncatingIfNeeded: size))
            }
            out += le16(localName.count) + le16(extra.count) + localName + extra + compressed
            if entry.dataDescriptor {
                out += le32(0x0807_4B50) + le32(crc) + le32(UInt32(compressed.count)) + le32(UInt32(size))
            }
            // Central directory entry.
            var centralExtra: [UInt8] = []
            if entry.zip64 { centralExtra = le16(1) + le16(24) + le64(size) + le64(compressed.count) + le64(offset) }
            central += le32(0x0201_4B50) + le16(0x031E) + le16(45) + le16(flags) + le16(method) + le16(0) + le16(0x21)
            central += le32(crc)
            if entry.zip64 {
                central += le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF)
            } else {
                central += le32(UInt32(truncatingIfNeeded: compressed.count)) + le32(UInt32(truncatingIfNeeded: size))
            }
            central += le16(name.count) + le16(centralExtra.count) + le16(0) + le16(0) + le16(0) + le32(0)
            central += le32(entry.zip64 ? 0xFFFF_FFFF : UInt32(offset)) + name + centralExtra
        }
        let directoryOffset = out.count
        out += central
        if zip64 {
            let record = out.count
            out += le32(0x0606_4B50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0)
            out += le64(entries.count) + le64(entries.count) + le64(central.count) + le64(directoryOffset)
            out += le32(0x0706_4B50) + le32(0) + le64(record) + le32(1)
            out += le32(0x0605_4B50) + le16(0xFFFF) + le16(0xFFFF) + le16(0xFFFF) + le16(0xFFFF)
            out += le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF)
        } else {
            out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(entries.count) + le16(entries.count)
            out += le32(UInt32(central.count)) + le32(UInt32(directoryOffset))
        }
        let commentBytes = Array(comment.utf8)
        out += le16(commentBytes.count) + commentBytes
        return Data(out)
    }

    /// Raw deflate (no zlib header), as zip stores it.
    static func deflate(_ data: Data, level: Int32 = 9) -> Data {
        var stream = z_stream()
        precondition(deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                                   Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 16)
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                precondition(CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Data(output[0..<produced])
    }

    static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(buffer.count)))
        }
    }

    static func le16(_ value: Int) -> [UInt8] { le16(UInt16(truncatingIfNeeded: value)) }
    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func le64(_ value: Int) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: UInt64(value) >> (8 * UInt64($0))) } }
}
