import Foundation

/// Where something starts in a JSON text: line and column, both counted from 1.
///
/// Columns count Unicode scalars, not bytes, so that they match what an editor shows for non-ASCII text;
/// a tab counts as one column.
struct JSONPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    var line: Int
    var column: Int

    static func < (a: JSONPosition, b: JSONPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    var description: String { "\(line):\(column)" }
}

/// A parsed JSON value with the position of its first character.
///
/// Objects keep their members in file order, duplicates included, so that problems can be reported in
/// the order a reader meets them (the parser reports duplicate keys itself).
struct JSONValue {
    indirect enum Kind {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONValue])
        case object([JSONMember])
        /// A value the parser already reported as a problem (a number out of range); readers skip it
        /// silently so that one mistake gives one message.
        case invalid
    }

    var kind: Kind
    var position: JSONPosition

    /// "a number", "an object", ...: for messages such as `expected a number, got a string`.
    var typeDescription: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        case .invalid: return "an invalid value"
        }
    }

    var isInvalid: Bool {
        if case .invalid = kind { return true }
        return false
    }
}

/// One `"key": value` pair of a JSON object, with the key's own position (where unknown-key messages point).
struct JSONMember {
    var key: String
    var keyPosition: JSONPosition
    var value: JSONValue
}
