import Foundation
import LaminaCore

/// One frame of a layer tree, from the model to a plan with its damage, in the order every caller takes it
/// (docs/architecture.md, "The frame pipeline"):
///
/// 1. **commit**: the marked layers laid out, every thread's implicit transaction committed;
/// 2. **display**: the marked layers that can be seen drawn (and those whose running animations of a key that
///    needs display present other values);
/// 3. **snapshot**: the committed tree, shared where nothing changed;
/// 4. **presentation**: every animation applied at the frame's time; delegates told, completion blocks run, and on
///    a live clock finished animations taken off their layers;
/// 5. **plan**: the planner with the renderer's `PlanCache`, which keeps what did not change and says what did
///    (the plan's damage, since the cache's last plan).
///
/// `Renderer.render(_:scale:at:limits:)`, `plan(_:scale:at:limits:)` and `livePlan(_:scale:at:limits:)` are this
/// type's frames, and so are export's, `lamina bench`'s and the display loop's, which call them. Each stage is
/// timed at its boundary (`Renderer.lastPlanTimings`). A frame takes one snapshot; a live frame takes a second look
/// only when the presentation ran someone's code (a delegate, a completion block) or took a finished animation
/// off, since only then may the tree's animations differ from the snapshot's.
public struct FramePipeline {
    /// What one frame made.
    public struct Frame {
        /// The plan, its damage against the renderer's last plan of this tree.
        public var plan: RenderPlan
        /// Whether an animation is left in the tree, or tiles of a tiled layer are being drawn or fading in: more
        /// frames are needed although nothing changes (live frames only; false otherwise).
        public var animated: Bool
        /// The stages' times.
        public var timings: FramePlanTimings
    }

    public let root: Layer
    public let renderer: Renderer
    /// Output pixels per point.
    public var scale: CGFloat
    public var limits: PixelLimits

    public init(root: Layer, renderer: Renderer, scale: CGFloat = 1, limits: PixelLimits = .default) {
        self.root = root
        self.renderer = renderer
        self.scale = scale
        self.limits = limits
    }

    /// The frame of `root` at media time `time` (nil: now).
    /// `live`: a frame on a display's clock (which a player may seek back): finished animations come off their
    /// layers as at a frame of now, tiled layers do not wait for their tiles, and `animated` is worked out.
    /// Otherwise finished animations come off only for a frame of now (an export may draw earlier times later).
    public func frame(at time: Double?, live: Bool = false) throws -> Frame {
        let clock = FrameStageClock()
        var planner = renderer.rasterizingPlanner(scale: scale, limits: limits)
        let cache = renderer.planCache(for: root)
        if live, let time { planner.liveTileTime = time }
        let plan: RenderPlan
        let committedAnimated: Bool, ranCode: Bool
        let now = time ?? currentMediaTime()
        let committed = try root.snapshotForFrame(presentingAt: now)
        clock.markSnapshot()
        let blocksRan = MainRunLoopEvents.shared.runReadyBlocks()
        if committed.animatedSubtree, !blocksRan,
            let nodeFrame = try planner.animatedNodeFrame(committed, at: now, cache: cache,
                                                          presented: clock.markPresented)
        {
            // Only animated node values changed: no presentation, no planning (Planner+AnimatedNodes.swift).
            (plan, committedAnimated, ranCode) = (nodeFrame, true, false)
        } else {
            let presented: LayerSnapshot
            (presented, committedAnimated, ranCode) = Self.present(
                committed, at: now, removingFinished: live || time == nil, blocksRan: blocksRan)
            clock.markPresented()
            plan = try planner.plan(presented, cache: cache)
            cache.lastAnimatedFrame = committedAnimated && !ranCode ? (committed, plan.identity, now) : nil
        }
        var timings = clock.timings()
        var animated = false
        if live {
            let planned = DispatchTime.now().uptimeNanoseconds
            // Code run by the presentation may have added or changed animations, and finished ones came off: only
            // then is the committed tree looked at again. Tiles being drawn or fading in need frames too
            // (TileCache.swift).
            let treeAnimated = ranCode ? try root.snapshotForFrame().animatedSubtree : committedAnimated
            animated = treeAnimated || cache.tiles.needsFrames
            timings.snapshotSeconds += Double(DispatchTime.now().uptimeNanoseconds - planned) / 1e9
        }
        renderer.recordPlanTimings(timings)
        return Frame(plan: plan, animated: animated, timings: timings)
    }

    /// Stages 1 to 4 for `root` at `time` (nil: now): the presented snapshot, whether the committed snapshot had
    /// animations, and whether delivering the animations' events ran any code or took an animation off (the
    /// committed tree may then differ from the snapshot).
    /// `removingFinished`: whether animations past their end come off the layers (with `isRemovedOnCompletion`), as
    /// on a live clock; nil: only for a frame of now (time nil). `stages`: marks the snapshot's end.
    static func presentation(of root: Layer, at time: Double?, removingFinished: Bool?, stages: FrameStageClock?)
        throws -> (snapshot: LayerSnapshot, animated: Bool, ranCode: Bool)
    {
        let now = time ?? currentMediaTime()
        let snapshot = try root.snapshotForFrame(presentingAt: now)
        stages?.markSnapshot()
        // Completion blocks that came due since the last frame, unless the main queue has run them.
        let blocksRan = MainRunLoopEvents.shared.runReadyBlocks()
        return present(snapshot, at: now, removingFinished: removingFinished ?? (time == nil), blocksRan: blocksRan)
    }

    /// Stage 4 for the committed `snapshot`: it presented at media time `now`, whether it has animations, and whether
    /// code ran (`blocksRan`, or delivering the animations' events ran some or took an animation off).
    static func present(_ snapshot: LayerSnapshot, at now: Double, removingFinished: Bool, blocksRan: Bool)
        -> (snapshot: LayerSnapshot, animated: Bool, ranCode: Bool)
    {
        guard snapshot.animatedSubtree else { return (snapshot, false, blocksRan) }
        var events: [AnimationEvent] = []
        let presented = snapshot.presented(at: now, stamp: Layer.presentationStamp(), events: &events)
        let delivered = AnimationEvents.deliver(events, removingFinished: removingFinished)
        return (presented, true, blocksRan || delivered)
    }
}
