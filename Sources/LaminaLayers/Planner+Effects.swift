import Foundation
import LaminaCore

// What animations draw that layer properties cannot say (docs/animation.md, "Cross-dissolves and transitions"): a
// cross-dissolve of contents, and the transitions between two pictures of a subtree. A dissolve is an offscreen
// group holding the old picture at 1 - p (source-over onto the group's transparent buffer) and the new one at p
// composited with `.plus`, so the group is exactly (1 - p) · old + p · new: two opaque pictures stay opaque.

extension Planner {
    /// The layer's background, then its contents dissolving from `effects.dissolveFrom` to its contents.
    func emitDissolve(
        _ layer: LayerSnapshot, effects: PresentationEffects, layerToTarget: Matrix3, opacity: Float,
        clip: ConvexPolygon?, shaped: Bool, into plan: inout RenderPlan, run: PlanRun
    ) {
        var background = layer.state
        background.contents = nil
        emit(layer.replacingState(background), layerToTarget: layerToTarget, opacity: opacity, clip: clip,
             shaped: shaped, into: &plan.quads)
        var contentsOnly = layer.state
        contentsOnly.backgroundColor = nil
        contentsOnly.contents = effects.dissolveFrom
        let start = plan.quads.count
        emit(layer.replacingState(contentsOnly), layerToTarget: layerToTarget, opacity: 1, clip: clip, shaped: shaped,
             into: &plan.quads)
        let split = plan.quads.count
        contentsOnly.contents = layer.contents
        emit(layer.replacingState(contentsOnly), layerToTarget: layerToTarget, opacity: 1, clip: clip, shaped: shaped,
             into: &plan.quads)
        closeDissolve(start: start, split: split, progress: effects.dissolveProgress, opacity: opacity, plan: &plan,
                      run: run)
    }

    /// Plans a layer under a transition: the picture of its subtree before the change (`transition.old`) and after
    /// it (the layer itself), each planned on its own (nothing of them is reused or kept: the old picture shares
    /// the layer's identity), placed and mixed as the transition's type says.
    func planTransition(_ transition: TransitionFrame, visit: Visit, into plan: inout RenderPlan, run: PlanRun) throws {
        let layer = visit.layer
        var effects = layer.effects
        effects?.transition = nil
        let new = LayerSnapshot(id: layer.id, state: layer.state, sublayers: layer.sharedChildren, mask: layer.mask,
                                contentVersion: layer.contentVersion, effects: effects)
        let old = transition.old
        let p = transition.progress
        // The distance a sliding picture travels: the layer's width or height, in its own space.
        let direction = (transition.subtype ?? .fromLeft).direction
        let span = direction.x != 0 ? layer.bounds.width : layer.bounds.height
        func offset(_ fraction: Double) -> Matrix3 {
            let d = CGFloat(fraction) * span
            return Matrix3.translation(direction.x * d, direction.y * d)
        }
        // Pictures in drawing order, each with its offset (as a fraction of the span) and opacity.
        let pieces: [(LayerSnapshot, Double)]
        switch transition.type {
        case .fade: pieces = [(old, 0), (new, 0)]
        case .moveIn: pieces = [(old, 0), (new, p - 1)]
        case .push: pieces = [(old, p), (new, p - 1)]
        case .reveal: pieces = [(new, 0), (old, p)]
        }
        let fade = transition.type == .fade
        let start = plan.quads.count
        var split = start
        for (index, (picture, fraction)) in pieces.enumerated() {
            if index == 1 { split = plan.quads.count }
            let toTarget = offset(fraction).concatenating(visit.layerToTarget)
            let piece = try self.plan(picture, rootToTarget: toTarget, width: plan.width, height: plan.height,
                                      silhouette: false, run: PlanRun(cache: nil),
                                      rootOpacity: fade ? 1 : visit.opacity, rootClip: visit.clip, caching: false)
            let offset = plan.quads.count
            plan.quads.append(contentsOf: piece.quads)
            plan.groups.append(contentsOf: piece.groups.map { $0.shifted(by: offset) })
        }
        run.statistics.layersPlanned += 1
        if fade {
            closeDissolve(start: start, split: split, progress: p, opacity: visit.opacity, plan: &plan, run: run)
        }
    }

    /// Makes the groups of a dissolve: the quads from `start` to `split` are the old picture, from `split` to the
    /// end the new; the whole is faded by `opacity`.
    private func closeDissolve(start: Int, split: Int, progress p: Double, opacity: Float, plan: inout RenderPlan,
                               run: PlanRun) {
        guard plan.quads.count > start,
            let bounds = Self.bounds(of: plan.quads[start..<plan.quads.count], width: plan.width, height: plan.height)
        else { return }
        if plan.quads.count > split {
            // A transparent pixel closes the new picture, so that its plus group is longer than any group inside
            // it: groups of equal ranges would nest in an order of their own, and the plus must be the outer one.
            plan.quads.append(Quad(
                unitToTarget: Matrix3.unitSquare(to: CGRect(x: bounds.x0, y: bounds.y0, width: 1, height: 1)),
                paint: .solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)), opacity: 0))
        }
        let end = plan.quads.count
        run.fixedDecisions += 1
        plan.groups.append(PlanGroup(range: start..<end, opacity: opacity, bounds: bounds))
        if split > start, let old = Self.bounds(of: plan.quads[start..<split], width: plan.width, height: plan.height) {
            plan.groups.append(PlanGroup(range: start..<split, opacity: Float(1 - p), bounds: old))
        }
        if end > split, let new = Self.bounds(of: plan.quads[split..<end], width: plan.width, height: plan.height) {
            plan.groups.append(PlanGroup(range: split..<end, opacity: Float(p), bounds: new, composite: .plus))
        }
    }
}

extension LayerSnapshot {
    /// This node with another state (and no effects), sharing its sublayers and mask: a piece of a picture.
    func replacingState(_ state: LayerState) -> LayerSnapshot {
        LayerSnapshot(id: id, state: state, sublayers: sharedChildren, mask: mask, contentVersion: contentVersion)
    }
}
