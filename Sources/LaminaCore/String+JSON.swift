import Foundation

extension String {
    /// The string as a JSON string literal: in double quotes, with quotes, backslashes and control characters
    /// escaped as JSON writes them. Used for JSON paths in scene errors and for the benchmark's JSON output.
    public var jsonQuoted: String {
        var result = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04X", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
