import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// The built-in demo scene that `lamina render` draws when given no scene file: the ideas of Core
/// Animation's chapter on backing images at a glance (contentsGravity, contentsScale, masksToBounds,
/// sprites cut from one sheet with contentsRect, and stretchable buttons with contentsCenter), a row of the
/// specialised layers (gradients, a shape, shaped text in four scripts, a replicator), and a row of blend modes, a
/// transform layer's cube and an emitter.
/// Every image is drawn by code, so nothing is read from disk.
public enum Demo {
    /// The demo's size in points.
    public static let size = CGSize(width: 960, height: 1020)

    /// A new layer tree of the demo; its root's bounds are `size`.
    public static func makeRoot() throws -> Layer {
        let root = Layer()
        root.name = "demo"
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = Color(hex: "#F3F4F7")
        let images = try DemoImages()

        root.addSublayer(try label("Lamina: CALayer contents on Linux", at: CGPoint(x: 24, y: 14), size: 22, bold: true))

        // Row 1: one picture under six gravities.
        root.addSublayer(try label("contentsGravity", at: CGPoint(x: 24, y: 58), size: 15, bold: true))
        let gravities: [ContentsGravity] = [.center, .topLeft, .bottomRight, .resize, .resizeAspect, .resizeAspectFill]
        for (i, gravity) in gravities.enumerated() {
            let frame = CGRect(x: 24 + CGFloat(i) * 154, y: 84, width: 136, height: 96)
            let box = panel(frame)
            box.contents = images.photo
            box.contentsGravity = gravity
            box.contentsScale = 2
            box.name = "gravity-\(gravity.rawValue)"
            root.addSublayer(box)
            root.addSublayer(try label(gravity.rawValue, at: CGPoint(x: frame.minX, y: frame.maxY + 6), size: 12))
        }

        // Row 2, left: the same 96 x 96 pixel image at contentsScale 1 and 2.
        root.addSublayer(try label("contentsScale", at: CGPoint(x: 24, y: 226), size: 15, bold: true))
        for (i, scale) in [CGFloat(1), 2].enumerated() {
            let frame = CGRect(x: 24 + CGFloat(i) * 154, y: 252, width: 136, height: 136)
            let box = panel(frame)
            box.contents = images.target
            box.contentsGravity = .center
            box.contentsScale = scale
            root.addSublayer(box)
            root.addSublayer(try label("contentsScale \(Int(scale))", at: CGPoint(x: frame.minX, y: frame.maxY + 6),
                                       size: 12))
        }

        // Row 2, right: a child overflowing its parent, with masksToBounds off and on.
        root.addSublayer(try label("masksToBounds", at: CGPoint(x: 352, y: 226), size: 15, bold: true))
        for (i, masks) in [false, true].enumerated() {
            let frame = CGRect(x: 352 + CGFloat(i) * 180, y: 252, width: 136, height: 136)
            let box = panel(frame, clips: masks)
            let ball = Layer(frame: CGRect(x: 70, y: 70, width: 100, height: 100))
            ball.contents = images.ball
            ball.contentsScale = 2
            box.addSublayer(ball)
            root.addSublayer(box)
            root.addSublayer(try label(masks ? "on" : "off", at: CGPoint(x: frame.minX, y: frame.maxY + 6), size: 12))
        }

        // Row 2, far right: the sprite sheet itself.
        root.addSublayer(try label("one sprite sheet", at: CGPoint(x: 744, y: 226), size: 15, bold: true))
        let sheet = panel(CGRect(x: 744, y: 252, width: 136, height: 136))
        sheet.contents = images.sheet
        sheet.contentsGravity = .center
        sheet.contentsScale = 1
        root.addSublayer(sheet)

        // Row 3, left: four sprites cut from that sheet with contentsRect.
        root.addSublayer(try label("contentsRect: four sprites", at: CGPoint(x: 24, y: 430), size: 15, bold: true))
        let cuts = [CGRect(x: 0, y: 0, width: 0.5, height: 0.5), CGRect(x: 0.5, y: 0, width: 0.5, height: 0.5),
                    CGRect(x: 0, y: 0.5, width: 0.5, height: 0.5), CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)]
        for (i, cut) in cuts.enumerated() {
            let sprite = Layer(frame: CGRect(x: 24 + CGFloat(i) * 84, y: 460, width: 72, height: 72))
            sprite.contents = images.sheet
            sprite.contentsRect = cut
            sprite.name = "sprite-\(i)"
            root.addSublayer(sprite)
        }

        // Row 3, right: buttons of several sizes from one 30 x 30 pixel image with contentsCenter.
        root.addSublayer(try label("contentsCenter: one 30 px image, three buttons", at: CGPoint(x: 380, y: 430),
                                   size: 15, bold: true))
        let buttons: [(CGRect, String)] = [
            (CGRect(x: 380, y: 470, width: 90, height: 36), "OK"),
            (CGRect(x: 486, y: 464, width: 170, height: 48), "Continue"),
            (CGRect(x: 672, y: 456, width: 264, height: 64), "Render the scene"),
        ]
        for (frame, title) in buttons {
            let button = Layer(frame: frame)
            button.contents = images.button
            button.contentsScale = 2
            button.contentsCenter = CGRect(x: 0.4, y: 0.4, width: 0.2, height: 0.2)
            button.name = "button-\(title)"
            let text = try label(title, at: .zero, size: frame.height * 0.36, bold: true, colour: .white)
            text.position = CGPoint(x: frame.width / 2, y: frame.height / 2 + 1)
            button.addSublayer(text)
            root.addSublayer(button)
        }
        try addSpecialisedRow(to: root, top: 560)
        try addCompositingRow(to: root, top: 784)
        root.addSublayer(try label(
            "Rendered by Lamina's CPU renderer from a layer tree built in code; `lamina render` with no scene draws it.",
            at: CGPoint(x: 24, y: 992), size: 12, colour: Color(hex: "#6B7280")!))
        return root
    }

    /// A light rounded card with a hairline border and a soft shadow, for the sample boxes. A card that clips
    /// (masksToBounds) gets no shadow, since Core Animation clips a layer's own shadow away.
    private static func panel(_ frame: CGRect, clips: Bool = false) -> Layer {
        let layer = Layer(frame: frame)
        layer.backgroundColor = Color(hex: "#D9DDE5")
        layer.cornerRadius = 10
        layer.borderWidth = 1
        layer.borderColor = Color(hex: "#C3C8D2")!
        layer.masksToBounds = clips
        if !clips {
            layer.shadowOpacity = 0.22
            layer.shadowRadius = 4
            layer.shadowOffset = CGSize(width: 0, height: 3)
        }
        return layer
    }

    /// A text label as a layer whose contents are drawn at 2 pixels per point, so it stays crisp at scale 2.
    static func label(_ text: String, at origin: CGPoint, size: CGFloat, bold: Bool = false,
                      colour: Color = Color(hex: "#1F2937")!) throws -> Layer {
        let measure = try DrawingContext(image: Image(width: 1, height: 1))
        let width = ceil(measure.textWidth(text, fontSize: size, bold: bold)) + 4
        let height = ceil(size * 1.35)
        let image = try Image(width: Int(width * 2), height: Int(height * 2))
        let context = try DrawingContext(image: image, scale: 2)
        context.setFillColor(colour)
        context.showText(text, at: CGPoint(x: 2, y: size), fontSize: size, bold: bold)
        context.flush()
        let layer = Layer(frame: CGRect(x: origin.x, y: origin.y, width: width, height: height))
        layer.contents = image
        layer.contentsScale = 2
        layer.name = "label \(text)"
        return layer
    }
}

/// The demo's pictures, drawn with cairo.
package struct DemoImages {
    let photo: Image, target: Image, ball: Image, sheet: Image, button: Image

    init() throws {
        // A landscape, 160 x 100 pixels: sky, sun top-right, hills, a red house on the left.
        photo = try Image(width: 160, height: 100)
        do {
            let c = try DrawingContext(image: photo)
            c.fillVerticalGradient(CGRect(x: 0, y: 0, width: 160, height: 100), top: Color(hex: "#4F9DEB")!,
                                   bottom: Color(hex: "#BFE3FF")!)
            c.setFillColor(Color(hex: "#FFD23F")!)
            c.fillEllipse(in: CGRect(x: 112, y: 12, width: 30, height: 30))
            c.setFillColor(Color(hex: "#5DAA48")!)
            c.fillEllipse(in: CGRect(x: -40, y: 60, width: 150, height: 80))
            c.setFillColor(Color(hex: "#3F8A3A")!)
            c.fillEllipse(in: CGRect(x: 70, y: 66, width: 140, height: 70))
            c.setFillColor(Color(hex: "#D64545")!)
            c.fill(CGRect(x: 28, y: 50, width: 26, height: 20))
            c.setFillColor(Color(hex: "#7A2E2E")!)
            c.beginPath()
            c.move(to: CGPoint(x: 24, y: 51))
            c.addLine(to: CGPoint(x: 41, y: 38))
            c.addLine(to: CGPoint(x: 58, y: 51))
            c.closePath()
            c.fillPath()
            c.flush()
        }
        // Rings with fine lines and a label, 96 x 96 pixels: blur shows when it is magnified.
        target = try Image(width: 96, height: 96)
        do {
            let c = try DrawingContext(image: target)
            for (i, colour) in ["#1D4ED8", "#FFFFFF", "#DC2626", "#FFFFFF", "#1D4ED8"].enumerated() {
                c.setFillColor(Color(hex: colour)!)
                let inset = CGFloat(i) * 9
                c.fillEllipse(in: CGRect(x: 2 + inset, y: 2 + inset, width: 92 - 2 * inset, height: 92 - 2 * inset))
            }
            c.setStrokeColor(.black)
            c.setLineWidth(1)
            c.beginPath()
            c.move(to: CGPoint(x: 48, y: 0))
            c.addLine(to: CGPoint(x: 48, y: 96))
            c.move(to: CGPoint(x: 0, y: 48))
            c.addLine(to: CGPoint(x: 96, y: 48))
            c.strokePath()
            c.flush()
        }
        // A shaded ball, 200 x 200 pixels with transparent corners.
        ball = try Image(width: 200, height: 200)
        do {
            let c = try DrawingContext(image: ball)
            c.setFillColor(Color(hex: "#F59E0B")!)
            c.fillEllipse(in: CGRect(x: 4, y: 4, width: 192, height: 192))
            c.setFillColor(Color(hex: "#FCD34D")!)
            c.fillEllipse(in: CGRect(x: 40, y: 30, width: 80, height: 60))
            c.setStrokeColor(Color(hex: "#92400E")!)
            c.setLineWidth(6)
            c.strokeEllipse(in: CGRect(x: 4, y: 4, width: 192, height: 192))
            c.flush()
        }
        // A 128 x 128 sheet of four 64 x 64 sprites.
        sheet = try Image(width: 128, height: 128)
        do {
            let c = try DrawingContext(image: sheet)
            c.setFillColor(Color(hex: "#EF4444")!)
            c.fillEllipse(in: CGRect(x: 6, y: 6, width: 52, height: 52))
            c.setFillColor(Color(hex: "#22C55E")!)
            c.beginPath()
            c.addRoundedRect(in: CGRect(x: 72, y: 8, width: 48, height: 48), radius: 8)
            c.fillPath()
            c.setFillColor(Color(hex: "#3B82F6")!)
            c.beginPath()
            c.move(to: CGPoint(x: 32, y: 70))
            c.addLine(to: CGPoint(x: 60, y: 122))
            c.addLine(to: CGPoint(x: 4, y: 122))
            c.closePath()
            c.fillPath()
            c.setFillColor(Color(hex: "#A855F7")!)
            c.beginPath()
            for k in 0..<10 {
                let angle = CGFloat(k) * .pi / 5 - .pi / 2
                let r: CGFloat = k % 2 == 0 ? 30 : 12
                let p = CGPoint(x: 96 + r * cos(angle), y: 97 + r * sin(angle))
                if k == 0 { c.move(to: p) } else { c.addLine(to: p) }
            }
            c.closePath()
            c.fillPath()
            c.flush()
        }
        button = try Self.button()
    }

    /// A 30 x 30 pixel button: rounded, bordered, shaded; its centre stretches (LaminaBench's nineslice-2k draws
    /// it too).
    package static func button() throws -> Image {
        let image = try Image(width: 30, height: 30)
        let c = try DrawingContext(image: image)
        let layers: [(CGRect, CGFloat, String)] = [
            (CGRect(x: 1, y: 1, width: 28, height: 28), 9, "#1E3A8A"),
            (CGRect(x: 3, y: 3, width: 24, height: 24), 7, "#2563EB"),
            (CGRect(x: 3, y: 3, width: 24, height: 11), 5, "#3B82F6"),
        ]
        for (rect, radius, colour) in layers {
            c.beginPath()
            c.addRoundedRect(in: rect, radius: radius)
            c.setFillColor(Color(hex: colour)!)
            c.fillPath()
        }
        c.flush()
        return image
    }
}
