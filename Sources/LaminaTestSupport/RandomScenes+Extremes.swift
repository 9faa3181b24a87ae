import Foundation

/// The numbers of extreme mode: the edges of Double and of Float, of the pixel limits, and values that
/// overflow when squared, multiplied by a scale or converted to an integer.
extension RandomSceneBuilder {
    static let extremes: [Double] = [
        0, -0.0, 1, -1, 0.5, -0.5,
        1e-300, -1e-300, 5e-324, -5e-324, 1e-310, 2.2250738585072014e-308,  // subnormals and the smallest normal
        1e-7, 1e-12, 1e-38, 1.17549435e-38, 1.4e-45,  // near Float's smallest
        1e19, -1e19, 9.3e18, 9223372036854775807, 4294967296, 2147483648, -2147483649,  // Int64/Int32 edges
        1e300, -1e300, 1e308, -1e308, 1.7976931348623157e308, -1.7976931348623157e308,
        3.4e38, 3.5e38, -3.5e38, 1e30, 1e15, 9007199254740993,  // Float's largest, beyond it, 2^53 + 1
        16383, 16384, 16385, 65535, 65536, 1e6, 1e9, -1e9,  // pixel limits and large but plain
        0.49999999999999994, 1.0000000000000002, 0.9999999999999999, 1e-16,
    ]

    /// Shadow radii: tiny, and large but bounded (issue 13 asks for radius 1000 in well under a second), so
    /// that a run stays fast; the general extremes would ask for blurs of 1e300.
    static let blurRadii: [Double] = [0, 5e-324, 1e-300, 0.5, 50, 300, 1000, 2000]

    /// Values for keys that take 0...1 (opacity, colour channels, anchor points).
    static let unitExtremes: [Double] = [0, 1, 5e-324, 1e-300, 1e-310, 1e-45, 0.9999999999999999, 1e-7, 0.5]

    /// An extreme value; kept inside `domain` almost always (a scene has hundreds of numbers, and one outside
    /// its range makes the whole scene a scene error that never reaches the planner or the renderers).
    func extremeNumber(_ domain: RandomSceneBuilder.Domain) -> Double {
        let keep = random.chance(domain == .unit ? 0.995 : 0.98)
        switch domain {
        case .unit where keep:
            return random.pick(RandomSceneBuilder.unitExtremes)
        case .nonNegative where keep:
            return abs(random.pick(RandomSceneBuilder.extremes))
        case .positive where keep:
            let value = abs(random.pick(RandomSceneBuilder.extremes))
            return value == 0 ? 5e-324 : value
        default:
            return random.pick(RandomSceneBuilder.extremes)
        }
    }
}
