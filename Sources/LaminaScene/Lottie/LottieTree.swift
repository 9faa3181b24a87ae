import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

/// Builds the layer tree a Lottie composition plays as (docs/lottie.md, "The layer tree"): one layer per Lottie
/// layer, in the composition's stacking order; a precomp is a layer of its own that clips to its size and holds
/// its composition's layers; a matted layer sits in a layer masked by its matte; each layer carries one
/// `FunctionAnimation` that sets its transform, opacity, visibility and drawing from the file at every frame.
struct LottieTreeBuilder {
    let evaluator: LottieEvaluator
    let diagnostics: LottieDiagnostics
    /// The frame of the root composition at a layer's local time (seconds).
    let rootFrame: @Sendable (Double) -> Double
    /// The whole composition as one drawing layer.
    var oneLayer = false

    /// Precompositions nest at most this deep.
    static let maxNesting = 32

    func root() -> Layer {
        let doc = evaluator.document
        let comp = LottieComp(id: "", layers: doc.layers, width: doc.width, height: doc.height)
        let container = Layer()
        container.anchorPoint = .zero
        container.bounds = CGRect(x: 0, y: 0, width: doc.width, height: doc.height)
        container.position = .zero
        container.name = doc.name.isEmpty ? "lottie" : doc.name
        if oneLayer {
            // The whole composition as one drawing (LottieOptions.drawsAsOneLayer): one picture a frame.
            let drawing = DrawingLayer()
            drawing.anchorPoint = .zero
            drawing.position = .zero
            drawing.bounds = container.bounds
            drawing.name = container.name
            let evaluator = self.evaluator, frame = rootFrame
            attach({ t, state in
                state.special = .drawing(VectorDrawing(items: evaluator.flattened(comp, frame(t))))
            }, to: drawing)
            container.addSublayer(drawing)
            return container
        }
        add(comp, to: container, frame: rootFrame, space: { _ in .identity }, nesting: [])
        return container
    }

    /// Adds the composition's layers to `container`, bottom first. `space` maps the composition's space to the
    /// root composition's at a time: every drawing is made in the root's space (so it is drawn at the output's
    /// density, never resampled from a picture made at a layer's own scale), and every layer of the tree has the
    /// identity transform.
    func add(_ comp: LottieComp, to container: Layer, frame: @escaping @Sendable (Double) -> Double,
             space: @escaping @Sendable (Double) -> CGAffineTransform, nesting: [String]) {
        checkParents(comp)
        for position in comp.layers.indices.reversed() {
            let layer = comp.layers[position]
            if layer.isMatteSource || layer.hidden { continue }
            guard let node = makeLayer(layer, in: comp, frame: frame, space: space, nesting: nesting) else { continue }
            var top = node
            if layer.matteMode != 0 {
                guard let source = comp.matte(for: position) else {
                    diagnostics.problem(nil, path: layer.path + ".tt", "the track matte has no matte layer above it")
                    continue
                }
                top = matted(node, layer: layer, source: source, comp: comp, frame: frame, space: space)
            }
            if layer.blendMode != 0, let mode = Self.blend(layer.blendMode) { top.blendMode = mode }
            container.addSublayer(top)
        }
    }

    static func blend(_ bm: Int) -> LayerBlendMode? {
        let names = [1: "multiply", 2: "screen", 3: "overlay", 4: "darken", 5: "lighten", 6: "colorDodge",
                     7: "colorBurn", 8: "hardLight", 9: "softLight", 10: "difference", 11: "exclusion", 12: "hue",
                     13: "saturation", 14: "color", 15: "luminosity"]
        if bm == 16 { return .plusLighter }
        return names[bm].flatMap { LayerBlendMode(rawValue: $0 + "BlendMode") }
    }

    private func checkParents(_ comp: LottieComp) {
        for layer in comp.layers {
            var seen: Set<Int> = []
            var current = layer
            while let p = current.parent {
                guard let parent = comp.byIndex[p] else {
                    diagnostics.problem(nil, path: layer.path + ".parent", "no layer has the index \(p) (\"ind\")")
                    break
                }
                if !seen.insert(p).inserted || p == layer.index {
                    diagnostics.problem(nil, path: layer.path + ".parent", "the parent chain is a cycle: it comes back to layer \(p)")
                    break
                }
                current = parent
            }
        }
    }

    /// The layer of one Lottie layer, with its animation; nil for layers that draw nothing (nulls, audio...).
    private func makeLayer(_ layer: LottieLayer, in comp: LottieComp, frame: @escaping @Sendable (Double) -> Double,
                           space: @escaping @Sendable (Double) -> CGAffineTransform, nesting: [String]) -> Layer? {
        let node: Layer
        let evaluator = self.evaluator
        switch layer.type {
        case 0:
            guard let id = layer.refID else {
                diagnostics.problem(nil, path: layer.path + ".refId", "a precomp layer needs a \"refId\"")
                return nil
            }
            guard var child = evaluator.comps[id] else {
                diagnostics.problem(nil, path: layer.path + ".refId", "no precomp asset has the id \"\(id)\"")
                return nil
            }
            guard !nesting.contains(id), nesting.count < Self.maxNesting else {
                diagnostics.problem(nil, path: layer.path + ".refId",
                                    "precomp \"\(id)\" contains itself (or nests deeper than \(Self.maxNesting))")
                return nil
            }
            if !layer.effects.isEmpty {
                diagnostics.unsupported(LottieNode(value: JSONValue(kind: .null, position: JSONPosition(line: 0, column: 0)),
                                                   path: layer.path + ".ef"), "effects on precomp layers are not supported")
            }
            child.width = layer.width
            child.height = layer.height
            let container = Layer()
            container.anchorPoint = .zero
            container.position = .zero
            container.bounds = CGRect(x: 0, y: 0, width: evaluator.document.width, height: evaluator.document.height)
            let childFrame: @Sendable (Double) -> Double = { t in evaluator.childFrame(layer, frame(t)) }
            let childSpace: @Sendable (Double) -> CGAffineTransform = { t in
                evaluator.world(layer, in: comp, frame(t)).concatenating(space(t))
            }
            add(child, to: container, frame: childFrame, space: childSpace, nesting: nesting + [id])
            // The precomp clips to its size, and to its masks: a mask drawn in the root's space.
            let clip = DrawingLayer()
            clip.anchorPoint = .zero
            clip.position = .zero
            clip.bounds = container.bounds
            let rect = Path(rect: CGRect(x: 0, y: 0, width: layer.width, height: layer.height))
            let update: @Sendable (Double, inout LayerState) -> Void = { t, state in
                let f = frame(t)
                var inner = VectorDrawing.Group(items: [.fill(rect, .color(.white), .winding)])
                inner.mask = evaluator.maskDrawing(layer, evaluator.localFrame(layer, f))
                state.special = .drawing(VectorDrawing(items: [.group(VectorDrawing.Group(
                    items: [.group(inner)], transform: childSpace(t)))]))
            }
            attach(update, to: clip)
            container.mask = clip
            node = container
        case 1, 2, 4, 5:
            let drawing = DrawingLayer()
            drawing.anchorPoint = .zero
            drawing.position = .zero
            drawing.bounds = CGRect(x: 0, y: 0, width: evaluator.document.width, height: evaluator.document.height)
            node = drawing
        default:
            return nil
        }
        node.name = layer.name
        let isDrawing = layer.type != 0
        let update: @Sendable (Double, inout LayerState) -> Void = { t, state in
            let f = frame(t)
            guard evaluator.isVisible(layer, f) else {
                state.isHidden = true
                return
            }
            state.isHidden = false
            state.opacity = Float(evaluator.opacity(layer.transform, evaluator.localFrame(layer, f)))
            if isDrawing {
                let content = evaluator.content(layer, f).map { item in
                    [VectorDrawing.Item.group(VectorDrawing.Group(
                        items: [item], transform: evaluator.world(layer, in: comp, f).concatenating(space(t))))]
                }
                state.special = .drawing(VectorDrawing(items: content ?? []))
            }
        }
        attach(update, to: node)
        return node
    }

    /// `node` inside a layer masked by the matte source's picture (alpha, inverted alpha, luma or inverted luma).
    private func matted(_ node: Layer, layer: LottieLayer, source: LottieLayer, comp: LottieComp,
                        frame: @escaping @Sendable (Double) -> Double,
                        space: @escaping @Sendable (Double) -> CGAffineTransform) -> Layer {
        let holder = Layer()
        holder.anchorPoint = .zero
        holder.position = .zero
        holder.bounds = CGRect(x: 0, y: 0, width: evaluator.document.width, height: evaluator.document.height)
        holder.name = layer.name + " (matte)"
        holder.addSublayer(node)
        let mask = DrawingLayer()
        mask.anchorPoint = .zero
        mask.position = .zero
        mask.bounds = holder.bounds
        let mode = LottieEvaluator.alphaMode(layer.matteMode)
        let evaluator = self.evaluator
        let extent = evaluator.farExtent
        let update: @Sendable (Double, inout LayerState) -> Void = { t, state in
            let f = frame(t)
            // A matte source that shows nothing hides what it mattes (inverted: shows all of it).
            var source = source
            source.hidden = false
            let items = evaluator.flattened(source, in: comp, f)
            state.special = .drawing(VectorDrawing(
                items: items.isEmpty ? [] : [.group(VectorDrawing.Group(items: items, transform: space(t)))],
                alpha: mode, extent: mode.inverts ? extent : nil))
        }
        attach(update, to: mask)
        holder.mask = mask
        return holder
    }

    /// Sets the layer's model to the first frame and attaches the animation that plays the rest.
    private func attach(_ update: @escaping @Sendable (Double, inout LayerState) -> Void, to layer: Layer) {
        var state = LayerState()
        state.special = .drawing(VectorDrawing())
        update(0, &state)
        layer.isHidden = state.isHidden
        layer.transform = state.transform
        layer.opacity = state.opacity
        if let drawingLayer = layer as? DrawingLayer, case .drawing(let d) = state.special { drawingLayer.drawing = d }
        let animation = FunctionAnimation(update: update)
        animation.duration = .infinity
        animation.fillMode = .both
        layer.attach(animation, forKey: "lottie", keepingBeginTime: true)
    }
}
