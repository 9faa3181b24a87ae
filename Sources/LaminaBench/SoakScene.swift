import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// A layer tree that changes on every frame in every way an application changes one, for `lamina soak`: a long
/// run of it on one renderer must not grow the process (docs/benchmarks.md, "Soak"), so every cache that a
/// frame fills must also be emptied by later frames.
///
/// Each `advance()` does, from a fixed pseudo-random sequence:
/// - replaces the contents of one of six image layers with a new image (new identity, a size from 8 to 120
///   pixels, so both the GLES atlas and whole textures see images come and go), and rewrites another image's
///   pixels in place (`markModified()`);
/// - adds a transient layer (rounded, shadowed, sometimes masked by a rounded or image mask, sometimes a
///   translucent group with children, sometimes turned in 3D) and removes the oldest beyond twelve;
/// - redraws a custom-drawn layer (`setNeedsDisplay()`, a delegate drawing with cairo) whose bounds change size
///   every 50 frames, so its backing image is replaced too;
/// - moves, turns and fades a nested group with a shadow and rounded corners.
public final class SoakScene {
    /// The tree's root: `size` points, opaque.
    public let root: Layer
    public static let size = CGSize(width: 320, height: 240)
    /// Frames advanced so far.
    public private(set) var frame = 0

    private var random: SplitMix64
    private let images: [Layer]
    private let drawn: Layer
    private let drawing = SoakDrawing()
    private let group: Layer
    private var transient: [Layer] = []

    /// A new scene; the same seed gives the same frames.
    public init(seed: UInt64 = 0x50A4) throws {
        random = SplitMix64(seed: seed)
        root = Layer()
        root.bounds = CGRect(origin: .zero, size: Self.size)
        root.backgroundColor = Color(white: 0.95)

        var images: [Layer] = []
        for index in 0..<6 {
            let layer = Layer(frame: CGRect(x: 8 + CGFloat(index) * 50, y: 8, width: 44, height: 44))
            layer.cornerRadius = CGFloat(index) * 3
            layer.masksToBounds = index % 2 == 0
            layer.contentsGravity = index % 3 == 0 ? .resizeAspect : .resize
            root.addSublayer(layer)
            images.append(layer)
        }
        self.images = images

        drawn = Layer(frame: CGRect(x: 8, y: 60, width: 96, height: 96))
        drawn.delegate = drawing
        drawn.shadowOpacity = 0.5
        drawn.shadowRadius = 4
        root.addSublayer(drawn)

        group = Layer(frame: CGRect(x: 200, y: 120, width: 100, height: 100))
        group.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
        group.cornerRadius = 14
        group.masksToBounds = true
        group.opacity = 0.8
        group.shadowOpacity = 0.6
        group.shadowRadius = 6
        for index in 0..<3 {
            let child = Layer(frame: CGRect(x: 10 + CGFloat(index) * 25, y: 20, width: 40, height: 60))
            child.backgroundColor = Color(red: 1, green: Double(index) / 3, blue: 0.2, alpha: 0.8)
            child.cornerRadius = 6
            group.addSublayer(child)
        }
        root.addSublayer(group)

        for layer in images { layer.contents = try makeImage() }
        drawn.setNeedsDisplay()
    }

    /// Layers the tree holds now (for checks that the tree itself stays the same size).
    public var layerCount: Int {
        func count(_ layer: Layer) -> Int { 1 + (layer.sublayers ?? []).reduce(0) { $0 + count($1) } }
        return count(root)
    }

    /// Changes the tree for the next frame.
    public func advance() throws {
        frame += 1
        // A new image for one layer, new pixels for another.
        images[random.below(images.count)].contents = try makeImage()
        if let image = images[random.below(images.count)].contents as? Image {
            image.fill(color())
            image.markModified()
        }

        // One layer in, the oldest out beyond twelve.
        let layer = try makeTransient()
        root.insertSublayer(layer, below: group)
        transient.append(layer)
        if transient.count > 12 { transient.removeFirst().removeFromSuperlayer() }

        // Custom drawing every frame; a new size (a new backing image) every 50.
        drawing.phase = Double(frame) * 0.1
        if frame % 50 == 0 {
            let side = CGFloat(64 + random.below(64))
            drawn.bounds = CGRect(x: 0, y: 0, width: side, height: side)
        }
        drawn.setNeedsDisplay()

        // The group moves, turns and fades.
        let t = CGFloat(frame)
        group.position = CGPoint(x: 240 + 30 * cos(t * 0.05), y: 170 + 20 * sin(t * 0.07))
        group.transform = Transform3D(rotationAngle: t * 0.01)
        group.opacity = Float(0.5 + 0.4 * sin(Double(t) * 0.03))
        group.shadowRadius = CGFloat(2 + frame % 12)
    }

    private func color() -> Color {
        Color(red: Double(random.below(256)) / 255, green: Double(random.below(256)) / 255,
              blue: Double(random.below(256)) / 255, alpha: 0.5 + Double(random.below(128)) / 255)
    }

    private func makeImage() throws -> Image {
        let width = 8 + random.below(113), height = 8 + random.below(113)
        let image = try Image(width: width, height: height, color: color())
        // A stripe, so that sampling differs across the image.
        let stripe = Image.premultipliedWord(color())
        for y in 0..<height { image.setWord(stripe, x: y * width / height, y: y) }
        return image
    }

    private func makeTransient() throws -> Layer {
        let side = CGFloat(16 + random.below(60))
        let layer = Layer(frame: CGRect(x: CGFloat(random.below(280)), y: CGFloat(60 + random.below(160)),
                                        width: side, height: side * 0.8))
        layer.backgroundColor = color()
        layer.cornerRadius = CGFloat(random.below(12))
        layer.borderWidth = CGFloat(random.below(3))
        layer.borderColor = color()
        if random.below(2) == 0 {
            layer.shadowOpacity = 0.7
            layer.shadowRadius = CGFloat(1 + random.below(10))
            layer.shadowOffset = CGSize(width: CGFloat(random.below(7)) - 3, height: 3)
        }
        switch random.below(4) {
        case 0:
            let mask = Layer(frame: layer.bounds.insetBy(dx: 3, dy: 3))
            mask.backgroundColor = .black
            mask.cornerRadius = side / 4
            layer.mask = mask
        case 1:
            let mask = Layer(frame: layer.bounds)
            mask.contents = try makeImage()
            layer.mask = mask
        default:
            break
        }
        if random.below(3) == 0 {
            layer.opacity = 0.6
            layer.masksToBounds = true
            let child = Layer(frame: CGRect(x: side / 3, y: side / 3, width: side, height: side / 2))
            child.backgroundColor = color()
            child.shadowOpacity = 0.5
            layer.addSublayer(child)
        }
        if random.below(4) == 0 {
            var transform = Transform3D.identity
            transform.m34 = -1 / 500
            layer.transform = transform.rotated(by: 0.4, x: 0, y: 1, z: 0)
        }
        return layer
    }
}

/// The soak's custom drawing: a ring and a turning spoke, drawn with cairo.
final class SoakDrawing: LayerDelegate {
    var phase = 0.0

    func draw(_ layer: Layer, in context: DrawingContext) {
        let bounds = layer.bounds
        context.setFillColor(Color(red: 0.95, green: 0.8, blue: 0.3))
        context.fillEllipse(in: bounds.insetBy(dx: 4, dy: 4))
        context.setStrokeColor(Color(red: 0.3, green: 0.2, blue: 0.1))
        context.setLineWidth(3)
        context.beginPath()
        let centre = CGPoint(x: bounds.midX, y: bounds.midY)
        context.move(to: centre)
        context.addLine(to: CGPoint(x: centre.x + cos(phase) * bounds.width / 2.5,
                                    y: centre.y + sin(phase) * bounds.height / 2.5))
        context.strokePath()
    }
}
