import Foundation
import Lamina

extension BenchScene {
    /// `moving-100k`'s change before `frame`: every sprite of the root goes to a new whole-point place inside the
    /// output (SplitMix64 seeded with 0x1A31A + the frame number), in the caller's transaction (`prepareFrame`'s, with
    /// actions disabled), as a program moving everything on screen at once would set positions.
    static func moveEverySprite(_ root: Layer, frame: Int) {
        var random = SplitMix64(seed: 0x1A31A &+ UInt64(truncatingIfNeeded: frame))
        let size = root.bounds.size
        let width = max(1, Int(size.width) - 63), height = max(1, Int(size.height) - 63)
        for sprite in root.sublayers ?? [] {
            sprite.position = CGPoint(x: random.below(width), y: random.below(height))
        }
    }
}
