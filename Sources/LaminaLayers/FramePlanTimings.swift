import Foundation
import LaminaCore

// A frame's CPU build time, before any pixel is drawn, is the sum of stages timed where they meet: the snapshot,
// the presentation, the plan (here, `Renderer.plan(_:scale:at:limits:)` and `livePlan`), then the renderer's own
// preparation (`RenderStatistics.prepareSeconds`: quad preparation on the CPU renderer; encoding and uploads on
// GLES). `lamina bench` reports their sum as the frame's build time and the rest of the frame as drawing
// (docs/benchmarks.md, "Build time and drawing").

/// Where the CPU time of planning a frame of a layer tree went: the stages of `Renderer.plan(_:scale:at:limits:)`,
/// `livePlan(_:scale:at:limits:)` and `render(_:scale:at:limits:)`, timed at their boundaries with the monotonic
/// clock.
public struct FramePlanTimings: Sendable, Equatable {
    /// Laying out the marked layers, committing every thread's implicit transaction, drawing the marked layers that
    /// can be seen, and the snapshot of the committed tree (for a live plan, also the second look at the tree that
    /// says whether more frames are needed), in seconds.
    public var snapshotSeconds = 0.0
    /// Applying every running animation to the snapshot (the presentation) and delivering animation events, in
    /// seconds; next to nothing for a tree without animations.
    public var presentationSeconds = 0.0
    /// The planner: quads, groups and damage, with the renderer's plan cache, in seconds.
    public var planSeconds = 0.0

    /// The three stages together.
    public var totalSeconds: Double { snapshotSeconds + presentationSeconds + planSeconds }

    public init(snapshotSeconds: Double = 0, presentationSeconds: Double = 0, planSeconds: Double = 0) {
        self.snapshotSeconds = snapshotSeconds
        self.presentationSeconds = presentationSeconds
        self.planSeconds = planSeconds
    }
}

/// The stage boundaries of one frame's planning, marked as the frame passes them.
final class FrameStageClock {
    private let start = DispatchTime.now().uptimeNanoseconds
    private var snapshotted: UInt64?
    private var presented: UInt64?

    /// The committed tree's snapshot is taken.
    func markSnapshot() { snapshotted = DispatchTime.now().uptimeNanoseconds }

    /// The animations are applied.
    func markPresented() { presented = DispatchTime.now().uptimeNanoseconds }

    /// The stages up to now, the end of planning.
    func timings() -> FramePlanTimings {
        let now = DispatchTime.now().uptimeNanoseconds
        let snapshot = snapshotted ?? start
        let presentation = max(presented ?? snapshot, snapshot)
        return FramePlanTimings(
            snapshotSeconds: Double(snapshot - start) / 1e9, presentationSeconds: Double(presentation - snapshot) / 1e9,
            planSeconds: Double(now - presentation) / 1e9)
    }
}

/// The last timings a renderer recorded (a slot of its `RendererCaches`).
final class FramePlanTimingsBox {
    var value = FramePlanTimings()
}

extension Renderer {
    /// The stages of the last frame this renderer planned from a layer tree (`plan(_:scale:at:limits:)`,
    /// `livePlan(_:scale:at:limits:)`, `render(_:scale:at:limits:)`); zero before the first. With
    /// `RenderStatistics.prepareSeconds` after the frame is rendered, they make the frame's CPU build time.
    public var lastPlanTimings: FramePlanTimings {
        caches.slot("LaminaLayers.FramePlanTimings") { FramePlanTimingsBox() }.value
    }

    func recordPlanTimings(_ timings: FramePlanTimings) {
        caches.slot("LaminaLayers.FramePlanTimings") { FramePlanTimingsBox() }.value = timings
    }
}
