import Foundation
import Lamina
import LaminaCore
import LaminaLayers

// The blend-mode scenes (blend-500, blend-500-normal; blend-leaf-500 and its normal twin, without the sprites):
// what a blend mode costs over the same cards drawn normally (docs/benchmarks.md, "Blend modes (2026-11-26)").

extension BenchScene {
    /// Adds `cards-500`'s number of cards at `cards-500`'s sizes and places, each a translucent coloured card
    /// (cornerRadius 12) holding a 48 x 48 sprite; with `blended`, the cards take the 25 blend modes and compositing
    /// operations other than normal in turn (`compositingFilter`), so each is a group combined with the cards beneath.
    /// Without `sprites`, the cards are leaf layers (the same random draws, so the same sizes, places and colours).
    static func addBlendCards(to root: Layer, size: CGSize, blended: Bool, sprites: Bool = true,
                              random: inout SplitMix64) throws {
        let sheet = try spriteSheet()
        let modes = LayerBlendMode.allCases.filter { $0 != .normal }
        for index in 0..<cardCount(size: size) {
            let w = 160 + random.below(81), h = 100 + random.below(51)
            let frame = random.below(64)
            let hue = Double(index % 50) / 50
            let card = Layer()
            card.name = "card \(index)"
            card.anchorPoint = .zero
            card.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            card.position = CGPoint(x: random.below(max(1, Int(size.width) - w)),
                                    y: random.below(max(1, Int(size.height) - h - 10)))
            card.backgroundColor = Color(
                red: 0.5 + 0.5 * cos(2 * .pi * hue), green: 0.5 + 0.5 * cos(2 * .pi * (hue - 1 / 3.0)),
                blue: 0.5 + 0.5 * cos(2 * .pi * (hue - 2 / 3.0)), alpha: 0.85)
            card.cornerRadius = 12
            let thumbnail = Layer()
            thumbnail.anchorPoint = .zero
            thumbnail.bounds = CGRect(x: 0, y: 0, width: 48, height: 48)
            thumbnail.position = CGPoint(x: 12, y: 12)
            thumbnail.contents = sheet
            thumbnail.contentsRect = CGRect(x: CGFloat(frame % 8) / 8, y: CGFloat(frame / 8) / 8, width: 0.125,
                                            height: 0.125)
            if sprites { card.addSublayer(thumbnail) }
            if blended { card.blendMode = modes[index % modes.count] }
            root.addSublayer(card)
        }
    }
}
