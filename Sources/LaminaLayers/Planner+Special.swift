import Foundation
import LaminaCore
import LaminaDrawing

// Specialised layers in the planner (docs/semantics.md, "Specialised layers"): a gradient, shape or text layer paints
// a picture made at the density it is shown at, as one texture quad, so both renderers draw the same pixels; a
// replicator plans its sublayers once per instance, each with its own transform, colour and time.

extension Planner {
    /// The most instances a replicator draws: more would only make plans no renderer can finish (a documented limit).
    static let mostInstances = 10_000

    /// The picture a gradient, shape or text layer paints in place of contents, as a texture quad: made (or taken from
    /// the cache) at the density the layer is shown at, so it is as sharp at scale 2 or under a scale transform as at
    /// scale 1. A gradient is clipped to the rounded bounds; a shape or text is clipped to the bounds (rounded) only
    /// with masksToBounds, as contents are. `shaped`: false when an enclosing group applies the rounded corners.
    /// Returns true when what it planned depends on where the layer lies in the target, which is whenever it got as
    /// far as asking what can be seen: a picture cut to that part, none where none can be, and a whole picture too,
    /// since moved partly out of view it would be cut (such a layer's quads must not be moved with it).
    @discardableResult
    func emitPicture(
        _ layer: LayerSnapshot, layerToTarget: Matrix3, opacity: Float, clip: ConvexPolygon?, shaped: Bool,
        target: (width: Int, height: Int), into quads: inout [Quad]
    ) throws -> Bool {
        let special = layer.state.special
        let bounds = layer.bounds
        let area: CGRect
        var keyBounds = bounds
        var prepared: PreparedShape?
        switch special {
        case .none, .replicator, .emitter, .transform, .scroll:
            return false
        case .tiled(let style):
            try emitTiles(layer, style, layerToTarget: layerToTarget, opacity: opacity, clip: clip, shaped: shaped,
                          target: target, into: &quads)
            return false
        case .gradient, .text:
            guard bounds.width > 0, bounds.height > 0 else { return false }
            area = bounds
        case .shape(let style):
            prepared = pictures.map { $0.preparedShape(style, for: layer.id) } ?? style.prepared()
            guard let painted = prepared?.paintedBounds else { return false }
            area = painted
            // A shape's picture does not depend on the bounds.
            keyBounds = .zero
        case .drawing(let drawing):
            // Nor does a drawing's.
            guard let painted = pictures.map({ $0.drawingBounds(drawing, for: layer.id) }) ?? drawing.paintedBounds
            else { return false }
            area = painted
            keyBounds = .zero
        }
        // Of a layer larger than the target only what can be seen is made (a 10,000-point shape on a small screen).
        var visible = Self.visibleArea(layerToTarget, width: target.width, height: target.height)
        if let seen = visible, seen.contains(area) { visible = nil }
        guard let shown = VectorPicture.area(area, within: visible),
              let density = Self.pictureDensity(layerToTarget, area: shown) else { return true }
        let limits = self.limits
        let budget = memoryBudget
        let make = { () throws -> VectorPicture? in
            // Reserved before the picture is made, held by its image (Planner+Budget.swift).
            let held = try Self.reservePicture(special, layer: layer, shown: shown, density: density, limits: limits,
                                               budget: budget)
            let picture: VectorPicture? = switch special {
            case .gradient(let style): try style.picture(bounds: bounds, density: density, visible: visible, limits: limits)
            case .shape: try prepared?.picture(density: density, visible: visible, limits: limits)
            case .text(let style): try style.picture(bounds: bounds, density: density, visible: visible, limits: limits)
            case .drawing(let drawing): try drawing.picture(density: density, visible: visible, limits: limits)
            case .none, .replicator, .tiled, .emitter, .transform, .scroll: nil
            }
            picture?.image.memoryReservation = held
            return picture
        }
        let picture: VectorPicture?
        do {
            let key = VectorPictureCache.Key(special: special, bounds: keyBounds, density: density, visible: visible)
            picture = try pictures.map { try $0.picture(for: layer.id, key: key, make: make) } ?? make()
        } catch let error as MemoryLimitError {
            throw error
        } catch {
            throw PlanError.drawingFailed("\(layer.debugName): cannot draw its \(special.typeName): \(error)")
        }
        guard let picture else { return true }
        guard let pictureClip = Self.contentsClip(layer, layerToTarget: layerToTarget, clip: clip) else {
            return true
        }
        let rounded = shaped ? layer.roundedBounds.map { CoverageShape(toTarget: layerToTarget, outer: $0) } : nil
        var shape = layer.masksToBounds ? rounded : nil
        var edges: QuadEdges = []
        if case .gradient = special {
            // A gradient takes the background's shape: rounded by cornerRadius without masksToBounds.
            shape = rounded
            if layer.allowsEdgeAntialiasing, rounded == nil { edges = .all }
        }
        let (w, h) = (picture.image.width, picture.image.height)
        quads.appendDrawable(Quad(
            unitToTarget: Matrix3.unitSquare(to: picture.rect).concatenating(layerToTarget),
            paint: .texture(TextureSource(
                image: picture.image, unitToTexel: .scale(CGFloat(w), CGFloat(h)),
                clamp: TexelRect(x0: 0, y0: 0, x1: w, y1: h), filter: .linear)),
            opacity: opacity, clip: pictureClip, antialiasedEdges: edges, shape: shape, layerName: layer.name,
            layerID: layer.id))
        return true
    }

    /// Pixels per point at which a layer mapped by `layerToTarget` is shown: the longer of its two axes' lengths on
    /// screen at the centre of `area`, rounded up to 1/16 (so a picture is made again only when the density changes
    /// by that much) and lowered where the picture would pass 8,192 pixels a side. nil when the layer is not on
    /// screen (degenerate or beyond the horizon).
    static func pictureDensity(_ layerToTarget: Matrix3, area: CGRect) -> CGFloat? {
        guard let j = jacobian(layerToTarget, at: CGPoint(x: area.midX, y: area.midY)) else { return nil }
        let raw = max((j.a * j.a + j.b * j.b).squareRoot(), (j.c * j.c + j.d * j.d).squareRoot())
        guard raw.isFinite, raw > 0 else { return nil }
        var density = max((raw * 16 - 1e-6).rounded(.up) / 16, 1.0 / 16)
        let longest = max(area.width, area.height)
        if longest * density > 8192 { density = max(8192 / longest, 1e-6) }
        return density
    }

    /// The part of a layer's space that can be seen in a target of `width` x `height` pixels (with a margin of 2
    /// pixels for filtering and antialiasing): the target's corners mapped back, for an affine map; nil for a
    /// projective or singular one (then the whole of what the layer paints is made).
    static func visibleArea(_ layerToTarget: Matrix3, width: Int, height: Int) -> CGRect? {
        guard layerToTarget.isAffine, let back = layerToTarget.inverted else { return nil }
        let corners = [CGPoint(x: -2, y: -2), CGPoint(x: CGFloat(width) + 2, y: -2),
                       CGPoint(x: CGFloat(width) + 2, y: CGFloat(height) + 2), CGPoint(x: -2, y: CGFloat(height) + 2)]
        let points = corners.map { back.apply($0).projected }
        let xs = points.map(\.x), ys = points.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(),
              [x0, x1, y0, y1].allSatisfy(\.isFinite) else { return nil }
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Plans a replicator's sublayers once per instance (docs/semantics.md, "Replicator layers"), instance 0 first:
    /// instance i in the sublayer space of instanceTransform applied i times about the anchor point and then the
    /// layer's own sublayerTransform; a tinted instance becomes a group multiplied by its colour; with instanceDelay,
    /// instance i's sublayers as the presentation made them at its own time. Each instance is planned on its own (as
    /// a piece of a transition is), so the plan cache never confuses one instance of a layer with another.
    func planInstances(
        _ layer: LayerSnapshot, _ style: ReplicatorStyle, layerToTarget: Matrix3, opacity: Float,
        clip: ConvexPolygon?, into plan: inout RenderPlan, run: PlanRun
    ) throws {
        let count = min(max(style.instanceCount, 0), Self.mostInstances)
        guard count > 0, !layer.sublayers.isEmpty else { return }
        let anchor = layer.anchorInLayer
        let step = style.instanceTransform.isIdentity ? Transform3D.identity
            : Transform3D(translationX: -anchor.x, y: -anchor.y)
                .concatenating(style.instanceTransform)
                .concatenating(Transform3D(translationX: anchor.x, y: anchor.y))
        let sublayerSpace = layer.sublayerTransformAboutAnchor
        let delayed = layer.effects?.instanceSublayers
        var instance = Transform3D.identity
        for index in 0..<count {
            if index > 0 { instance = instance.concatenating(step) }
            let space = instance.concatenating(sublayerSpace)
            let children = index > 0 && index - 1 < (delayed?.count ?? 0) ? delayed![index - 1] : layer.sublayers
            let start = plan.quads.count
            for child in paintOrder(children, zPosition: \.state.zPosition) {
                let toTarget = child.mapToSuperlayer(sublayerSpace: space).concatenating(layerToTarget)
                guard toTarget.isFinite else { continue }
                let piece = try self.plan(child, rootToTarget: toTarget, width: plan.width, height: plan.height,
                                          silhouette: false, run: PlanRun(cache: nil), rootOpacity: opacity,
                                          rootClip: clip, caching: false)
                let offset = plan.quads.count
                plan.quads.append(contentsOf: piece.quads)
                plan.groups.append(contentsOf: piece.groups.map { $0.shifted(by: offset) })
            }
            run.statistics.layersPlanned += 1
            let color = style.color(ofInstance: index)
            guard color != .white, plan.quads.count > start else { continue }
            // A clear instance paints nothing; so does one that lies beyond the target, which is a decision
            // against the target's pixels, as its group's bounds are: its quads must not be moved with the layer.
            if color.alpha > 0 { run.fixedDecisions += 1 }
            guard color.alpha > 0,
                let bounds = Self.bounds(of: plan.quads[start...], width: plan.width, height: plan.height)
            else {
                plan.groups.removeAll { $0.range.lowerBound >= start }
                plan.quads.removeSubrange(start...)
                continue
            }
            plan.groups.append(PlanGroup(range: start..<plan.quads.count, opacity: 1, bounds: bounds, tint: color))
        }
    }
}

extension SpecialContent {
    /// A gradient, shape, text or tiled layer: it paints a picture (or tiles) in place of contents.
    var paintsPicture: Bool {
        switch self {
        case .gradient, .shape, .text, .tiled, .drawing: true
        case .none, .replicator, .emitter, .transform, .scroll: false
        }
    }
}
