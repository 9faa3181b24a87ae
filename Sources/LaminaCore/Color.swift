import Foundation

/// A colour with straight (not premultiplied) alpha; every component is in 0...1 and sRGB-encoded,
/// as Core Animation's default colour space is (docs/semantics.md, "Pixels").
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    /// Components outside 0...1 are clamped; NaN becomes 0.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Color.clampUnit(red)
        self.green = Color.clampUnit(green)
        self.blue = Color.clampUnit(blue)
        self.alpha = Color.clampUnit(alpha)
    }

    /// Grey of the given white level.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Parses "#RGB", "#RGBA", "#RRGGBB" or "#RRGGBBAA" (the leading "#" is optional; alpha is straight).
    /// Returns nil for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard [3, 4, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        if digits.count <= 4 {
            digits = Substring(digits.flatMap { [$0, $0] })
        }
        guard let value = UInt32(digits, radix: 16) else { return nil }
        let words: [UInt32] = digits.count == 8 ? [value >> 24, value >> 16, value >> 8, value] : [value >> 16, value >> 8, value, 255]
        let bytes: [Double] = words.map { (word: UInt32) -> Double in Double(word & 0xFF) / 255 }
        self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes[3])
    }

    /// The colour with its alpha multiplied by `factor`.
    public func withAlphaComponent(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// "#RRGGBBAA".
    public var hexString: String {
        let bytes = [red, green, blue, alpha].map { Int(UInt8(saturatingRounded: $0 * 255)) }
        return "#" + bytes.map { String(format: "%02X", $0) }.joined()
    }

    public var description: String { hexString }

    /// Premultiplied components, the form the render plan carries.
    public var premultiplied: PremultipliedColor {
        PremultipliedColor(
            red: Float(red * alpha), green: Float(green * alpha), blue: Float(blue * alpha), alpha: Float(alpha))
    }

    private static func clampUnit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let gray = Color(white: 0.5)
    public static let lightGray = Color(white: 2.0 / 3.0)
    public static let darkGray = Color(white: 1.0 / 3.0)
    public static let red = Color(red: 1, green: 0, blue: 0)
    public static let green = Color(red: 0, green: 1, blue: 0)
    public static let blue = Color(red: 0, green: 0, blue: 1)
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
    public static let purple = Color(red: 0.5, green: 0, blue: 0.5)
    public static let brown = Color(red: 0.6, green: 0.4, blue: 0.2)

    /// The named colours above by name ("black", "clear", ...), for scene files and the CLI.
    public static let named: [String: Color] = [
        "clear": .clear, "black": .black, "white": .white, "gray": .gray, "lightGray": .lightGray,
        "darkGray": .darkGray, "red": .red, "green": .green, "blue": .blue, "cyan": .cyan,
        "magenta": .magenta, "yellow": .yellow, "orange": .orange, "purple": .purple, "brown": .brown,
    ]
}

/// A colour with premultiplied alpha, components in 0...1; what a render plan's solid quads carry.
public struct PremultipliedColor: Hashable, Sendable {
    public var red: Float
    public var green: Float
    public var blue: Float
    public var alpha: Float

    public init(red: Float, green: Float, blue: Float, alpha: Float) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The colour scaled by an opacity (premultiplied, so every channel scales).
    public func scaled(by opacity: Float) -> PremultipliedColor {
        PremultipliedColor(red: red * opacity, green: green * opacity, blue: blue * opacity, alpha: alpha * opacity)
    }

    public var isTransparent: Bool { alpha <= 0 }
}

/// One pixel as straight (not premultiplied) 8-bit RGBA, as PNG files and probes use.
public struct RGBA8: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// The largest difference over the four channels.
    public func maxChannelDifference(to other: RGBA8) -> Int {
        max(abs(Int(r) - Int(other.r)), abs(Int(g) - Int(other.g)), abs(Int(b) - Int(other.b)),
            abs(Int(a) - Int(other.a)))
    }

    public var description: String { "(\(r), \(g), \(b), \(a))" }
}
