import Foundation
import Lamina
import LaminaCore
import LaminaDrawing
import LaminaLayers

// The scenes of text labels and gradient cards (text-1k, text-1k-change10, gradient-cards-500): what kiosk screens
// are made of, and what the vector picture cache (docs/benchmarks.md, "Vector layers") is measured on.
extension BenchScene {
    /// The labels of the text scenes at 1920 x 1080; the same density at other sizes.
    static let labelCount = 1_000
    /// Labels whose string changes before each frame of text-1k-change10.
    public static let labelsChangedPerFrame = 10

    /// Words the labels are made of: Latin with accents, a ligature, digits.
    private static let words = ["Gate", "Platform", "Départ", "Arrival", "Office", "Zürich", "fifty", "Lamina",
                                "12:45", "Böhm", "efficient", "Québec", "Terminal", "Øresund", "Avenue", "№ 7"]

    /// A label of `count` characters or a little more, picked by `random`.
    private static func label(_ random: inout SplitMix64, characters count: Int) -> String {
        var text = ""
        while text.count < count {
            if !text.isEmpty { text += " " }
            text += words[random.below(words.count)]
        }
        return text
    }

    static func addLabels(to root: Layer, size: CGSize, random: inout SplitMix64) {
        let count = max(1, Int((Double(labelCount) * Double(size.width * size.height) / (1920 * 1080)).rounded()))
        for index in 0..<count {
            let fontSize = CGFloat(12 + random.below(13))
            let text = TextLayer()
            text.font = "DejaVu Sans"
            text.fontSize = fontSize
            text.string = label(&random, characters: 12 + random.below(19))
            text.foregroundColor = hsb(Double(index % 32) / 32, 0.3, 1)
            text.alignmentMode = index % 3 == 1 ? .center : .natural
            text.isWrapped = index % 3 == 2
            let w = CGFloat(120 + random.below(161)), h = (fontSize * (text.isWrapped ? 2.6 : 1.4)).rounded(.up)
            text.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            text.anchorPoint = .zero
            text.position = CGPoint(x: random.below(max(1, Int(size.width - w))),
                                    y: random.below(max(1, Int(size.height - h))))
            root.addSublayer(text)
        }
    }

    /// text-1k-change10: labels 10 f ..< 10 f + 10 (in turn) get a new string, numbered by the frame.
    static func changeLabels(_ root: Layer, frame: Int) {
        let labels = root.sublayers ?? []
        guard !labels.isEmpty else { return }
        for offset in 0..<labelsChangedPerFrame {
            guard let text = labels[(frame * labelsChangedPerFrame + offset) % labels.count] as? TextLayer else {
                continue
            }
            text.string = "Frame \(frame) · label \(offset)"
        }
    }

    static func addGradientCards(to root: Layer, size: CGSize, random: inout SplitMix64) {
        let types: [GradientLayerType] = [.axial, .radial, .conic]
        for index in 0..<cardCount(size: size) {
            let w = 160 + random.below(81), h = 100 + random.below(51)
            let card = GradientLayer()
            card.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            card.anchorPoint = .zero
            card.position = CGPoint(x: random.below(max(1, Int(size.width) - w)),
                                    y: random.below(max(1, Int(size.height) - h)))
            card.cornerRadius = 12
            card.type = types[index % types.count]
            let stops = 2 + random.below(3)
            card.colors = (0..<stops).map { stop in
                hsb(Double((index * 7 + stop * 5) % 36) / 36, 0.7, 0.95,
                    alpha: stop == stops - 1 && index % 4 == 0 ? 0.4 : 1)
            }
            // Uneven stops: a square-root spacing.
            card.locations = (0..<stops).map { NSNumber(value: (Double($0) / Double(stops - 1)).squareRoot()) }
            switch card.type {
            case .axial:
                card.startPoint = CGPoint(x: 0, y: 0)
                card.endPoint = CGPoint(x: 1, y: 1)
            case .radial:
                card.startPoint = CGPoint(x: 0.5, y: 0.5)
                card.endPoint = CGPoint(x: 1, y: 1)
            case .conic:
                card.startPoint = CGPoint(x: 0.5, y: 0.5)
                card.endPoint = CGPoint(x: 1, y: 0.5)
            }
            root.addSublayer(card)
        }
    }

    /// A colour from hue, saturation and brightness (0...1 each).
    private static func hsb(_ h: Double, _ s: Double, _ v: Double, alpha: Double = 1) -> Color {
        let sector = (h.truncatingRemainder(dividingBy: 1) * 6)
        let i = Int(sector), f = sector - Double(i)
        let (p, q, t) = (v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f)))
        let (r, g, b): (Double, Double, Double) = switch i {
        case 0: (v, t, p)
        case 1: (q, v, p)
        case 2: (p, v, t)
        case 3: (p, q, v)
        case 4: (t, p, v)
        default: (v, p, q)
        }
        return Color(red: r, green: g, blue: b, alpha: alpha)
    }
}
