/// SplitMix64 (Steele, Lea and Flood 2014): a fixed pseudo-random generator whose whole state is one word, so that
/// a seed rebuilds the same sequence on every machine. The benchmark scenes draw from it (seed 0x1A31A by default),
/// and so do the random-tree tests (`TreeRandom`), whose printed seeds must rebuild the same scenes anywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64
    public init(seed: UInt64 = 0x1A31A) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A whole number in 0 ..< bound.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}
