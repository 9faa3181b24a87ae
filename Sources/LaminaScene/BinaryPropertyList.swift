import Foundation

/// A look at a binary property list ("bplist00") before Foundation parses it.
///
/// Why: swift-corelibs-foundation (Swift 6.3.1) crashes the process (a null dereference while bridging) on a
/// binary property list that holds a set, wherever the set is; FuzzSpriteSheet found it. Sprite sheets never
/// hold sets, so such a file is refused here with a message instead. The object table is read with every
/// offset checked, as CoreFoundation checks it, and a table that does not add up is refused too, so that
/// nothing Foundation would read goes unchecked.
enum BinaryPropertyList {
    /// The format's layout (CFBinaryPList.c): an 8-byte header, the objects, the offset table, and a 32-byte
    /// trailer of 6 unused bytes, the offset size, the object reference size, and three 8-byte big-endian
    /// numbers: the object count, the top object and where the offset table starts.
    private static let headerSize = 8
    private static let trailerSize = 32
    /// The high nibble of a set's marker byte (0xCn).
    private static let setMarker: UInt8 = 0xC0

    /// Nil when `data` is no binary property list (Foundation reads XML and OpenStep ones safely) or one
    /// without sets; otherwise why it is refused, worded to follow "not a valid property list".
    static func refusal(_ data: Data) -> String? {
        guard data.starts(with: Array("bplist".utf8)) else { return nil }
        let bytes = [UInt8](data)
        let damaged = "a damaged binary property list"
        guard bytes.count >= headerSize + 1 + trailerSize else { return damaged }
        let trailer = bytes.count - trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        guard (1...8).contains(offsetSize), let count = number(bytes, at: trailer + 8, size: 8),
            let top = number(bytes, at: trailer + 16, size: 8),
            let tableStart = number(bytes, at: trailer + 24, size: 8)
        else { return damaged }
        let (tableSize, overflow) = count.multipliedReportingOverflow(by: offsetSize)
        guard count >= 1, top < count, tableStart >= headerSize + 1, tableStart < trailer, !overflow,
            tableSize <= trailer - tableStart
        else { return damaged }
        for index in 0..<count {
            guard let offset = number(bytes, at: tableStart + index * offsetSize, size: offsetSize),
                offset >= headerSize, offset < tableStart
            else { return damaged }
            if bytes[offset] & 0xF0 == setMarker { return "sets are not supported in binary property lists" }
        }
        return nil
    }

    /// The big-endian unsigned number of `size` bytes at `start`; nil past the end or above Int.max.
    private static func number(_ bytes: [UInt8], at start: Int, size: Int) -> Int? {
        guard start >= 0, size <= bytes.count - start else { return nil }
        var value: UInt64 = 0
        for byte in bytes[start..<(start + size)] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}
