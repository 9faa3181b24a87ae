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
    /// A replicator with instanceDelay: the sublayers of instances 1, 2, ... as presented at their own times
    /// (t - i x instanceDelay); nil when every instance sees the same time.
    public var instanceSublayers: [[LayerSnapshot]]?
    /// An emitter layer's local time: the particles it shows (docs/semantics.md, "Emitter layers"); nil for other
    /// layers.
    public var emitterTime: Double?
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
    /// An animation changed the picture the layer paints itself, not only its placement or its opacity.
    var pictureChanged = false

    init(_ state: LayerState) {
        self.state = state
    }

    /// Writes an animated value to its key path.
    mutating func write(_ value: AnimatedValue, to property: AnimatableProperty) {
        if !property.isPlacement {
            contentChanged = true
            if !property.fadesOnly { pictureChanged = true }
        }
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
        guard animatedSubtree, !time.isNaN else { return self }
        // Pre-order: each node after its superlayer, with its local time (layers never wrap their time), its
        // superlayer's entry and its place there (-1: the mask).
        var order: [(node: LayerSnapshot, local: Double, parent: Int, slot: Int)] = []
        var stack: [(LayerSnapshot, Double, Int, Int)] = [(self, time, -1, 0)]
        while let (node, parentTime, parent, slot) = stack.popLast() {
            let local = node.state.timing.localTime(parent: parentTime)
            let index = order.count
            order.append((node, local, parent, slot))
            for (position, child) in node.sublayers.enumerated() where child.animatedSubtree {
                stack.append((child, local, index, position))
            }
            if let mask = node.mask, mask.animatedSubtree { stack.append((mask, local, index, -1)) }
        }
        // Every node's own animations, applied (on all cores for a large tree: each node's work is its own), each
        // changed node made with its old sublayers; a node whose sublayers changed is made again below.
        let made = Self.evaluate(order.map { ($0.node, $0.local) }, stamp: stamp, events: &events)
        // Bottom-up: a node's presented sublayers are written into its entry by its children, which come after it.
        var children: [[LayerSnapshot]?] = Array(repeating: nil, count: order.count)
        var masks: [LayerSnapshot?] = Array(repeating: nil, count: order.count)
        var result = self
        for index in order.indices.reversed() {
            let (node, local, parent, slot) = order[index]
            var presented = made[index] ?? node
            if children[index] != nil || masks[index] != nil {
                presented = LayerSnapshot(
                    id: node.id, state: presented.state,
                    sublayers: children[index].map(SnapshotChildren.init) ?? node.sharedChildren,
                    mask: masks[index] ?? node.mask, contentVersion: stamp, ownVersion: presented.ownVersion,
                    pictureVersion: presented.pictureVersion, effects: presented.effects)
            }
            if let delayed = node.delayedInstances(presentedState: presented.state, at: local, stamp: stamp) {
                var effects = presented.effects ?? PresentationEffects()
                effects.instanceSublayers = delayed
                presented = LayerSnapshot(id: node.id, state: presented.state, sublayers: presented.sharedChildren,
                                          mask: presented.mask, contentVersion: stamp, ownVersion: stamp,
                                          effects: effects)
            }
            if presented.state.special.emits {
                // An emitter's particles are those of its local time: a new picture at every time.
                var effects = presented.effects ?? PresentationEffects()
                effects.emitterTime = local
                presented = LayerSnapshot(id: node.id, state: presented.state, sublayers: presented.sharedChildren,
                                          mask: presented.mask, contentVersion: stamp, ownVersion: stamp,
                                          effects: effects)
            }
            guard parent >= 0 else {
                result = presented
                continue
            }
            guard presented !== node else { continue }
            if slot < 0 {
                masks[parent] = presented
            } else {
                if children[parent] == nil { children[parent] = order[parent].node.sublayers }
                children[parent]![slot] = presented
            }
        }
        return result
    }

    /// Applies each node's animations at its local time, in the order given: the node made anew where an animation
    /// had an effect (with its old sublayers, and `stamp` as its version where its own content changed), nil where
    /// none had; and the events met. Trees of a few hundred animated nodes or more are split among the cores
    /// (`evaluationChunks`); the result is the same either way.
    private static func evaluate(_ nodes: [(LayerSnapshot, Double)], stamp: UInt64, events: inout [AnimationEvent])
        -> [LayerSnapshot?]
    {
        let count = nodes.count
        let work = EvaluationBuffers(nodes: nodes, stamp: stamp, chunks: evaluationChunks(count))
        defer { work.free() }
        if work.chunks <= 1 {
            work.run(0..<count, chunk: 0)
        } else {
            let size = (count + work.chunks - 1) / work.chunks
            DispatchQueue.concurrentPerform(iterations: work.chunks) { chunk in
                let range = (chunk * size)..<min((chunk + 1) * size, count)
                if !range.isEmpty { work.run(range, chunk: chunk) }
            }
        }
        for chunk in 0..<work.chunks { events += work.events[chunk] }
        return Array(UnsafeBufferPointer(start: work.results, count: count))
    }
}

/// The buffers of one evaluation: each chunk writes its own range of results and its own list of events, so the
/// chunks share nothing they write.
private struct EvaluationBuffers: @unchecked Sendable {
    let nodes: [(LayerSnapshot, Double)]
    let stamp: UInt64
    let chunks: Int
    let results: UnsafeMutablePointer<LayerSnapshot?>
    let events: UnsafeMutablePointer<[AnimationEvent]>

    init(nodes: [(LayerSnapshot, Double)], stamp: UInt64, chunks: Int) {
        self.nodes = nodes
        self.stamp = stamp
        self.chunks = chunks
        results = .allocate(capacity: max(nodes.count, 1))
        events = .allocate(capacity: chunks)
        events.initialize(repeating: [], count: chunks)
    }

    func run(_ range: Range<Int>, chunk: Int) {
        for index in range {
            let (node, local) = nodes[index]
            var presented = PresentedState(node.state)
            var applied = false
            for attached in node.state.animations {
                let animation = attached.animation
                if !animation.isRemovedAfterEnd(at: local),
                    animation.apply(to: &presented, model: node.state, time: local)
                {
                    applied = true
                }
                // Events only where someone listens: a delegate, a completion block, or a removal to make.
                let timing = animation.timing
                if animation.delegate != nil, timing.hasStarted(parent: local) {
                    events[chunk].append(AnimationEvent(kind: .started, attached: attached))
                }
                // A finished one whose stop was told and that stays on its layer (held by its fill) has nothing
                // more to tell: it is not listed again at every frame.
                if timing.activeDuration.isFinite, timing.isFinished(parent: local),
                    animation.isRemovedOnCompletion || !attached.events.isStopped
                {
                    events[chunk].append(AnimationEvent(kind: .finished, attached: attached))
                }
            }
            guard applied else {
                (results + index).initialize(to: nil)
                continue
            }
            let version = presented.contentChanged || presented.hasEffects ? stamp : node.contentVersion
            let effects = presented.hasEffects ? presented.effects : nil
            (results + index).initialize(to: LayerSnapshot(
                id: node.id, state: presented.state, sublayers: node.sharedChildren, mask: node.mask,
                contentVersion: version,
                ownVersion: presented.contentChanged || presented.hasEffects ? stamp : node.ownVersion,
                pictureVersion: presented.pictureChanged || presented.hasEffects ? stamp : node.pictureVersion,
                effects: effects))
        }
    }

    /// Frees the buffers (every result has been written by then).
    func free() {
        results.deinitialize(count: nodes.count)
        results.deallocate()
        events.deinitialize(count: chunks)
        events.deallocate()
    }
}

extension LayerSnapshot {
    /// For a replicator with instanceDelay whose sublayers animate: the committed sublayers presented at each later
    /// instance's own time, local - i x instanceDelay (docs/semantics.md, "Replicator layers"); nil otherwise. Their
    /// animation events are not reported again: instance 0's are the layers' own.
    func delayedInstances(presentedState state: LayerState, at local: Double, stamp: UInt64) -> [[LayerSnapshot]]? {
        guard let style = state.replicator, style.instanceDelay != 0, style.instanceDelay.isFinite,
            sublayers.contains(where: { $0.animatedSubtree })
        else { return nil }
        let count = min(max(style.instanceCount, 0), Planner.mostInstances)
        guard count > 1 else { return nil }
        var ignored: [AnimationEvent] = []
        return (1..<count).map { index in
            let time = local - Double(index) * style.instanceDelay
            return sublayers.map { $0.presented(at: time, stamp: stamp, events: &ignored) }
        }
    }
}

extension LayerSnapshot {
    /// The animated nodes each chunk of a frame's evaluation takes at least: about 0.1 to 0.2 ms of work, so that a
    /// chunk outweighs handing it to another core.
    static let evaluationChunkMinimum = 128

    /// How many chunks a frame's animations of `count` nodes are evaluated in, one per core at most (the presentation
    /// and animated node values alike): 1 below two chunks' worth
    /// (docs/benchmarks.md, "Animations evaluated on every core (2026-11-27)").
    static func evaluationChunks(_ count: Int, minimum: Int = evaluationChunkMinimum) -> Int {
        min(Processors.active, 16, max(1, count / minimum))
    }

    /// The nodes each chunk of an animated node frame takes at least (its evaluation, then its changes): a node
    /// costs a fraction of a presented one (about 0.3 microseconds), and handing work to another core costs about as
    /// much as 1,000 of them here, so `animated-1k` is faster on one core (docs/benchmarks.md, "Animations resolved
    /// for their nodes (2026-11-28)").
    static let nodeFrameChunkMinimum = 512
}
