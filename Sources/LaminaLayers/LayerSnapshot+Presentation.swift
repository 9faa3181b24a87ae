import Foundation
import LaminaCore

/// What an animation makes a layer draw that its properties cannot say.
public struct PresentationEffects: @unchecked Sendable {
    /// Contents on their way from `from` to the layer's contents: the picture is (1 - progress) · from +
    /// progress · contents, each laid out as the layer lays out its contents.
    public var dissolveFrom: Image?
    public var dissolveProgress: Double = 0
    /// A transition running on the layer: the picture of the subtree before the change, and how far along it is.
    public var transition: TransitionFrame?
}

/// One frame of a transition: the layer's subtree as it was before the change, the transition's kind and its
/// progress (eased).
public struct TransitionFrame: @unchecked Sendable {
    public var old: LayerSnapshot
    public var type: Transition.Kind
    public var subtype: Transition.Subtype?
    public var progress: Double
}

/// A layer's state while its animations are applied, one after another, at one time.
struct PresentedState {
    var state: LayerState
    var effects = PresentationEffects()
    var hasEffects = false
    /// An animation changed something the layer's own subtree paints (not only its placement in the superlayer).
    var contentChanged = false

    init(_ state: LayerState) {
        self.state = state
    }

    /// Writes an animated value to its key path.
    mutating func write(_ value: AnimatedValue, to property: AnimatableProperty) {
        if !property.isPlacement { contentChanged = true }
        if case .dissolve(let from, let to, let progress) = value {
            property.set(&state, .image(to))
            effects.dissolveFrom = from
            effects.dissolveProgress = progress
            hasEffects = true
            return
        }
        if property.kind == .image { effects.dissolveFrom = nil }
        property.set(&state, value)
    }
}

extension AnimatableProperty {
    /// Key paths that only place the layer in its superlayer: animating them changes the superlayer's picture, not
    /// the layer's own subtree's (so its plan can be moved instead of made again).
    var isPlacement: Bool {
        keyPath.hasPrefix("position") || keyPath.hasPrefix("anchorPoint") || keyPath.hasPrefix("zPosition")
            || keyPath == "transform" || keyPath.hasPrefix("transform.")
    }
}

/// Something that happened to an attached animation in a frame: its delegate and the transaction waiting for it
/// are told after the frame is made, outside every lock.
struct AnimationEvent {
    enum Kind { case started, finished }
    var kind: Kind
    var attached: AttachedAnimation
}

extension LayerSnapshot {
    /// This snapshot with every animation applied at time `time` (the media time for this node's superlayer:
    /// for a root, the frame's time). Nodes without animations below them are shared as they are; a presented node
    /// whose content changed gets the version `stamp`, so plan caches draw it again. Iterative, so any depth is fine.
    func presented(at time: Double, stamp: UInt64, events: inout [AnimationEvent]) -> LayerSnapshot {
        guard animatedSubtree, time.isFinite || time.isInfinite else { return self }
        // Pre-order: each node after its superlayer, with its local time (layers never wrap their time).
        var order: [(node: LayerSnapshot, local: Double)] = []
        var stack: [(LayerSnapshot, Double)] = [(self, time)]
        while let (node, parentTime) = stack.popLast() {
            let local = node.state.timing.localTime(parent: parentTime)
            order.append((node, local))
            for child in node.sublayers where child.animatedSubtree { stack.append((child, local)) }
            if let mask = node.mask, mask.animatedSubtree { stack.append((mask, local)) }
        }
        var built: [ObjectIdentifier: LayerSnapshot] = [:]
        for (node, local) in order.reversed() {
            var presented = PresentedState(node.state)
            var applied = false
            for attached in node.state.animations {
                let animation = attached.animation
                if animation.apply(to: &presented, model: node.state, time: local) { applied = true }
                if animation.timing.hasStarted(parent: local) {
                    events.append(AnimationEvent(kind: .started, attached: attached))
                }
                if animation.timing.activeDuration.isFinite, animation.timing.isFinished(parent: local) {
                    events.append(AnimationEvent(kind: .finished, attached: attached))
                }
            }
            var childrenChanged = false
            let sublayers = node.sublayers.map { child -> LayerSnapshot in
                guard let replaced = built[ObjectIdentifier(child)] else { return child }
                if replaced !== child { childrenChanged = true }
                return replaced
            }
            let mask = node.mask.map { built[ObjectIdentifier($0)] ?? $0 }
            if let mask, mask !== node.mask { childrenChanged = true }
            guard applied || childrenChanged else {
                built[ObjectIdentifier(node)] = node
                continue
            }
            let version = presented.contentChanged || childrenChanged || presented.hasEffects ? stamp : node.contentVersion
            built[ObjectIdentifier(node)] = LayerSnapshot(
                id: node.id, state: presented.state,
                sublayers: childrenChanged ? SnapshotChildren(sublayers) : node.sharedChildren, mask: mask,
                contentVersion: version, effects: presented.hasEffects ? presented.effects : nil)
        }
        return built[ObjectIdentifier(self)] ?? self
    }
}
