import Foundation
import Lamina
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// The built-in benchmark scenes of `lamina bench`.
public enum BenchScene: String, CaseIterable, Sendable {
    /// 1,000 / 10,000 / 100,000 sprites of 64 x 64 points cut from one 512 x 512 sheet with contentsRect, at
    /// whole-point positions.
    case sprites1k = "sprites-1k", sprites10k = "sprites-10k", sprites100k = "sprites-100k"
    /// sprites-1k's / sprites-10k's sprites (the same frames at the same places), each with cornerRadius 16 and
    /// masksToBounds: every sprite is one quad seen through a rounded rectangle (its CoverageShape), no offscreen
    /// group, so the renderers draw its straight middle as a copy and its corners through antialiased coverage.
    case roundedSprites1k = "rounded-sprites-1k", roundedSprites10k = "rounded-sprites-10k"
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
    /// 500 cards (at 1920 x 1080; the same density at other sizes) of random whole-point sizes (160...240 x 100...150 points) at whole-point positions, built as iOS
    /// builds a card with a shadow and rounded, clipped content: an outer layer with a white-ish background,
    /// cornerRadius 12, a 2 point coloured border and a shadow (opacity 0.4, radius 6, offset (0, 4); no
    /// shadowPath, so the silhouette is the card's own subtree, and masksToBounds off so the shadow is not clipped),
    /// holding an inner layer inset by the border with cornerRadius 10 and masksToBounds, which clips a coloured
    /// header band, a 48 x 48 sprite and a rounded coloured bar. Every card's shadow is its own (distinct
    /// contents), so the first frame blurs 500 shadows; later frames reuse them.
    case cards500 = "cards-500"
    /// The same, where before every frame 10 cards (the next ten in turn) move by whole points, so their shadows
    /// are reused (the silhouette is relative to the card), and 1 card (250 further on) grows by 8 x 6 points, or
    /// shrinks back, so its shadow is blurred again.
    case cards500Moving = "cards-500-moving"
    /// One square, half the output's shorter side, in the middle of the output, casting a black shadow of
    /// shadowRadius 3, 30, 300 or 1000 points (the last capped at sigma 500 pixels; from 30 on blurred at reduced
    /// resolution). Before every frame the shadow's opacity changes (1 - (frame mod 64) / 1000), so every frame
    /// plans, draws, reduces and blurs the shadow again: these scenes time making a shadow, not reusing one.
    case shadowRadius3 = "shadow-radius-3", shadowRadius30 = "shadow-radius-30"
    case shadowRadius300 = "shadow-radius-300", shadowRadius1000 = "shadow-radius-1000"
    /// sprites-10k's 10,000 sprites inside one container layer the size of the output, which moves by one whole
    /// point (right on even frames, back on odd ones) before every frame: the planner moves the container's planned
    /// subtree instead of planning 10,000 layers again (docs/architecture.md, "Model, commit, snapshot, plan").
    case parentMoving10k = "parent-moving-10k"
    /// sprites-100k's 100,000 sprites, every one moved to a new whole-point place inside the output before every
    /// frame, all in one transaction (BenchScenes+Moving.swift): the live tree where everything moves.
    case moving100k = "moving-100k"
    /// sprites-10k's sprites, each running one endless animation (of four kinds in turn: a position between two
    /// points eased in and out, an opacity keyframe animation, a turn of transform.rotation.z, a spring on
    /// position.y), at phases of their own: every frame evaluates 10,000 animations (`animationMsMedian` times that
    /// alone) and plans what they moved.
    case animated10k = "animated-10k"
    /// The same with 1,000 sprites: the scene `lamina bench --export` exports by default.
    case animated1k = "animated-1k"
    /// 1,000 text layers (at 1920 x 1080; the same density at other sizes), labels of 12 to 30 characters in
    /// DejaVu Sans at 12 to 24 points, a third of them centred and a third wrapped, at whole-point positions: the
    /// first frame lays out and rasterises every label; later frames reuse every picture.
    case text1k = "text-1k"
    /// The same, where before every frame 10 labels (the next ten in turn) change their string: 10 pictures made
    /// per frame, 990 kept.
    case text1kChange10 = "text-1k-change10"
    /// 500 gradient cards (at 1920 x 1080) of random whole-point sizes (160...240 x 100...150 points), cornerRadius
    /// 12, axial, radial and conic in turn with two to four colours (some translucent) at uneven locations.
    case gradientCards500 = "gradient-cards-500"
    /// cards-500's number of cards at its sizes and places, each a translucent rounded card holding a sprite, taking
    /// the 25 blend modes and compositing operations other than normal in turn (BenchScenes+Blend.swift).
    case blend500 = "blend-500"
    /// The same cards composited normally: what blend-500 is measured against.
    case blend500Normal = "blend-500-normal"
    /// 20,000 live particles of one emitter layer (BenchScenes+Emitter.swift): sprites-10k's sprites, twice as many,
    /// moving, made anew at every frame.
    case emitter20k = "emitter-20k"
    /// blend-500's cards without their sprites: each blended card a leaf layer, one quad, which the renderers may
    /// combine with the pixels beneath without a buffer of its own
    /// (docs/benchmarks.md, "Blend modes (2026-11-26)").
    case blendLeaf500 = "blend-leaf-500"
    /// The same leaf cards composited normally: what blend-leaf-500 is measured against.
    case blendLeaf500Normal = "blend-leaf-500-normal"

    /// Gives each of `sprites` one endless animation, four kinds in turn, each at a phase of its own.
    static func animate(_ sprites: [Layer], size: CGSize) {
        let move = BasicAnimation(keyPath: "position")
        move.toValue = CGPoint(x: size.width / 2, y: size.height / 2)
        move.timingFunction = MediaTimingFunction(name: .easeInEaseOut)
        let fade = KeyframeAnimation(keyPath: "opacity")
        fade.values = [1.0, 0.3, 0.8, 1.0]
        fade.keyTimes = [0, 0.3, 0.7, 1]
        let turn = BasicAnimation(keyPath: "transform.rotation.z")
        turn.fromValue = 0.0
        turn.toValue = 2 * Double.pi
        let spring = SpringAnimation(keyPath: "position.y")
        spring.byValue = 40.0
        let kinds: [Animation] = [move, fade, turn, spring]
        for kind in kinds {
            kind.repeatCount = .infinity
            kind.autoreverses = kind !== turn
        }
        Transaction.begin()
        for (index, sprite) in sprites.enumerated() {
            let animation = kinds[index % kinds.count]
            animation.duration = 1 + Double(index % 5) * 0.5
            animation.beginTime = -Double(index % 97) * 0.031
            sprite.attach(animation, forKey: "bench", keepingBeginTime: true)
        }
        Transaction.commit()
    }

    /// The shadowRadius of a `shadow-radius-N` scene; nil for the others.
    public var shadowRadius: CGFloat? {
        switch self {
        case .shadowRadius3: return 3
        case .shadowRadius30: return 30
        case .shadowRadius300: return 300
        case .shadowRadius1000: return 1000
        default: return nil
        }
    }

    /// The layer tree for an output of `size` points.
    public func makeRoot(size: CGSize) throws -> Layer {
        let root = Layer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = Color(hex: "#202830")
        var random = SplitMix64()
        switch self {
        case .sprites1k, .sprites10k, .sprites100k, .parentMoving10k, .animated10k, .animated1k, .roundedSprites1k,
             .roundedSprites10k, .moving100k:
            let count = [.sprites1k, .animated1k, .roundedSprites1k].contains(self) ? 1_000
                : self == .sprites100k || self == .moving100k ? 100_000 : 10_000
            let rounded = self == .roundedSprites1k || self == .roundedSprites10k
            let sheet = try Self.spriteSheet()
            let parent = self == .parentMoving10k ? Layer(frame: root.bounds) : root
            if parent !== root { root.addSublayer(parent) }
            for _ in 0..<count {
                let frame = random.below(64)
                let sprite = Layer()
                sprite.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
                sprite.anchorPoint = .zero
                sprite.position = CGPoint(x: random.below(Int(size.width) - 63), y: random.below(Int(size.height) - 63))
                sprite.contents = sheet
                sprite.contentsRect = CGRect(x: CGFloat(frame % 8) / 8, y: CGFloat(frame / 8) / 8, width: 0.125,
                                             height: 0.125)
                if rounded {
                    sprite.cornerRadius = Self.spriteCornerRadius
                    sprite.masksToBounds = true
                }
                parent.addSublayer(sprite)
            }
            if self == .animated10k || self == .animated1k { Self.animate(root.sublayers ?? [], size: size) }
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
        case .cards500, .cards500Moving:
            let sheet = try Self.spriteSheet()
            for index in 0..<Self.cardCount(size: size) {
                let w = 160 + random.below(81), h = 100 + random.below(51)
                let card = Self.makeCard(index: index, sheet: sheet, frame: random.below(64))
                card.position = CGPoint(x: random.below(max(1, Int(size.width) - w)),
                                        y: random.below(max(1, Int(size.height) - h - 10)))
                Self.layOutCard(card, width: CGFloat(w), height: CGFloat(h))
                root.addSublayer(card)
            }
        case .shadowRadius3, .shadowRadius30, .shadowRadius300, .shadowRadius1000:
            let side = min(size.width, size.height) / 2
            let square = Layer(frame: CGRect(x: (size.width - side) / 2, y: (size.height - side) / 2, width: side,
                                             height: side))
            square.name = "square"
            square.backgroundColor = Color(hex: "#ff0000")
            square.shadowOpacity = 1
            square.shadowRadius = shadowRadius ?? 0
            root.addSublayer(square)
        case .text1k, .text1kChange10:
            Self.addLabels(to: root, size: size, random: &random)
        case .blend500, .blend500Normal:
            try Self.addBlendCards(to: root, size: size, blended: self == .blend500, random: &random)
        case .blendLeaf500, .blendLeaf500Normal:
            try Self.addBlendCards(to: root, size: size, blended: self == .blendLeaf500, sprites: false,
                                   random: &random)
        case .gradientCards500:
            Self.addGradientCards(to: root, size: size, random: &random)
        case .emitter20k:
            try Self.addEmitter(to: root, size: size)
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
    /// ten layers (the next ten in turn) marked for drawing; for `deeptree`, a new turn of the chain's first level;
    /// for `cards-500-moving`, ten cards moved and one resized; for `text-1k-change10`, ten labels given new strings;
    /// for `shadow-radius-N`, a new shadow opacity; for `parent-moving-10k`, the container moved by a point; for
    /// `moving-100k`, every sprite moved.
    /// The changes are made with actions disabled: each frame measures the changed tree, not an implicit animation.
    public func prepareFrame(_ root: Layer, frame: Int) {
        Transaction.begin()
        Transaction.setDisableActions(true)
        defer { Transaction.commit() }
        switch self {
        case .upload:
            guard let image = root.sublayers?.first?.contents as? Image else { return }
            image.setWord(0xFF00_0000 | UInt32(truncatingIfNeeded: frame &* 2_654_435_761) & 0xFF_FFFF, x: 0, y: 0)
            image.markModified()
        case .drawn1kRedraw10:
            for layer in redrawnLayers(root, frame: frame) { layer.setNeedsDisplay() }
        case .deeptree:
            root.sublayers?.first?.transform = Transform3D(rotationAngle: Self.chainTurn + 0.02 * sin(CGFloat(frame)))
        case .cards500Moving:
            Self.moveCards(root, frame: frame)
        case .shadowRadius3, .shadowRadius30, .shadowRadius300, .shadowRadius1000:
            root.sublayers?.first?.shadowOpacity = 1 - Float(frame % 64) / 1000
        case .parentMoving10k:
            root.sublayers?.first?.position.x += frame % 2 == 0 ? 1 : -1
        case .moving100k:
            Self.moveEverySprite(root, frame: frame)
        case .text1kChange10:
            Self.changeLabels(root, frame: frame)
        default:
            break
        }
    }

    /// The layers `prepareFrame` marks for drawing before `frame` (drawn-1k-redraw10 only), so that a baseline
    /// can redraw the same ones.
    public func redrawnLayers(_ root: Layer, frame: Int) -> [Layer] {
        guard self == .drawn1kRedraw10 else { return [] }
        let layers = root.sublayers ?? []
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

    /// Gradient, shape and text layers in the tree: the layers that paint a vector picture (the denominator of
    /// `lamina bench`'s picture cache hit rate).
    public static func vectorLayerCount(_ root: Layer) -> Int {
        var count = 0
        forEachLayer(root, visibleOnly: true) { layer in
            if layer is GradientLayer || layer is ShapeLayer || layer is TextLayer { count += 1 }
        }
        return count
    }

    /// Visits the tree without recursion: deeptree's chain is 1,000 levels deep.
    private static func forEachLayer(_ root: Layer, visibleOnly: Bool, _ body: (Layer) -> Void) {
        var stack = [root]
        while let layer = stack.popLast() {
            if visibleOnly, layer.isHidden || layer.opacity <= 0 { continue }
            body(layer)
            stack.append(contentsOf: layer.sublayers ?? [])
        }
    }

    /// The cornerRadius of the rounded-sprites scenes' sprites, in points.
    public static let spriteCornerRadius: CGFloat = 16

    /// The cards of `cards-500` at 1920 x 1080.
    public static let cardCount = 500

    /// The cards of `cards-500` at `size`: 500 at 1920 x 1080, and the same number per pixel at other sizes (at
    /// least 12), so that a small output is not piled 500 cards deep (at 256 x 256: 16 cards).
    public static func cardCount(size: CGSize) -> Int {
        max(12, Int((CGFloat(cardCount) * size.width * size.height / (1920 * 1080)).rounded()))
    }
    /// Cards moved before each frame of `cards-500-moving`.
    public static let cardsMovedPerFrame = 10
    /// The growth of the card resized before each frame of `cards-500-moving`, in points.
    static let cardGrowth = CGSize(width: 8, height: 6)

    /// A card of `cards-500` (sizes and frames set by `layOutCard`): an outer layer with the background, border
    /// and shadow, and an inner masksToBounds layer with the clipped contents.
    static func makeCard(index: Int, sheet: Image, frame: Int) -> Layer {
        let hue = Double(index % 50) / 50
        let colour = Color(red: 0.5 + 0.5 * cos(2 * .pi * hue), green: 0.5 + 0.5 * cos(2 * .pi * (hue - 1 / 3.0)),
                           blue: 0.5 + 0.5 * cos(2 * .pi * (hue - 2 / 3.0)))
        let card = Layer()
        card.name = "card \(index)"
        card.anchorPoint = .zero
        card.backgroundColor = Color(red: 0.96 + 0.01 * Double(index % 4), green: 0.97, blue: 0.95)
        card.cornerRadius = 12
        card.borderWidth = 2
        card.borderColor = colour
        card.shadowColor = .black
        card.shadowOpacity = 0.4
        card.shadowRadius = 6
        card.shadowOffset = CGSize(width: 0, height: 4)
        let content = Layer()
        content.anchorPoint = .zero
        content.position = CGPoint(x: 2, y: 2)
        content.cornerRadius = 10
        content.masksToBounds = true
        let header = Layer()
        header.anchorPoint = .zero
        header.backgroundColor = colour
        let thumbnail = Layer()
        thumbnail.anchorPoint = .zero
        thumbnail.bounds = CGRect(x: 0, y: 0, width: 48, height: 48)
        thumbnail.position = CGPoint(x: 10, y: 44)
        thumbnail.contents = sheet
        thumbnail.contentsRect = CGRect(x: CGFloat(frame % 8) / 8, y: CGFloat(frame / 8) / 8, width: 0.125,
                                        height: 0.125)
        let bar = Layer()
        bar.anchorPoint = .zero
        bar.position = CGPoint(x: 68, y: 50)
        bar.cornerRadius = 6
        bar.backgroundColor = colour.withAlphaComponent(0.6)
        content.addSublayer(header)
        content.addSublayer(thumbnail)
        content.addSublayer(bar)
        card.addSublayer(content)
        return card
    }

    /// Sizes a card and lays out its contents, as a layout pass would.
    static func layOutCard(_ card: Layer, width: CGFloat, height: CGFloat) {
        card.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        guard let content = card.sublayers?.first, content.sublayers?.count == 3 else { return }
        content.bounds = CGRect(x: 0, y: 0, width: width - 4, height: height - 4)
        // The header band's top corners are rounded only by the content's clip.
        content.sublayers![0].bounds = CGRect(x: 0, y: 0, width: width - 4, height: 36)
        content.sublayers![2].bounds = CGRect(x: 0, y: 0, width: width - 4 - 80, height: 12)
    }

    /// cards-500-moving's change before `frame`: the next ten cards in turn move by -6...6 whole points each way
    /// (kept inside the output), and the card 250 further on grows by `cardGrowth`, or shrinks back if it had grown.
    static func moveCards(_ root: Layer, frame: Int) {
        let cards = root.sublayers ?? []
        guard !cards.isEmpty else { return }
        var random = SplitMix64(seed: 0x1A31A &+ UInt64(frame))
        let limit = root.bounds.size
        for index in movedCardIndices(frame: frame, count: cards.count) {
            let card = cards[index]
            let dx = CGFloat(random.below(13) - 6), dy = CGFloat(random.below(13) - 6)
            card.position = CGPoint(
                x: min(max(card.position.x + dx, 0), max(0, limit.width - card.bounds.width)),
                y: min(max(card.position.y + dy, 0), max(0, limit.height - card.bounds.height)))
        }
        // Each card comes round again every `period` frames; it grows on even rounds and shrinks back on odd ones.
        let period = cards.count / gcd(cardsMovedPerFrame, cards.count)
        let resized = cards[resizedCardIndex(frame: frame, count: cards.count)]
        let sign: CGFloat = (frame / period) % 2 == 0 ? 1 : -1
        layOutCard(resized, width: resized.bounds.width + sign * cardGrowth.width,
                   height: resized.bounds.height + sign * cardGrowth.height)
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// The cards `cards-500-moving` moves before `frame`.
    public static func movedCardIndices(frame: Int, count: Int = cardCount) -> [Int] {
        (0..<cardsMovedPerFrame).map { (frame * cardsMovedPerFrame + $0) % count }
    }

    /// The card `cards-500-moving` resizes before `frame`: half way round from those moved before the same frame
    /// (never one of them).
    public static func resizedCardIndex(frame: Int, count: Int = cardCount) -> Int {
        (frame * cardsMovedPerFrame + max(cardsMovedPerFrame, count / 2)) % count
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
