import Foundation

/// A `data:` URL (RFC 2397) decoded: its media type and its bytes. Lottie files embed images as
/// `data:image/png;base64,...` (docs/archives.md).
///
/// The form is `data:[<mime type>][;<parameter>=<value>]*[;base64],<payload>`. The scheme, the type and
/// `base64` are matched without regard to case; a missing type means `text/plain`. The payload is
/// percent-decoded first (so `%3D` in a base64 payload is `=`); a base64 payload may hold spaces, tabs and
/// line breaks anywhere and may leave out its `=` padding. The decoded size is checked against the limit
/// before anything is decoded.
public struct DataURL: Sendable, Equatable {
    /// The media type, lower-cased, without parameters: `image/png`; `text/plain` when the URL gives none.
    public let mimeType: String
    /// The parameters other than `base64` (`charset=utf-8`), as written.
    public let parameters: [String]
    /// Whether the payload was base64.
    public let isBase64: Bool
    /// The decoded bytes.
    public let data: Data

    /// 64 MiB: the largest payload decoded by default.
    public static let defaultLimit = 64 << 20

    /// Whether `string` starts with `data:` (any case), so that it is a data URL rather than a path.
    public static func isDataURL(_ string: String) -> Bool {
        let head = Array(string.utf8.prefix(5))
        return head.count == 5 && head[4] == UInt8(ascii: ":") && String(decoding: head[0..<4], as: UTF8.self).lowercased() == "data"
    }

    /// Decodes `string`; the decoded payload may be at most `limit` bytes.
    public init(_ string: String, limit: Int = DataURL.defaultLimit) throws(DataURLError) {
        guard Self.isDataURL(string) else { throw .notADataURL }
        let utf8 = Array(string.utf8)
        guard let comma = utf8.firstIndex(of: UInt8(ascii: ",")) else { throw .noComma }
        let header = String(decoding: utf8[5..<comma], as: UTF8.self)
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        var base64 = false
        if parts.count > 1, parts.last?.lowercased() == "base64" {
            base64 = true
            parts.removeLast()
        }
        let type = parts.first ?? ""
        if !type.isEmpty {
            let halves = type.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty,
                  !type.contains(where: { $0 == " " || $0 == "," }) else { throw .invalidMimeType(type) }
        }
        mimeType = type.isEmpty ? "text/plain" : type.lowercased()
        parameters = Array(parts.dropFirst())
        isBase64 = base64

        let payload = utf8[(comma + 1)...]
        // Percent-decoding never grows the payload and base64 gives 3 bytes for 4 characters: a payload whose
        // bound exceeds the limit is refused before it is decoded.
        let bound = base64 ? payload.count / 4 * 3 + 3 : payload.count
        if bound > limit {
            // The bound may overstate (whitespace, escapes): decode only when the exact size may still fit.
            let significant = payload.lazy.filter { !Self.isSpace($0) }.count
            let estimate = base64 ? significant * 3 / 4 : significant
            if estimate > limit { throw .tooLarge(size: estimate, limit: limit) }
        }
        let unescaped = try Self.percentDecode(payload, offset: comma + 1)
        let bytes = base64 ? try Self.base64Decode(unescaped) : unescaped
        guard bytes.count <= limit else { throw .tooLarge(size: bytes.count, limit: limit) }
        data = Data(bytes)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `%XX` escapes decoded; `offset` is the payload's position in the URL, for the error.
    private static func percentDecode(_ payload: ArraySlice<UInt8>, offset: Int) throws(DataURLError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(payload.count)
        var index = payload.startIndex
        while index < payload.endIndex {
            let byte = payload[index]
            if byte == UInt8(ascii: "%") {
                guard payload.endIndex - index >= 3, let high = hexValue(payload[index + 1]),
                      let low = hexValue(payload[index + 2])
                else { throw .invalidPercentEscape(position: index + 1) }
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(byte)
                index += 1
            }
        }
        return result
    }

    /// Standard base64 (RFC 4648 section 4), whitespace skipped, padding optional; `-` and `_` (the URL-safe
    /// alphabet) are accepted too.
    private static func base64Decode(_ text: [UInt8]) throws(DataURLError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        var digits = 0
        for (position, byte) in text.enumerated() {
            if isSpace(byte) { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
                guard padding <= 2 else { throw .invalidBase64(position: position + 1, reason: "too much padding") }
                continue
            }
            guard padding == 0 else {
                throw .invalidBase64(position: position + 1, reason: "characters after the padding")
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            default:
                let character = byte < 0x80 && byte >= 0x20 ? "'\(Character(UnicodeScalar(byte)))'" : "byte \(byte)"
                throw .invalidBase64(position: position + 1, reason: "\(character) is not a base64 character")
            }
            digits += 1
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                result.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard digits % 4 != 1 else {
            throw .invalidBase64(position: text.count, reason: "the payload ends in the middle of a byte")
        }
        if padding > 0, (digits + padding) % 4 != 0 {
            throw .invalidBase64(position: text.count, reason: "the padding does not complete a group of four")
        }
        return result
    }
}

/// Why a `data:` URL could not be decoded. Positions count characters of the payload (base64) or of the URL
/// (percent escapes), from 1.
///
/// - `notADataURL`: `not a data URL (it does not start with "data:")`
/// - `noComma`: `data URL without a comma before its payload`
/// - `invalidMimeType`: `data URL with an invalid media type "image"`
/// - `invalidPercentEscape`: `data URL with an invalid percent escape at character N`
/// - `invalidBase64`: `data URL with invalid base64 at character N: REASON`
/// - `tooLarge`: `data URL payload of N bytes is past the limit of N bytes`
public enum DataURLError: Error, Equatable, Sendable, CustomStringConvertible {
    case notADataURL
    case noComma
    case invalidMimeType(String)
    case invalidPercentEscape(position: Int)
    case invalidBase64(position: Int, reason: String)
    case tooLarge(size: Int, limit: Int)

    public var description: String {
        switch self {
        case .notADataURL: return "not a data URL (it does not start with \"data:\")"
        case .noComma: return "data URL without a comma before its payload"
        case .invalidMimeType(let type): return "data URL with an invalid media type \(ZipError.quoted(type))"
        case .invalidPercentEscape(let position): return "data URL with an invalid percent escape at character \(position)"
        case .invalidBase64(let position, let reason):
            return "data URL with invalid base64 at character \(position): \(reason)"
        case .tooLarge(let size, let limit): return "data URL payload of \(size) bytes is past the limit of \(limit) bytes"
        }
    }
}
