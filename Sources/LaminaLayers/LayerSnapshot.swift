import Foundation
import LaminaCore

/// The committed state of a layer and its subtree at one instant: an immutable value that a frame plans from,
/// whatever other threads do to the layers meanwhile. `Layer.presentationSnapshot()` returns one; renderers take one per
/// frame. Its properties have the layer's names (LayerSnapshot+Properties.swift).
///
/// Snapshots share structure: a new one is made only for the layers that changed since the last and their
/// ancestors, so taking a snapshot of an unchanged tree costs nothing and a changed one costs its changed paths.
@dynamicMemberLookup
public final class LayerSnapshot: @unchecked Sendable {
    /// The layer's identity.
    public let id: LayerID
    /// Every committed property.
    public let state: LayerState
    /// The committed sublayers' snapshots, in array order (not paint order).
    public var sublayers: [LayerSnapshot] { children.items }
    /// Shared with the next snapshot of this layer while its sublayers stay the same (a move makes a new node, not
    /// a new list); a box, so that a node let go can tell whether it held the last reference to the list.
    private var children: SnapshotChildren
    /// The committed mask's snapshot.
    public let mask: LayerSnapshot?
    /// Changes when anything this subtree paints in its own space changes; not when only its placement in the
    /// superlayer (position, anchorPoint, transform, zPosition) does. Plan caches key on it.
    public let contentVersion: UInt64
    /// Changes when what this layer paints itself changes: any field but its placement and its lists of sublayers
    /// and mask (a layer whose child moved keeps it). Plan caches patch such a layer's plan in place
    /// (Planner+Patch.swift).
    let ownVersion: UInt64
    /// Changes when the picture this layer paints itself changes before it is faded: `ownVersion` without `opacity`.
    /// A leaf whose picture version is the same is placed and faded anew without being planned again
    /// (Planner+NodeUpdate.swift).
    let pictureVersion: UInt64
    /// Something in this subtree has an animation attached, or is an emitter that makes particles: its
    /// presentation at a time differs from the committed state (LayerSnapshot+Presentation.swift).
    let animatedSubtree: Bool
    /// What an animation draws that a layer's properties cannot say (a cross-dissolve of contents, a transition);
    /// nil on committed snapshots.
    let effects: PresentationEffects?

    init(id: LayerID, state: LayerState, sublayers: SnapshotChildren, mask: LayerSnapshot?, contentVersion: UInt64,
         ownVersion: UInt64? = nil, pictureVersion: UInt64? = nil, effects: PresentationEffects? = nil) {
        self.id = id
        self.state = state
        self.children = sublayers
        self.mask = mask
        self.contentVersion = contentVersion
        self.ownVersion = ownVersion ?? contentVersion
        self.pictureVersion = pictureVersion ?? self.ownVersion
        self.effects = effects
        self.animatedSubtree = !state.animations.isEmpty || state.special.emits || (mask?.animatedSubtree ?? false)
            || sublayers.items.contains { $0.animatedSubtree }
    }

    /// The sublayers in paint order: ascending zPosition, ties in array order.
    public var sublayersInPaintOrder: [LayerSnapshot] { paintOrder(sublayers, zPosition: \.state.zPosition) }

    var debugName: String { state.debugName }

    /// Whether an animation is attached anywhere in the subtree (the mask's included).
    package var hasAnimationsInSubtree: Bool { animatedSubtree }

    /// The box of sublayers, to share with the next snapshot of the layer.
    var sharedChildren: SnapshotChildren { children }

    /// Releases `node` without recursion: a 10,000-level chain would overflow the stack.
    static func release(_ node: inout LayerSnapshot?) {
        guard var first = node else { return }
        node = nil
        guard isKnownUniquelyReferenced(&first) else { return }
        var pending = first.takeChildrenIfLast()
        while var next = pending.popLast() {
            if isKnownUniquelyReferenced(&next) { pending.append(contentsOf: next.takeChildrenIfLast()) }
        }
    }

    /// The sublayers, taken out of the node when it holds the last reference to their list (else none: another
    /// snapshot still holds them all, and letting this node go frees none of them).
    private func takeChildrenIfLast() -> [LayerSnapshot] {
        guard isKnownUniquelyReferenced(&children) else { return [] }
        defer { children.items = [] }
        return children.items
    }

    deinit {
        var pending = takeChildrenIfLast()
        while var child = pending.popLast() {
            if isKnownUniquelyReferenced(&child) { pending.append(contentsOf: child.takeChildrenIfLast()) }
        }
    }
}

/// The sublayers of a snapshot node, in a box several nodes of one layer may share.
final class SnapshotChildren: @unchecked Sendable {
    var items: [LayerSnapshot]

    init(_ items: [LayerSnapshot]) {
        self.items = items
    }
}

extension LayerSnapshot {
    // Geometry, as the layer's (Layer+Geometry.swift).
    public var anchorInLayer: CGPoint { state.anchorInLayer }
    public var frame: CGRect { state.frame }
    public var localToSuperlayer: Transform3D { state.localToSuperlayer }
    public var sublayerTransformAboutAnchor: Transform3D { state.sublayerTransformAboutAnchor }
    public var roundedBounds: RoundedRect? { state.roundedBounds }
}

extension Layer {
    /// The layer and its subtree as a frame now shows them (Core Animation's presentation layer): the committed
    /// state with every animation applied at `currentMediaTime()`; `presentationSnapshot(at:)` for any time. nil while the
    /// layer has never been committed: set a property and commit, or draw a frame.
    public func presentationSnapshot() -> LayerSnapshot? {
        presentationSnapshot(at: currentMediaTime())
    }

    /// The snapshot of the committed subtree: the kept one where nothing changed, else a new one that shares every
    /// unchanged subtree. Iterative (any depth). Model lock held.
    func snapshotLocked() -> LayerSnapshot {
        if !snapshotStale, let node = snapshotNode { return node }
        // Layers are walked unretained: the model lock is held and the committed tree, which nothing changes during
        // the walk, holds every layer it reaches. A layer that a transaction recorded has a side table (the record's
        // weak reference), so each retain and release of it takes the runtime's slow path: with 100,000 changed
        // sprites that was a third of the snapshot.
        var stack: [(layer: Unmanaged<Layer>, expanded: Bool)] = [(.passUnretained(self), false)]
        while let (handle, expanded) = stack.popLast() {
            handle._withUnsafeGuaranteedRef { layer in
                if !layer.snapshotStale, layer.snapshotNode != nil { return }
                if !expanded {
                    stack.append((handle, true))
                    layer.snapshotInProgress = true
                    if layer.childrenStale || layer.snapshotNode == nil {
                        if layer.committedSublayers.count >= Self.snapshotChunkMinimum * 2, Processors.active > 1 {
                            // Many sublayers: their changed leaves are made on every core, the rest walked here.
                            for child in layer.snapshotLeavesInChunks() { stack.append((child, false)) }
                            return
                        }
                        layer.forEachCommittedChild { child in
                            guard child.needsSnapshot else { return }
                            stack.append((.passUnretained(child), false))
                        }
                    }
                    return
                }
                layer.snapshotInProgress = false
                layer.makeSnapshotNode()
            }
        }
        return snapshotNode!
    }

    /// Whether the walk of `snapshotLocked` must visit this layer. A committed tree has no cycles unless transactions
    /// of two threads interleaved changes of one branch; a layer already being walked is left out rather than walked
    /// forever.
    private var needsSnapshot: Bool { needsSnapshotLocked && !snapshotInProgress }

    /// The layer's new snapshot node, from its committed state and its children's nodes (made before it). Model lock
    /// held; only this layer is changed.
    private func makeSnapshotNode() {
        let old = snapshotNode
        let sublayers: SnapshotChildren
        let mask: LayerSnapshot?
        if !childrenStale, let old {
            (sublayers, mask) = (old.sharedChildren, old.mask)
        } else {
            sublayers = SnapshotChildren(committedSublayers.compactMap { $0.snapshotInProgress ? nil : $0.snapshotNode })
            mask = committedMask.flatMap { $0.snapshotInProgress ? nil : $0.snapshotNode }
        }
        snapshotNode = LayerSnapshot(id: id, state: committed, sublayers: sublayers, mask: mask,
                                     contentVersion: contentVersion, ownVersion: ownVersion,
                                     pictureVersion: pictureVersion)
        snapshotStale = false
        childrenStale = false
    }

    /// The sublayers of a layer with at least this many twice are looked at in chunks on every core
    /// (`snapshotLeavesInChunks`): a new node costs about a microsecond (a copy of the layer's state), and handing
    /// work to another core costs about as much as a thousand of them.
    static let snapshotChunkMinimum = 1_024

    /// Makes the nodes of the committed sublayers that need one and have no committed sublayers or mask (leaves) in
    /// chunks on every core, and returns, in order, the other sublayers `snapshotLocked` must walk, then the mask.
    /// Model lock held, by the calling thread, which waits for the chunks: nothing else changes the layers. Each
    /// chunk changes only its own leaves: a committed list never holds a layer twice (it is the model's list at a
    /// commit), and a leaf has no sublayers to share with another branch.
    private func snapshotLeavesInChunks() -> [Unmanaged<Layer>] {
        var walked: [Unmanaged<Layer>] = []
        committedSublayers.withUnsafeBufferPointer { children in
            let chunks = LayerSnapshot.evaluationChunks(children.count, minimum: Self.snapshotChunkMinimum)
            let work = SnapshotChunks(children: children, chunks: chunks)
            DispatchQueue.concurrentPerform(iterations: chunks) { work.run(chunk: $0) }
            for chunk in work.walked { walked += chunk }
        }
        if let committedMask, committedMask.needsSnapshot { walked.append(.passUnretained(committedMask)) }
        return walked
    }

    /// Calls `body` with each committed sublayer, then the committed mask, read in place (not retained).
    private func forEachCommittedChild(_ body: (Layer) -> Void) {
        committedSublayers.withUnsafeBufferPointer { children in
            for index in children.indices { body(children[index]) }
        }
        if let committedMask { body(committedMask) }
    }

    private var needsSnapshotLocked: Bool { snapshotStale || snapshotNode == nil }

    /// One chunk's share of `snapshotLeavesInChunks`: its leaves given their nodes, the other sublayers to walk listed
    /// in order. Layers are read unretained, as `snapshotLocked` walks them (their retains take the runtime's slow
    /// path, and every core's would contend).
    private final class SnapshotChunks: @unchecked Sendable {
        let children: UnsafeBufferPointer<Layer>
        let size: Int
        /// Each chunk's list, written by the one worker that takes the chunk.
        let walked: UnsafeMutableBufferPointer<[Unmanaged<Layer>]>

        init(children: UnsafeBufferPointer<Layer>, chunks: Int) {
            self.children = children
            size = (children.count + chunks - 1) / chunks
            walked = .allocate(capacity: chunks)
            walked.initialize(repeating: [])
        }

        deinit {
            walked.deinitialize()
            walked.deallocate()
        }

        func run(chunk: Int) {
            var listed: [Unmanaged<Layer>] = []
            for index in chunk * size..<min(children.count, (chunk + 1) * size) {
                Unmanaged.passUnretained(children[index])._withUnsafeGuaranteedRef { child in
                    guard child.needsSnapshot else { return }
                    if child.committedSublayers.isEmpty, child.committedMask == nil {
                        child.makeSnapshotNode()
                    } else {
                        listed.append(.passUnretained(child))
                    }
                }
            }
            walked[chunk] = listed
        }
    }
}

/// Siblings in paint order, as the planner draws them and hit testing finds them: ascending zPosition, ties in
/// array order. The common case, all at one zPosition, is the array as it is.
func paintOrder<Item>(_ items: [Item], zPosition: (Item) -> CGFloat) -> [Item] {
    guard let first = items.first else { return [] }
    let z = zPosition(first)
    if items.allSatisfy({ zPosition($0) == z }) { return items }
    return items.enumerated().sorted {
        let (a, b) = (zPosition($0.element), zPosition($1.element))
        return a != b ? a < b : $0.offset < $1.offset
    }.map(\.element)
}
