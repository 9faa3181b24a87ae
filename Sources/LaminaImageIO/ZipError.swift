/// Why a zip archive, or one of its entries, could not be read: one line for people, naming the entry.
///
/// The messages (`X` is an entry name, `N` a number):
///
/// - `notAZip`: `not a zip archive (no end of central directory record)`
/// - `truncated`: `truncated zip archive: DETAIL`, e.g. `the local header of entry "x" ends past the end of the archive`
/// - `malformed`: `malformed zip archive: DETAIL`
/// - `spanned`: `spanned (multi-disk) zip archives are not supported`
/// - `tooManyEntries`: `the archive lists N entries, past the limit of N`
/// - `nameTooLong`: `central directory entry N: a name of N bytes is past the limit of N`
/// - `unsafeName`: `entry "../x": names with a ".." component are not allowed` (or `absolute names are not allowed`)
/// - `duplicateName`: `entry "x" appears more than once in the archive`
/// - `totalTooLarge`: `the entries would inflate past the 1 GiB limit for the whole archive`
/// - `noEntry`: `no entry named "x"`
/// - `encrypted`: `entry "x" is encrypted, which is not supported`
/// - `unsupportedMethod`: `entry "x": compressed with method 12 (bzip2), which is not supported`
/// - `entryTooLarge`: `entry "x" would inflate past the 256 MiB limit (it declares N bytes)`
/// - `ratioTooHigh`: `entry "x": a compression ratio of N:1 is past the 1000:1 limit`
/// - `localHeaderMismatch`: `entry "x": the local header's FIELD differs from the central directory's`
/// - `corrupt`: `entry "x": REASON`, e.g. `invalid deflate data (invalid block type)`
/// - `inflatesPastDeclared`: `entry "x" inflates past its declared size of N bytes`
/// - `sizeMismatch`: `entry "x" inflates to N bytes, not the declared N`
/// - `crcMismatch`: `entry "x": CRC mismatch (the archive says 0x..., the data gives 0x...)`
public enum ZipError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAZip
    case truncated(String)
    case malformed(String)
    case spanned
    case tooManyEntries(count: Int, limit: Int)
    /// `entry` counts from 1 in central directory order.
    case nameTooLong(entry: Int, length: Int, limit: Int)
    case unsafeName(name: String, reason: String)
    case duplicateName(String)
    case totalTooLarge(limit: Int)
    case noEntry(String)
    case encrypted(String)
    case unsupportedMethod(name: String, method: UInt16)
    case entryTooLarge(name: String, size: Int, limit: Int)
    case ratioTooHigh(name: String, ratio: Int, limit: Int)
    case localHeaderMismatch(name: String, field: String)
    case corrupt(name: String, reason: String)
    case inflatesPastDeclared(name: String, declared: Int)
    case sizeMismatch(name: String, declared: Int, actual: Int)
    case crcMismatch(name: String, expected: UInt32, actual: UInt32)

    public var description: String {
        switch self {
        case .notAZip: return "not a zip archive (no end of central directory record)"
        case .truncated(let detail): return "truncated zip archive: \(detail)"
        case .malformed(let detail): return "malformed zip archive: \(detail)"
        case .spanned: return "spanned (multi-disk) zip archives are not supported"
        case .tooManyEntries(let count, let limit): return "the archive lists \(count) entries, past the limit of \(limit)"
        case .nameTooLong(let entry, let length, let limit):
            return "central directory entry \(entry): a name of \(length) bytes is past the limit of \(limit)"
        case .unsafeName(let name, let reason): return "entry \(Self.quoted(name)): \(reason)"
        case .duplicateName(let name): return "entry \(Self.quoted(name)) appears more than once in the archive"
        case .totalTooLarge(let limit):
            return "the entries would inflate past the \(Self.size(limit)) limit for the whole archive"
        case .noEntry(let name): return "no entry named \(Self.quoted(name))"
        case .encrypted(let name): return "entry \(Self.quoted(name)) is encrypted, which is not supported"
        case .unsupportedMethod(let name, let method):
            let known = Self.methodNames[method].map { " (\($0))" } ?? ""
            return "entry \(Self.quoted(name)): compressed with method \(method)\(known), which is not supported"
        case .entryTooLarge(let name, let size, let limit):
            return "entry \(Self.quoted(name)) would inflate past the \(Self.size(limit)) limit (it declares \(size) bytes)"
        case .ratioTooHigh(let name, let ratio, let limit):
            return "entry \(Self.quoted(name)): a compression ratio of \(ratio):1 is past the \(limit):1 limit"
        case .localHeaderMismatch(let name, let field):
            return "entry \(Self.quoted(name)): the local header's \(field) differs from the central directory's"
        case .corrupt(let name, let reason): return "entry \(Self.quoted(name)): \(reason)"
        case .inflatesPastDeclared(let name, let declared):
            return "entry \(Self.quoted(name)) inflates past its declared size of \(declared) bytes"
        case .sizeMismatch(let name, let declared, let actual):
            return "entry \(Self.quoted(name)) inflates to \(actual) bytes, not the declared \(declared)"
        case .crcMismatch(let name, let expected, let actual):
            return "entry \(Self.quoted(name)): CRC mismatch (the archive says \(Self.hex(expected)), "
                + "the data gives \(Self.hex(actual)))"
        }
    }

    /// The compression methods of APPNOTE.TXT, for naming the unsupported ones.
    static let methodNames: [UInt16: String] = [
        1: "shrink", 2: "reduce", 3: "reduce", 4: "reduce", 5: "reduce", 6: "implode", 9: "deflate64",
        10: "PKWARE DCL implode", 12: "bzip2", 14: "LZMA", 16: "IBM z/OS CMPSC", 18: "IBM TERSE", 19: "IBM LZ77 z",
        20: "zstd", 93: "zstd", 94: "MP3", 95: "xz", 96: "JPEG", 97: "WavPack", 98: "PPMd",
    ]

    /// A name in double quotes, with quotes, backslashes and control characters escaped.
    static func quoted(_ name: String) -> String {
        var result = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// "256 MiB", "1 GiB", or bytes when not a whole number of KiB.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
