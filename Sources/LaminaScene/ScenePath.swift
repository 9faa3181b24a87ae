import Foundation
import LaminaCore

/// Builds the JSON paths that problems name: `size`, `layers[0].sublayers[1].contentsRect`,
/// `images["my image"]`.
///
/// A key that is not an identifier is written in brackets and quotes, so that a path stays unambiguous
/// for names with dots or spaces (image and sprite sheet names are free text).
enum ScenePath {
    /// The path of member `key` of the value at `base` ("" is the top level).
    static func key(_ base: String, _ key: String) -> String {
        if isIdentifier(key) { return base.isEmpty ? key : base + "." + key }
        return base + "[" + quoted(key) + "]"
    }

    /// The path of element `index` of the array at `base`.
    static func index(_ base: String, _ index: Int) -> String {
        base + "[\(index)]"
    }

    /// `text` in double quotes, escaped as JSON writes it.
    static func quoted(_ text: String) -> String { text.jsonQuoted }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || isASCIILetter(first) else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || isASCIILetter($0) || ("0"..."9").contains($0) }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
