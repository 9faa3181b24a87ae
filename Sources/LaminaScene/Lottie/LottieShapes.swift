import Foundation
import LaminaCore
import LaminaDrawing

/// Shape layers' content at one frame: the items evaluated, path modifiers applied, and fills and strokes turned
/// into a vector drawing (docs/lottie.md, "Shapes").
///
/// As in After Effects and lottie-web: a fill or stroke paints every path listed before it in its group and in
/// the groups listed before it (combined into one path, so the fill rule applies across them); a modifier (trim,
/// rounded corners, merge) changes every path listed before it, whatever the order of fills; items listed first
/// are drawn on top; a repeater repeats everything listed before it.
extension LottieEvaluator {
    /// One path of the tree: its geometry, changed in place by modifiers.
    final class Slot {
        var bezier: LottieBezier?
        var path: Path
        init(bezier: LottieBezier) {
            self.bezier = bezier
            path = bezier.path
        }
    }

    indirect enum Entry {
        case shape(Slot)
        case group(Level, CGAffineTransform, opacity: Double, VectorDrawing.Operator)
        case fill(VectorDrawing.Paint, FillRule)
        case stroke(VectorDrawing.Paint, VectorDrawing.StrokeStyle)
        case trim(ranges: [(Double, Double)], sequential: Bool)
        case round(Double)
        case merge(Int)
        case repeater(copies: Int, transforms: [CGAffineTransform], opacities: [Double], above: Bool)
    }

    final class Level {
        var entries: [Entry] = []
    }

    /// Geometry reaching a fill: plain paths, or paths merged by a merge-paths mode.
    enum Geometry {
        case path(Path)
        case merged(Int, [Path])

        func applying(_ t: CGAffineTransform) -> Geometry {
            switch self {
            case .path(let p): .path(p.applying(t))
            case .merged(let m, let ps): .merged(m, ps.map { $0.applying(t) })
            }
        }

        var paths: [Path] {
            switch self {
            case .path(let p): [p]
            case .merged(_, let ps): ps
            }
        }
    }

    /// The drawing of `shapes` at `frame`, bottom item first.
    func drawShapes(_ shapes: [LottieShape], frame: Double) -> [VectorDrawing.Item] {
        let level = build(shapes, frame: frame)
        applyModifiers(level)
        return draw(level).items.reversed()
    }

    // MARK: Phase 1: the items at this frame

    func build(_ shapes: [LottieShape], frame f: Double) -> Level {
        let level = Level()
        for shape in shapes {
            switch shape {
            case .group(let group):
                let inner = build(group.items, frame: f)
                let (matrix, opacity) = group.transform.map { (self.matrix($0, f), clamp01(num($0.opacity, f, 100) / 100)) }
                    ?? (.identity, 1)
                level.entries.append(.group(inner, matrix, opacity: opacity, group.blend))
            case .rectangle(let p, let s, let r, let reversed):
                let pv = num2(p, f), sv = num2(s, f)
                level.entries.append(.shape(Slot(bezier: LottieGeometry.rectangle(
                    center: CGPoint(x: pv[0], y: pv[1]), size: CGSize(width: sv[0], height: sv[1]),
                    roundness: num(r, f, 0), reversed: reversed))))
            case .ellipse(let p, let s, let reversed):
                let pv = num2(p, f), sv = num2(s, f)
                level.entries.append(.shape(Slot(bezier: LottieGeometry.ellipse(
                    center: CGPoint(x: pv[0], y: pv[1]), size: CGSize(width: sv[0], height: sv[1]), reversed: reversed))))
            case .star(let star):
                let pv = num2(star.position, f)
                level.entries.append(.shape(Slot(bezier: LottieGeometry.star(
                    center: CGPoint(x: pv[0], y: pv[1]), points: num(star.points, f, 5),
                    outerRadius: num(star.outerRadius, f, 0), innerRadius: star.innerRadius.map { num($0, f, 0) },
                    outerRoundness: num(star.outerRoundness, f, 0),
                    innerRoundness: star.innerRoundness.map { num($0, f, 0) } ?? 0,
                    rotation: num(star.rotation, f, 0), reversed: star.reversed))))
            case .path(let property, _):
                let shape = bezier(property, f)
                level.entries.append(.shape(Slot(bezier: shape)))
            case .fill(let color, let opacity, let rule):
                let o = clamp01(num(opacity, f, 100) / 100)
                level.entries.append(.fill(.color(Color.lottie(numbers(color, f), opacity: o)), rule))
            case .stroke(let stroke):
                let o = clamp01(num(stroke.opacity, f, 100) / 100)
                level.entries.append(.stroke(.color(Color.lottie(numbers(stroke.color, f), opacity: o)),
                                             strokeStyle(stroke, f)))
            case .gradientFill(let gradient, let opacity, let rule):
                level.entries.append(.fill(paint(gradient, opacity: clamp01(num(opacity, f, 100) / 100), f), rule))
            case .gradientStroke(let gradient, let stroke):
                level.entries.append(.stroke(paint(gradient, opacity: clamp01(num(stroke.opacity, f, 100) / 100), f),
                                             strokeStyle(stroke, f)))
            case .trim(let s, let e, let o, let sequential):
                level.entries.append(.trim(ranges: LottieGeometry.trimRanges(
                    start: num(s, f, 0), end: num(e, f, 100), offset: num(o, f, 0)), sequential: sequential))
            case .roundCorners(let r):
                level.entries.append(.round(num(r, f, 0)))
            case .merge(let mode):
                level.entries.append(.merge(mode))
            case .repeater(let copiesProperty, let offsetProperty, let above, let t):
                let copies = Int(max(0, min(num(copiesProperty, f, 1).rounded(.down), 1_000)))
                let offset = num(offsetProperty, f, 0)
                let so = clamp01(num(t.startOpacity, f, 100) / 100), eo = clamp01(num(t.endOpacity, f, 100) / 100)
                var transforms: [CGAffineTransform] = [], opacities: [Double] = []
                for k in 0..<copies {
                    transforms.append(repeaterMatrix(t, f, index: Double(k) + offset))
                    opacities.append(copies > 1 ? so + (eo - so) * Double(k) / Double(copies - 1) : so)
                }
                level.entries.append(.repeater(copies: copies, transforms: transforms, opacities: opacities,
                                               above: above))
            case .transform:
                break
            }
        }
        return level
    }

    private func strokeStyle(_ s: LottieStroke, _ f: Double) -> VectorDrawing.StrokeStyle {
        var dashes: [Double]? = s.dashes.isEmpty ? nil : s.dashes.map { max(0, num($0, f, 0)) }
        if let d = dashes, d.count % 2 == 1 { dashes = d + d }
        if let d = dashes, d.allSatisfy({ $0 == 0 }) { dashes = nil }
        return VectorDrawing.StrokeStyle(width: CGFloat(max(0, num(s.width, f, 1))), cap: s.cap, join: s.join,
                                         miterLimit: CGFloat(s.miterLimit), dashes: dashes,
                                         dashPhase: s.dashOffset.map { num($0, f, 0) } ?? 0)
    }

    /// A gradient's paint: colour stops (offset, r, g, b) then opacity stops (offset, alpha), merged.
    func paint(_ g: LottieGradient, opacity: Double, _ f: Double) -> VectorDrawing.Paint {
        let raw = numbers(g.stops, f)
        let n = g.colorCount
        var colors: [(Double, [Double])] = []
        var k = 0
        while colors.count < n, k + 3 < raw.count {
            colors.append((raw[k], [raw[k + 1], raw[k + 2], raw[k + 3]]))
            k += 4
        }
        var alphas: [(Double, Double)] = []
        while k + 1 < raw.count {
            alphas.append((raw[k], raw[k + 1]))
            k += 2
        }
        if colors.isEmpty { colors = [(0, [0, 0, 0])] }
        func sample<T>(_ list: [(Double, T)], _ x: Double, _ mix: (T, T, Double) -> T) -> T {
            if x <= list[0].0 { return list[0].1 }
            for j in 1..<list.count where x <= list[j].0 {
                let (x0, a) = list[j - 1], (x1, b) = list[j]
                return mix(a, b, x1 > x0 ? (x - x0) / (x1 - x0) : 1)
            }
            return list[list.count - 1].1
        }
        let offsets = Array(Set(colors.map(\.0) + alphas.map(\.0))).sorted()
        let stops = offsets.map { x -> VectorDrawing.GradientStop in
            let rgb = sample(colors, x) { a, b, t in zip(a, b).map { $0 + ($1 - $0) * t } }
            let alpha = alphas.isEmpty ? 1 : sample(alphas, x) { a, b, t in a + (b - a) * t }
            var color = Color.lottie(rgb)
            color.alpha = clamp01(alpha)
            return VectorDrawing.GradientStop(offset: clamp01(x), color: color)
        }
        let s = num2(g.start, f), e = num2(g.end, f)
        let start = CGPoint(x: s[0], y: s[1]), end = CGPoint(x: e[0], y: e[1])
        if g.radial {
            return .radial(stops: stops, center: start, end: end, highlight: num(g.highlight, f, 0) / 100,
                           angle: num(g.highlightAngle, f, 0), opacity: opacity)
        }
        return .linear(stops: stops, start: start, end: end, opacity: opacity)
    }

    // MARK: Phase 2: modifiers

    /// Applies each level's modifiers, innermost levels first, each to the paths listed before it.
    func applyModifiers(_ level: Level) {
        for entry in level.entries {
            if case .group(let inner, _, _, _) = entry { applyModifiers(inner) }
        }
        for (k, entry) in level.entries.enumerated() {
            switch entry {
            case .trim(let ranges, let sequential):
                let slots = Self.slots(level.entries[..<k])
                if sequential {
                    let lengths = slots.map { $0.path.length() }
                    let total = lengths.reduce(0, +)
                    guard total > 0 else { continue }
                    var start = 0.0
                    for (slot, length) in zip(slots, lengths) {
                        let a = start / total, b = (start + length) / total
                        start += length
                        let local = ranges.compactMap { (lo, hi) -> (Double, Double)? in
                            let u = max(lo, a), v = min(hi, b)
                            return u < v && b > a ? ((u - a) / (b - a), (v - a) / (b - a)) : nil
                        }
                        trim(slot, local)
                    }
                } else {
                    for slot in slots { trim(slot, ranges) }
                }
            case .round(let radius):
                for slot in Self.slots(level.entries[..<k]) {
                    if let shape = slot.bezier {
                        let rounded = LottieGeometry.roundCorners(shape, radius: radius)
                        slot.bezier = rounded
                        slot.path = rounded.path
                    }
                }
            default:
                break
            }
        }
    }

    private func trim(_ slot: Slot, _ ranges: [(Double, Double)]) {
        if ranges.count == 1, ranges[0] == (0, 1) { return }
        slot.path = ranges.isEmpty ? Path() : slot.path.keeping(fractions: ranges, tolerance: 0.05)
        slot.bezier = nil
    }

    static func slots(_ entries: ArraySlice<Entry>) -> [Slot] {
        var out: [Slot] = []
        for entry in entries {
            switch entry {
            case .shape(let slot): out.append(slot)
            case .group(let inner, _, _, _): out += slots(inner.entries[...])
            default: break
            }
        }
        return out
    }

    // MARK: Phase 3: drawing

    /// Items top first, and the geometry the level hands to fills listed after it.
    func draw(_ level: Level) -> (items: [VectorDrawing.Item], geometry: [Geometry]) {
        var items: [VectorDrawing.Item] = []  // top first
        var geometry: [Geometry] = []
        for entry in level.entries {
            switch entry {
            case .shape(let slot):
                if !slot.path.isEmpty { geometry.append(.path(slot.path)) }
            case .group(let inner, let matrix, let opacity, let op):
                let (innerItems, innerGeometry) = draw(inner)
                if !innerItems.isEmpty, opacity > 0 {
                    items.append(.group(VectorDrawing.Group(items: innerItems.reversed(), transform: matrix,
                                                            opacity: opacity, operator: op)))
                }
                geometry += innerGeometry.map { $0.applying(matrix) }
            case .fill(let paint, let rule):
                if let item = fillItem(geometry, paint, rule) { items.append(item) }
            case .stroke(let paint, let style):
                guard style.width > 0 else { continue }
                let path = Self.combined(geometry.flatMap(\.paths))
                if !path.isEmpty { items.append(.stroke(path, paint, style)) }
            case .merge(let mode):
                let paths = geometry.flatMap(\.paths)
                geometry = paths.isEmpty ? [] : [.merged(mode, paths)]
            case .repeater(_, let transforms, let opacities, let above):
                let block = items.reversed() as [VectorDrawing.Item]  // bottom first
                var copies: [VectorDrawing.Item] = []  // bottom first
                var copiedGeometry: [Geometry] = []
                for (t, o) in zip(transforms, opacities) {
                    if !block.isEmpty, o > 0 {
                        copies.append(.group(VectorDrawing.Group(items: block, transform: t, opacity: o)))
                    }
                    copiedGeometry += geometry.map { $0.applying(t) }
                }
                if !above { copies.reverse() }
                items = copies.reversed()
                geometry = copiedGeometry
            case .trim, .round:
                break
            }
        }
        return (items, geometry)
    }

    /// A fill of the geometry: one path for plain paths (the rule across all of them); merged paths combined by
    /// their mode as a mask over the paint.
    private func fillItem(_ geometry: [Geometry], _ paint: VectorDrawing.Paint, _ rule: FillRule)
        -> VectorDrawing.Item?
    {
        var plain: [Path] = []
        var extra: [VectorDrawing.Item] = []
        for piece in geometry {
            switch piece {
            case .path(let p): plain.append(p)
            case .merged(let mode, let paths):
                if mode <= 1 {
                    plain += paths
                    continue
                }
                var maskItems: [VectorDrawing.Item] = []
                let white = VectorDrawing.Paint.color(.white)
                for (k, p) in paths.enumerated() {
                    let fill = VectorDrawing.Item.fill(p, white, rule)
                    let op: VectorDrawing.Operator = k == 0 ? .over
                        : [2: .over, 3: .destinationOut, 4: .destinationIn, 5: .xor][mode] ?? .over
                    maskItems.append(op == .over ? fill : .group(VectorDrawing.Group(items: [fill], operator: op)))
                }
                let box = paths.reduce(CGRect.null) { $0.union($1.boundingBox) }
                guard !box.isNull else { continue }
                extra.append(.group(VectorDrawing.Group(
                    items: [.fill(Path(rect: box.insetBy(dx: -1, dy: -1)), paint, .winding)],
                    mask: VectorDrawing(items: maskItems))))
            }
        }
        let path = Self.combined(plain)
        var items: [VectorDrawing.Item] = path.isEmpty ? [] : [.fill(path, paint, rule)]
        items += extra
        if items.isEmpty { return nil }
        return items.count == 1 ? items[0] : .group(VectorDrawing.Group(items: items))
    }

    static func combined(_ paths: [Path]) -> Path {
        if paths.count == 1 { return paths[0] }
        var out = Path()
        for p in paths { out.append(contentsOf: p.elements) }
        return out
    }
}

func clamp01(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }

extension Path {
    /// The path with every point mapped by `t` (rects, ellipses and arcs become curves when `t` turns or skews).
    func applying(_ t: CGAffineTransform) -> Path {
        if t.isIdentity { return self }
        var out = Path()
        func m(_ p: CGPoint) -> CGPoint { p.applying(t) }
        for element in elements {
            switch element {
            case .move(let p): out.move(to: m(p))
            case .line(let p): out.addLine(to: m(p))
            case .curve(let p, let c1, let c2): out.addCurve(to: m(p), control1: m(c1), control2: m(c2))
            case .quadCurve(let p, let c): out.addQuadCurve(to: m(p), control: m(c))
            case .close: out.closeSubpath()
            case .rect(let r):
                out.move(to: m(CGPoint(x: r.minX, y: r.minY)))
                out.addLine(to: m(CGPoint(x: r.maxX, y: r.minY)))
                out.addLine(to: m(CGPoint(x: r.maxX, y: r.maxY)))
                out.addLine(to: m(CGPoint(x: r.minX, y: r.maxY)))
                out.closeSubpath()
            case .ellipse(let r):
                let e = LottieGeometry.ellipse(center: CGPoint(x: r.midX, y: r.midY), size: r.size, reversed: false)
                out.append(contentsOf: e.path.applying(t).elements)
            case .roundedRect(let r, let radius):
                let e = LottieGeometry.rectangle(center: CGPoint(x: r.midX, y: r.midY), size: r.size,
                                                 roundness: Double(radius), reversed: false)
                out.append(contentsOf: e.path.applying(t).elements)
            case .arc:
                // Lottie paths never hold arcs (they are built from vertices and tangents).
                break
            }
        }
        return out
    }
}
