import Foundation
import LaminaCore

/// Core Animation's CAAnimationGroup: animations that run together on the group's local time. Each keeps its own
/// timing within the group; all of them stop affecting the layer at the group's end (fills past it follow the
/// group's fillMode). The group's timing function is not applied to its animations, as in Core Animation.
open class AnimationGroup: Animation, @unchecked Sendable {
    /// The grouped animations, applied in order (a later one on the same key path replaces or adds to an earlier).
    public var animations: [Animation]?

    open override func copy() -> Animation {
        let copy = AnimationGroup()
        copy.copyAnimationProperties(from: self)
        copy.animations = animations?.map { $0.copy() }
        return copy
    }

    override func apply(to state: inout PresentedState, model: LayerState, time: Double) -> Bool {
        guard let phase = timing.phase(parent: time), let animations else { return false }
        var applied = false
        for animation in animations where animation.apply(to: &state, model: model, time: phase.time) {
            applied = true
        }
        return applied
    }

    override func apply(to placement: inout NodePlacement, model: NodePlacement, time: Double) -> Bool {
        guard let phase = timing.phase(parent: time), let animations else { return false }
        var applied = false
        for animation in animations where animation.apply(to: &placement, model: model, time: phase.time) {
            applied = true
        }
        return applied
    }
}

/// Core Animation's CATransition: added to a layer in the same transaction as a change to its contents,
/// sublayers or appearance, it animates from a picture of the layer's subtree before the change to the picture
/// after it. Linear unless it has a timing function of its own.
open class Transition: Animation, @unchecked Sendable {
    /// How the new picture replaces the old (CATransitionType).
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// The old picture cross-dissolves into the new (two opaque pictures stay opaque).
        case fade
        /// The new picture slides in over the old.
        case moveIn
        /// The new picture pushes the old one out.
        case push
        /// The old picture slides off, uncovering the new.
        case reveal
    }

    /// Where the motion of moveIn, push and reveal comes from (CATransitionSubtype); top is the top of the screen.
    public enum Subtype: String, CaseIterable, Hashable, Sendable {
        case fromLeft, fromRight, fromTop, fromBottom

        /// The unit direction of the motion, in the layer's space (y down).
        public var direction: CGPoint {
            switch self {
            case .fromLeft: CGPoint(x: 1, y: 0)
            case .fromRight: CGPoint(x: -1, y: 0)
            case .fromTop: CGPoint(x: 0, y: 1)
            case .fromBottom: CGPoint(x: 0, y: -1)
            }
        }
    }

    /// fade by default.
    public var type: Kind = .fade
    /// nil: fromLeft.
    public var subtype: Subtype?
    /// The part of the transition played, from startProgress to endProgress (0 and 1 by default).
    public var startProgress: Float = 0
    public var endProgress: Float = 1

    open override func copy() -> Animation {
        let copy = Transition()
        copy.copyAnimationProperties(from: self)
        copy.type = type
        copy.subtype = subtype
        copy.startProgress = startProgress
        copy.endProgress = endProgress
        return copy
    }

    override func apply(to state: inout PresentedState, model: LayerState, time: Double) -> Bool {
        guard let phase = timing.phase(parent: time), let old = before else { return false }
        let eased = timingFunction?.evaluate(phase.progress) ?? phase.progress
        let (start, end) = (Double(startProgress), Double(endProgress))
        let progress = min(max(start + (end - start) * eased, 0), 1)
        state.effects.transition = TransitionFrame(old: old, type: type, subtype: subtype, progress: progress)
        state.hasEffects = true
        state.contentChanged = true
        return true
    }

    /// The layer's subtree as committed before the transaction that added this transition (set once, by that
    /// commit, under the model lock); nil until then, or when the layer was never committed (nothing to leave).
    var before: LayerSnapshot?
}

extension Animation {
    /// Whether the animation (or one of a group's) animates one of `keys` (a key path's first component).
    func animatesKey(in keys: Set<String>) -> Bool {
        if let group = self as? AnimationGroup { return group.animations?.contains { $0.animatesKey(in: keys) } ?? false }
        guard let keyPath = (self as? PropertyAnimation)?.keyPath else { return false }
        return keys.contains(String(keyPath.prefix { $0 != "." }))
    }
}
