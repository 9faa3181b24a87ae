import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// Lottie layers' drawings at one frame: content, masks, effects, and whole layers flattened for track mattes
/// (docs/lottie.md, "The layer tree").
extension LottieEvaluator {
    /// The frame a layer's own properties are read at: the composition's frame (keyframe times are the
    /// composition's; a layer's start time shifts only a precomp's content, as rlottie and lottie-ios read them).
    func localFrame(_ layer: LottieLayer, _ f: Double) -> Double { f }

    func isVisible(_ layer: LottieLayer, _ f: Double) -> Bool {
        !layer.hidden && f >= layer.inPoint && f < layer.outPoint
    }

    /// The layer's transform to its composition's space at composition frame `f`: its own, then its parents'.
    func world(_ layer: LottieLayer, in comp: LottieComp, _ f: Double) -> CGAffineTransform {
        var m = matrix(layer.transform, localFrame(layer, f), autoOrient: layer.autoOrient)
        var current = layer
        var steps = 0
        while let parentIndex = current.parent, let parent = comp.byIndex[parentIndex], steps < comp.layers.count {
            m = m.concatenating(matrix(parent.transform, localFrame(parent, f), autoOrient: parent.autoOrient))
            current = parent
            steps += 1
        }
        return m
    }

    /// The frame of a precomp layer's composition at its parent's frame `f`: time remapped, else shifted by the
    /// start time and stretched.
    func childFrame(_ layer: LottieLayer, _ f: Double) -> Double {
        if let remap = layer.timeRemap {
            let seconds = num(remap, localFrame(layer, f), 0)
            return seconds * document.frameRate
        }
        return (f - layer.startTime) / layer.stretch
    }

    /// What a solid, image, shape or text layer paints at composition frame `f`, in its own space, with its masks
    /// and effects; nil when nothing.
    func content(_ layer: LottieLayer, _ f: Double) -> VectorDrawing.Item? {
        let lf = localFrame(layer, f)
        var items: [VectorDrawing.Item]
        switch layer.type {
        case 1:
            guard let color = layer.solidColor, layer.width > 0, layer.height > 0 else { return nil }
            items = [.fill(Path(rect: CGRect(x: 0, y: 0, width: layer.width, height: layer.height)), .color(color),
                           .winding)]
        case 2:
            guard let id = layer.refID, let image = images[id] else { return nil }
            let asset = document.images[id]
            let w = asset.map { $0.width > 0 ? $0.width : Double(image.width) } ?? Double(image.width)
            let h = asset.map { $0.height > 0 ? $0.height : Double(image.height) } ?? Double(image.height)
            items = [.image(DrawingImage(image), rect: CGRect(x: 0, y: 0, width: w, height: h), opacity: 1)]
        case 4:
            items = drawShapes(layer.shapes, frame: lf)
        case 5:
            items = text(layer, lf)
        default:
            return nil
        }
        guard !items.isEmpty else { return nil }
        return decorated(items, layer, f)
    }

    /// Items with the layer's masks and effects applied.
    func decorated(_ items: [VectorDrawing.Item], _ layer: LottieLayer, _ f: Double) -> VectorDrawing.Item? {
        let lf = localFrame(layer, f)
        var group = VectorDrawing.Group(items: items)
        if let mask = maskDrawing(layer, lf) {
            if mask.items.isEmpty { return nil }
            group.mask = mask
        }
        for effect in layer.effects {
            switch effect {
            case .fill(let color, let opacity):
                group.colorFilter = .fill(Color.lottie(numbers(color, lf)), amount: clamp01(num(opacity, lf, 1)))
            case .tint(let black, let white, let amount):
                group.colorFilter = .tint(black: Color.lottie(numbers(black, lf)), white: Color.lottie(numbers(white, lf)),
                                          amount: clamp01(num(amount, lf, 100) / 100))
            case .tritone(let bright, let mid, let dark, let amount):
                group.colorFilter = .tritone(bright: Color.lottie(numbers(bright, lf)), mid: Color.lottie(numbers(mid, lf)),
                                             dark: Color.lottie(numbers(dark, lf)),
                                             amount: 1 - clamp01(num(amount, lf, 0) / 100))
            case .blur(let blurriness):
                group.blur = CGFloat(max(0, num(blurriness, lf, 0)) * 0.3)
            case .stroke:
                break
            case .dropShadow(let color, let opacity, let direction, let distance, let softness):
                let angle = num(direction, lf, 135) * .pi / 180
                let d = num(distance, lf, 5)
                var c = Color.lottie(numbers(color, lf))
                c.alpha = clamp01(num(opacity, lf, 128) / 255)
                group.shadow = VectorDrawing.DropShadow(
                    color: c, offset: CGSize(width: sin(angle) * d, height: -cos(angle) * d),
                    blur: CGFloat(max(0, num(softness, lf, 0)) / 4))
            }
        }
        for case .stroke(let index, let all, let color, let size, let opacity, let start, let end, let style)
            in layer.effects {
            let chosen = all ? layer.masks : (index >= 1 && index <= layer.masks.count ? [layer.masks[index - 1]] : [])
            let ranges = LottieGeometry.trimRanges(start: num(start, lf, 0), end: num(end, lf, 100), offset: 0)
            let paths = chosen.map { bezier($0.path, lf).path.keeping(fractions: ranges) }.filter { !$0.isEmpty }
            let width = CGFloat(max(0, num(size, lf, 2)))
            guard !paths.isEmpty, width > 0 else { continue }
            let paint = VectorDrawing.Paint.color(Color.lottie(numbers(color, lf), opacity: clamp01(num(opacity, lf, 1))))
            let strokes = paths.map { VectorDrawing.Item.stroke($0, paint, VectorDrawing.StrokeStyle(
                width: width, cap: .round, join: .round)) }
            switch style {
            case 2: return .group(VectorDrawing.Group(items: strokes))
            case 3: return .group(VectorDrawing.Group(items: [.group(group)], mask: VectorDrawing(items: strokes)))
            default: return .group(VectorDrawing.Group(items: [.group(group)] + strokes))
            }
        }
        if group.mask == nil && group.colorFilter == nil && group.blur == 0 && group.shadow == nil {
            return items.count == 1 ? items[0] : .group(group)
        }
        return .group(group)
    }

    /// The alpha a track matte of kind `tt` takes from its matte layer.
    static func alphaMode(_ tt: Int) -> VectorDrawing.AlphaMode {
        switch tt {
        case 2: .inverted
        case 3: .luminance
        case 4: .invertedLuminance
        default: .normal
        }
    }

    /// The extent inverted masks and mattes cover: far beyond any composition (only what is seen is drawn).
    var farExtent: CGRect {
        let w = document.width, h = document.height
        return CGRect(x: -4 * w - 1000, y: -4 * h - 1000, width: 9 * w + 2000, height: 9 * h + 2000)
    }

    /// The layer's masks combined into one drawing (its alpha is the mask), in the layer's space at its local
    /// frame `lf`; nil when it has none that apply.
    func maskDrawing(_ layer: LottieLayer, _ lf: Double) -> VectorDrawing? {
        let masks = layer.masks.filter { $0.mode != "n" }
        guard !masks.isEmpty else { return nil }
        let extent = farExtent
        // Lighten, darken and difference combine coverages by max, min and |a - b|: worked in grey levels (an
        // opaque picture whose luminance is the mask), where cairo's lighten, darken and difference operators do
        // exactly that. Add, subtract and intersect need no more than alpha.
        let grey = masks.contains { ["l", "da", "f"].contains($0.mode) }
        var items: [VectorDrawing.Item] = []
        let full = VectorDrawing.Item.fill(Path(rect: extent), .color(.white), .winding)
        let black = VectorDrawing.Item.fill(Path(rect: extent), .color(.black), .winding)
        if masks[0].mode == "s" || masks[0].mode == "i" { items.append(full) } else if grey { items.append(black) }
        for mask in masks {
            var path = bezier(mask.path, lf).path
            if mask.inverted {
                var inverted = Path(rect: extent)
                inverted.append(contentsOf: path.elements)
                path = inverted
            }
            let opacity = clamp01(num(mask.opacity, lf, 100) / 100)
            let expansion = num(mask.expansion, lf, 0)
            func shape(_ color: Color) -> [VectorDrawing.Item] {
                var out: [VectorDrawing.Item] = [.fill(path, .color(color), .evenOdd)]
                if expansion != 0 {
                    let stroke = VectorDrawing.Item.stroke(path, .color(color), VectorDrawing.StrokeStyle(
                        width: CGFloat(abs(expansion) * 2), cap: .round, join: .round))
                    out.append(expansion > 0 ? stroke
                        : .group(VectorDrawing.Group(items: [stroke], operator: .destinationOut)))
                }
                return out
            }
            if grey {
                let level = Color(white: opacity)
                let group: VectorDrawing.Group = switch mask.mode {
                case "s": VectorDrawing.Group(items: shape(.black), opacity: opacity)
                case "i": VectorDrawing.Group(items: [black] + shape(level), operator: .multiply)
                case "l": VectorDrawing.Group(items: shape(level), operator: .lighten)
                case "da": VectorDrawing.Group(items: [black] + shape(level), operator: .darken)
                case "f": VectorDrawing.Group(items: shape(level), operator: .difference)
                default: VectorDrawing.Group(items: shape(.white), opacity: opacity)
                }
                items.append(.group(group))
                continue
            }
            let op: VectorDrawing.Operator = switch mask.mode {
            case "s": .destinationOut
            case "i": .destinationIn
            default: .over
            }
            items.append(.group(VectorDrawing.Group(items: shape(.white), opacity: opacity, operator: op)))
        }
        return grey ? VectorDrawing(items: items, alpha: .luminance, extent: extent) : VectorDrawing(items: items)
    }

    /// A text layer's document at `lf` (the last keyframe at or before it), as text runs.
    func text(_ layer: LottieLayer, _ lf: Double) -> [VectorDrawing.Item] {
        guard var doc = layer.text.last(where: { $0.time <= lf }) ?? layer.text.first else { return [] }
        if let replacement = texts[layer.name] { doc.text = replacement }
        let font = document.fonts[doc.font]
        let family = font.map { [$0.family, $0.style].filter { !$0.isEmpty }.joined(separator: " ") } ?? doc.font
        let run = VectorDrawing.TextRun(
            text: doc.text, font: family.isEmpty ? "Sans" : family, size: CGFloat(doc.size),
            fill: doc.fill.map { Color.lottie($0) }, stroke: doc.stroke.map { Color.lottie($0) },
            strokeWidth: CGFloat(doc.strokeWidth), strokeOverFill: doc.strokeOverFill,
            justification: doc.justification, tracking: doc.tracking, lineHeight: CGFloat(doc.lineHeight),
            origin: doc.boxPosition ?? CGPoint(x: 0, y: -doc.baselineShift), boxSize: doc.boxSize)
        return [.text(run)]
    }

    /// Everything a composition shows at its frame `f`, bottom first, in its space: each layer flattened, mattes
    /// applied (what one drawing layer paints for a whole composition, and what a precomp used as a matte shows).
    func flattened(_ comp: LottieComp, _ f: Double, depth: Int = 0) -> [VectorDrawing.Item] {
        var out: [VectorDrawing.Item] = []
        for position in comp.layers.indices.reversed() {
            let layer = comp.layers[position]
            if layer.isMatteSource { continue }
            var items = flattened(layer, in: comp, f, depth: depth)
            if layer.matteMode != 0, !items.isEmpty, var source = comp.matte(for: position) {
                source.hidden = false
                let mode = Self.alphaMode(layer.matteMode)
                items = [.group(VectorDrawing.Group(items: items, mask: VectorDrawing(
                    items: flattened(source, in: comp, f, depth: depth), alpha: mode,
                    extent: mode.inverts ? farExtent : nil)))]
            }
            out += items
        }
        return out
    }

    /// Everything `layer` shows at composition frame `f`, in the composition's space, for use as a track matte.
    func flattened(_ layer: LottieLayer, in comp: LottieComp, _ f: Double, depth: Int = 0) -> [VectorDrawing.Item] {
        guard isVisible(layer, f), depth < 16 else { return [] }
        let opacity = opacity(layer.transform, localFrame(layer, f))
        guard opacity > 0 else { return [] }
        var items: [VectorDrawing.Item]
        if layer.type == 0 {
            guard let id = layer.refID, let child = comps[id] else { return [] }
            let inner = flattened(child, childFrame(layer, f), depth: depth + 1)
            let clip = VectorDrawing(items: [.fill(Path(rect: CGRect(x: 0, y: 0, width: layer.width,
                                                                      height: layer.height)), .color(.white), .winding)])
            guard let item = decorated([.group(VectorDrawing.Group(items: inner, mask: clip))], layer, f)
            else { return [] }
            items = [item]
        } else {
            guard let item = content(layer, f) else { return [] }
            items = [item]
        }
        return [.group(VectorDrawing.Group(items: items, transform: world(layer, in: comp, f), opacity: opacity,
                                           operator: LottieParser.blendModes[layer.blendMode] ?? .over))]
    }
}

/// One composition's layers, indexed by `ind` for parents and mattes.
struct LottieComp: Sendable {
    var id: String
    var layers: [LottieLayer]
    var width: Double
    var height: Double
    var byIndex: [Int: LottieLayer]

    init(id: String, layers: [LottieLayer], width: Double, height: Double) {
        self.id = id
        self.layers = layers
        self.width = width
        self.height = height
        var byIndex: [Int: LottieLayer] = [:]
        for layer in layers { if let i = layer.index, byIndex[i] == nil { byIndex[i] = layer } }
        self.byIndex = byIndex
    }

    /// The matte source of the layer at `position`: the layer `tp` names, else the one listed just before it.
    func matte(for position: Int) -> LottieLayer? {
        let layer = layers[position]
        if let tp = layer.matteParent { return byIndex[tp] }
        return position > 0 ? layers[position - 1] : nil
    }
}
