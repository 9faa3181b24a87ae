import Foundation
import LaminaCore

/// What the planner keeps from one frame of a tree to the next, for one renderer (or output): the last plan, where
/// each subtree's quads lie in it, and the shadows it planned. It is stored in the renderer's `RendererCaches`, so
/// nothing of the planner is kept on a layer and two renderers never evict each other's plans.
///
/// A later frame reuses a subtree's quads where the subtree's `contentVersion` is the same and it reaches the
/// target at the same inherited opacity and clip: in place when its map to the target is the same, or moved when
/// the map differs by a translation (a parent moved) and nothing in the subtree depended on where it lay in the
/// target (no offscreen group, shadow or rounded clip, whose pixel bounds are cut to the target). So moving the
/// parent of many layers copies their quads, moved, instead of planning them again.
public final class PlanCache: @unchecked Sendable {
    /// The plan of the last frame, its groups in the order they were made (what `fragments` index).
    var plan: RenderPlan?
    /// The same plan as returned: groups in drawing order.
    var orderedPlan: RenderPlan?
    /// The subtrees in `plan` of the layers that painted something (and the root), in the order they were finished
    /// (post-order): a subtree's own fragments come just before it, from `firstDescendant`.
    var fragments: [PlanFragment] = []
    var fragmentIndex: [LayerID: Int] = [:]
    /// Whether no two records share an id: the index then holds every record, and the record of an id found by
    /// looking near another is the one the index would give.
    var fragmentIDsAreUnique: Bool { fragmentIndex.count == fragments.count }
    /// Each shadow as last planned, by layer.
    var shadows: [LayerID: PlannedShadow] = [:]
    /// Each filled shadowPath as last drawn, by layer.
    var shadowPaths: [LayerID: ShadowPathImage] = [:]
    /// Each rasterized layer's picture as last drawn, by layer (Planner+Rasterize.swift).
    var rasterized: [LayerID: RasterizedPicture] = [:]
    /// `Image.sampledModificationCount` when the last plan was made, and the generation of each image its textures
    /// sampled when they were last compared (Planner+Damage.swift).
    var sampledModifications: UInt64 = 0
    var imageGenerations: [ObjectIdentifier: SampledImage] = [:]
    var shadowStamps: [ObjectIdentifier: SampledShadow] = [:]
    /// Planning counters of the last frame, for tests and benchmarks.
    public internal(set) var statistics = PlanStatistics()
    /// The pictures of gradient, shape and text layers (Planner+Special.swift).
    let pictures = VectorPictureCache()
    /// The tiles of tiled layers (TileCache.swift).
    public let tiles = TileCache()
    /// What tiled layers show may differ from the last plan (tiles arrived or fading): subtrees holding one
    /// (`tiledSubtrees`) are planned again, not reused.
    var tilesChanged = false
    /// The layers of the last plan whose subtree holds a tiled layer.
    var tiledSubtrees: Set<LayerID> = []

    /// The animated leaves of the last committed tree drawn by node values alone (Planner+AnimatedNodes.swift), the
    /// committed tree found unfit for them (not looked at again until something is committed), and the committed
    /// tree and plan of the last animated frame.
    var animatedNodes: AnimatedNodeTable?
    weak var animatedRefused: LayerSnapshot?
    var lastAnimatedFrame: (committed: LayerSnapshot, plan: UInt64, time: Double)?

    public init() {}

    /// The cache a renderer keeps for the tree of `root`: those of the eight trees it planned last are kept, so a
    /// renderer that draws many trees in turn does not keep the last plan (and snapshot) of each.
    static func of(_ renderer: Renderer, root: LayerID) -> PlanCache {
        renderer.caches.slot("LaminaLayers.PlanCaches") { RecentTrees<PlanCache>(limit: 8) }.value(for: root) {
            PlanCache()
        }
    }
}

/// What a renderer keeps per tree (plan caches, retained frames), for the trees it drew last: one drawn after
/// `limit` others is forgotten, so a renderer that draws many trees in turn does not keep something of each.
final class RecentTrees<Value: AnyObject> {
    private var trees: [(id: LayerID, value: Value)] = []
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The value kept for the tree of `id`, made by `make` when none is.
    func value(for id: LayerID, make: () -> Value) -> Value {
        if let index = trees.firstIndex(where: { $0.id == id }) {
            if index != trees.count - 1 { trees.append(trees.remove(at: index)) }
            return trees[trees.count - 1].value
        }
        if trees.count >= limit { trees.removeFirst() }
        trees.append((id, make()))
        return trees[trees.count - 1].value
    }
}

/// How much of the last frame's plan a frame reused.
public struct PlanStatistics: Hashable, Sendable {
    /// Layers whose quads were planned afresh.
    public var layersPlanned = 0
    /// Subtrees whose quads were copied from the last plan unchanged.
    public var subtreesReused = 0
    /// Subtrees whose quads were copied from the last plan and moved (a parent moved).
    public var subtreesMoved = 0
    /// Quads copied from the last plan (both kinds).
    public var quadsReused = 0
    /// Layers whose planned quads followed a new placement or opacity (moved, made again from their geometry, or
    /// faded) without being planned: node updates (docs/architecture.md, "Property trees").
    public var layersUpdated = 0
    /// Quads of turned or scaled leaves that took their new maps in place on a frame made from node values, their
    /// paints, clips and edges kept (docs/architecture.md, "Property trees"); a leaf whose texture's filter changes
    /// is made again instead.
    public var quadsRemapped = 0
    /// Animated layers whose quads followed their animated values without a presentation or planning: the frame was
    /// made from node values alone (docs/architecture.md, "Property trees"); 0 on a usual frame.
    public var nodeValueLayers = 0
    /// Gradient, shape and text pictures made (laid out and rasterised) for this frame.
    public var picturesMade = 0
    /// Pictures of gradient, shape and text layers taken from the cache, unchanged, for layers planned this frame
    /// (layers in subtrees copied whole from the last plan do not ask for theirs at all).
    public var picturesReused = 0
    /// Pictures of layers with shouldRasterize drawn (planned and rendered offscreen) for this frame.
    public var rasterizationsDrawn = 0
    /// Pictures of layers with shouldRasterize taken from the cache, unchanged, for layers planned this frame (a
    /// rasterized layer in a subtree copied whole from the last plan does not ask for its picture at all).
    public var rasterizationsReused = 0
    /// Quads planned this frame that paint a texture source an earlier quad of the frame's planning paints too, and
    /// share its paint (Planner+TexturePaints.swift): 9,936 of 10,000 sprites cut from 64 cells of one sheet.
    public var texturePaintsShared = 0

    public init() {}
}

/// One subtree's part of a plan, and the conditions it was planned under.
struct PlanFragment {
    var id: LayerID
    /// The snapshot node planned (or one with the same content): a patch compares its sublayers with the new ones.
    var node: LayerSnapshot?
    var contentVersion: UInt64
    var layerToTarget: Matrix3
    var opacity: Float
    var clip: ConvexPolygon?
    /// The subtree's quads and groups in the plan.
    var quads: Range<Int>
    var groups: Range<Int>
    /// The fragments of the subtree's descendants: `firstDescendant..<` this fragment's index.
    var firstDescendant: Int
    /// False when something in the subtree was planned against the target's pixel bounds (a group, a shadow, a
    /// rounded clip, a picture made for what can be seen, a replicator instance beyond the target): then the quads
    /// may be reused only where they lie, not moved.
    var movable: Bool

    /// The translation (in target pixels) that takes this fragment to `layerToTarget`, when the two maps differ by
    /// one: both affine with the same linear part.
    func translation(to layerToTarget: Matrix3, hasClips: Bool) -> CGPoint? {
        Self.translation(from: self.layerToTarget, to: layerToTarget, hasClips: hasClips)
    }

    /// `translation(to:hasClips:)` of a record planned with the map `a`: what a node table, which keeps its records'
    /// maps, asks without reading the record.
    static func translation(from a: Matrix3, to b: Matrix3, hasClips: Bool) -> CGPoint? {
        guard a.m13 == 0, a.m23 == 0, a.m33 == 1, b.m13 == 0, b.m23 == 0, b.m33 == 1,
            a.m11 == b.m11, a.m12 == b.m12, a.m21 == b.m21, a.m22 == b.m22
        else { return nil }
        // Both places within the guard band: beyond it a translation's sum keeps too few bits of the offset (a
        // layer at 3.5e38 moved back near the target landed at 0 instead of 55 pixels), so it is planned again.
        let band = CGFloat.guardBand
        guard abs(a.m31) <= band, abs(a.m32) <= band, abs(b.m31) <= band, abs(b.m32) <= band else { return nil }
        let d = CGPoint(x: b.m31 - a.m31, y: b.m32 - a.m32)
        guard d.x.isFinite, d.y.isFinite, !hasClips || Self.onClipGrid(d) else { return nil }
        return d
    }

    /// Moves the record by `d` target pixels, as its quads are moved: an affine map's offset takes the translation
    /// added (what concatenating it gives, without the product), a projective map is concatenated with it; the clip
    /// moves with it.
    mutating func move(by d: CGPoint) {
        let m = layerToTarget
        if m.m13 == 0, m.m23 == 0, m.m33 == 1 {
            layerToTarget.m31 = m.m31 + d.x
            layerToTarget.m32 = m.m32 + d.y
        } else {
            layerToTarget = m.concatenating(.translation(d.x, d.y))
        }
        if clip != nil { clip = PlanRun.moved(clip, by: d) }
    }

    /// Whether `d` is a whole number of steps of the clip's grid (1/256 pixel): clips moved by it are exactly the
    /// ones planning would make, since both are snapped to that grid.
    static func onClipGrid(_ d: CGPoint) -> Bool {
        let steps = 1 / ConvexPolygon.snap
        return (d.x * steps).rounded() == d.x * steps && (d.y * steps).rounded() == d.y * steps
    }
}
