import Foundation

/// A JSON text that cannot be parsed. Parsing stops at the first one: after a syntax error the rest of the
/// text has no reliable structure to report on.
struct JSONSyntaxError: Error {
    var position: JSONPosition
    var message: String
}

/// A problem in text that still parses (a duplicate key, a number out of range); parsing goes on so that
/// it is reported together with every other problem of the scene.
struct JSONIssue {
    var path: String
    var position: JSONPosition
    var message: String
}

/// A strict RFC 8259 JSON parser that records the line and column of every value and key.
///
/// Foundation's JSONSerialization gives no positions, and scene errors must point into the file. The parser
/// is iterative, with an explicit stack of open containers, so hostile nesting cannot overflow the thread's
/// stack; nesting is still capped at `maxDepth` levels so that later (recursive) consumers of the tree,
/// including Swift's own release of nested arrays, stay shallow too.
///
/// Strictness: no comments, no trailing commas, no single quotes, no NaN or Infinity, no leading zeros,
/// finite numbers only, valid UTF-8 only. A leading UTF-8 byte order mark is skipped.
struct JSONParser {
    /// The deepest nesting of arrays and objects accepted; the top-level value is level 1.
    static let maxDepth = 512

    /// Parses `data` as one JSON value. Throws `JSONSyntaxError` for text that is not JSON; returns the
    /// issues that did not stop parsing (duplicate keys, numbers out of range) beside the value.
    static func parse(_ data: Data) throws(JSONSyntaxError) -> (root: JSONValue, issues: [JSONIssue]) {
        var parser = JSONParser(bytes: [UInt8](data))
        let root = try parser.parseDocument()
        return (root, parser.issues)
    }

    /// An array or object that has been opened and not yet closed.
    private struct Frame {
        var isObject: Bool
        var start: JSONPosition
        var items: [JSONValue] = []
        var members: [JSONMember] = []
        /// The key whose value is being parsed (objects only).
        var key = ""
        var keyPosition = JSONPosition(line: 0, column: 0)
        /// First position of every key so far, to report duplicates.
        var seen: [String: JSONPosition] = [:]
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    private var stack: [Frame] = []
    private var issues: [JSONIssue] = []

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var position: JSONPosition { JSONPosition(line: line, column: column) }
    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            // UTF-8 continuation bytes belong to the character already counted.
            column += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            advance()
        }
    }

    // MARK: Structure

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        guard peek != nil else { throw JSONSyntaxError(position: position, message: "the file is empty") }
        while true {
            // Expecting a value: a scalar completes at once, an opening bracket pushes a frame.
            guard var value = try parseValueOrOpen() else { continue }
            // Attach the completed value to its container, closing containers as their brackets come.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    if peek != nil {
                        throw JSONSyntaxError(
                            position: position, message: "\(describeCurrent()) after the end of the top-level value")
                    }
                    return value
                }
                let top = stack.count - 1
                if stack[top].isObject {
                    stack[top].members.append(
                        JSONMember(key: stack[top].key, keyPosition: stack[top].keyPosition, value: value))
                } else {
                    stack[top].items.append(value)
                }
                skipWhitespace()
                let close = stack[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if peek == UInt8(ascii: ",") {
                    let commaPosition = position
                    advance()
                    skipWhitespace()
                    if peek == close { throw JSONSyntaxError(position: commaPosition, message: "trailing comma") }
                    if stack[top].isObject { try parseKey() }
                    break
                } else if peek == close {
                    advance()
                    let frame = stack.removeLast()
                    value = JSONValue(
                        kind: frame.isObject ? .object(frame.members) : .array(frame.items), position: frame.start)
                } else if peek == nil {
                    throw unexpectedEnd()
                } else {
                    let expected = stack[top].isObject ? "',' or '}'" : "',' or ']'"
                    throw JSONSyntaxError(position: position, message: "\(describeCurrent()), expected \(expected)")
                }
            }
        }
    }

    /// Parses a scalar and returns it, or opens an array or object and returns nil (an empty one is
    /// returned complete).
    private mutating func parseValueOrOpen() throws(JSONSyntaxError) -> JSONValue? {
        skipWhitespace()
        let start = position
        guard let byte = peek else { throw unexpectedEnd() }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = byte == UInt8(ascii: "{")
            if stack.count >= JSONParser.maxDepth {
                throw JSONSyntaxError(position: start, message: "nesting deeper than \(JSONParser.maxDepth) levels")
            }
            advance()
            skipWhitespace()
            if peek == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                advance()
                return JSONValue(kind: isObject ? .object([]) : .array([]), position: start)
            }
            stack.append(Frame(isObject: isObject, start: start))
            if isObject { try parseKey() }
            return nil
        case UInt8(ascii: "\""):
            return JSONValue(kind: .string(try parseString()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return try parseWord()
        default:
            throw JSONSyntaxError(position: start, message: "\(describeCurrent()), expected a value")
        }
    }

    /// Parses `"key":` inside the innermost object and records it there.
    private mutating func parseKey() throws(JSONSyntaxError) {
        skipWhitespace()
        let keyPosition = position
        guard let byte = peek else { throw unexpectedEnd() }
        guard byte == UInt8(ascii: "\"") else {
            throw JSONSyntaxError(
                position: keyPosition, message: "\(describeCurrent()), expected a key in double quotes")
        }
        let key = try parseString()
        let top = stack.count - 1
        if let first = stack[top].seen[key] {
            issues.append(
                JSONIssue(path: path(lastKey: key), position: keyPosition, message: "duplicate key (first at \(first))")
            )
        } else {
            stack[top].seen[key] = keyPosition
        }
        skipWhitespace()
        guard peek != nil else { throw unexpectedEnd() }
        guard peek == UInt8(ascii: ":") else {
            throw JSONSyntaxError(position: position, message: "\(describeCurrent()), expected ':' after the key")
        }
        advance()
        stack[top].key = key
        stack[top].keyPosition = keyPosition
    }

    /// The JSON path of the value being parsed now, or of `lastKey` in the innermost object.
    private func path(lastKey: String? = nil) -> String {
        var result = ""
        for (depth, frame) in stack.enumerated() {
            if depth == stack.count - 1, let lastKey { return ScenePath.key(result, lastKey) }
            result = frame.isObject ? ScenePath.key(result, frame.key) : ScenePath.index(result, frame.items.count)
        }
        return result
    }

    private func unexpectedEnd() -> JSONSyntaxError {
        var message = "unexpected end of file"
        if let open = stack.last {
            message += " (the '\(open.isObject ? "{" : "[")' at \(open.start) is not closed)"
        }
        return JSONSyntaxError(position: position, message: message)
    }

    /// `unexpected character 'x'`, with a hint for the usual mistakes.
    private func describeCurrent() -> String {
        var end = index + 1
        while end < bytes.count, end - index < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        guard let scalar = String(validating: bytes[index..<end], as: UTF8.self)?.unicodeScalars.first else {
            return "invalid UTF-8"
        }
        let shown: String
        if scalar.value < 0x20 || scalar.properties.isWhitespace {
            shown = String(format: "U+%04X", scalar.value)
        } else {
            shown = scalar == "'" ? "\"'\"" : "'\(Character(scalar))'"
        }
        var text = "unexpected character \(shown)"
        switch scalar {
        case "/": text += " (comments are not allowed in JSON)"
        case "'": text += " (strings take double quotes)"
        case "\u{201C}", "\u{201D}": text += " (use straight double quotes)"
        default: break
        }
        return text
    }

    // MARK: Scalars

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        advance()
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek, byte != UInt8(ascii: "\n") else {
                // A raw newline is not allowed in a string, so the likeliest mistake is a missing quote.
                throw JSONSyntaxError(position: start, message: "unterminated string")
            }
            if byte == UInt8(ascii: "\"") {
                advance()
                break
            }
            if byte < 0x20 {
                throw JSONSyntaxError(
                    position: position, message: String(format: "unescaped control character U+%04X in a string", byte))
            }
            if byte != UInt8(ascii: "\\") {
                utf8.append(byte)
                advance()
                continue
            }
            let escapePosition = position
            advance()
            guard let escaped = peek, escaped != UInt8(ascii: "\n") else {
                throw JSONSyntaxError(position: start, message: "unterminated string")
            }
            advance()
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try parseUnicodeEscape(at: escapePosition)
                utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                let shown = escaped < 0x80 ? String(UnicodeScalar(escaped)) : "..."
                throw JSONSyntaxError(position: escapePosition, message: "invalid escape '\\\(shown)' in a string")
            }
        }
        guard let string = String(validating: utf8, as: UTF8.self) else {
            throw JSONSyntaxError(position: start, message: "invalid UTF-8 in a string")
        }
        return string
    }

    /// The scalar of `\uXXXX` (the `\u` already read), joining a UTF-16 surrogate pair.
    private mutating func parseUnicodeEscape(at escapePosition: JSONPosition) throws(JSONSyntaxError) -> UnicodeScalar {
        let first = try parseHex4(at: escapePosition)
        if (0xDC00...0xDFFF).contains(first) {
            throw JSONSyntaxError(
                position: escapePosition, message: String(format: "unpaired surrogate \\u%04X in a string", first))
        }
        guard (0xD800...0xDBFF).contains(first) else { return Unicode.Scalar(first)! }
        let secondPosition = position
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else {
            throw JSONSyntaxError(
                position: escapePosition, message: String(format: "unpaired surrogate \\u%04X in a string", first))
        }
        advance()
        advance()
        let second = try parseHex4(at: secondPosition)
        guard (0xDC00...0xDFFF).contains(second) else {
            throw JSONSyntaxError(
                position: escapePosition, message: String(format: "unpaired surrogate \\u%04X in a string", first))
        }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
    }

    private mutating func parseHex4(at escapePosition: JSONPosition) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek, let digit = hexDigit(byte) else {
                throw JSONSyntaxError(position: escapePosition, message: "invalid \\u escape (expected 4 hex digits)")
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        let startIndex = index
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
        if peek == UInt8(ascii: "-") { advance() }
        if peek == UInt8(ascii: "0") {
            advance()
            if isDigit(peek) {
                throw JSONSyntaxError(position: start, message: "invalid number: leading zeros are not allowed")
            }
        } else if isDigit(peek) {
            while isDigit(peek) { advance() }
        } else {
            throw JSONSyntaxError(position: start, message: "invalid number: expected a digit after '-'")
        }
        if peek == UInt8(ascii: ".") {
            advance()
            guard isDigit(peek) else {
                throw JSONSyntaxError(position: start, message: "invalid number: expected a digit after '.'")
            }
            while isDigit(peek) { advance() }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            advance()
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { advance() }
            guard isDigit(peek) else {
                throw JSONSyntaxError(position: start, message: "invalid number: expected a digit in the exponent")
            }
            while isDigit(peek) { advance() }
        }
        let text = String(decoding: bytes[startIndex..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            // Reported, not thrown: the rest of the file is still well-formed and worth checking.
            issues.append(
                JSONIssue(
                    path: path(), position: start, message: "number \(text) is out of range (numbers must be finite)"))
            return JSONValue(kind: .invalid, position: start)
        }
        return JSONValue(kind: .number(number), position: start)
    }

    /// `true`, `false` or `null`; any other bare word is an error with a hint.
    private mutating func parseWord() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        let startIndex = index
        while let byte = peek,
            byte == UInt8(ascii: "_") || (byte < 0x80 && Character(UnicodeScalar(byte)).isLetter)
                || (0x30...0x39).contains(byte)
        {
            advance()
        }
        let word = String(decoding: bytes[startIndex..<index], as: UTF8.self)
        switch word {
        case "true": return JSONValue(kind: .bool(true), position: start)
        case "false": return JSONValue(kind: .bool(false), position: start)
        case "null": return JSONValue(kind: .null, position: start)
        default:
            var message = "unexpected word '\(word)'"
            if ["true", "false", "null"].contains(word.lowercased()) {
                message += " (did you mean '\(word.lowercased())'?)"
            } else if ["nan", "infinity", "inf"].contains(word.lowercased()) {
                message += " (numbers must be finite)"
            } else {
                message += " (strings take double quotes)"
            }
            throw JSONSyntaxError(position: start, message: message)
        }
    }
}
