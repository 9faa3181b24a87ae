import Foundation

/// Byte counts as people write and read them: `512M`, `2G`, `1.5GiB`, `1048576`.
public enum MemorySize {
    /// The bytes `text` stands for: a number (decimals allowed) with an optional unit `K`, `M`, `G`, `T`
    /// (each also as `KB`, `KiB`, ..., any case), all powers of 1024 as memory sizes usually are; no unit
    /// means bytes. Nil for anything else, negative sizes and sizes beyond `Int.max`.
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard !digits.isEmpty, let number = Double(digits), number.isFinite, number >= 0 else { return nil }
        let kilo = 1024.0, mega = kilo * 1024, giga = mega * 1024, tera = giga * 1024
        let multipliers: [String: Double] = [
            "": 1, "b": 1,
            "k": kilo, "kb": kilo, "kib": kilo,
            "m": mega, "mb": mega, "mib": mega,
            "g": giga, "gb": giga, "gib": giga,
            "t": tera, "tb": tera, "tib": tera,
        ]
        guard let multiplier = multipliers[unit] else { return nil }
        let bytes = (number * multiplier).rounded()
        // Double(Int.max) rounds up to 2^63, which does not fit: compare with <.
        guard bytes < Double(Int.max) else { return nil }
        return Int(bytes)
    }

    /// `bytes` in the largest binary unit that keeps at least 1, with at most one decimal: `2 GiB`, `1.5 GiB`,
    /// `768 MiB`, `100 bytes`.
    public static func describe(_ bytes: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = Double(bytes)
        var unit: String?
        for name in units where abs(value) >= 1024 {
            value /= 1024
            unit = name
        }
        guard let unit else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let rounded = (value * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
        return "\(text) \(unit)"
    }
}
