/// A printf-style file-name pattern for numbered frames, such as `frames/f-%05d.png` (`lamina export -o`).
///
/// Exactly one integer conversion: `%d`, or `%0Nd` / `%Nd` (zero- or space-padded to at least N digits, as
/// printf pads; N at most 32); `%%` is a literal percent sign. Anything else after a `%` is an error, as is a
/// pattern with no conversion or more than one: every frame must get a name of its own. ffmpeg's image2
/// reader takes the same patterns (`ffmpeg -i frames/f-%05d.png`).
public struct FramePattern: Hashable, Sendable {
    /// The pattern as written.
    public let text: String
    private let prefix: String
    private let suffix: String
    private let width: Int
    private let padding: Character

    /// Parses `text`. Throws `FramePatternError`.
    public init(_ text: String) throws(FramePatternError) {
        var prefix = "", suffix = ""
        var conversion: (width: Int, padding: Character)?
        var characters = text[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                if conversion == nil { prefix.append(character) } else { suffix.append(character) }
                continue
            }
            guard let next = characters.first else { throw FramePatternError(pattern: text, problem: .danglingPercent) }
            if next == "%" {
                characters.removeFirst()
                if conversion == nil { prefix.append("%") } else { suffix.append("%") }
                continue
            }
            // A conversion: optional 0 flag, optional width, then d (or i, its printf synonym).
            var padding: Character = " "
            if characters.first == "0" {
                padding = "0"
                characters.removeFirst()
            }
            var digits = ""
            while let digit = characters.first, digit.isASCII, digit.isNumber {
                digits.append(digit)
                characters.removeFirst()
            }
            guard let letter = characters.popFirst(), letter == "d" || letter == "i" else {
                throw FramePatternError(pattern: text, problem: .unsupportedConversion)
            }
            let width = digits.isEmpty ? 0 : Int(digits) ?? .max
            guard width <= 32 else { throw FramePatternError(pattern: text, problem: .widthTooLarge) }
            guard conversion == nil else { throw FramePatternError(pattern: text, problem: .moreThanOneNumber) }
            conversion = (width, padding)
        }
        guard let conversion else { throw FramePatternError(pattern: text, problem: .noNumber) }
        self.text = text
        self.prefix = prefix
        self.suffix = suffix
        self.width = conversion.width
        self.padding = conversion.padding
    }

    /// The file name of frame `number` (0 or more), as printf would write it.
    public func path(for number: Int) -> String {
        precondition(number >= 0, "frame numbers are not negative")
        let digits = String(number)
        let pad = String(repeating: padding, count: max(0, width - digits.count))
        return prefix + pad + digits + suffix
    }

    /// The folder the frames go to: the text before the last `/` of the pattern's fixed start ("." when none).
    /// The conversion must not be in a folder name (`%d/f.png`): `init` allows it, and so does this, which then
    /// gives the folder above it.
    public var folder: String {
        guard let slash = prefix.lastIndex(of: "/") else { return "." }
        let folder = String(prefix[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}

/// A frame pattern that cannot name frames: `bad frame pattern "PATTERN": PROBLEM`.
public struct FramePatternError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// No `%d`: every frame would overwrite the same file.
        case noNumber
        /// Two or more integer conversions.
        case moreThanOneNumber
        /// A conversion other than `%d`, `%0Nd`, `%Nd`, `%i` or `%%`.
        case unsupportedConversion
        /// A `%` at the end of the pattern.
        case danglingPercent
        /// A field width over 32.
        case widthTooLarge
    }

    public var pattern: String
    public var problem: Problem

    public init(pattern: String, problem: Problem) {
        self.pattern = pattern
        self.problem = problem
    }

    public var description: String {
        let why: String
        switch problem {
        case .noNumber:
            why = "it needs one %d (or %05d) for the frame number, so that every frame gets its own file"
        case .moreThanOneNumber: why = "it has more than one %d; exactly one is allowed"
        case .unsupportedConversion: why = "only %d, %0Nd, %Nd and %% are allowed after a %"
        case .danglingPercent: why = "it ends in a lone % (write %% for a percent sign)"
        case .widthTooLarge: why = "the field width is over 32"
        }
        return "bad frame pattern \"\(pattern)\": \(why)"
    }
}
