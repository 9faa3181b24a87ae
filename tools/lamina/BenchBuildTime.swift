import Foundation
import Lamina

/// A frame's CPU build time (everything before the renderer draws: snapshot, presentation of the animations, plan
/// and damage, then the renderer's preparation: quad preparation on cpu, encoding and uploads on gles) and its
/// drawing (the rest of the frame), as medians over the counted frames (docs/benchmarks.md, "Build time and
/// drawing"). Per frame, build + draw is the frame's time exactly, so the means add up to the frame's mean.
struct FrameBuildSplit {
    var build: FrameStats
    var draw: FrameStats
    /// Medians of the build's stages, ms.
    var snapshot: Double, presentation: Double, plan: Double, prepare: Double
    /// How many of the counted frames were made from animated node values alone (no presentation, no planning:
    /// docs/architecture.md, "Property trees"), and the most layers such a frame moved.
    var nodeFrames = 0, nodeLayers = 0
    /// The counted frames.
    var frames = 0

    /// Per-frame figures gathered during a run.
    struct Samples {
        var build: [Double] = [], draw: [Double] = []
        var snapshot: [Double] = [], presentation: [Double] = [], plan: [Double] = [], prepare: [Double] = []
        var nodeFrames = 0, nodeLayers = 0

        /// One frame: `planStep` is the time of the bench's plan call (`renderer.plan`), `frame` the whole frame's,
        /// both ms; the stages come from the renderer (`lastPlanTimings`, `statistics.prepareSeconds`);
        /// `nodeValueLayers`, from the tree's plan cache (`PlanStatistics.nodeValueLayers`).
        mutating func add(planStep: Double, frame: Double, stages: FramePlanTimings, statistics: RenderStatistics,
                          nodeValueLayers: Int) {
            if nodeValueLayers > 0 {
                nodeFrames += 1
                nodeLayers = max(nodeLayers, nodeValueLayers)
            }
            // The renderer's preparation happens inside the render call; nothing else of it can exceed the frame.
            let prepare = min(max(0, statistics.prepareSeconds * 1000), max(0, frame - planStep))
            let built = planStep + prepare
            build.append(built)
            draw.append(frame - built)
            snapshot.append(stages.snapshotSeconds * 1000)
            presentation.append(stages.presentationSeconds * 1000)
            plan.append(stages.planSeconds * 1000)
            self.prepare.append(prepare)
        }

        var split: FrameBuildSplit? {
            guard !build.isEmpty else { return nil }
            let median = { FrameStats.percentile($0, 0.5) }
            return FrameBuildSplit(build: FrameStats(build), draw: FrameStats(draw), snapshot: median(snapshot),
                                   presentation: median(presentation), plan: median(plan), prepare: median(prepare),
                                   nodeFrames: nodeFrames, nodeLayers: nodeLayers, frames: build.count)
        }
    }

    /// "build 0.52 ms (snapshot 0.01, presentation 0.20, plan 0.21, prepare 0.10), draw 0.30 ms: medians per frame",
    /// and where node values made frames, "; node values in 10 of 10 frames (1,000 layers)".
    func text(prepareLabel: String) -> String {
        let nodes = nodeFrames == 0 ? ""
            : "; node values in \(nodeFrames) of \(frames) frames (\(group(Double(nodeLayers))) layers)"
        return "build \(f(build.median)) ms (snapshot \(f(snapshot)), presentation \(f(presentation)), "
            + "plan \(f(plan)), \(prepareLabel) \(f(prepare))), draw \(f(draw.median)) ms: medians per frame" + nodes
    }

    static func stats(_ s: FrameStats) -> BenchJSON {
        .object([
            ("median", .number(s.median)), ("min", .number(s.min)), ("max", .number(s.max)), ("p95", .number(s.p95)),
            ("mean", .number(s.mean)),
        ])
    }

    /// `buildMs` and `drawMs` ({median, min, max, p95, mean}) and `buildSplit` (the stages' medians).
    var jsonMembers: [(String, BenchJSON)] {
        [
            ("buildMs", Self.stats(build)), ("drawMs", Self.stats(draw)),
            ("buildSplit", .object([
                ("snapshotMs", .number(snapshot)), ("presentationMs", .number(presentation)),
                ("planMs", .number(plan)), ("prepareMs", .number(prepare)),
                ("nodeValueFrames", .number(Double(nodeFrames))), ("nodeValueLayers", .number(Double(nodeLayers))),
            ])),
        ]
    }
}

/// How `--size` lays out a built-in scene: at the output's size in points, drawn at scale 1; or, for a tiny output
/// (a side under 64 pixels), at a size `factor` times larger (its shorter side 1080 points), drawn at scale
/// 1 / factor, so the frame builds the same layers and quads as a full-size one and drawing costs next to nothing
/// (docs/benchmarks.md, "Build time and drawing").
struct BenchLayout {
    /// Sides under this many pixels make a tiny output.
    static let tinySide = 64
    /// The shorter side of a tiny output's layout, in points.
    static let tinyLayoutSide: CGFloat = 1080

    var points: CGSize
    var scale: CGFloat

    init(output: CGSize) {
        let shorter = min(output.width, output.height)
        if shorter < CGFloat(Self.tinySide), shorter > 0 {
            let factor = Self.tinyLayoutSide / shorter
            points = CGSize(width: output.width * factor, height: output.height * factor)
            scale = 1 / factor
        } else {
            points = output
            scale = 1
        }
    }
}
