import Foundation
import LaminaCore

// Animated node values (docs/architecture.md, "Property trees"): while nothing is committed, a frame of a tree whose
// animations only move, turn, scale or fade plain leaves is their node values and nothing else. Each animated leaf
// keeps its committed node values (`NodePlacement`) beside its record; a frame evaluates the leaf's animations into a
// copy of them on the stack (no `LayerState` copied or read, no snapshot made), works out the leaf's map to the
// target and faded opacity from its superlayer's (which do not change), and moves, fades or makes again the leaf's
// quads in the last plan in place, as a node update does (Planner+NodeUpdate.swift). Anything else (a commit, an
// animation that ends and has someone to tell, a leaf faded out or turned away, an animation of another key) takes
// the frame through the presentation and the planner as before.

/// One animated leaf of the committed tree, with what its frames need.
struct AnimatedNode {
    /// The committed leaf.
    let leaf: LayerSnapshot
    /// Its committed node values, bounds and animations, kept here so that a frame reads the node alone, not the
    /// leaf's state (which lies elsewhere in memory, a few cache lines per leaf).
    let committed: NodePlacement
    let bounds: CGRect
    /// Its animations in the table's list of them (`AnimatedNodeTable.animations`: one array for every node, read in
    /// order, rather than each leaf's own array somewhere in memory).
    let animations: Range<Int>
    /// The timings of the leaf and its ancestors, root first: the leaf's local time is theirs applied in turn. Empty
    /// when every one keeps its parent's time (`MediaTiming.keepsParentTime`), the time is then t + 0, and most nodes
    /// hold no array at all.
    let timings: [MediaTiming]
    /// The leaf's record in the plan cache.
    let fragment: Int
    /// The superlayer's sublayer space and map to the target, and what the leaf inherits.
    let sublayerSpace: Transform3D
    let superlayerToTarget: Matrix3
    let opacity: Float
    let clip: ConvexPolygon?
    /// A layer with sublayers (or more than a plain picture) whose animations only move it: its whole subtree's
    /// quads move by the translation of its map, the records inside with them.
    let branch: Bool
    /// The leaf's `isDoubleSided`, kept here: read for every turned leaf, and the leaf lies elsewhere in memory.
    let isDoubleSided: Bool
}

/// What working out a frame's changes reads of each node and its record, kept apart from the nodes in a small list
/// (`AnimatedNodeTable.links`): a node is several hundred bytes and its record lies elsewhere, and reading the
/// record's index and the node's flags from them was a cache miss each, per node, most of working out the changes.
struct NodeLink {
    /// The node's record in the plan cache, and its quads (which keep their place while the table is used: a frame
    /// makes a leaf again only into as many quads).
    let fragment: Int
    let quads: Range<Int>
    /// The leaf's quads in the table's `remaps` when they follow its map without being made again
    /// (`NodeChange.remap`); empty when they are made again (`NodeChange.made`).
    let remap: Range<Int>
    /// `AnimatedNode.branch`, `isDoubleSided`, whether it has a clip, and whether its record may be moved by a
    /// translation (`PlanFragment.movable`).
    let branch: Bool
    let isDoubleSided: Bool
    let clipped: Bool
    let movable: Bool
}

/// One quad of a leaf whose quads follow its map without being made again (`NodeChange.remap`): `emit` makes each
/// quad of a plain leaf as its unit square's map in the leaf's space followed by the leaf's map to the target, with a
/// paint that depends on that map only through a texture's filter; so a turned or scaled leaf's quads take the maps
/// worked out here, bit for bit those `emit` would make, and keep everything else (no quad made, copied or freed).
struct RemapQuad {
    /// The quad's unit square in the leaf's space (`Matrix3.unitSquare(to:)` of the rectangle `emit` fills).
    let unitToLayer: Matrix3
    /// A texture's texels per unit square by area (`Planner.texelArea`); nil for a solid colour.
    let texelArea: CGFloat?
    /// The leaf's filters (`Planner.chooseFilter`), kept here: the leaf's state lies elsewhere in memory.
    let minification: Filter
    let magnification: Filter
    let bias: Float
    /// The filter and level of detail of the quad's paint now: a map that chooses others makes the leaf again.
    var filter: Filter
    var mipLevel: Float
}

/// How one animated leaf's quads follow its new map and fade.
enum NodeChange {
    /// Only faded: each quad takes the new opacity.
    case fade
    /// Moved by a translation (and faded where the fade changed): two additions per quad.
    case move(CGPoint)
    /// Made again from the leaf's geometry at the new map and fade: these quads of the frame's fresh ones (one array
    /// for every leaf made again, not one per leaf).
    case made(Range<Int>)
    /// Turned or scaled: each quad takes these maps of the frame's new ones, and the new fade; its paint, clip and
    /// edges stay (`RemapQuad`).
    case remap(Range<Int>)
    /// A branch moved by a translation: every quad of its subtree, and the records inside.
    case moveSubtree(CGPoint)
}

/// The animated leaves of one committed tree, and the plan their records belong to.
final class AnimatedNodeTable {
    let committed: LayerSnapshot
    var planIdentity: UInt64
    let rootToTarget: Matrix3
    let width: Int
    let height: Int
    let nodes: [AnimatedNode]
    /// Every node's animations, node after node (`AnimatedNode.animations`), and each one resolved for its node
    /// (NodeTrack.swift), with the lists of keyframes they read.
    let animations: [AttachedAnimation]
    let tracks: [NodeTrack]
    let lists: NodeTrackLists
    /// The records of the animated leaves' superlayers (the root's included): their subtrees' quads change with
    /// the leaves'.
    let ancestors: [Int]
    /// Each node's `NodeLink`, in the nodes' order.
    let links: [NodeLink]
    /// The map each node's record was planned (or last changed) with: its `layerToTarget`, kept here so that a frame
    /// compares the new maps without reading the records.
    var planned: [Matrix3]
    /// The quads of the leaves that follow their maps without being made again (`NodeLink.remap`).
    var remaps: [RemapQuad]
    /// Each frame's values, one per node: kept to spare an allocation per frame.
    var maps: [Matrix3]
    var fades: [Float]

    init(committed: LayerSnapshot, planIdentity: UInt64, rootToTarget: Matrix3, width: Int, height: Int,
         nodes: [AnimatedNode], animations: [AttachedAnimation], tracks: [NodeTrack], lists: NodeTrackLists,
         ancestors: [Int], links: [NodeLink], planned: [Matrix3], remaps: [RemapQuad]) {
        self.ancestors = ancestors
        self.links = links
        self.planned = planned
        self.remaps = remaps
        self.committed = committed
        self.planIdentity = planIdentity
        self.rootToTarget = rootToTarget
        self.width = width
        self.height = height
        self.nodes = nodes
        self.animations = animations
        self.tracks = tracks
        self.lists = lists
        maps = Array(repeating: .identity, count: nodes.count)
        fades = Array(repeating: 0, count: nodes.count)
    }
}

extension Planner {
    /// The plan of `committed` at media time `time` made from the cache's last plan by animated node values alone,
    /// with `presented` called once the animations are evaluated; nil when this frame must be presented and planned
    /// as usual (and then the caller records the committed tree: `noteAnimatedFrame`).
    func animatedNodeFrame(_ committed: LayerSnapshot, at time: Double, cache: PlanCache, presented: () -> Void)
        throws -> RenderPlan?
    {
        guard texturePaints != nil else {
            return try withTexturePaints().animatedNodeFrame(committed, at: time, cache: cache, presented: presented)
        }
        // Fields are read from the cache one by one (as a patch reads them): a copy of its plan held here would
        // make its quads be copied when they are changed in place.
        guard !time.isNaN, let lastIdentity = cache.plan?.identity, lastIdentity != 0, !cache.tilesChanged,
            cache.tiledSubtrees.isEmpty, let groups = cache.plan?.groups,
            let orderedGroups = cache.orderedPlan?.groups
        else { return nil }
        let (width, height) = try outputSize(for: committed.bounds.size)
        let rootToTarget = Matrix3.translation(-committed.bounds.minX, -committed.bounds.minY)
            .concatenating(.scale(scale, scale))
        guard cache.plan?.width == width, cache.plan?.height == height else { return nil }
        let table: AnimatedNodeTable
        if let kept = cache.animatedNodes, kept.committed === committed, kept.planIdentity == lastIdentity,
            kept.rootToTarget == rootToTarget
        {
            table = kept
        } else {
            // Only a tree drawn twice in a row without a commit is worth a table: the last frame planned it.
            cache.animatedNodes = nil
            guard cache.animatedRefused !== committed, let lastFrame = cache.lastAnimatedFrame,
                lastFrame.committed === committed, lastFrame.plan == lastIdentity
            else { return nil }
            guard let made = animatedNodeTable(committed, rootToTarget: rootToTarget, width: width, height: height,
                                               cache: cache)
            else {
                cache.animatedRefused = committed
                return nil
            }
            // The table's values at the last frame's time must be those the last plan was made with, node by node:
            // the check that the superlayers' maps, the animations' evaluation and the records agree. An event at
            // that time only defers the table; a difference refuses it.
            guard Self.evaluate(made, at: lastFrame.time) else { return nil }
            for (index, node) in made.nodes.enumerated() {
                let record = cache.fragments[node.fragment]
                guard record.layerToTarget == made.maps[index],
                    node.branch || cache.plan!.quads[record.quads.lowerBound].opacity == made.fades[index]
                else {
                    cache.animatedRefused = committed
                    return nil
                }
            }
            table = made
            cache.animatedNodes = made
        }
        guard Self.evaluate(table, at: time) else { return nil }
        presented()
        // The last plan's quads are lent to working out the changes only: the cache's plan is then the array's one
        // holder again, and its quads are changed in place.
        guard let parts = nodeChanges(table, last: cache.plan!.quads, cache: cache, width: width, height: height)
        else { return nil }
        let changeCount = parts.reduce(0) { $0 + $1.changes.count }
        var bounds = cache.plan?.quadBounds
        var quads = Self.takeQuads(from: cache)
        if bounds?.count != quads.count { bounds = nil }
        // Quads faded (or made) here are not what planning their record's node gives: the record takes a content
        // version no snapshot has, so that a later usual plan plans its leaf again rather than reuse them.
        let stamp = changeCount > 0 ? Layer.presentationStamp() : 0
        // Each chunk's changes are applied by a core of their own (a node's quads, boxes and records are its own),
        // into a damage region of their own, joined in order after.
        var regions = [DamageRegion](repeating: DamageRegion(), count: parts.count)
        var moves = [Bool](repeating: true, count: parts.count)
        // Quads, boxes and records are changed through their buffers: each subscript of an array checks that it is
        // the array's one holder, and each field of the cache checks exclusive access.
        var fragments = cache.fragments
        cache.fragments = []
        var planned = table.planned
        table.planned = []
        func apply(bounds: UnsafeMutableBufferPointer<PixelBox?>?) {
            fragments.withUnsafeMutableBufferPointer { records in
                quads.withUnsafeMutableBufferPointer { quads in
                    planned.withUnsafeMutableBufferPointer { planned in
                        regions.withUnsafeMutableBufferPointer { regions in
                            moves.withUnsafeMutableBufferPointer { moves in
                                table.links.withUnsafeBufferPointer { links in
                                    table.maps.withUnsafeBufferPointer { maps in
                                        table.fades.withUnsafeBufferPointer { fades in
                                            let work = ApplyWork(
                                                parts: parts, links: links, maps: maps, fades: fades, quads: quads,
                                                bounds: bounds, records: records, planned: planned, stamp: stamp,
                                                width: width, height: height, regions: regions, moves: moves)
                                            if parts.count == 1 {
                                                work.run(part: 0)
                                            } else {
                                                DispatchQueue.concurrentPerform(iterations: parts.count) {
                                                    work.run(part: $0)
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if bounds != nil {
            bounds!.withUnsafeMutableBufferPointer { apply(bounds: $0) }
        } else {
            apply(bounds: nil)
        }
        var region = regions[0]
        for other in regions.dropFirst() {
            for rect in other.rects { region.add(rect) }
        }
        let moved = !moves.contains(false)
        table.planned = planned
        guard moved else {
            // Not expected (the table and the changes checked every quad), but a plan half moved must not be kept:
            // the cache is emptied and the frame planned from scratch.
            cache.fragments = []
            cache.fragmentIndex = [:]
            cache.animatedNodes = nil
            return nil
        }
        if changeCount > 0 {
            // The superlayers' records no longer describe their subtrees' quads: no snapshot's content version or
            // node matches them, so the next usual frame plans them (reusing what it can below) instead of keeping
            // their quads or patching them by comparing sublayers with the node's.
            for index in table.ancestors {
                fragments[index].contentVersion = stamp
                fragments[index].node = nil
            }
        }
        // Handed back whole: with this array still held here, a change through the cache would copy every record.
        swap(&cache.fragments, &fragments)
        let plan = finishedPatch(quads: quads, bounds: bounds, region: region, fresh: parts.flatMap(\.fresh),
                                 to: cache, lastIdentity: lastIdentity, groups: groups, orderedGroups: orderedGroups,
                                 width: width, height: height, updated: changeCount, planned: 0,
                                 remapped: parts.reduce(0) { $0 + $1.remapped.count })
        cache.statistics.nodeValueLayers = table.nodes.count
        table.planIdentity = plan.identity
        cache.lastAnimatedFrame = (committed, plan.identity, time)
        return plan
    }

    /// How the quads of each of `table`'s nodes whose map or fade changed follow it, in the last plan's `last`:
    /// faded, moved by a translation (every quad affine, unclipped and unshaped, as planning would place them), or
    /// given new maps or made again from the leaf's geometry (turned, scaled, clipped, shaped); nil when one cannot
    /// follow (turned away, or made into another number of quads). Nothing is changed yet. A large table is worked
    /// out in chunks of nodes on all cores (as its evaluation is), each chunk with its own fresh quads, new maps and
    /// table of texture paints: the parts, in the nodes' order, which the frame then applies chunk by chunk.
    private func nodeChanges(_ table: AnimatedNodeTable, last: [Quad], cache: PlanCache, width: Int, height: Int)
        -> [ChangesPart]?
    {
        let count = table.nodes.count
        let chunks = LayerSnapshot.evaluationChunks(count, minimum: LayerSnapshot.nodeFrameChunkMinimum)
        // The quads are read where they lie: an element of an array read from here copies it (a retain and a release
        // of each of its references).
        return last.withUnsafeBufferPointer { last in
            table.remaps.withUnsafeMutableBufferPointer { remaps in
                if chunks == 1 {
                    return nodeChanges(table, nodes: 0..<count, last: last, remaps: remaps, width: width,
                                       height: height).map { [$0] }
                }
                let size = (count + chunks - 1) / chunks
                var parts = [ChangesPart?](repeating: nil, count: chunks)
                parts.withUnsafeMutableBufferPointer { parts in
                    let work = NodeChangesWork(planner: self, table: table, last: last, remaps: remaps, parts: parts,
                                               size: size, width: width, height: height)
                    DispatchQueue.concurrentPerform(iterations: chunks) { work.run(chunk: $0) }
                }
                // Every chunk's part, in the nodes' order; nil when one of them cannot follow its nodes.
                let done = parts.compactMap { $0 }
                return done.count == parts.count ? done : nil
            }
        }
    }

    /// The changes of `table`'s nodes `nodes` (`nodeChanges`), with quads made again in a fresh array of their own,
    /// and the new damage boxes of the changed quads (`changedBoxes`).
    fileprivate func nodeChanges(_ table: AnimatedNodeTable, nodes: Range<Int>, last: UnsafeBufferPointer<Quad>,
                                 remaps: UnsafeMutableBufferPointer<RemapQuad>, width: Int, height: Int) -> ChangesPart?
    {
        var changes: [(node: Int, change: NodeChange)] = []
        changes.reserveCapacity(nodes.count)
        var fresh: [Quad] = []
        var remapped: [Matrix3] = []
        guard let quad = last.baseAddress else { return nodes.isEmpty ? (changes, fresh, remapped, []) : nil }
        let found: Bool = table.links.withUnsafeBufferPointer { links in
            table.maps.withUnsafeBufferPointer { maps in
                table.fades.withUnsafeBufferPointer { fades in
                    table.planned.withUnsafeBufferPointer { plannedMaps in
                        for index in nodes {
                            let link = links.baseAddress! + index
                            let range = link.pointee.quads
                            let planned = plannedMaps[index]
                            let map = maps[index], fade = fades[index]
                            if link.pointee.branch {
                                guard map != planned else { continue }
                                // Only moved: its map differs by a translation its quads (unclipped, affine: checked
                                // when the table was made) can follow.
                                guard let d = PlanFragment.translation(from: planned, to: map, hasClips: false),
                                    range.allSatisfy({ (quad[$0].unitToTarget.m31 + d.x).isFinite
                                        && (quad[$0].unitToTarget.m32 + d.y).isFinite })
                                else { return false }
                                changes.append((index, .moveSubtree(d)))
                                continue
                            }
                            if map == planned {
                                if fade != quad[range.lowerBound].opacity { changes.append((index, .fade)) }
                                continue
                            }
                            if link.pointee.movable, !link.pointee.clipped,
                                let d = PlanFragment.translation(from: planned, to: map, hasClips: false),
                                range.allSatisfy({ position in
                                    let m = quad[position].unitToTarget
                                    return Quad.movesByOffset(at: quad + position) && (m.m31 + d.x).isFinite
                                        && (m.m32 + d.y).isFinite
                                })
                            {
                                changes.append((index, .move(d)))
                                continue
                            }
                            guard link.pointee.isDoubleSided || map.determinant >= 0 else { return false }
                            if !link.pointee.remap.isEmpty, let remap = Self.remapped(
                                link.pointee.remap, map: map, remaps: remaps.baseAddress!, into: &remapped)
                            {
                                changes.append((index, .remap(remap)))
                                continue
                            }
                            let first = fresh.count
                            let (leaf, clip) = table.nodes.withUnsafeBufferPointer { ($0[index].leaf, $0[index].clip) }
                            emit(leaf, layerToTarget: map, opacity: fade, clip: clip, into: &fresh)
                            guard fresh.count - first == range.count else { return false }
                            changes.append((index, .made(first..<fresh.count)))
                        }
                        return true
                    }
                }
            }
        }
        guard found else { return nil }
        let boxes = Self.changedBoxes(changes, table: table, last: last, fresh: fresh, remapped: remapped,
                                      width: width, height: height)
        return (changes, fresh, remapped, boxes)
    }

    /// The damage boxes the quads of `changes` will have once changed, in order (none for a moved branch, whose
    /// quads move the usual way): a faded quad's at its new opacity, a moved one's at its new offset, and those of
    /// the quads made again. Worked out with the changes, on every core, instead of in the frame's serial loop.
    private static func changedBoxes(
        _ changes: [(node: Int, change: NodeChange)], table: AnimatedNodeTable, last: UnsafeBufferPointer<Quad>,
        fresh: [Quad], remapped: [Matrix3], width: Int, height: Int
    ) -> [PixelBox?] {
        var boxes: [PixelBox?] = []
        boxes.reserveCapacity(changes.count)
        guard let quad = last.baseAddress else { return boxes }
        fresh.withUnsafeBufferPointer { fresh in
            table.links.withUnsafeBufferPointer { links in
                for (index, change) in changes {
                    let range = links[index].quads
                    let fade = table.fades[index]
                    switch change {
                    case .fade:
                        for position in range {
                            boxes.append(Quad.damageBounds(at: quad + position, movedBy: nil, opacity: fade,
                                                           width: width, height: height))
                        }
                    case .move(let d):
                        // As the frame's loop fades them: every quad, where the first one's opacity differs.
                        let faded = quad[range.lowerBound].opacity != fade
                        for position in range {
                            boxes.append(Quad.damageBounds(at: quad + position, movedBy: d,
                                                           opacity: faded ? fade : quad[position].opacity,
                                                           width: width, height: height))
                        }
                    case .made(let made):
                        for offset in made {
                            boxes.append(Quad.damageBounds(at: fresh.baseAddress! + offset, width: width,
                                                           height: height))
                        }
                    case .remap(let maps):
                        for (position, map) in zip(range, remapped[maps]) {
                            boxes.append(Quad.damageBounds(at: quad + position, map: map, opacity: fade, width: width,
                                                           height: height))
                        }
                    case .moveSubtree:
                        break
                    }
                }
            }
        }
        return boxes
    }

    /// Evaluates every node's animations at `time` into `table.maps` and `table.fades`; false when the frame must
    /// be presented as usual: an animation finished and has someone to tell (or comes off its layer), or a leaf is
    /// faded out or its map overflowed.
    private static func evaluate(_ table: AnimatedNodeTable, at time: Double) -> Bool {
        let count = table.nodes.count
        // Chunks of nodes on all cores for a table of a thousand nodes or more (`nodeFrameChunkMinimum`; the
        // presentation splits its nodes the same way): each chunk writes its own nodes' values only.
        let chunks = LayerSnapshot.evaluationChunks(count, minimum: LayerSnapshot.nodeFrameChunkMinimum)
        let size = (count + chunks - 1) / chunks
        var failed = [Bool](repeating: false, count: chunks)
        table.nodes.withUnsafeBufferPointer { nodes in
            table.animations.withUnsafeBufferPointer { animations in
                table.tracks.withUnsafeBufferPointer { tracks in
                    table.lists.withBuffers { lists in
                        table.maps.withUnsafeMutableBufferPointer { maps in
                            table.fades.withUnsafeMutableBufferPointer { fades in
                                failed.withUnsafeMutableBufferPointer { failed in
                                    let work = EvaluationChunk(
                                        nodes: nodes, animations: animations, tracks: tracks, lists: lists,
                                        maps: maps, fades: fades, failed: failed, time: time, size: size)
                                    if chunks == 1 {
                                        work.run(chunk: 0)
                                    } else {
                                        DispatchQueue.concurrentPerform(iterations: chunks) { work.run(chunk: $0) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return !failed.contains(true)
    }

    /// The table of `committed`'s animated leaves against the cache's last plan; nil when the tree has an animation
    /// a node value cannot follow: on a layer with sublayers, a mask or more than a plain picture, of a key other
    /// than position, anchorPoint, anchorPointZ, transform (and their parts) and opacity, with a delegate; or under
    /// a superlayer whose picture depends on its sublayers' places (a group, a shadow, a mask, a rounded clip, a
    /// rasterized picture, a replicator, a 3D space).
    private func animatedNodeTable(_ committed: LayerSnapshot, rootToTarget: Matrix3, width: Int, height: Int,
                                   cache: PlanCache) -> AnimatedNodeTable?
    {
        guard let last = cache.plan, let rootIndex = cache.fragmentIndex[committed.id],
            cache.fragments[rootIndex].quads == 0..<last.quads.count
        else { return nil }
        var nodes: [AnimatedNode] = []
        var animations: [AttachedAnimation] = []
        var tracks: [NodeTrack] = []
        var lists = NodeTrackLists()
        var ancestors: Set<Int> = []
        var remaps: [RemapQuad] = []
        var links: [NodeLink] = []
        var planned: [Matrix3] = []
        /// A leaf's animations added to the table's list (and resolved against its committed values `model`), and
        /// where they lie in it.
        func list(_ attached: [AttachedAnimation], model: NodePlacement) -> Range<Int> {
            animations += attached
            for animation in attached { tracks.append(NodeTrack(animation.animation, model: model, lists: &lists)) }
            return (animations.count - attached.count)..<animations.count
        }
        // Depth first: each animated subtree's superlayer chain with its map, opacity, clip and timings.
        struct Pending {
            var layer: LayerSnapshot
            var toTarget: Matrix3
            var opacity: Float
            var clip: ConvexPolygon?
            var timings: [MediaTiming]
        }
        var stack = [Pending(layer: committed, toTarget: rootToTarget, opacity: 1, clip: nil,
                             timings: [committed.state.timing])]
        while let pending = stack.popLast() {
            let layer = pending.layer
            guard layer.state.animations.isEmpty, !layer.state.special.emits else { return nil }
            if let index = cache.fragmentIndex[layer.id] { ancestors.insert(index) }
            // A superlayer of animated layers: its picture must not depend on where they are.
            let own = min(max(layer.opacity, 0), 1)
            guard !layer.isHidden, layer.mask == nil, layer.effects == nil, layer.shadowOpacity <= 0,
                !layer.shouldRasterize, layer.blendMode == nil, layer.state.replicator == nil,
                !layer.state.isTransformLayer,
                !(layer.masksToBounds && layer.roundedBounds != nil),
                !(own < 1 && layer.allowsGroupOpacity && layer.sublayers.contains { !$0.isHidden && $0.opacity > 0 }),
                pending.opacity * own > 0, pending.toTarget.isFinite
            else { return nil }
            if !layer.isDoubleSided, pending.toTarget.determinant < 0 { return nil }
            var clip = pending.clip
            if layer.masksToBounds {
                guard let bounds = ConvexPolygon(projecting: unitCorners.map(Matrix3.unitSquare(to: layer.bounds)
                    .concatenating(pending.toTarget).apply)) else { return nil }
                clip = clip.map { $0.intersection(bounds) } ?? bounds
                guard clip.map({ !$0.isEmpty }) ?? true else { return nil }
            }
            let opacity = pending.opacity * own
            let sublayerSpace = layer.sublayerTransformAboutAnchor
            for kid in layer.sublayers where kid.animatedSubtree {
                if kid.state.animations.isEmpty {
                    // Animated below: a superlayer of the animated layers, checked as one when it is taken.
                    stack.append(Pending(
                        layer: kid, toTarget: kid.mapToSuperlayer(sublayerSpace: sublayerSpace)
                            .concatenating(pending.toTarget),
                        opacity: opacity, clip: clip, timings: pending.timings + [kid.state.timing]))
                    continue
                }
                guard kid.mask == nil, !kid.state.isTransformLayer, let index = cache.fragmentIndex[kid.id]
                else { return nil }
                let record = cache.fragments[index]
                if !kid.sublayers.isEmpty || !Self.isPlainLeaf(kid) {
                    // A branch (or a leaf with more than a plain picture) that is only moved.
                    guard kid.state.animations.allSatisfy({ Self.onlyMoves($0.animation) }),
                        kid.sublayers.allSatisfy({ !$0.animatedSubtree }), record.movable, record.groups.isEmpty,
                        !record.quads.isEmpty, record.opacity == opacity, record.clip == nil, clip == nil,
                        record.layerToTarget.m13 == 0, record.layerToTarget.m23 == 0, record.layerToTarget.m33 == 1,
                        cache.fragments[record.firstDescendant..<index].allSatisfy({ $0.clip == nil }),
                        last.quads[record.quads].allSatisfy({ quad in
                            if case .shadow = quad.paint { return false }
                            return quad.clip == nil
                        })
                    else { return nil }
                    let committed = NodePlacement(kid.state)
                    nodes.append(AnimatedNode(
                        leaf: kid, committed: committed, bounds: kid.state.bounds,
                        animations: list(kid.state.animations, model: committed),
                        timings: Self.leafTimings(pending.timings + [kid.state.timing]),
                    fragment: index,
                        sublayerSpace: sublayerSpace, superlayerToTarget: pending.toTarget, opacity: opacity,
                        clip: clip, branch: true, isDoubleSided: kid.isDoubleSided))
                    links.append(NodeLink(fragment: index, quads: record.quads, remap: 0..<0, branch: true,
                                          isDoubleSided: kid.isDoubleSided, clipped: clip != nil,
                                          movable: record.movable))
                    planned.append(record.layerToTarget)
                    continue
                }
                guard kid.state.animations.allSatisfy({ Self.followsNodeValues($0.animation) }) else { return nil }
                // The record must be the leaf's own, planned under this chain (its map is checked by the caller),
                // its quads each at one opacity.
                guard record.firstDescendant == index, record.groups.isEmpty, !record.quads.isEmpty,
                    record.opacity == opacity, record.clip == clip
                else { return nil }
                let fade = last.quads[record.quads.lowerBound].opacity
                for position in record.quads {
                    if case .shadow = last.quads[position].paint { return nil }
                    guard last.quads[position].opacity == fade else { return nil }
                }
                let committed = NodePlacement(kid.state)
                nodes.append(AnimatedNode(
                    leaf: kid, committed: committed, bounds: kid.state.bounds,
                    animations: list(kid.state.animations, model: committed),
                        timings: Self.leafTimings(pending.timings + [kid.state.timing]),
                    fragment: index,
                    sublayerSpace: sublayerSpace, superlayerToTarget: pending.toTarget, opacity: opacity, clip: clip,
                    branch: false, isDoubleSided: kid.isDoubleSided))
                links.append(NodeLink(
                    fragment: index, quads: record.quads,
                    remap: Self.remapQuads(kid, record: record, quads: last.quads, into: &remaps), branch: false,
                    isDoubleSided: kid.isDoubleSided, clipped: clip != nil, movable: record.movable))
                planned.append(record.layerToTarget)
            }
        }
        guard !nodes.isEmpty else { return nil }
        return AnimatedNodeTable(committed: committed, planIdentity: last.identity, rootToTarget: rootToTarget,
                                 width: width, height: height, nodes: nodes, animations: animations,
                                 tracks: tracks, lists: lists, ancestors: ancestors.sorted(), links: links,
                                 planned: planned, remaps: remaps)
    }

    /// The quads of the plain leaf `leaf` (its record `record` in `quads`) appended to `remaps` as `RemapQuad`s, and
    /// where they lie there, when they can follow the leaf's map without being made again: neither rounded nor cut
    /// to the bounds (whose shape and clip depend on the map), and each quad's map the one `emit` makes from the
    /// record's, bit for bit. An empty range otherwise: its quads are made again when it turns.
    private static func remapQuads(_ leaf: LayerSnapshot, record: PlanFragment, quads: [Quad],
                                   into remaps: inout [RemapQuad]) -> Range<Int> {
        let none = remaps.count..<remaps.count
        let bounds = leaf.bounds
        guard leaf.roundedBounds == nil, !leaf.masksToBounds, bounds.width > 0, bounds.height > 0 else { return none }
        let (minification, magnification) = (leaf.minificationFilter, leaf.magnificationFilter)
        let bias = leaf.minificationFilterBias
        // In `emit`'s order: the background, then the cells of the contents.
        var made: [RemapQuad] = []
        if let color = leaf.backgroundColor, color.alpha > 0 {
            made.append(RemapQuad(unitToLayer: .unitSquare(to: bounds), texelArea: nil, minification: minification,
                                  magnification: magnification, bias: bias, filter: .linear, mipLevel: 0))
        }
        if let image = leaf.contents {
            ContentsLayout.forEachCell(layer: leaf, image: image) { cell in
                made.append(RemapQuad(unitToLayer: .unitSquare(to: cell.rectInLayer),
                                      texelArea: texelArea(cell.unitToTexel), minification: minification,
                                      magnification: magnification, bias: bias, filter: .linear, mipLevel: 0))
            }
        }
        guard made.count == record.quads.count else { return none }
        let agrees: Bool = quads.withUnsafeBufferPointer { quads in
            for (offset, position) in record.quads.enumerated() {
                let quad = quads.baseAddress! + position
                guard made[offset].unitToLayer.concatenating(record.layerToTarget) == quad.pointee.unitToTarget
                else { return false }
                if made[offset].texelArea == nil {
                    guard case .solid = quad.pointee.paint else { return false }
                } else {
                    guard let facts = Quad.textureCopyFacts(at: quad) else { return false }
                    made[offset].filter = facts.filter
                    made[offset].mipLevel = facts.mipLevel
                }
            }
            return true
        }
        guard agrees else { return none }
        remaps += made
        return none.lowerBound..<remaps.count
    }

    /// The maps of the quads `remap` of the table's `remaps` under the leaf's new map `map`, appended to `maps`, and
    /// where they lie there; nil when the leaf must be made again: a map overflowed, or a texture's filter or level
    /// of detail changed (its paint must change: the new ones are kept, for the quads `emit` makes next).
    fileprivate static func remapped(_ remap: Range<Int>, map: Matrix3, remaps: UnsafeMutablePointer<RemapQuad>,
                                     into maps: inout [Matrix3]) -> Range<Int>? {
        let start = maps.count
        var same = true
        for index in remap {
            let quad = remaps + index
            let unitToTarget = quad.pointee.unitToLayer.concatenating(map)
            guard unitToTarget.isFinite else {
                maps.removeSubrange(start...)
                return nil
            }
            if let texelArea = quad.pointee.texelArea {
                let (filter, lod) = Planner.chooseFilter(
                    unitToTarget: unitToTarget, texelArea: texelArea, minification: quad.pointee.minification,
                    magnification: quad.pointee.magnification, bias: quad.pointee.bias)
                if filter != quad.pointee.filter || lod.bitPattern != quad.pointee.mipLevel.bitPattern {
                    quad.pointee.filter = filter
                    quad.pointee.mipLevel = lod
                    same = false
                }
            }
            maps.append(unitToTarget)
        }
        guard same else {
            maps.removeSubrange(start...)
            return nil
        }
        return start..<maps.count
    }

    /// `timings` as a node keeps them: none when every one keeps its parent's time.
    private static func leafTimings(_ timings: [MediaTiming]) -> [MediaTiming] {
        timings.allSatisfy(\.keepsParentTime) ? [] : timings
    }

    /// Whether `animation` only moves, turns, scales or fades its layer and tells no one: a property animation of
    /// such a key or a group of them, without a delegate.
    private static func followsNodeValues(_ animation: Animation) -> Bool {
        guard animation.delegate == nil else { return false }
        if let group = animation as? AnimationGroup {
            return (group.animations ?? []).allSatisfy(followsNodeValues)
        }
        guard let property = (animation as? PropertyAnimation)?.property else { return false }
        return property.isNodeValue
    }

    /// Whether `animation` only moves its layer (position, anchorPoint and their parts: in an affine space, a
    /// translation of its whole subtree) and tells no one.
    private static func onlyMoves(_ animation: Animation) -> Bool {
        guard animation.delegate == nil else { return false }
        if let group = animation as? AnimationGroup { return (group.animations ?? []).allSatisfy(onlyMoves) }
        guard let key = (animation as? PropertyAnimation)?.property?.keyPath else { return false }
        return ["position", "position.x", "position.y", "anchorPoint", "anchorPoint.x", "anchorPoint.y"].contains(key)
    }
}

/// One chunk of an evaluation: the nodes `chunk * size ..< (chunk + 1) * size`, whose values it alone writes.
private struct EvaluationChunk: @unchecked Sendable {
    let nodes: UnsafeBufferPointer<AnimatedNode>
    let animations: UnsafeBufferPointer<AttachedAnimation>
    let tracks: UnsafeBufferPointer<NodeTrack>
    let lists: NodeTrackBuffers
    let maps: UnsafeMutableBufferPointer<Matrix3>
    let fades: UnsafeMutableBufferPointer<Float>
    let failed: UnsafeMutableBufferPointer<Bool>
    let time: Double
    let size: Int

    func run(chunk: Int) {
        for index in (chunk * size)..<min((chunk + 1) * size, nodes.count) {
            guard evaluate(index) else {
                failed[chunk] = true
                return
            }
        }
    }

    /// The node's animations applied at the frame's time; false when the frame must be presented as usual.
    private func evaluate(_ index: Int) -> Bool {
        let node = nodes.baseAddress! + index
        // A node's list of timings is never empty but when each one would have given t + 0.
        var local = time + 0
        if !node.pointee.timings.isEmpty {
            local = time
            for timing in node.pointee.timings { local = timing.localTime(parent: local) }
        }
        // The committed values, then the animations on top, in order.
        var placement = node.pointee.committed
        for position in node.pointee.animations {
            // The resolved track (NodeTrack.swift); the animation object only where it applies itself or finished.
            let track = tracks.baseAddress! + position
            if track.pointee.finite, track.pointee.timing.isFinished(parent: local),
                track.pointee.isRemovedOnCompletion || !animations[position].events.isStopped
            {
                return false
            }
            // Past here an animation that finished stays (it is not removed on completion): it is applied.
            if case .general = track.pointee.curve {
                _ = animations[position].animation.apply(to: &placement, model: node.pointee.committed, time: local)
            } else {
                track.pointee.apply(to: &placement, time: local, lists: lists)
            }
        }
        let map = placement.mapToSuperlayer(bounds: node.pointee.bounds, sublayerSpace: node.pointee.sublayerSpace)
            .concatenating(node.pointee.superlayerToTarget)
        let fade = node.pointee.opacity * min(max(placement.opacity, 0), 1)
        guard map.isFinite, fade > 0 else { return false }
        maps[index] = map
        fades[index] = fade
        return true
    }
}

/// One chunk's node changes (`Planner.nodeChanges`): `made` ranges index its own fresh quads, `remap` ranges its own
/// new maps.
private typealias ChangesPart = (changes: [(node: Int, change: NodeChange)], fresh: [Quad], remapped: [Matrix3],
                                 boxes: [PixelBox?])

/// The node changes of a large table worked out in chunks on all cores: each chunk reads the last plan's quads and
/// records (not changed until every chunk is done) and writes its own part. Each has a planner of its own, whose
/// table of texture paints only it touches.
private struct NodeChangesWork: @unchecked Sendable {
    let planner: Planner
    let table: AnimatedNodeTable
    let last: UnsafeBufferPointer<Quad>
    let remaps: UnsafeMutableBufferPointer<RemapQuad>
    let parts: UnsafeMutableBufferPointer<ChangesPart?>
    let size: Int
    let width: Int
    let height: Int

    func run(chunk: Int) {
        var planner = planner
        planner.texturePaints = TexturePaints()
        let nodes = (chunk * size)..<min((chunk + 1) * size, table.nodes.count)
        parts[chunk] = planner.nodeChanges(table, nodes: nodes, last: last, remaps: remaps, width: width,
                                           height: height)
    }
}

/// The changes of a node frame applied, each chunk's part (`Planner.nodeChanges`) by the core that takes it: a
/// node's quads, their boxes, its record (and those inside a moved branch) and its planned map are its own, and no
/// two nodes share any (an animated layer has no animated superlayer). Each part adds the old and new boxes of its
/// quads to a damage region of its own, and says whether its moved branches could be moved.
private struct ApplyWork: @unchecked Sendable {
    let parts: [ChangesPart]
    let links: UnsafeBufferPointer<NodeLink>
    let maps: UnsafeBufferPointer<Matrix3>
    let fades: UnsafeBufferPointer<Float>
    let quads: UnsafeMutableBufferPointer<Quad>
    /// The last plan's boxes of its quads, where it kept them.
    let bounds: UnsafeMutableBufferPointer<PixelBox?>?
    let records: UnsafeMutableBufferPointer<PlanFragment>
    let planned: UnsafeMutableBufferPointer<Matrix3>
    /// The content version of the records whose quads are not what planning their node gives.
    let stamp: UInt64
    let width: Int
    let height: Int
    let regions: UnsafeMutableBufferPointer<DamageRegion>
    let moves: UnsafeMutableBufferPointer<Bool>

    func run(part index: Int) {
        let part = parts[index]
        var region = DamageRegion()
        defer { regions[index] = region }
        // Where the next change's new boxes start in the part's boxes (a moved branch's are worked out here).
        var cursor = 0
        for (node, change) in part.changes {
            let (fragment, range) = (links[node].fragment, links[node].quads)
            let fade = fades[node]
            // The old boxes, as the last plan kept them (worked out only where it did not).
            Planner.addBoxes(of: UnsafeBufferPointer(quads), range, width: width, height: height, bounds: bounds,
                             old: true, to: &region)
            var faded = false
            switch change {
            case .fade:
                faded = true
            case .move(let d):
                faded = quads[range.lowerBound].opacity != fade
                for position in range {
                    quads[position].unitToTarget.m31 += d.x
                    quads[position].unitToTarget.m32 += d.y
                }
            case .made(let made):
                part.fresh.withUnsafeBufferPointer { fresh in
                    for offset in 0..<made.count { quads[range.lowerBound + offset] = fresh[made.lowerBound + offset] }
                }
            case .remap(let maps):
                faded = true
                part.remapped.withUnsafeBufferPointer { remapped in
                    for offset in 0..<maps.count {
                        quads[range.lowerBound + offset].unitToTarget = remapped[maps.lowerBound + offset]
                    }
                }
            case .moveSubtree(let d):
                guard PlanRun.move(quads, range, by: d, clipsOnGrid: false) else {
                    moves[index] = false
                    return
                }
                // The records inside move with it, as a moved subtree's do.
                for position in records[fragment].firstDescendant..<fragment { records[position].move(by: d) }
            }
            if faded {
                for position in range { quads[position].opacity = fade }
            }
            if case .moveSubtree = change {
                Planner.addBoxes(of: UnsafeBufferPointer(quads), range, width: width, height: height, bounds: bounds,
                                 old: false, to: &region)
            } else {
                // The new boxes, worked out with the changes.
                for position in range {
                    let box = part.boxes[cursor]
                    cursor += 1
                    box.map { region.add($0) }
                    bounds?[position] = box
                }
            }
            records[fragment].layerToTarget = maps[node]
            planned[node] = maps[node]
            switch change {
            case .made, .remap: faded = true
            default: break
            }
            if faded { records[fragment].contentVersion = stamp }
        }
    }
}
