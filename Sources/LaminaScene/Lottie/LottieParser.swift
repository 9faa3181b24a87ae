import Foundation
import LaminaCore
import LaminaDrawing

/// Reads a Lottie JSON document into a `LottieDocument`, reporting malformed values as problems and features it
/// cannot draw as unsupported (docs/lottie.md, "Errors").
struct LottieParser {
    let reader: LottieReader
    var diagnostics: LottieDiagnostics { reader.diagnostics }

    /// Shape groups nest at most this deep (deeper ones are an error: nothing real nests so deep, and the
    /// evaluation recurses).
    static let maxDepth = 64
    /// The most layers in one composition and the most shape items in one group.
    static let maxItems = 100_000

    /// The top-level keys that make a JSON object a Lottie file.
    static let signature = ["v", "fr", "ip", "op", "w", "h", "layers"]

    /// An object with at least three of the signature's keys is taken as Lottie (and its missing ones are
    /// reported); no scene file has any of them.
    static func looksLikeLottie(_ root: JSONValue) -> Bool {
        guard case .object(let members) = root.kind else { return false }
        let keys = Set(members.map(\.key))
        return signature.filter(keys.contains).count >= 3
    }

    func document(_ root: LottieNode) -> LottieDocument {
        for key in ["w", "h", "fr", "ip", "op", "layers"] where root[key] == nil {
            diagnostics.problem(root, path: key, "missing key \"\(key)\" (a Lottie file needs v, fr, ip, op, w, h and layers)")
        }
        let w = reader.number(root["w"], 1), h = reader.number(root["h"], 1)
        if !(w > 0 && w <= 100_000) {
            diagnostics.problem(root["w"], "the width w \(w) must be more than 0 and at most 100000 (the size limit)")
        }
        if !(h > 0 && h <= 100_000) {
            diagnostics.problem(root["h"], "the height h \(h) must be more than 0 and at most 100000 (the size limit)")
        }
        var fr = reader.number(root["fr"], 30)
        if !(fr > 0 && fr <= 1000) {
            diagnostics.problem(root["fr"], "the frame rate must be a number in 0 < fr <= 1000")
            fr = 30
        }
        let ip = reader.number(root["ip"], 0), op = reader.number(root["op"], 0)
        if !(op > ip) { diagnostics.problem(root["op"], "the out point (op \(op)) must be after the in point (ip \(ip))") }
        if let ddd = root["ddd"]?.bool, ddd { diagnostics.use("3D composition") }
        var fonts: [String: LottieFont] = [:]
        for font in root["fonts"]?["list"]?.elements ?? [] {
            let name = reader.string(font["fName"]) ?? ""
            fonts[name] = LottieFont(name: name, family: reader.string(font["fFamily"]) ?? name,
                                     style: reader.string(font["fStyle"]) ?? "")
        }
        if root["chars"]?.elements?.isEmpty == false { diagnostics.use("glyph shapes (chars)") }
        var precomps: [String: LottiePrecompAsset] = [:]
        var images: [String: LottieImageAsset] = [:]
        for asset in root["assets"]?.elements ?? [] {
            guard let id = idString(asset["id"]) else {
                diagnostics.problem(asset, path: asset.path + ".id", "an asset needs an \"id\"")
                continue
            }
            if let layers = asset["layers"] {
                precomps[id] = LottiePrecompAsset(id: id, layers: self.layers(layers),
                                                  frameRate: asset["fr"]?.number)
            } else {
                let file = reader.string(asset["p"]) ?? ""
                images[id] = LottieImageAsset(
                    id: id, width: reader.number(asset["w"], 0), height: reader.number(asset["h"], 0),
                    folder: reader.string(asset["u"]) ?? "", file: file,
                    embedded: (asset["e"]?.bool ?? false) || file.hasPrefix("data:"), path: asset.path)
            }
        }
        var markers: [LottieMarker] = []
        for marker in root["markers"]?.elements ?? [] {
            markers.append(LottieMarker(name: reader.string(marker["cm"]) ?? "", frame: reader.number(marker["tm"], 0),
                                        duration: reader.number(marker["dr"], 0)))
        }
        let layers = root["layers"].map(self.layers) ?? []
        return LottieDocument(version: reader.string(root["v"]) ?? "", name: reader.string(root["nm"]) ?? "",
                              width: w, height: h, frameRate: fr, inPoint: ip, outPoint: op, layers: layers,
                              precomps: precomps, images: images, fonts: fonts, markers: markers)
    }

    private func idString(_ node: LottieNode?) -> String? {
        guard let node else { return nil }
        if let s = node.string { return s }
        if let x = node.number { return x == x.rounded() ? String(Int(x)) : String(x) }
        return nil
    }

    func layers(_ node: LottieNode) -> [LottieLayer] {
        guard let list = node.elements else {
            diagnostics.problem(node, "expected an array of layers, got \(node.value.typeDescription)")
            return []
        }
        if list.count > Self.maxItems {
            diagnostics.problem(node, "\(list.count) layers is more than the limit of \(Self.maxItems)")
            return []
        }
        return list.compactMap(layer)
    }

    func layer(_ node: LottieNode) -> LottieLayer? {
        guard node.isObject else {
            diagnostics.problem(node, "expected a layer object, got \(node.value.typeDescription)")
            return nil
        }
        let type = reader.int(node["ty"], -1)
        let name = reader.string(node["nm"]) ?? ""
        switch type {
        case 0, 1, 2, 3, 4, 5: diagnostics.use(["precomp", "solid", "image", "null", "shape", "text"][type] + " layers")
        case 6: diagnostics.use("audio layers (not drawn)")
        case 11: diagnostics.use("guide layers (not drawn)")
        case 7, 8, 9, 10:
            diagnostics.unsupported(node["ty"] ?? node, "\(layerTypeName(type)) layer (ty \(type)) is not supported")
        case 12: diagnostics.unsupported(node["ty"] ?? node, "adjustment layer (ty 12) is not supported")
        case 13: diagnostics.unsupported(node["ty"] ?? node, "camera layer (ty 13) is not supported")
        case 15: diagnostics.use("data layers (not drawn)")
        case -1:
            diagnostics.problem(node, path: node.path + ".ty", "a layer needs a type \"ty\"")
            return nil
        default:
            diagnostics.unsupported(node["ty"]!, "layer type \(type) is not supported")
            return nil
        }
        if node["ddd"]?.bool == true { diagnostics.unsupported(node["ddd"]!, "3D layer (ddd 1) is not supported") }
        let transform = node["ks"].map { self.transform($0) } ?? LottieTransform()
        if node["ao"]?.bool == true { diagnostics.use("auto-orient") }
        var masks: [LottieMask] = []
        for mask in node["masksProperties"]?.elements ?? [] {
            let mode = reader.string(mask["mode"]) ?? "a"
            if !["a", "s", "i", "l", "da", "f", "n"].contains(mode) {
                diagnostics.problem(mask["mode"], "unknown mask mode \"\(mode)\" (a, s, i, l, da, f or n)")
            }
            diagnostics.use("masks")
            masks.append(LottieMask(mode: mode, inverted: mask["inv"]?.bool ?? false, path: reader.bezier(mask["pt"]),
                                    opacity: reader.scalar(mask["o"], 100), expansion: reader.scalar(mask["x"], 0)))
        }
        var effects: [LottieEffect] = []
        for (k, effect) in (node["ef"]?.elements ?? []).enumerated() {
            if let e = self.effect(effect, index: k) { effects.append(e) }
        }
        let tt = reader.int(node["tt"], 0)
        if tt != 0 {
            if !(1...4).contains(tt) { diagnostics.problem(node["tt"], "unknown track matte type \(tt) (1 to 4)") }
            diagnostics.use("track mattes")
        }
        let blend = reader.int(node["bm"], 0)
        if blend != 0 {
            diagnostics.use("blend modes")
            if Self.blendModes[blend] == nil {
                diagnostics.unsupported(node["bm"]!, "blend mode \(blend) is not supported")
            }
        }
        var shapes: [LottieShape] = []
        if type == 4 { shapes = self.shapes(node["shapes"], depth: 0) }
        var text: [LottieTextDocument] = []
        if type == 5, let t = node["t"] { text = self.text(t) }
        let timeRemap = node["tm"].map { reader.scalar($0, 0) }
        if timeRemap != nil { diagnostics.use("time remapping") }
        let stretch = reader.number(node["sr"], 1)
        if stretch != 1 { diagnostics.use("time stretch") }
        var solid: Color?
        if type == 1 {
            let text = reader.string(node["sc"]) ?? "#000000"
            solid = Color.lottieHex(text)
            if solid == nil { diagnostics.problem(node["sc"], "expected a colour \"#rrggbb\", got \"\(text)\"") }
        }
        let parent = node["parent"].map { reader.int($0, -1) }
        if parent != nil { diagnostics.use("parenting") }
        return LottieLayer(
            path: node.path, index: node["ind"].map { reader.int($0, -1) }, name: name, type: type, parent: parent,
            inPoint: reader.number(node["ip"], -1e9), outPoint: reader.number(node["op"], 1e9),
            startTime: reader.number(node["st"], 0), stretch: stretch == 0 ? 1 : stretch,
            hidden: node["hd"]?.bool ?? false, autoOrient: node["ao"]?.bool ?? false, blendMode: blend,
            transform: transform, masks: node["hasMask"]?.bool == false && masks.isEmpty ? [] : masks, matteMode: tt,
            isMatteSource: node["td"]?.bool ?? false, matteParent: node["tp"].map { reader.int($0, -1) },
            refID: idString(node["refId"]), width: reader.number(node["w"] ?? node["sw"], 0),
            height: reader.number(node["h"] ?? node["sh"], 0), solidColor: solid, shapes: shapes, text: text,
            timeRemap: timeRemap, effects: effects)
    }

    /// Lottie's `bm` numbers and the operators they draw with.
    static let blendModes: [Int: VectorDrawing.Operator] = [
        0: .over, 1: .multiply, 2: .screen, 3: .overlay, 4: .darken, 5: .lighten, 6: .colorDodge, 7: .colorBurn,
        8: .hardLight, 9: .softLight, 10: .difference, 11: .exclusion, 12: .hue, 13: .saturation, 14: .color,
        15: .luminosity, 16: .add,
    ]

    private func layerTypeName(_ type: Int) -> String {
        switch type {
        case 7: "video placeholder"
        case 8: "image sequence"
        case 9: "video"
        case 10: "image placeholder"
        default: "type \(type)"
        }
    }

    func transform(_ node: LottieNode) -> LottieTransform {
        var t = LottieTransform()
        t.anchor = reader.numbers(node["a"], [0, 0, 0])
        if let p = node["p"], p["s"]?.bool == true {
            t.positionX = reader.scalar(p["x"], 0)
            t.positionY = reader.scalar(p["y"], 0)
            diagnostics.use("split position")
        } else {
            t.position = reader.numbers(node["p"], [0, 0, 0])
        }
        t.scale = reader.numbers(node["s"], [100, 100, 100])
        t.rotation = reader.scalar(node["r"] ?? node["rz"], 0)
        if node["rx"] != nil || node["ry"] != nil || node["or"] != nil {
            let n = node["rx"] ?? node["ry"] ?? node["or"]!
            if (node["rx"].map { reader.scalar($0, 0).fixed?.first != 0 } ?? false)
                || (node["ry"].map { reader.scalar($0, 0).fixed?.first != 0 } ?? false) {
                diagnostics.unsupported(n, "3D rotation (rx, ry) is not supported")
            }
        }
        t.opacity = reader.scalar(node["o"], 100)
        t.skew = reader.scalar(node["sk"], 0)
        t.skewAxis = reader.scalar(node["sa"], 0)
        if t.skew.isAnimated || (t.skew.fixed?.first ?? 0) != 0 { diagnostics.use("skew") }
        t.startOpacity = reader.scalar(node["so"], 100)
        t.endOpacity = reader.scalar(node["eo"], 100)
        return t
    }

    func shapes(_ node: LottieNode?, depth: Int) -> [LottieShape] {
        guard let node else { return [] }
        guard let list = node.elements else {
            diagnostics.problem(node, "expected an array of shape items, got \(node.value.typeDescription)")
            return []
        }
        if depth > Self.maxDepth {
            diagnostics.problem(node, "shape groups nesting deeper than \(Self.maxDepth) levels (the depth limit)")
            return []
        }
        if list.count > Self.maxItems {
            diagnostics.problem(node, "\(list.count) shape items is more than the limit of \(Self.maxItems)")
            return []
        }
        return list.compactMap { shape($0, depth: depth) }
    }

    private func direction(_ node: LottieNode) -> Bool { reader.int(node["d"], 1) == 3 }

    private func fillRule(_ node: LottieNode) -> FillRule { reader.int(node["r"], 1) == 2 ? .evenOdd : .winding }

    func shape(_ node: LottieNode, depth: Int) -> LottieShape? {
        guard node.isObject else {
            diagnostics.problem(node, "expected a shape item object, got \(node.value.typeDescription)")
            return nil
        }
        if node["hd"]?.bool == true { return nil }
        guard let ty = node["ty"]?.string else {
            diagnostics.problem(node, path: node.path + ".ty", "a shape item needs a type \"ty\"")
            return nil
        }
        let name = reader.string(node["nm"]).map { " \"\($0)\"" } ?? ""
        switch ty {
        case "gr":
            diagnostics.use("groups")
            var items = shapes(node["it"], depth: depth + 1)
            var transform: LottieTransform?
            if let k = items.lastIndex(where: { if case .transform = $0 { true } else { false } }),
               case .transform(let t) = items[k] {
                transform = t
                items.remove(at: k)
            }
            let bm = reader.int(node["bm"], 0)
            return .group(LottieShapeGroup(items: items, transform: transform, blend: Self.blendModes[bm] ?? .over))
        case "rc":
            diagnostics.use("rectangles")
            return .rectangle(position: reader.numbers(node["p"], [0, 0]), size: reader.numbers(node["s"], [0, 0]),
                              roundness: reader.scalar(node["r"], 0), reversed: direction(node))
        case "el":
            diagnostics.use("ellipses")
            return .ellipse(position: reader.numbers(node["p"], [0, 0]), size: reader.numbers(node["s"], [0, 0]),
                            reversed: direction(node))
        case "sr":
            let polygon = reader.int(node["sy"], 1) == 2
            diagnostics.use(polygon ? "polygons" : "stars")
            return .star(LottieStar(
                position: reader.numbers(node["p"], [0, 0]), outerRadius: reader.scalar(node["or"], 0),
                innerRadius: polygon ? nil : reader.scalar(node["ir"], 0), outerRoundness: reader.scalar(node["os"], 0),
                innerRoundness: polygon ? nil : reader.scalar(node["is"], 0), rotation: reader.scalar(node["r"], 0),
                points: reader.scalar(node["pt"], 5), isPolygon: polygon, reversed: direction(node)))
        case "sh":
            diagnostics.use("paths")
            return .path(reader.bezier(node["ks"]), reversed: direction(node))
        case "fl":
            diagnostics.use("fills")
            return .fill(color: reader.numbers(node["c"], [0, 0, 0]), opacity: reader.scalar(node["o"], 100),
                         rule: fillRule(node))
        case "st":
            diagnostics.use("strokes")
            return .stroke(stroke(node))
        case "gf", "gs":
            diagnostics.use(ty == "gf" ? "gradient fills" : "gradient strokes")
            let g = gradient(node)
            return ty == "gf" ? .gradientFill(g, opacity: reader.scalar(node["o"], 100), rule: fillRule(node))
                : .gradientStroke(g, stroke(node))
        case "tm":
            diagnostics.use("trim paths")
            return .trim(start: reader.scalar(node["s"], 0), end: reader.scalar(node["e"], 100),
                         offset: reader.scalar(node["o"], 0), sequential: reader.int(node["m"], 1) == 2)
        case "rp":
            diagnostics.use("repeaters")
            return .repeater(copies: reader.scalar(node["c"], 1), offset: reader.scalar(node["o"], 0),
                             above: reader.int(node["m"], 1) == 1,
                             transform: node["tr"].map { transform($0) } ?? LottieTransform())
        case "rd":
            diagnostics.use("rounded corners")
            return .roundCorners(reader.scalar(node["r"], 0))
        case "mm":
            diagnostics.use("merge paths")
            return .merge(mode: reader.int(node["mm"], 1))
        case "tr":
            return .transform(transform(node))
        case "op", "pb", "zz", "tw":
            let kind = ["op": "offset path", "pb": "pucker/bloat", "zz": "zig zag", "tw": "twist"][ty]!
            diagnostics.unsupported(node["ty"]!, "shape item\(name) \(kind) (ty \"\(ty)\") is not supported")
            return nil
        case "no":
            diagnostics.unsupported(node["ty"]!, "shape item\(name) of type \"no\" (no style) is not supported")
            return nil
        default:
            diagnostics.problem(node["ty"], "unknown shape item type \"\(ty)\"")
            return nil
        }
    }

    private func stroke(_ node: LottieNode) -> LottieStroke {
        var s = LottieStroke()
        s.color = reader.numbers(node["c"], [0, 0, 0])
        s.opacity = reader.scalar(node["o"], 100)
        s.width = reader.scalar(node["w"], 1)
        s.cap = [1: LineCap.butt, 2: .round, 3: .square][reader.int(node["lc"], 2)] ?? .round
        s.join = [1: LineJoin.miter, 2: .round, 3: .bevel][reader.int(node["lj"], 2)] ?? .round
        s.miterLimit = reader.number(node["ml"], 4)
        for dash in node["d"]?.elements ?? [] {
            diagnostics.use("dashes")
            let kind = reader.string(dash["n"]) ?? "d"
            let value = reader.scalar(dash["v"], 0)
            if kind == "o" { s.dashOffset = value } else { s.dashes.append(value) }
        }
        return s
    }

    private func gradient(_ node: LottieNode) -> LottieGradient {
        let g = node["g"]
        let count = reader.int(g?["p"], 0)
        if g == nil || count <= 0 || count > 1_000 {
            diagnostics.problem(g ?? node, path: (g ?? node).path + (g == nil ? ".g" : ".p"),
                                "a gradient needs its colour count \"g.p\" (1 to 1000)")
        }
        let radial = reader.int(node["t"], 1) == 2
        if radial { diagnostics.use("radial gradients") }
        return LottieGradient(radial: radial, start: reader.numbers(node["s"], [0, 0]),
                              end: reader.numbers(node["e"], [0, 0]), highlight: reader.scalar(node["h"], 0),
                              highlightAngle: reader.scalar(node["a"], 0), colorCount: max(min(count, 1_000), 0),
                              stops: reader.numbers(g?["k"], []))
    }

    private func effect(_ node: LottieNode, index: Int) -> LottieEffect? {
        let ty = reader.int(node["ty"], -1)
        let name = reader.string(node["nm"]) ?? "?"
        if node["en"]?.bool == false { return nil }
        let params = node["ef"]?.elements ?? []
        func param(_ k: Int, _ fallback: [Double]) -> LottieNumbers {
            k < params.count ? reader.numbers(params[k]["v"], fallback) : LottieNumbers(fallback)
        }
        switch ty {
        case 5:
            // Expression controls (sliders, points, colours, checkboxes...): values for expressions, not drawn.
            diagnostics.use("expression controls")
            return nil
        case 25:
            diagnostics.use("drop shadow effect")
            return .dropShadow(color: param(0, [0, 0, 0, 1]), opacity: param(1, [128]), direction: param(2, [135]),
                               distance: param(3, [5]), softness: param(4, [0]))
        case 29:
            diagnostics.use("gaussian blur effect")
            return .blur(param(0, [0]))
        case 21:
            diagnostics.use("fill effect")
            return .fill(color: param(2, [1, 0, 0, 1]), opacity: param(6, [1]))
        case 20:
            diagnostics.use("tint effect")
            return .tint(black: param(0, [0, 0, 0, 1]), white: param(1, [1, 1, 1, 1]), amount: param(2, [100]))
        case 23:
            diagnostics.use("tritone effect")
            return .tritone(bright: param(0, [1, 1, 1, 1]), mid: param(1, [0.5, 0.5, 0.5, 1]),
                            dark: param(2, [0, 0, 0, 1]), amount: param(3, [0]))
        case 22:
            diagnostics.use("stroke effect")
            // Parameters by name: files differ in which ones they list.
            func named(_ n: String, _ fallback: [Double]) -> LottieNumbers {
                guard let p = params.first(where: { (reader.string($0["nm"]) ?? "").lowercased() == n }) else {
                    return LottieNumbers(fallback)
                }
                return reader.numbers(p["v"], fallback)
            }
            func fixed(_ n: String, _ fallback: Double) -> Double { named(n, [fallback]).value(at: 0)?.first ?? fallback }
            return .stroke(mask: Int(fixed("path", 1)), allMasks: fixed("all masks", 0) != 0,
                           color: named("color", [1, 1, 1, 1]), size: named("brush size", [2]),
                           opacity: named("opacity", [1]), start: named("start", [0]), end: named("end", [100]),
                           style: Int(fixed("paint style", 1)))
        default:
            diagnostics.unsupported(node, "effect \"\(name)\" (ty \(ty)) is not supported")
            return nil
        }
    }

    private func text(_ node: LottieNode) -> [LottieTextDocument] {
        if let animators = node["a"]?.elements, !animators.isEmpty {
            diagnostics.unsupported(node["a"]!, "text animators are not supported")
        }
        if let path = node["p"], path["m"] != nil { diagnostics.unsupported(path, "text on a path is not supported") }
        guard let keyframes = node["d"]?["k"]?.elements else {
            diagnostics.problem(node, path: node.path + ".d.k", "a text layer needs its text documents \"d.k\"")
            return []
        }
        var out: [LottieTextDocument] = []
        for keyframe in keyframes {
            guard let s = keyframe["s"], s.isObject else {
                diagnostics.problem(keyframe, path: keyframe.path + ".s", "a text keyframe needs its document \"s\"")
                continue
            }
            let j = reader.int(s["j"], 0)
            let box = s["sz"]?.numbers
            let position = s["ps"]?.numbers
            let size = reader.number(s["s"], 12)
            out.append(LottieTextDocument(
                time: reader.number(keyframe["t"], 0), text: reader.string(s["t"]) ?? "",
                font: reader.string(s["f"]) ?? "", size: size, fill: s["fc"]?.numbers, stroke: s["sc"]?.numbers,
                strokeWidth: reader.number(s["sw"], 0), strokeOverFill: s["of"]?.bool ?? false,
                justification: j == 1 ? .right : j == 2 ? .center : .left, tracking: reader.number(s["tr"], 0),
                lineHeight: reader.number(s["lh"], size * 1.2), baselineShift: reader.number(s["ls"], 0),
                boxPosition: position.flatMap { $0.count >= 2 ? CGPoint(x: $0[0], y: $0[1]) : nil },
                boxSize: box.flatMap { $0.count >= 2 ? CGSize(width: $0[0], height: $0[1]) : nil }))
        }
        diagnostics.use("text")
        return out
    }
}
