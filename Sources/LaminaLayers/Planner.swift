import Foundation
import LaminaCore

// The spaces the planner works in (docs/semantics.md, "Spaces"), named in variables as `…InLayer`, `…InTarget`:
// - layer space: a layer's own coordinates, in points; `bounds` is a rectangle in it; y grows downward.
// - superlayer space: the layer space of the superlayer. p_super = position + transform(p_layer - anchor),
//   and then the superlayer's sublayerTransform about its anchor. 3D results are flattened (z dropped) into
//   the superlayer's plane at every level, so each level is a 3x3 projective map (Matrix3); the sublayers of a
//   transform layer are the exception: they keep their depth in the 3D space of the nearest layer above that is
//   not one (Planner+TransformLayer.swift).
// - target pixels: the output image, origin top-left, y down; root layer space maps to it by
//   (p - root.bounds.origin) x scale.
// - unit space: fractions 0...1 of a rectangle or image (contentsRect, contentsCenter, a quad's own square).
// Colours are premultiplied from here on.

/// Errors that stop a tree from being planned.
public enum PlanError: Error, Equatable, CustomStringConvertible {
    case invalidScale(CGFloat)
    case invalidSize(String)
    /// A layer's custom drawing could not make its backing image.
    case drawingFailed(String)
    /// A buffer an effect needs (a shadow, a filled shadowPath) is over the pixel limits.
    case effectTooLarge(String)

    public var description: String {
        switch self {
        case .invalidScale(let s): return "scale must be a positive finite number, got \(s)"
        case .invalidSize(let why): return "output size: \(why)"
        case .drawingFailed(let why): return why
        case .effectTooLarge(let why): return why
        }
    }
}

/// Turns a layer tree into a RenderPlan: the one place where CALayer semantics become geometry.
public struct Planner {
    /// Output pixels per point.
    public var scale: CGFloat
    /// The largest output allowed.
    public var limits: PixelLimits
    /// Where the pictures of gradient, shape and text layers are kept between frames (the plan cache's); nil: made
    /// for this plan only.
    var pictures: VectorPictureCache?
    /// Draws the plan of a rasterized layer (shouldRasterize) into an image: the renderer that draws the frame sets
    /// it (`Renderer.plan(_:scale:at:limits:)`). nil: layers with shouldRasterize are planned as any other.
    public var rasterizer: ((RenderPlan) throws -> Image)?
    /// The rasterized layer whose own picture this planner is planning (it is not rasterized again inside it).
    var rasterizingRoot: LayerID?
    /// The tiles of tiled layers (the plan cache's); nil: drawn for this plan only (Planner+Tiled.swift).
    var tiles: TileCache?
    /// The time of a live frame, whose tiled layers show the tiles drawn so far and queue the rest for drawing on
    /// background threads (`Renderer.livePlan` sets it); nil: an offline frame, which draws every visible tile first.
    public var liveTileTime: Double?
    /// Where the pictures of gradient, shape, text and drawing layers (with the glyph masks of text) and the tiles of
    /// tiled layers reserve their bytes before they are made (Planner+Budget.swift): the renderer's `memoryBudget`
    /// for a renderer's planner (`rasterizingPlanner`); nil: not counted.
    public var memoryBudget: MemoryBudget?
    /// The texture paints of the planning call under way, shared by quads of one source (Planner+TexturePaints.swift);
    /// nil: each quad gets a paint of its own.
    var texturePaints: TexturePaints?

    public init(scale: CGFloat = 1, limits: PixelLimits = .default) {
        self.scale = scale
        self.limits = limits
    }

    /// The output size in pixels for a root of `size` points: round(size x scale).
    public func outputSize(for size: CGSize) throws -> (width: Int, height: Int) {
        guard scale.isFinite, scale > 0 else { throw PlanError.invalidScale(scale) }
        let w = (size.width * scale).rounded(), h = (size.height * scale).rounded()
        guard w.isFinite, h.isFinite, w >= 1, h >= 1 else {
            throw PlanError.invalidSize("\(size.width)x\(size.height) points at scale \(scale) is empty or not finite")
        }
        guard w <= CGFloat(limits.maxDimension), h <= CGFloat(limits.maxDimension) else {
            let size = String(format: "%.0fx%.0f", Double(w), Double(h))
            throw PlanError.invalidSize("\(size) pixels exceeds the limit of \(limits.maxDimension) pixels per side")
        }
        if let reason = limits.violation(width: Int(w), height: Int(h)) { throw PlanError.invalidSize(reason) }
        return (Int(w), Int(h))
    }

    /// Plans `root` and everything under it, as a frame would: every thread's implicit transaction is committed,
    /// the visible layers marked with setNeedsDisplay() are drawn, and the committed tree is planned from its
    /// snapshot. The root's bounds become the output; its own position and transform are ignored, as when a layer
    /// is rendered into a context of its own. Nothing is kept for a next plan: a renderer's `render(_:scale:)`
    /// keeps its own `PlanCache`.
    public func plan(_ root: Layer, at time: Double? = nil) throws -> RenderPlan {
        try plan(root.presentationForFrame(at: time), cache: nil)
    }

    /// Plans the snapshot `root` (`Layer.presentationSnapshot()`, or a frame's). With `cache`, reuses what the cache's last
    /// plan has of the subtrees that did not change, and leaves this plan in it for the next.
    /// - Complexity: O(n log n) in the number of visible layers planned (sorting siblings by zPosition); a reused
    ///   subtree costs a copy of its quads. Iterative, so any depth is fine.
    public func plan(_ root: LayerSnapshot, cache: PlanCache?) throws -> RenderPlan {
        var planner = withTexturePaints()
        guard let cache, pictures !== cache.pictures else { return try planner.planKeeping(root, cache: cache) }
        planner.pictures = cache.pictures
        planner.tiles = cache.tiles
        cache.tiles.memoryBudget = memoryBudget
        cache.pictures.resetCounters()
        cache.tilesChanged = cache.tiles.beginFrame(liveAt: liveTileTime)
        defer { cache.tiles.endFrame() }
        let plan = try planner.planKeeping(root, cache: cache)
        let (made, reused) = cache.pictures.counters
        cache.statistics.picturesMade = made
        cache.statistics.picturesReused = reused
        cache.statistics.texturePaintsShared = planner.texturePaints?.shared ?? 0
        return plan
    }

    /// `plan(_:cache:)` with this planner's picture cache.
    private func planKeeping(_ root: LayerSnapshot, cache: PlanCache?) throws -> RenderPlan {
        let (width, height) = try outputSize(for: root.bounds.size)
        let rootToTarget = Matrix3.translation(-root.bounds.minX, -root.bounds.minY)
            .concatenating(.scale(scale, scale))
        if let cache, let last = cache.plan, last.width != width || last.height != height {
            // Group bounds and shadow buffers are cut to the target: none of them fits another size.
            cache.plan = nil
            cache.orderedPlan = nil
            cache.fragments = []
            cache.fragmentIndex = [:]
        }
        let run = PlanRun(cache: cache)
        if let unchanged = run.unchangedPlan(root: root, rootToTarget: rootToTarget) { return unchanged }
        if let cache, let patched = try patchedPlan(root, rootToTarget: rootToTarget, cache: cache) { return patched }
        var plan = try plan(root, rootToTarget: rootToTarget, width: width, height: height, silhouette: false,
                            run: run)
        // The cache keeps the groups in the order they were made, which its fragments' group ranges index.
        run.finish(&plan)
        plan.groups = RenderPlan.ordered(plan.groups)
        cache?.orderedPlan = plan
        return plan
    }

    /// Plans `root`'s subtree with `rootToTarget` into a target of `width` x `height`, its groups in the order they
    /// were made (callers put them in drawing order, `RenderPlan.ordered`). `silhouette`: the plan is
    /// the shape of `root`'s shadow: the root's own shadow and opacity are left out, and `run` reuses and keeps
    /// nothing (what it keeps belongs to the plan on screen).
    /// `rootOpacity` and `rootClip` are what the root inherits (a piece of a transition planned on its own); with
    /// `caching` false (a silhouette's, or such a piece's plan) nothing is reused or kept.
    func plan(
        _ root: LayerSnapshot, rootToTarget: Matrix3, width: Int, height: Int, silhouette: Bool, run: PlanRun,
        rootOpacity: Float = 1, rootClip: ConvexPolygon? = nil, caching: Bool? = nil
    ) throws -> RenderPlan {
        let caching = caching ?? !silhouette
        var plan = RenderPlan(width: width, height: height)
        // Room for as many quads as the last plan of the tree had: growing the array by doubling to 100,000 quads
        // moved every quad about twice (a tenth of planning a tree where everything moved).
        plan.quads.reserveCapacity(caching ? max(64, run.lastQuadCount) : 64)
        var stack: [Step] = [.visit(Visit(layer: root, layerToTarget: rootToTarget, opacity: rootOpacity,
                                          clip: rootClip))]
        // Where each masked layer's mask quads begin.
        var maskStarts: [LayerID: Int] = [:]
        while let step = stack.popLast() {
            let visit: Visit
            switch step {
            case .maskStart(let owner):
                maskStarts[owner] = plan.quads.count
                continue
            case .border(let bordered, let opacity):
                // The border goes above the sublayers and below the mask (docs/semantics.md, "What one layer
                // paints").
                emitBorder(bordered.layer, layerToTarget: bordered.layerToTarget, opacity: opacity,
                           clip: bordered.clip, into: &plan.quads)
                continue
            case .closeRoundedClip(let start, let shape, let layer):
                run.fixedDecisions += 1
                // Clipping may give the sublayers' quads the rounded shape in place: what their subtrees kept no
                // longer stands alone (the layer's own subtree, kept at its end, has the clipped quads).
                closeRoundedClip(start: start, shape: shape, layer: layer, plan: &plan)
                run.dropFragments(from: start)
                continue
            case .visit(let next):
                visit = next
            case .end(let ended):
                let layer = ended.visit.layer
                let start = ended.start
                let maskStart = maskStarts.removeValue(forKey: layer.id)
                let contentEnd = maskStart ?? plan.quads.count
                if maskStart == plan.quads.count {
                    // The mask paints nothing (empty, transparent, or at opacity 0): its alpha is 0 everywhere, so
                    // the layer and its subtree are hidden, as in Core Animation.
                    plan.groups.removeAll { $0.range.lowerBound >= start }
                    plan.quads.removeSubrange(start...)
                    run.dropFragments(from: start)
                } else if let groupOpacity = ended.groupOpacity, contentEnd > start {
                    run.fixedDecisions += 1
                    if let bounds = Self.bounds(of: plan.quads[start..<contentEnd], width: width, height: height) {
                        plan.groups.append(PlanGroup(range: start..<plan.quads.count, opacity: groupOpacity,
                                                     bounds: bounds, maskStart: maskStart, composite: ended.composite))
                    } else if let maskStart {
                        plan.groups.removeAll { $0.range.lowerBound >= maskStart }
                        plan.quads.removeSubrange(maskStart...)
                        run.dropFragments(from: maskStart)
                    }
                } else if let maskStart {
                    // Nothing to mask: the mask itself must not be drawn.
                    plan.groups.removeAll { $0.range.lowerBound >= maskStart }
                    plan.quads.removeSubrange(maskStart...)
                    run.dropFragments(from: maskStart)
                }
                // Every subtree that painted something is kept, leaves too: a parent planned again (a sibling
                // changed) copies its unchanged children instead of planning them.
                if caching, plan.quads.count > start || layer === root || layer.state.tiled != nil {
                    run.keepFragment(ended, quadCount: plan.quads.count, groupCount: plan.groups.count)
                }
                continue
            }
            let layer = visit.layer
            // A layer whose map to the target overflowed is beyond any target, and so is its subtree.
            guard !layer.isHidden, visit.layerToTarget.isFinite else { continue }
            if layer.state.isTransformLayer {
                // Reached on its own (a root, a replicator's instance, a mask): its space is flattened in its own
                // plane (Planner+TransformLayer.swift). It paints nothing itself and is not kept as a fragment.
                stack += spaceVisits(of: layer, layerToPlane: .identity, planeToTarget: visit.layerToTarget,
                                     opacity: visit.opacity, clip: visit.clip).reversed().map { .visit($0) }
                continue
            }
            if caching, run.reuse(visit, into: &plan) { continue }
            if let transition = layer.effects?.transition {
                // A transition draws two pictures of the subtree (Planner+Effects.swift).
                try planTransition(transition, visit: visit, into: &plan, run: run)
                continue
            }
            run.statistics.layersPlanned += 1
            if layer.shouldRasterize, rasterizer != nil, !(layer === root && rasterizingRoot == layer.id) {
                // Drawn once offscreen in its own space and composited as a picture (Planner+Rasterize.swift),
                // faded by its own opacity as a whole (as a group).
                let faded = visit.opacity * min(max(layer.opacity, 0), 1)
                guard faded > 0 else { continue }
                if !layer.isDoubleSided, visit.layerToTarget.determinant < 0 { continue }
                // A blend mode combines the picture (already faded) with what lies beneath it, as a group.
                let pictureBlend = layer.blendMode?.composite
                stack.append(.end(End(visit: visit, start: plan.quads.count, groupStart: plan.groups.count,
                                      fragmentStart: run.fragmentCount, fixedAtStart: run.fixedDecisions,
                                      groupOpacity: pictureBlend == nil ? nil : 1,
                                      composite: pictureBlend ?? .sourceOver)))
                if try planRasterized(visit, opacity: faded, into: &plan, run: run) { continue }
                stack.removeLast()
            }
            // Group opacity (docs/semantics.md): a layer fading with visible sublayers is drawn as one picture,
            // then faded by its own and its ungrouped ancestors' opacity; inside, its quads are drawn unfaded.
            let castsShadow = !(silhouette && layer === root)
            // A rasterized layer's own picture is drawn at full strength: its opacity fades the picture.
            let pictured = layer === root && rasterizingRoot == layer.id
            let own = castsShadow && !pictured ? min(max(layer.opacity, 0), 1) : 1
            // A hidden mask paints nothing, so it hides the layer like any mask that paints nothing.
            let masked = layer.mask != nil
            // A blend mode (docs/semantics.md, "Blend modes") combines the layer and its subtree as one group, even a
            // leaf at full opacity; not inside the layer's own shadow silhouette or rasterized picture, which the
            // layer's plan outside then blends.
            let blend = castsShadow && !pictured ? layer.blendMode?.composite : nil
            // Sublayers that draw nothing (hidden, or at opacity 0, which are skipped) do not make a group.
            let grouped = masked || blend != nil
                || own < 1 && layer.allowsGroupOpacity && layer.sublayers.contains { !$0.isHidden && $0.opacity > 0 }
            let opacity = grouped ? 1 : visit.opacity * own
            guard visit.opacity * own > 0 else { continue }
            // A single-sided layer whose back faces the viewer is not drawn, nor is its subtree (flattened into it).
            // With w > 0 its orientation on screen is the sign of its projective map's determinant.
            if !layer.isDoubleSided, visit.layerToTarget.determinant < 0 { continue }
            stack.append(.end(End(visit: visit, start: plan.quads.count, groupStart: plan.groups.count,
                                  fragmentStart: run.fragmentCount, fixedAtStart: run.fixedDecisions,
                                  groupOpacity: grouped ? visit.opacity * own : nil,
                                  composite: blend ?? .sourceOver)))
            if masked, let mask = layer.mask {
                // The mask is planned after the content, in the layer's space, unclipped and at full strength
                // (its own opacity still counts): it goes into the group's mask buffer.
                let maskToLayer = mask.mapToSuperlayer(sublayerSpace: .identity)
                stack.append(.visit(Visit(layer: mask, layerToTarget: maskToLayer.concatenating(visit.layerToTarget),
                                          opacity: 1, clip: nil)))
                stack.append(.maskStart(layer.id))
            }
            if layer.borderWidth > 0 { stack.append(.border(visit, opacity: opacity)) }
            // The shadow is painted first, inside the layer's group (so opacity and mask apply to it).
            let ownStart = plan.quads.count
            var shadowed = false
            if castsShadow, layer.shadowOpacity > 0,
                let shadow = try shadowQuad(layer, visit: visit, opacity: opacity, width: width, height: height,
                                            run: run)
            {
                plan.quads.appendDrawable(shadow)
                shadowed = true
            }
            // A rounded layer that clips its own shadow is clipped once, as a whole (shadow, background and contents
            // through one rounded mask), as Core Animation clips it: clipping each part on its own would leave the
            // shadow showing in the antialiased edge under the background.
            let rounded = layer.masksToBounds ? layer.roundedBounds : nil
            let clipsOwnShadow = shadowed && rounded != nil
            if let effects = layer.effects, effects.dissolveFrom != nil || layer.contents != nil,
                effects.dissolveProgress > 0, effects.dissolveProgress < 1
            {
                // Contents on their way from one image to another (Planner+Effects.swift).
                emitDissolve(layer, effects: effects, layerToTarget: visit.layerToTarget, opacity: opacity,
                             clip: visit.clip, shaped: !clipsOwnShadow, into: &plan, run: run)
            } else {
                emit(layer, layerToTarget: visit.layerToTarget, opacity: opacity, clip: visit.clip,
                     shaped: !clipsOwnShadow, into: &plan.quads)
            }
            if layer.state.special.paintsPicture,
                try emitPicture(layer, layerToTarget: visit.layerToTarget, opacity: opacity, clip: visit.clip,
                                shaped: !clipsOwnShadow, target: (width, height), into: &plan.quads)
            {
                // Its picture is made for what can be seen where the layer lies (cut where part of it cannot be): a
                // moved subtree must plan it again.
                run.fixedDecisions += 1
            }
            if case .emitter(let style) = layer.state.special {
                // Particles go where contents go (Planner+Emitter.swift).
                emitParticles(layer, style, layerToTarget: visit.layerToTarget, opacity: opacity, clip: visit.clip,
                              shaped: !clipsOwnShadow, into: &plan.quads)
            }
            if clipsOwnShadow, let rounded {
                let shape = CoverageShape(toTarget: visit.layerToTarget, outer: rounded)
                run.fixedDecisions += 1
                closeRoundedClip(start: ownStart, shape: shape, layer: layer, plan: &plan)
            }

            let children = layer.sublayers
            guard !children.isEmpty else { continue }
            var clip = visit.clip
            if layer.masksToBounds {
                let boundsInTarget = ConvexPolygon(
                    projecting: unitCorners.map(Matrix3.unitSquare(to: layer.bounds)
                        .concatenating(visit.layerToTarget).apply))
                let limited = boundsInTarget.map { clip?.intersection($0) ?? $0 }
                guard let limited, !limited.isEmpty else { continue }
                clip = limited
            }
            if layer.masksToBounds, let rounded = layer.roundedBounds {
                // The rounded corners clip the sublayers through a mask group (the convex clip above keeps the
                // rest of the bounds); nested rounded clips nest their groups, so every one applies.
                stack.append(.closeRoundedClip(
                    start: plan.quads.count, shape: CoverageShape(toTarget: visit.layerToTarget, outer: rounded),
                    layer: layer))
            }
            if let replicator = layer.state.replicator {
                try planInstances(layer, replicator, layerToTarget: visit.layerToTarget, opacity: opacity, clip: clip,
                                  into: &plan, run: run)
                continue
            }
            let sublayerSpace = layer.sublayerTransformAboutAnchor
            // Paint order: ascending zPosition, ties in array order; pushed in reverse onto the stack.
            let ordered = layer.sublayersInPaintOrder
            stack.reserveCapacity(stack.count + ordered.count)
            for child in ordered.reversed() {
                if child.state.isTransformLayer, !child.isHidden {
                    // Its sublayers live in this layer's 3D space, drawn back to front (Planner+TransformLayer.swift).
                    stack += spaceVisits(
                        of: child, layerToPlane: child.state.mapToSuperlayer3D(sublayerSpace: sublayerSpace),
                        planeToTarget: visit.layerToTarget, opacity: opacity, clip: clip).reversed().map { .visit($0) }
                    continue
                }
                let childToLayer = child.mapToSuperlayer(sublayerSpace: sublayerSpace)
                stack.append(.visit(Visit(
                    layer: child, layerToTarget: childToLayer.concatenating(visit.layerToTarget),
                    opacity: opacity, clip: clip)))
            }
        }
        return plan
    }

    /// Clips the quads from `start` on to `shape` (rounded bounds). Quads and groups wholly inside the shape are left
    /// as they are. When none of the others has a shape of its own or is a shadow, and no group reaches the edge,
    /// each takes the shape as its own (no offscreen pass; where two of them overlap in an antialiased edge pixel
    /// each is faded there on its own: a documented difference from Core Animation). Otherwise they become a group
    /// seen through a mask of the shape.
    private func closeRoundedClip(start: Int, shape: CoverageShape, layer: LayerSnapshot, plan: inout RenderPlan) {
        let end = plan.quads.count
        guard end > start else { return }
        let (width, height) = (plan.width, plan.height)
        // What lies wholly inside the rounded shape is left as it is.
        func inside(_ quads: ArraySlice<Quad>) -> Bool {
            Self.bounds(of: quads, width: width, height: height).map { shape.contains($0) } ?? true
        }
        var untouched = Set<Int>()
        var direct = true
        for group in plan.groups where group.range.lowerBound >= start {
            // A blend mode inside combines with what is beneath it inside the clip's group (docs/semantics.md, "Blend
            // modes"), so the clip is drawn offscreen wherever the blended layer lies.
            guard shape.contains(group.bounds), !group.composite.isBlendMode else {
                direct = false
                break
            }
            untouched.formUnion(group.range)
        }
        if direct {
            for index in start..<end where !untouched.contains(index) {
                let quad = plan.quads[index]
                if case .shadow = quad.paint, !inside(plan.quads[index...index]) {
                    direct = false
                } else if quad.shape != nil, !inside(plan.quads[index...index]) {
                    direct = false
                }
                if !direct { break }
            }
        }
        if direct {
            var clip = shape
            clip.fillsShape = false
            for index in start..<end where !untouched.contains(index) {
                if plan.quads[index].shape != nil { continue }
                if case .shadow = plan.quads[index].paint { continue }
                plan.quads[index].shape = clip
            }
            return
        }
        let maskQuad = Quad(
            unitToTarget: Matrix3.unitSquare(to: shape.outer.rect).concatenating(shape.toTarget),
            paint: .solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)), shape: shape,
            layerName: layer.name, layerID: layer.id)
        // A clip too large for doubles reaches far beyond any target: what it clips is on screen whole.
        guard maskQuad.hasFiniteGeometry,
            let bounds = Self.bounds(of: plan.quads[start..<end], width: plan.width, height: plan.height)
        else { return }
        plan.quads.append(maskQuad)
        plan.groups.append(PlanGroup(range: start..<plan.quads.count, opacity: 1, bounds: bounds, maskStart: end))
    }

    /// The pixels `quads` can touch (their coverage's bounding boxes, one pixel wider for antialiased edges),
    /// within the target; nil when none.
    static func bounds(of quads: ArraySlice<Quad>, width: Int, height: Int) -> PixelBox? {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for quad in quads {
            guard let box = quad.coverage(width: width, height: height)?.bounds else { continue }
            let grow: CGFloat = quad.hasAnalyticCoverage ? 1 : 0
            x0 = min(x0, Int(saturating: (box.minX - grow).rounded(.down)))
            y0 = min(y0, Int(saturating: (box.minY - grow).rounded(.down)))
            x1 = max(x1, Int(saturating: (box.maxX + grow).rounded(.up)))
            y1 = max(y1, Int(saturating: (box.maxY + grow).rounded(.up)))
        }
        let box = PixelBox(x0: max(x0, 0), y0: max(y0, 0), x1: min(x1, width), y1: min(y1, height))
        return box.x1 > box.x0 && box.y1 > box.y0 ? box : nil
    }

    private enum Step {
        /// Plan this layer and its subtree.
        case visit(Visit)
        /// This layer's subtree has been planned; a group layer closes its group here.
        case end(End)
        /// The quads after this point are the mask of the layer with this id.
        case maskStart(LayerID)
        /// The layer's sublayers are done: its border goes here.
        case border(Visit, opacity: Float)
        /// The sublayers of a layer with masksToBounds and rounded corners have been planned from quad `start` on:
        /// they become a group seen through `shape` (a mask of the rounded bounds).
        case closeRoundedClip(start: Int, shape: CoverageShape, layer: LayerSnapshot)
    }

    struct Visit {
        var layer: LayerSnapshot
        var layerToTarget: Matrix3
        var opacity: Float
        var clip: ConvexPolygon?
    }

    /// A subtree whose planning began at quad `start`, group `groupStart` and kept fragment `fragmentStart`, when
    /// `fixedAtStart` decisions tied to the target's pixels had been made; `groupOpacity`: the layer's group.
    struct End {
        var visit: Visit
        var start: Int
        var groupStart: Int
        var fragmentStart: Int
        var fixedAtStart: Int
        var groupOpacity: Float?
        /// How the layer's group is combined with what lies beneath it (a blend mode); source-over without one.
        var composite: GroupComposite = .sourceOver
    }

    /// What one layer paints itself: background, then contents (clipped when masksToBounds).
    /// `shaped`: false when an enclosing group applies the rounded corners instead.
    func emit(
        _ layer: LayerSnapshot, layerToTarget: Matrix3, opacity: Float, clip: ConvexPolygon?, shaped: Bool = true,
        into quads: inout [Quad]
    ) {
        let bounds = layer.bounds
        guard bounds.width > 0, bounds.height > 0 else { return }
        let smooth = layer.allowsEdgeAntialiasing
        let rounded = shaped ? layer.roundedBounds.map { CoverageShape(toTarget: layerToTarget, outer: $0) } : nil
        if let color = layer.backgroundColor, color.alpha > 0 {
            quads.appendDrawable(Quad(
                unitToTarget: Matrix3.unitSquare(to: bounds).concatenating(layerToTarget),
                paint: .solid(color.premultiplied), opacity: opacity, clip: clip,
                antialiasedEdges: smooth && rounded == nil ? .all : [], shape: rounded, layerName: layer.name,
                layerID: layer.id))
        }
        // A gradient, shape or text layer paints its picture in place of contents (emitPicture).
        guard let image = layer.contents, !layer.state.special.paintsPicture else { return }
        guard let contentsClip = Self.contentsClip(layer, layerToTarget: layerToTarget, clip: clip) else { return }
        ContentsLayout.forEachCell(layer: layer, image: image) { cell in
            let unitToTarget = Matrix3.unitSquare(to: cell.rectInLayer).concatenating(layerToTarget)
            let (filter, lod) = chooseFilter(layer, unitToTarget: unitToTarget, unitToTexel: cell.unitToTexel)
            quads.appendDrawable(Quad(
                unitToTarget: unitToTarget,
                paint: texturePaint(TextureSource(
                    image: image, unitToTexel: cell.unitToTexel, clamp: cell.clamp, filter: filter, mipLevel: lod)),
                opacity: opacity, clip: contentsClip, antialiasedEdges: smooth ? cell.outerEdges : [],
                shape: layer.masksToBounds ? rounded : nil, layerName: layer.name, layerID: layer.id))
        }
    }

    /// The clip of what a layer paints in place of its background's: `clip`, cut to the bounds with masksToBounds.
    /// The outer optional is nil when the bounds cannot be projected (nothing of it can be seen).
    static func contentsClip(_ layer: LayerSnapshot, layerToTarget: Matrix3, clip: ConvexPolygon?) -> ConvexPolygon?? {
        guard layer.masksToBounds else { return .some(clip) }
        guard let own = ConvexPolygon(
            projecting: unitCorners.map(Matrix3.unitSquare(to: layer.bounds).concatenating(layerToTarget).apply))
        else { return nil }
        return .some(clip.map { $0.intersection(own) } ?? own)
    }

    /// The border: borderWidth inset inside the bounds, as four solid bands (top and bottom full width, the sides
    /// between them), so no pixel is painted twice. A border wider than half the bounds fills them.
    private func emitBorder(
        _ layer: LayerSnapshot, layerToTarget: Matrix3, opacity: Float, clip: ConvexPolygon?, into quads: inout [Quad]
    ) {
        let b = layer.bounds
        let width = min(layer.borderWidth, b.width / 2, b.height / 2)
        guard width > 0, b.width > 0, b.height > 0, let borderColor = layer.borderColor, borderColor.alpha > 0 else { return }
        if let rounded = layer.roundedBounds {
            // Rounded: one quad seen through the ring between the bounds and the bounds inset by the width, whose
            // corners are concentric (radius minus width).
            let inner = RoundedRect(rect: b.insetBy(dx: width, dy: width), radii: rounded.radii.inset(by: width),
                                    curve: rounded.curve)
            quads.appendDrawable(Quad(
                unitToTarget: Matrix3.unitSquare(to: b).concatenating(layerToTarget),
                paint: .solid(borderColor.premultiplied), opacity: opacity, clip: clip,
                shape: CoverageShape(toTarget: layerToTarget, outer: rounded, inner: inner), layerName: layer.name,
                layerID: layer.id))
            return
        }
        let bands = [
            CGRect(x: b.minX, y: b.minY, width: b.width, height: width),
            CGRect(x: b.minX, y: b.maxY - width, width: b.width, height: width),
            CGRect(x: b.minX, y: b.minY + width, width: width, height: b.height - 2 * width),
            CGRect(x: b.maxX - width, y: b.minY + width, width: width, height: b.height - 2 * width),
        ]
        // Antialiasing applies to the outer edges of the bounds only, so the bands meet without seams.
        let outer: [QuadEdges] = [[.top, .left, .right], [.bottom, .left, .right], [.left], [.right]]
        for (band, edges) in zip(bands, outer) where band.width > 0 && band.height > 0 {
            quads.appendDrawable(Quad(
                unitToTarget: Matrix3.unitSquare(to: band).concatenating(layerToTarget),
                paint: .solid(borderColor.premultiplied), opacity: opacity, clip: clip,
                antialiasedEdges: layer.allowsEdgeAntialiasing ? edges : [], layerName: layer.name, layerID: layer.id))
        }
    }

    /// Minification when the quad shows more than one texel per target pixel (by area, at its centre). With
    /// trilinear minification, also the level of detail: log2 of sqrt(texels per target pixel) plus the layer's
    /// minificationFilterBias (0 otherwise).
    func chooseFilter(_ layer: LayerSnapshot, unitToTarget: Matrix3, unitToTexel: Matrix3) -> (Filter, Float) {
        Self.chooseFilter(unitToTarget: unitToTarget, texelArea: Self.texelArea(unitToTexel),
                          minification: layer.minificationFilter, magnification: layer.magnificationFilter,
                          bias: layer.minificationFilterBias)
    }

    /// The texels of a texture's unit square, by area, that `chooseFilter` compares with the target pixels it covers.
    static func texelArea(_ unitToTexel: Matrix3) -> CGFloat {
        abs(unitToTexel.m11 * unitToTexel.m22 - unitToTexel.m12 * unitToTexel.m21)
    }

    /// `chooseFilter` from the layer's filters and the texture's `texelArea`: what a leaf whose quads follow its node
    /// values (`NodeChange.remap`) keeps, rather than reading its layer each frame.
    static func chooseFilter(unitToTarget h: Matrix3, texelArea: CGFloat, minification: Filter, magnification: Filter,
                             bias: Float) -> (Filter, Float) {
        let centre = CGPoint(x: 0.5, y: 0.5)
        // The Jacobian of unit -> target at the centre (projective: divide by w).
        let p = h.apply(centre)
        let dx = h.apply(CGPoint(x: 0.5 + 1e-3, y: 0.5)), dy = h.apply(CGPoint(x: 0.5, y: 0.5 + 1e-3))
        guard p.w > 0, dx.w > 0, dy.w > 0 else {
            return (magnification == .trilinear ? .linear : magnification, 0)
        }
        let c = p.projected, ex = dx.projected, ey = dy.projected
        let targetArea = abs((ex.x - c.x) * (ey.y - c.y) - (ex.y - c.y) * (ey.x - c.x)) / 1e-6
        if texelArea > targetArea * (1 + 1e-9) {
            guard minification == .trilinear else { return (minification, 0) }
            let lod = Float(0.5 * log2(texelArea / targetArea)) + bias
            return (.trilinear, lod.isFinite ? lod : 0)
        }
        return (magnification == .trilinear ? .linear : magnification, 0)
    }
}

extension Array where Element == Quad {
    /// Appends `quad` unless a number placing it overflowed (docs/semantics.md, "Numbers"): such a quad lies beyond
    /// the range of doubles, where no target reaches, so leaving it out is what drawing it would show.
    mutating func appendDrawable(_ quad: Quad) {
        if quad.hasFiniteGeometry { append(quad) }
    }
}

let unitCorners = [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1), CGPoint(x: 0, y: 1)]

extension Renderer {
    /// Draws a frame of `root` at `scale` (output pixels per point), an image of round(root.bounds.size x scale)
    /// pixels, at media time `time` (nil: `currentMediaTime()`, a live frame): commits every thread's implicit
    /// transaction, draws the marked layers, snapshots the committed tree, applies every animation at that time and
    /// plans the result with this renderer's own `PlanCache` (so an unchanged subtree is not planned again), then
    /// renders the plan. The picture depends only on the model and the time, so frames may be drawn in any order.
    ///
    /// Frames are live (docs/architecture.md, "Damage"): the renderer keeps the images it returned and, once the
    /// caller lets one go, draws a later frame into it, redrawing only the pixels that changed since (the plan's
    /// damage). An image the caller still holds is never written again. `statistics.damagedShare` says how much of
    /// the frame was redrawn.
    public func render(_ root: Layer, scale: CGFloat = 1, at time: Double? = nil, limits: PixelLimits = .default)
        throws -> Image
    {
        let plan = try plan(root, scale: scale, at: time, limits: limits)
        return try retainedFrames(for: root).render(plan, with: self)
    }

    /// The frames this renderer keeps for the tree of `root` (`render(_:scale:at:limits:)`): those of the four trees
    /// drawn last are kept, so that a renderer drawing many trees in turn does not hold a frame of each.
    public func retainedFrames(for root: Layer) -> RetainedFrames {
        caches.slot("LaminaLayers.RetainedFrames") { RecentTrees<RetainedFrames>(limit: 4) }.value(for: root.id) {
            RetainedFrames()
        }
    }

    /// The plan of a frame of `root`, made as `render(_:scale:at:limits:)` makes it (with this renderer's cache).
    public func plan(_ root: Layer, scale: CGFloat = 1, at time: Double? = nil, limits: PixelLimits = .default)
        throws -> RenderPlan
    {
        try FramePipeline(root: root, renderer: self, scale: scale, limits: limits).frame(at: time).plan
    }

    /// The plan of a live frame shown at `time` on a display's clock (which a player may seek back): as
    /// `plan(_:scale:at:limits:)`, and finished animations come off their layers as at a frame of now. `animated`
    /// says whether any animation is left in the tree, or tiles of a tiled layer are being drawn or fading in (so more
    /// frames are needed even with nothing changed). Tiled layers do not wait for their tiles (docs/semantics.md,
    /// "Tiled layers").
    public func livePlan(_ root: Layer, scale: CGFloat, at time: Double, limits: PixelLimits = .default)
        throws -> (plan: RenderPlan, animated: Bool)
    {
        let frame = try FramePipeline(root: root, renderer: self, scale: scale, limits: limits).frame(at: time, live: true)
        return (frame.plan, frame.animated)
    }

    /// A planner whose rasterized layers (shouldRasterize) are drawn by this renderer.
    public func rasterizingPlanner(scale: CGFloat, limits: PixelLimits = .default) -> Planner {
        var planner = Planner(scale: scale, limits: limits)
        planner.rasterizer = { [unowned self] plan in try self.render(plan) }
        planner.memoryBudget = memoryBudget
        return planner
    }

    /// The planner's cache this renderer keeps for the tree of `root`.
    public func planCache(for root: Layer) -> PlanCache {
        PlanCache.of(self, root: root.id)
    }
}

