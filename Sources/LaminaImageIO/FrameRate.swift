/// A frame rate as a ratio of integers, as video containers store it (a y4m header's `F30000:1001`).
///
/// `lamina export --fps` takes a number or a ratio: `60`, `29.97`, `30000/1001`. The NTSC rates written as
/// decimals (23.976, 29.97, 47.952, 59.94, 119.88: N x 1000/1001 rounded to the digits given) mean
/// N x 1000/1001 exactly, as video tools use them; write `2997/100` for exactly 29.97 frames a second.
/// Other decimals become the exact ratio of their digits (`12.5` is 25/2). The frame times of an export
/// are n / `value`, so they match the rate in the header.
public struct FrameRate: Hashable, Sendable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    /// A ratio in lowest terms. Both must be positive.
    public init?(numerator: Int, denominator: Int) {
        guard numerator > 0, denominator > 0 else { return nil }
        let divisor = FrameRate.gcd(numerator, denominator)
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    /// Frames per second.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// `60`, or `30000/1001`.
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

    /// Parses `60`, `29.97`, `12.5` or `30000/1001`; nil for anything else, zero, negative or absurd
    /// (more than 1,000,000 frames a second, or digits past the ninth decimal).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let n = Int(parts[0]), let d = Int(parts[1]), n <= 1_000_000_000, d <= 1_000_000_000,
                  let rate = FrameRate(numerator: n, denominator: d), rate.value <= 1_000_000 else { return nil }
            self = rate
            return
        }
        guard parts.count == 1, let rate = FrameRate(decimal: text) else { return nil }
        self = rate
    }

    /// The ratio for a number of frames a second, such as a scene file's `"fps"`: the NTSC rates as above,
    /// else the exact ratio of at most nine decimals, else nil.
    public init?(_ value: Double) {
        guard value.isFinite, value > 0, value <= 1_000_000 else { return nil }
        // The shortest decimal that gives back `value`, so that 29.97 reads as "29.97", not 29.969999...
        self.init(decimal: "\(value)")
    }

    private init?(decimal text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let whole = pieces.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        let fraction = pieces.count == 2 ? pieces[1] : ""
        guard fraction.count <= 9, fraction.allSatisfy({ $0.isASCII && $0.isNumber }), whole.count <= 7,
              pieces.count == 1 || !fraction.isEmpty
        else { return nil }
        var scale = 1
        for _ in 0..<fraction.count { scale *= 10 }
        guard let n = Int(whole + fraction), let exact = FrameRate(numerator: n, denominator: scale),
              exact.value <= 1_000_000
        else { return nil }
        // NTSC: the decimal is N x 1000/1001 rounded to its own digits, for an integer N (24, 30, 60...), and
        // it is not itself an integer.
        if exact.denominator != 1, !fraction.isEmpty {
            let base = (exact.value * 1.001).rounded()
            let ntsc = base * 1000 / 1001
            let rounded = (ntsc * Double(scale)).rounded() / Double(scale)
            if base >= 1, abs(rounded - exact.value) < 0.5 / Double(scale), fraction.count >= 2,
               let rate = FrameRate(numerator: Int(base) * 1000, denominator: 1001) {
                self = rate
                return
            }
        }
        self = exact
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
