import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// SplitMix64: the documented, fixed pseudo-random generator of the benchmark scenes, so every run on every
/// machine draws the same frames (seed 0x1A31A).
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
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

/// The built-in benchmark scenes of `lamina bench`.
public enum BenchScene: String, CaseIterable, Sendable {
    /// 1,000 / 10,000 / 100,000 sprites of 64 x 64 points cut from one 512 x 512 sheet with contentsRect, at
    /// whole-point positions.
    case sprites1k = "sprites-1k", sprites10k = "sprites-10k", sprites100k = "sprites-100k"
    /// 2,000 buttons of random sizes (48...240 x 24...72 points) from one 30 x 30 pixel image with contentsCenter.
    case nineslice2k = "nineslice-2k"
    /// 1,000 custom-drawn 64 x 64 layers (cairo: a gradient disc, a ring and a dashed cross), drawn once and then
    /// only composited.
    case drawn1k = "drawn-1k"
    /// The same, with 10 of them marked for drawing again before every frame.
    case drawn1kRedraw10 = "drawn-1k-redraw10"
    /// One 3840 x 2160 image aspect-filled into the output.
    case bigimage
    /// The same, with the image's pixels changed every frame, so a GPU renderer uploads 33 MB per frame.
    case upload
    /// A chain of 1,000 nested layers, each a 16 x 16 point square with its own colour, turned by 0.36 degrees
    /// and moved along from its superlayer, so the chain winds once round a circle; the leaf is a white 64 x 64
    /// square showing a sprite. Every level paints, so the planner's per-level transform work is paid for in
    /// pixels too. Before every frame the first level's turn changes a little (the whole chain sways by at most
    /// 1.1 degrees), so the chain is planned again each frame: an unchanged tree's plan would be reused whole.
    case deeptree

    /// The layer tree for an output of `size` points.
    public func makeRoot(size: CGSize) throws -> Layer {
        let root = Layer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = Color(hex: "#202830")
        var random = SplitMix64()
        switch self {
        case .sprites1k, .sprites10k, .sprites100k:
            let count = self == .sprites1k ? 1_000 : self == .sprites10k ? 10_000 : 100_000
            let sheet = try Self.spriteSheet()
            for _ in 0..<count {
                let frame = random.below(64)
                let sprite = Layer()
                sprite.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
                sprite.anchorPoint = .zero
                sprite.position = CGPoint(x: random.below(Int(size.width) - 63), y: random.below(Int(size.height) - 63))
                sprite.contents = sheet
                sprite.contentsRect = CGRect(x: CGFloat(frame % 8) / 8, y: CGFloat(frame / 8) / 8, width: 0.125,
                                             height: 0.125)
                root.addSublayer(sprite)
            }
        case .drawn1k, .drawn1kRedraw10:
            for index in 0..<1_000 {
                let layer = Layer()
                layer.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
                layer.anchorPoint = .zero
                layer.position = CGPoint(x: random.below(Int(size.width) - 63), y: random.below(Int(size.height) - 63))
                layer.ownedDelegate = BadgeDrawing(hue: Double(index % 64) / 64)
                layer.setNeedsDisplay()
                root.addSublayer(layer)
            }
        case .bigimage, .upload:
            let layer = Layer(frame: root.bounds)
            layer.contents = try Self.bigImage()
            layer.contentsGravity = .resizeAspectFill
            layer.masksToBounds = true
            root.addSublayer(layer)
        case .deeptree:
            Self.addChain(to: root, size: size, sheet: try Self.spriteSheet())
        case .nineslice2k:
            let button = try DemoImages.button()
            for _ in 0..<2_000 {
                let w = 48 + random.below(193), h = 24 + random.below(49)
                let layer = Layer()
                layer.bounds = CGRect(x: 0, y: 0, width: w, height: h)
                layer.anchorPoint = .zero
                layer.position = CGPoint(x: random.below(max(1, Int(size.width) - w)),
                                         y: random.below(max(1, Int(size.height) - h)))
                layer.contents = button
                layer.contentsCenter = CGRect(x: 0.4, y: 0.4, width: 0.2, height: 0.2)
                root.addSublayer(layer)
            }
        }
        return root
    }

    /// Work done before each frame: for `upload`, a change to the big image's pixels; for `drawn-1k-redraw10`,
    /// ten layers (the next ten in turn) marked for drawing; for `deeptree`, a new turn of the chain's first level.
    public func prepareFrame(_ root: Layer, frame: Int) {
        switch self {
        case .upload:
            guard let image = root.sublayers.first?.contents else { return }
            image.setWord(0xFF00_0000 | UInt32(truncatingIfNeeded: frame &* 2_654_435_761) & 0xFF_FFFF, x: 0, y: 0)
            image.markModified()
        case .drawn1kRedraw10:
            for layer in redrawnLayers(root, frame: frame) { layer.setNeedsDisplay() }
        case .deeptree:
            root.sublayers.first?.transform = Transform3D(rotationAngle: Self.chainTurn + 0.02 * sin(CGFloat(frame)))
        default:
            break
        }
    }

    /// The layers `prepareFrame` marks for drawing before `frame` (drawn-1k-redraw10 only), so that a baseline
    /// can redraw the same ones.
    public func redrawnLayers(_ root: Layer, frame: Int) -> [Layer] {
        guard self == .drawn1kRedraw10 else { return [] }
        let layers = root.sublayers
        return (0..<10).map { layers[(frame * 10 + $0) % layers.count] }
    }

    /// Layers drawn (display() run) in the whole tree so far.
    public static func drawCount(_ root: Layer) -> Int {
        var count = 0
        forEachLayer(root, visibleOnly: false) { count += $0.displayCount }
        return count
    }

    /// Layers that can paint: not hidden and not fully transparent, nor under a layer that is; the root counts.
    /// `lamina bench` multiplies this by frames per second for its layers-per-second figure.
    public static func visibleLayerCount(_ root: Layer) -> Int {
        var count = 0
        forEachLayer(root, visibleOnly: true) { _ in count += 1 }
        return count
    }

    /// Visits the tree without recursion: deeptree's chain is 1,000 levels deep.
    private static func forEachLayer(_ root: Layer, visibleOnly: Bool, _ body: (Layer) -> Void) {
        var stack = [root]
        while let layer = stack.popLast() {
            if visibleOnly, layer.isHidden || layer.opacity <= 0 { continue }
            body(layer)
            stack.append(contentsOf: layer.sublayers)
        }
    }

    /// deeptree's depth.
    static let chainLevels = 1_000
    /// deeptree's turn per level: one full turn over the chain.
    static let chainTurn = 2 * CGFloat.pi / CGFloat(chainLevels)

    /// deeptree's chain. Each level's origin sits `step` points along its superlayer's x axis and is turned by
    /// `turn`, so the origins lie on a circle (radius 40% of the shorter side) that the chain goes round once;
    /// the first level is placed so that the circle is centred in the output.
    static func addChain(to root: Layer, size: CGSize, sheet: Image) {
        let levels = chainLevels, turn = chainTurn
        let radius = max(8, min(size.width, size.height) * 0.4 - 32)
        let step = 2 * radius * sin(turn / 2)
        // Lamina turns (1, 0) to (cos, sin) for a positive angle. Origins p(n) = centre + R^n a, where
        // (R - I) a = (step, 0); the first level's origin is centre + R a.
        let c = cos(turn), s = sin(turn), det = 2 - 2 * c
        let a = CGPoint(x: step * (c - 1) / det, y: -step * s / det)
        let centre = CGPoint(x: size.width / 2 - 8, y: size.height / 2 - 8)
        var parent = root
        for level in 0..<levels {
            let layer = Layer()
            layer.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
            layer.anchorPoint = .zero
            layer.position = level == 0
                ? CGPoint(x: centre.x + c * a.x - s * a.y, y: centre.y + s * a.x + c * a.y)
                : CGPoint(x: step, y: 0)
            layer.transform = Transform3D(rotationAngle: turn)
            let hue = Double(level) / Double(levels)
            layer.backgroundColor = Color(
                red: 0.5 + 0.5 * cos(2 * .pi * hue), green: 0.5 + 0.5 * cos(2 * .pi * (hue - 1 / 3.0)),
                blue: 0.5 + 0.5 * cos(2 * .pi * (hue - 2 / 3.0)))
            if level == levels - 1 {
                // White, so that the sprite (a red disc) shows on it.
                layer.backgroundColor = .white
                layer.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
                layer.contents = sheet
                layer.contentsRect = CGRect(x: 0, y: 0, width: 0.125, height: 0.125)
            }
            parent.addSublayer(layer)
            parent = layer
        }
    }

    /// A 3840 x 2160 picture: diagonal colour gradient with a grid, so scaling artefacts would show.
    static func bigImage() throws -> Image {
        let image = try Image(width: 3840, height: 2160)
        let words = image.baseAddress.assumingMemoryBound(to: UInt32.self)
        for y in 0..<2160 {
            for x in 0..<3840 {
                let grid = x % 120 == 0 || y % 120 == 0
                let r = UInt32(x * 255 / 3839), g = UInt32(y * 255 / 2159), b = UInt32((x + y) % 256)
                words[y * 3840 + x] = grid ? 0xFFFF_FFFF : 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        image.markModified()
        return image
    }

    /// 8 x 8 frames of 64 x 64 pixels: discs of 64 hues with soft (semi-transparent) rims.
    static func spriteSheet() throws -> Image {
        let sheet = try Image(width: 512, height: 512)
        let context = try DrawingContext(image: sheet)
        for frame in 0..<64 {
            let x = CGFloat(frame % 8) * 64, y = CGFloat(frame / 8) * 64
            let hue = Double(frame) / 64
            let colour = Color(red: 0.5 + 0.5 * cos(2 * .pi * hue), green: 0.5 + 0.5 * cos(2 * .pi * (hue - 1 / 3.0)),
                               blue: 0.5 + 0.5 * cos(2 * .pi * (hue - 2 / 3.0)))
            context.setFillColor(colour.withAlphaComponent(0.5))
            context.fillEllipse(in: CGRect(x: x + 2, y: y + 2, width: 60, height: 60))
            context.setFillColor(colour)
            context.fillEllipse(in: CGRect(x: x + 8, y: y + 8, width: 48, height: 48))
        }
        context.flush()
        return sheet
    }
}

/// The drawing of `drawn-1k`: a gradient disc with a ring and a dashed cross, in one hue.
final class BadgeDrawing: LayerDelegate {
    let colour: Color

    init(hue: Double) {
        colour = Color(red: 0.5 + 0.5 * cos(2 * .pi * hue), green: 0.5 + 0.5 * cos(2 * .pi * (hue - 1 / 3.0)),
                       blue: 0.5 + 0.5 * cos(2 * .pi * (hue - 2 / 3.0)))
    }

    func draw(_ layer: Layer, in context: DrawingContext) {
        let b = layer.bounds.insetBy(dx: 4, dy: 4)
        context.saveGState()
        context.addEllipse(in: b)
        context.clip()
        context.drawRadialGradient(
            Gradient(colors: [.white, colour])!, startCenter: CGPoint(x: b.midX - 8, y: b.midY - 8), startRadius: 2,
            endCenter: CGPoint(x: b.midX, y: b.midY), endRadius: b.width / 2, options: [.drawsAfterEndLocation])
        context.restoreGState()
        context.setStrokeColor(.black)
        context.setLineWidth(3)
        context.strokeEllipse(in: b)
        context.setLineDash(phase: 0, lengths: [4, 3])
        context.setLineWidth(1.5)
        context.beginPath()
        context.move(to: CGPoint(x: b.minX + 8, y: b.midY))
        context.addLine(to: CGPoint(x: b.maxX - 8, y: b.midY))
        context.move(to: CGPoint(x: b.midX, y: b.minY + 8))
        context.addLine(to: CGPoint(x: b.midX, y: b.maxY - 8))
        context.strokePath()
    }
}
