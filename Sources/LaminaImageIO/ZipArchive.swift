import CZlib
import Foundation

/// A zip archive held in memory, read through its central directory (docs/archives.md).
///
/// Reads what dotLottie files (and most zip writers) produce: entries stored or compressed with deflate, with
/// or without data descriptors, zip64 sizes and offsets, names in UTF-8 (names that are not valid UTF-8 are
/// decoded with U+FFFD for the bad bytes). Every read is bounds-checked and every size is checked against
/// `ZipLimits` before memory is allocated, so any byte sequence gives entries or a `ZipError`, never a trap.
///
/// Refused when the archive is opened (the whole archive is untrustworthy then): no end of central directory
/// record, truncated or malformed headers, spanned archives, more entries than the limit, names that are too
/// long, absolute or contain a `..` component, a name that appears twice (zip readers disagree on which of
/// two copies wins, so neither is picked), and declared sizes past the total limit. Refused when an entry is
/// read: an unknown name, encryption, a method other than stored (0) or deflate (8), a size past the entry
/// limit or ratio limit, a local header that disagrees with the central directory, data that inflates to more
/// or less than the declared size, and a CRC-32 that does not match.
public struct ZipArchive: Sendable {
    /// One entry of the central directory.
    struct Entry: Sendable {
        var name: String
        var nameBytes: [UInt8]
        var flags: UInt16
        var method: UInt16
        var crc: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    private let bytes: Data
    private let entries: [Entry]
    private let index: [String: Int]
    /// The limits this archive was opened with; `contents(of:)` applies the per-entry ones.
    public let limits: ZipLimits

    /// Opens the archive in `data`: finds the end of central directory record (zip64 too) and reads every
    /// central directory entry, checking the names and the declared sizes against `limits`. Nothing is
    /// inflated yet.
    public init(data: Data, limits: ZipLimits = .default) throws(ZipError) {
        // A copy that starts at index 0 (a slice of a larger Data keeps its indices).
        let bytes = data.startIndex == 0 ? data : Data(data)
        self.bytes = bytes
        self.limits = limits
        let reader = ByteReader(bytes: bytes)
        let directory = try Self.findDirectory(reader)
        guard directory.count <= limits.maxEntries else {
            throw .tooManyEntries(count: directory.count, limit: limits.maxEntries)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(directory.count)
        var index: [String: Int] = [:]
        var offset = directory.offset
        let end = directory.offset + directory.size
        var total = 0
        for number in 0..<directory.count {
            let entry = try Self.readCentralEntry(reader, at: &offset, end: end, number: number, limits: limits)
            guard index[entry.name] == nil else { throw .duplicateName(entry.name) }
            index[entry.name] = entries.count
            let (sum, overflow) = total.addingReportingOverflow(entry.uncompressedSize)
            guard !overflow, sum <= limits.maxTotalSize else {
                throw .totalTooLarge(limit: limits.maxTotalSize)
            }
            total = sum
            entries.append(entry)
        }
        self.entries = entries
        self.index = index
    }

    /// Whether `data` starts as a zip archive does (a local file header, or the end record of an empty archive):
    /// how a `.lottie` file is told from Lottie JSON by its bytes rather than its name.
    public static func hasSignature(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(4))
        return head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06]
    }

    /// The entries' names in the order of the central directory (folders end in "/").
    public var entryNames: [String] { entries.map(\.name) }

    /// Whether the archive has an entry with exactly this name.
    public func contains(_ name: String) -> Bool { index[name] != nil }

    /// The declared uncompressed size of the entry `name`, or nil when there is none.
    public func uncompressedSize(of name: String) -> Int? { index[name].map { entries[$0].uncompressedSize } }

    /// The uncompressed bytes of the entry `name`: stored, or inflated with zlib (raw deflate) into a buffer of
    /// exactly the declared size, never more; then checked against the declared size and CRC-32.
    public func contents(of name: String) throws(ZipError) -> Data {
        guard let position = index[name] else { throw .noEntry(name) }
        let entry = entries[position]
        guard entry.flags & 0x41 == 0, entry.method != 99 else { throw .encrypted(name) }
        guard entry.method == 0 || entry.method == 8 else { throw .unsupportedMethod(name: name, method: entry.method) }
        guard entry.uncompressedSize <= limits.maxEntrySize else {
            throw .entryTooLarge(name: name, size: entry.uncompressedSize, limit: limits.maxEntrySize)
        }
        if entry.uncompressedSize > limits.ratioThreshold {
            let (allowed, overflow) = entry.compressedSize.multipliedReportingOverflow(by: limits.maxCompressionRatio)
            if !overflow, entry.uncompressedSize > allowed {
                throw .ratioTooHigh(name: name, ratio: entry.uncompressedSize / max(entry.compressedSize, 1),
                                    limit: limits.maxCompressionRatio)
            }
        }
        let dataStart = try localDataStart(of: entry)
        let reader = ByteReader(bytes: bytes)
        guard reader.has(dataStart, entry.compressedSize) else {
            throw .truncated("the data of entry \(ZipError.quoted(name)) ends past the end of the archive")
        }
        let output: Data
        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else {
                throw .malformed("entry \(ZipError.quoted(name)) is stored but declares \(entry.compressedSize) "
                    + "compressed and \(entry.uncompressedSize) uncompressed bytes")
            }
            output = bytes.subdata(in: dataStart..<dataStart + entry.compressedSize)
        } else {
            output = try Self.inflate(bytes, from: dataStart, count: entry.compressedSize,
                                      into: entry.uncompressedSize, name: name)
        }
        let crc = Self.crc32(output)
        guard crc == entry.crc else { throw .crcMismatch(name: name, expected: entry.crc, actual: crc) }
        return output
    }

    // MARK: - Reading the directory

    private struct Directory {
        var count: Int
        var offset: Int
        var size: Int
    }

    /// The end of central directory record (the last one whose comment fits the file), then the zip64 record
    /// when a field is saturated.
    private static func findDirectory(_ reader: ByteReader) throws(ZipError) -> Directory {
        let count = reader.count
        guard count >= 22 else { throw .notAZip }
        var found: Int?
        var position = count - 22
        let lowest = max(0, count - 22 - 0xFFFF)
        while position >= lowest {
            if reader.u32(position) == 0x0605_4B50, let comment = reader.u16(position + 20),
               position + 22 + Int(comment) <= count {
                found = position
                break
            }
            position -= 1
        }
        guard let eocd = found,
              let disk = reader.u16(eocd + 4), let directoryDisk = reader.u16(eocd + 6),
              let onDisk = reader.u16(eocd + 8), let total = reader.u16(eocd + 10),
              let size = reader.u32(eocd + 12), let offset = reader.u32(eocd + 16)
        else { throw .notAZip }
        var directory = Directory(count: Int(total), offset: Int(offset), size: Int(size))
        var spanned = disk != 0 || directoryDisk != 0 || onDisk != total
        var directoryEnd = eocd
        if total == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF || disk == 0xFFFF {
            // The zip64 end of central directory locator sits right before the record; it gives the zip64 record.
            if eocd >= 20, reader.u32(eocd - 20) == 0x0706_4B50 {
                guard let recordOffset = reader.int64(eocd - 20 + 8) else {
                    throw .malformed("the zip64 locator gives an offset past the end of the archive")
                }
                guard recordOffset <= eocd - 20 - 56, reader.u32(recordOffset) == 0x0606_4B50,
                      let disk64 = reader.u32(recordOffset + 16), let directoryDisk64 = reader.u32(recordOffset + 20),
                      let onDisk64 = reader.int64(recordOffset + 24), let total64 = reader.int64(recordOffset + 32),
                      let size64 = reader.int64(recordOffset + 40), let offset64 = reader.int64(recordOffset + 48)
                else { throw .malformed("the zip64 end of central directory record is missing or damaged") }
                directory = Directory(count: total64, offset: offset64, size: size64)
                spanned = disk64 != 0 || directoryDisk64 != 0 || onDisk64 != total64
                directoryEnd = recordOffset
            } else if total == 0xFFFF && size == 0xFFFF_FFFF && offset == 0xFFFF_FFFF {
                throw .malformed("the end of central directory record asks for zip64 but there is no zip64 locator")
            }
        }
        guard !spanned else { throw .spanned }
        guard directory.offset <= directoryEnd, directory.size <= directoryEnd - directory.offset else {
            throw .truncated("the central directory (\(directory.size) bytes at offset \(directory.offset)) "
                + "does not fit before the end of central directory record at offset \(directoryEnd)")
        }
        // 46 bytes is the smallest central directory entry: a count that cannot fit is a damaged record, and
        // refusing it here keeps a huge count from reserving memory.
        guard directory.count <= directory.size / 46 else {
            throw .malformed("the central directory of \(directory.size) bytes cannot hold the \(directory.count) "
                + "entries the end of central directory record declares")
        }
        return directory
    }

    private static func readCentralEntry(
        _ reader: ByteReader, at offset: inout Int, end: Int, number: Int, limits: ZipLimits
    ) throws(ZipError) -> Entry {
        guard end - offset >= 46, reader.u32(offset) == 0x0201_4B50,
              let flags = reader.u16(offset + 8), let method = reader.u16(offset + 10),
              let crc = reader.u32(offset + 16), let compressed32 = reader.u32(offset + 20),
              let uncompressed32 = reader.u32(offset + 24), let nameLength = reader.u16(offset + 28),
              let extraLength = reader.u16(offset + 30), let commentLength = reader.u16(offset + 32),
              let diskStart = reader.u16(offset + 34), let local32 = reader.u32(offset + 42)
        else {
            throw end - offset < 46
                ? .truncated("central directory entry \(number + 1) ends past the central directory")
                : .malformed("central directory entry \(number + 1) does not start with a header signature")
        }
        let variable = Int(nameLength) + Int(extraLength) + Int(commentLength)
        guard end - offset - 46 >= variable else {
            throw .truncated("the name, extra field or comment of central directory entry \(number + 1) "
                + "ends past the central directory")
        }
        guard Int(nameLength) <= limits.maxNameLength else {
            throw .nameTooLong(entry: number + 1, length: Int(nameLength), limit: limits.maxNameLength)
        }
        let nameBytes = reader.bytes(offset + 46, Int(nameLength))
        let name = String(decoding: nameBytes, as: UTF8.self)
        try checkName(name)
        var compressed = Int(compressed32)
        var uncompressed = Int(uncompressed32)
        var local = Int(local32)
        if compressed32 == 0xFFFF_FFFF || uncompressed32 == 0xFFFF_FFFF || local32 == 0xFFFF_FFFF || diskStart == 0xFFFF {
            // The zip64 extended information extra field (0x0001) holds, in this order, exactly those of the
            // uncompressed size, compressed size and local header offset that are saturated above.
            guard let zip64 = findExtra(reader, id: 1, from: offset + 46 + Int(nameLength), count: Int(extraLength)) else {
                throw .malformed("entry \(ZipError.quoted(name)) has saturated sizes but no zip64 extra field")
            }
            var field = zip64.offset
            let fieldEnd = zip64.offset + zip64.count
            func next() throws(ZipError) -> Int {
                guard fieldEnd - field >= 8, let value = reader.int64(field) else {
                    throw .malformed("the zip64 extra field of entry \(ZipError.quoted(name)) is too short or out of range")
                }
                field += 8
                return value
            }
            if uncompressed32 == 0xFFFF_FFFF { uncompressed = try next() }
            if compressed32 == 0xFFFF_FFFF { compressed = try next() }
            if local32 == 0xFFFF_FFFF { local = try next() }
        }
        offset += 46 + variable
        return Entry(name: name, nameBytes: nameBytes, flags: flags, method: method, crc: crc,
                     compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: local)
    }

    /// Refuses names a careless extractor would write outside its folder.
    private static func checkName(_ name: String) throws(ZipError) {
        let utf8 = Array(name.utf8)
        if utf8.first == UInt8(ascii: "/") || utf8.first == UInt8(ascii: "\\")
            || (utf8.count >= 2 && utf8[1] == UInt8(ascii: ":")) {
            throw .unsafeName(name: name, reason: "absolute names are not allowed")
        }
        let components = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
        if components.contains("..") {
            throw .unsafeName(name: name, reason: "names with a \"..\" component are not allowed")
        }
    }

    /// The data of the extra field `id` among the extra fields at `from`, or nil.
    private static func findExtra(_ reader: ByteReader, id: UInt16, from: Int, count: Int) -> (offset: Int, count: Int)? {
        var position = from
        let end = from + count
        while end - position >= 4, let tag = reader.u16(position), let size = reader.u16(position + 2) {
            let dataStart = position + 4
            guard end - dataStart >= Int(size) else { return nil }
            if tag == id { return (dataStart, Int(size)) }
            position = dataStart + Int(size)
        }
        return nil
    }

    /// Where the entry's data starts: after its local header, which must agree with the central directory.
    private func localDataStart(of entry: Entry) throws(ZipError) -> Int {
        let reader = ByteReader(bytes: bytes)
        let offset = entry.localHeaderOffset
        let name = entry.name
        guard reader.has(offset, 30), let nameLength = reader.u16(offset + 26), let extraLength = reader.u16(offset + 28),
              let flags = reader.u16(offset + 6), let method = reader.u16(offset + 8), let crc = reader.u32(offset + 14),
              let compressed = reader.u32(offset + 18), let uncompressed = reader.u32(offset + 22)
        else { throw .truncated("the local header of entry \(ZipError.quoted(name)) ends past the end of the archive") }
        guard reader.u32(offset) == 0x0403_4B50 else {
            throw .localHeaderMismatch(name: name, field: "signature")
        }
        let dataStart = offset + 30 + Int(nameLength) + Int(extraLength)
        guard reader.has(offset + 30, Int(nameLength) + Int(extraLength)) else {
            throw .truncated("the local header of entry \(ZipError.quoted(name)) ends past the end of the archive")
        }
        guard reader.bytes(offset + 30, Int(nameLength)) == entry.nameBytes else {
            throw .localHeaderMismatch(name: name, field: "name")
        }
        guard method == entry.method else { throw .localHeaderMismatch(name: name, field: "compression method") }
        // With a data descriptor (flag bit 3) the local CRC and sizes may be zero; zip64 saturates them.
        if flags & 0x08 == 0 {
            guard crc == entry.crc else { throw .localHeaderMismatch(name: name, field: "CRC-32") }
            if compressed != 0xFFFF_FFFF, uncompressed != 0xFFFF_FFFF {
                guard Int(compressed) == entry.compressedSize else {
                    throw .localHeaderMismatch(name: name, field: "compressed size")
                }
                guard Int(uncompressed) == entry.uncompressedSize else {
                    throw .localHeaderMismatch(name: name, field: "uncompressed size")
                }
            }
        }
        return dataStart
    }

    // MARK: - zlib

    /// Raw-deflate data inflated into exactly `size` bytes; more output than that, or less, is an error.
    private static func inflate(_ bytes: Data, from start: Int, count: Int, into size: Int, name: String) throws(ZipError) -> Data {
        var output = Data(count: max(size, 1))
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt(name: name, reason: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        // One spare byte of output space tells data that inflates past the declared size from data that fills it.
        let result: Result<Int, ZipError> = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                let inBase = input.baseAddress!.assumingMemoryBound(to: UInt8.self) + start
                let outBase = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var consumed = 0
                var produced = 0
                while true {
                    let inChunk = min(count - consumed, Int(UInt32.max))
                    let outChunk = min(size - produced, Int(UInt32.max))
                    stream.next_in = UnsafeMutablePointer(mutating: inBase + consumed)
                    stream.avail_in = UInt32(inChunk)
                    stream.next_out = outBase + produced
                    stream.avail_out = UInt32(outChunk)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    consumed += inChunk - Int(stream.avail_in)
                    produced += outChunk - Int(stream.avail_out)
                    switch status {
                    case Z_STREAM_END:
                        return .success(produced)
                    case Z_OK:
                        continue
                    case Z_BUF_ERROR:
                        if produced == size {
                            // The output is full but the stream has not ended: it may still end without another
                            // byte (its end-of-block code is pending), or go on past the declared size.
                            if let error = Self.pastDeclared(stream: &stream, name: name, size: size,
                                                             remaining: inBase + consumed, count: count - consumed) {
                                return .failure(error)
                            }
                            return .success(produced)
                        }
                        return .failure(.corrupt(name: name, reason: "the compressed data ends before the deflate stream does"))
                    case Z_NEED_DICT:
                        return .failure(.corrupt(name: name, reason: "the deflate stream asks for a preset dictionary"))
                    default:
                        let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                        return .failure(.corrupt(name: name, reason: "invalid deflate data (\(message))"))
                    }
                }
            }
        }
        let produced: Int
        switch result {
        case .success(let value): produced = value
        case .failure(let error): throw error
        }
        guard produced == size else { throw .sizeMismatch(name: name, declared: size, actual: produced) }
        if size == 0 { output.count = 0 }
        return output
    }

    /// With the output full at the declared size: inflates one more byte into a scratch byte to tell data that
    /// goes on from a stream that simply has not seen its end marker yet (nil: it ends there).
    private static func pastDeclared(
        stream: inout z_stream, name: String, size: Int, remaining: UnsafePointer<UInt8>, count: Int
    ) -> ZipError? {
        var scratch: UInt8 = 0
        let inChunk = min(count, Int(UInt32.max))
        stream.next_in = UnsafeMutablePointer(mutating: remaining)
        stream.avail_in = UInt32(inChunk)
        let status = withUnsafeMutablePointer(to: &scratch) { pointer -> Int32 in
            stream.next_out = pointer
            stream.avail_out = 1
            return CZlib.inflate(&stream, Z_NO_FLUSH)
        }
        if stream.avail_out == 0 { return .inflatesPastDeclared(name: name, declared: size) }
        if status == Z_STREAM_END { return nil }
        if status == Z_BUF_ERROR || status == Z_OK {
            return .corrupt(name: name, reason: "the compressed data ends before the deflate stream does")
        }
        let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
        return .corrupt(name: name, reason: "invalid deflate data (\(message))")
    }

    /// zlib's CRC-32 of the whole buffer.
    static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { buffer -> UInt32 in
            var crc = CZlib.crc32(0, nil, 0)
            var position = 0
            while position < buffer.count {
                let chunk = min(buffer.count - position, Int(UInt32.max))
                crc = CZlib.crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + position, UInt32(chunk))
                position += chunk
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }
}

/// Bounds-checked little-endian reads; every read answers nil past the end instead of trapping.
private struct ByteReader {
    let bytes: Data
    var count: Int { bytes.count }

    /// Whether `length` bytes from `offset` lie inside the data (no overflow for any inputs).
    func has(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    func u16(_ offset: Int) -> UInt16? {
        guard has(offset, 2) else { return nil }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func u32(_ offset: Int) -> UInt32? {
        guard has(offset, 4) else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * UInt32(index)) }
        return value
    }

    /// A 64-bit field as an Int; nil past the end or when it does not fit an Int (so it is out of any range).
    func int64(_ offset: Int) -> Int? {
        guard has(offset, 8) else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return Int(exactly: value)
    }

    /// The bytes in range; callers check `has` first.
    func bytes(_ offset: Int, _ length: Int) -> [UInt8] {
        guard has(offset, length) else { return [] }
        return [UInt8](bytes[offset..<offset + length])
    }
}
