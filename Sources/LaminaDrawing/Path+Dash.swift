import Foundation
import LaminaCore

extension FlatPath {
    /// The most dashes one stroke is cut into (a few megabytes of path); a finer pattern is stroked solid rather
    /// than allocating without bound: 131072 dashes of one point each would already run across eight 16384-pixel
    /// pictures.
    static let maximumDashes = 1 << 17

    /// A dash pattern as it is laid: nil (a solid stroke) when it is nil, empty, has a length that is negative or
    /// not finite, or adds up to zero, as Core Graphics strokes such patterns solid. An odd count is repeated
    /// once, so that dashes and gaps alternate over two rounds (as Core Graphics and cairo do).
    static func dashPattern(_ pattern: [Double]?) -> [Double]? {
        guard let pattern, !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
        let sum = pattern.reduce(0, +)
        guard sum > 0, sum.isFinite else { return nil }
        return pattern.count % 2 == 0 ? pattern : pattern + pattern
    }

    /// The dashes of `pattern` (from `dashPattern`) laid along every subpath from its start, `phase` points into
    /// the pattern (as Core Graphics restarts the pattern at each subpath), then cut to `lo...hi` along the whole
    /// path: the dashes stay where they are on the path whatever strokeStart and strokeEnd cut away. Nil when the
    /// pattern would cut the path into more than `maximumDashes` pieces.
    func dashed(pattern: [Double], phase: Double, keeping lo: Double, _ hi: Double) -> Path? {
        let period = pattern.reduce(0, +)
        var estimate = 0.0
        for subpath in subpaths { estimate += (subpath.length / period).rounded(.up) * Double(pattern.count) }
        guard estimate <= Double(Self.maximumDashes) else { return nil }
        var offset = phase.isFinite ? phase.truncatingRemainder(dividingBy: period) : 0
        if offset < 0 { offset += period }
        // Where in the pattern each subpath starts: entry `first`, `into` points into it.
        var first = 0, into = offset
        for _ in 0..<pattern.count where into >= pattern[first] {
            into -= pattern[first]
            first = (first + 1) % pattern.count
        }
        var path = Path()
        for subpath in subpaths {
            var parts: [(Double, Double)] = []
            var k = first, remaining = pattern[first] - into, d = 0.0
            while d < subpath.length || (d == subpath.length && k % 2 == 0 && remaining == 0) {
                if k % 2 == 0 {
                    let a = subpath.start + d, b = subpath.start + min(d + remaining, subpath.length)
                    let (u, v) = (max(a, lo), min(b, hi))
                    if u <= v {
                        if let last = parts.last, u <= last.1, v > last.1 {
                            parts[parts.count - 1].1 = v
                        } else if parts.last.map({ u > $0.1 }) ?? true {
                            parts.append((u, v))
                        }
                    }
                }
                d += remaining
                k = (k + 1) % pattern.count
                remaining = pattern[k]
                if d >= subpath.length && remaining > 0 && k % 2 == 0 { break }
            }
            append(subpath, parts: parts, to: &path)
        }
        return path
    }
}
