import Foundation
import Lamina

/// The live tree of `lamina bench --live` (docs/benchmarks.md, "Live frames"): many small textured layers over an
/// opaque background, as a kiosk or an overlay shows them, moved a few at a time between frames.
///
/// Each sprite is a 16 x 16 point layer showing a 16 x 16 texel cut of the sprite sheet (contentsRect), at a whole
/// point inside the output, so the frames measure compositing and damage, not filtering.
public final class LiveTree {
    public let root: Layer
    public let sprites: [Layer]
    public let size: CGSize
    private var random: SplitMix64
    /// Sprite side in points.
    public static let side: CGFloat = 16

    /// What changes before a frame.
    public enum Change: String, CaseIterable, Sendable {
        /// Every sprite moves.
        case all
        /// Nothing changes.
        case none
        /// One sprite moves.
        case one
        /// 100 sprites move.
        case hundred

        /// Sprites moved (all: every one).
        func count(of total: Int) -> Int {
            switch self {
            case .all: return total
            case .none: return 0
            case .one: return min(1, total)
            case .hundred: return min(100, total)
            }
        }
    }

    /// A tree of `count` sprites filling `size` (points, drawn at scale 1), placed with SplitMix64 from `seed`.
    public init(count: Int, size: CGSize, seed: UInt64 = 0x1A31A) throws {
        self.size = size
        var random = SplitMix64(seed: seed)
        root = Layer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = Color(hex: "#202830")
        let sheet = try BenchScene.spriteSheet()
        var sprites: [Layer] = []
        sprites.reserveCapacity(count)
        Transaction.begin()
        for _ in 0..<count {
            let sprite = Layer()
            sprite.bounds = CGRect(x: 0, y: 0, width: Self.side, height: Self.side)
            sprite.anchorPoint = .zero
            sprite.position = Self.randomPosition(&random, size: size)
            sprite.contents = sheet
            let cell = random.below(32 * 32)
            sprite.contentsRect = CGRect(x: CGFloat(cell % 32) / 32, y: CGFloat(cell / 32) / 32, width: 1.0 / 32,
                                         height: 1.0 / 32)
            sprites.append(sprite)
        }
        root.sublayers = sprites
        Transaction.commit()
        self.sprites = sprites
        self.random = random
    }

    /// A whole-point position that keeps a sprite inside the output.
    private static func randomPosition(_ random: inout SplitMix64, size: CGSize) -> CGPoint {
        CGPoint(x: random.below(Int(size.width - side) + 1), y: random.below(Int(size.height - side) + 1))
    }

    /// Applies `change` (in one transaction, without implicit animations): the moved sprites, spread over the tree,
    /// go to new random places.
    public func apply(_ change: Change) {
        let count = change.count(of: sprites.count)
        guard count > 0 else { return }
        Transaction.begin()
        Transaction.setDisableActions(true)
        if count == sprites.count {
            for sprite in sprites { sprite.position = Self.randomPosition(&random, size: size) }
        } else {
            for _ in 0..<count { sprites[random.below(sprites.count)].position = Self.randomPosition(&random, size: size) }
        }
        Transaction.commit()
    }
}
