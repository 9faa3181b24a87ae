import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

extension Demo {
    /// Row 4: the specialised layers. Three gradient cards (axial, radial, conic), a shape layer (a star filled
    /// even-odd, with a dashed stroke drawn to 80% of its length), a text layer in four scripts (wrapped, centred,
    /// with a CJK fallback font), and a replicator turning one dot into a ring of twelve fading ones.
    static func addSpecialisedRow(to root: Layer, top: CGFloat) throws {
        root.addSublayer(try label("gradient, shape, text and replicator layers", at: CGPoint(x: 24, y: top),
                                   size: 15, bold: true))
        let y = top + 30
        let types: [GradientLayerType] = [.axial, .radial, .conic]
        for (i, type) in types.enumerated() {
            let card = GradientLayer()
            card.frame = CGRect(x: 24 + CGFloat(i) * 112, y: y, width: 100, height: 136)
            card.cornerRadius = 10
            card.type = type
            card.colors = [Color(hex: "#F43F5E")!, Color(hex: "#F59E0B")!, Color(hex: "#3B82F6")!.withAlphaComponent(0.6)]
            card.locations = [0, 0.35, 1]
            if type != .axial {
                card.startPoint = CGPoint(x: 0.5, y: 0.5)
                card.endPoint = type == .radial ? CGPoint(x: 1, y: 1) : CGPoint(x: 1, y: 0.5)
            }
            root.addSublayer(card)
            root.addSublayer(try label(type.rawValue, at: CGPoint(x: card.frame.minX, y: card.frame.maxY + 6),
                                       size: 12))
        }

        let star = ShapeLayer()
        star.frame = CGRect(x: 372, y: y, width: 136, height: 136)
        var path = Path()
        for k in 0...5 {
            let angle = CGFloat(k * 2 % 5) * 2 * .pi / 5 - .pi / 2
            let point = CGPoint(x: 68 + 60 * cos(angle), y: 72 + 60 * sin(angle))
            if k == 0 { path.move(to: point) } else { path.addLine(to: point) }
        }
        path.closeSubpath()
        star.path = path.cgPath
        star.fillColor = Color(hex: "#A855F7")!
        star.fillRule = .evenOdd
        star.strokeColor = Color(hex: "#1F2937")!
        star.lineWidth = 4
        star.lineJoin = .round
        star.lineCap = .round
        star.lineDashPattern = [14, 8]
        star.strokeEnd = 0.8
        root.addSublayer(star)
        root.addSublayer(try label("shape: strokeEnd 0.8",
                                   at: CGPoint(x: star.frame.minX, y: star.frame.maxY + 6), size: 12))

        let card = Layer(frame: CGRect(x: 540, y: y, width: 200, height: 136))
        card.backgroundColor = Color(hex: "#1F2937")!
        card.cornerRadius = 10
        let text = TextLayer()
        text.frame = card.bounds.insetBy(dx: 8, dy: 16)
        card.addSublayer(text)
        text.string = "Lamina draws text\nשלום · مرحبا\nनमस्ते · 日本語"
        text.font = "DejaVu Sans"
        text.fontSize = 18
        text.alignmentMode = .center
        text.isWrapped = true
        text.foregroundColor = Color(hex: "#F9FAFB")!
        root.addSublayer(card)
        root.addSublayer(try label("text: Pango, four scripts", at: CGPoint(x: card.frame.minX, y: card.frame.maxY + 6),
                                   size: 12))

        let ring = ReplicatorLayer()
        ring.frame = CGRect(x: 772, y: y, width: 136, height: 136)
        ring.instanceCount = 12
        ring.instanceTransform = Transform3D(rotationAngle: 2 * .pi / 12, x: 0, y: 0, z: 1)
        ring.instanceColor = Color(hex: "#10B981")!
        ring.instanceAlphaOffset = -0.07
        ring.instanceRedOffset = 0.06
        let dot = Layer(frame: CGRect(x: 58, y: 6, width: 20, height: 20))
        dot.backgroundColor = .white
        dot.cornerRadius = 10
        ring.addSublayer(dot)
        root.addSublayer(ring)
        root.addSublayer(try label("replicator: 12 instances", at: CGPoint(x: ring.frame.minX, y: ring.frame.maxY + 6),
                                   size: 12))
    }
}
