import Foundation

/// A layer's identity for as long as the process runs: never reused, so caches keyed by it (plans, shadows) cannot
/// mistake a new layer for an old one at the same address.
public struct LayerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (a: LayerID, b: LayerID) -> Bool { a.rawValue < b.rawValue }

    public var description: String { "#\(rawValue)" }
}
