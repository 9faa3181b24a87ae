import Foundation
import Lamina
import LaminaBench

/// `lamina bench --live`: live frames of a large tree (LiveTree) through `renderer.render(root)`, with nothing, one,
/// 100 and every sprite moved before each frame; each figure is a median over `frames` frames, and compared with the
/// frame where every sprite moved (docs/benchmarks.md, "Live frames").
struct LiveBench {
    var frames: Int
    /// The tree's size in points, and the scale it is drawn at (below 1 on a tiny output: `BenchLayout`).
    var size: CGSize
    var scale: CGFloat = 1
    /// Sprites; nil: 100,000 on the CPU renderer, 20,000 on GLES (the issue's sizes).
    var layers: Int?

    struct Kind {
        var change: LiveTree.Change
        /// Whole frame (plan and draw), plan, draw: medians in ms.
        var frame: Double, plan: Double, draw: Double
        /// Median share of the target redrawn.
        var damaged: Double
        /// The frame's CPU build time: the plan and the renderer's preparation (`RenderStatistics.prepareSeconds`),
        /// median ms (docs/benchmarks.md, "Build time and drawing").
        var build: Double
        /// Setting the moved sprites' positions in one transaction and committing it, before the frame: median ms.
        var set: Double
    }

    struct Figures {
        var backend: String
        var layers: Int
        var width: Int, height: Int
        var kinds: [Kind]
        /// Whether a live frame after the measured ones equals a fresh renderer's, byte for byte.
        var identical: Bool

        func ratio(_ change: LiveTree.Change) -> Double {
            let all = kinds.first { $0.change == .all }!.frame
            return (kinds.first { $0.change == change }?.frame ?? .nan) / all
        }

        var json: String {
            let entries = kinds.map { kind in
                #"{"change": "\#(kind.change.rawValue)", "frameMs": \#(kind.frame), "planMs": \#(kind.plan), "#
                    + #""drawMs": \#(kind.draw), "buildMs": \#(kind.build), "setMs": \#(kind.set), "damagedShare": \#(kind.damaged), "ratioToAll": \#(ratio(kind.change))}"#
            }
            return #"{"backend": "\#(backend)", "layers": \#(layers), "width": \#(width), "height": \#(height), "#
                + #""identicalToFresh": \#(identical), "frames": [\#(entries.joined(separator: ", "))]}"#
        }

        func printSummary() {
            print("live \(backend): \(layers) sprites at \(width)x\(height), medians of the frames after each change")
            for kind in kinds {
                print(String(format: "  %-8@ %8.2f ms (plan %7.2f, draw %7.2f; build %7.2f; set %7.2f), %5.1f%% of the target redrawn, %6.2f%% of a frame where all moved",
                             kind.change.rawValue as NSString, kind.frame, kind.plan, kind.draw, kind.build, kind.set,
                             kind.damaged * 100, ratio(kind.change) * 100))
            }
            print("  a live frame equals a fresh renderer's, byte for byte: \(identical ? "yes" : "NO")")
        }
    }

    func measure(_ choice: BackendChoice) throws -> Figures {
        let (renderer, _) = try choice.makeRenderer()
        let count = layers ?? (renderer is GLESRenderer ? 20_000 : 100_000)
        let tree = try LiveTree(count: count, size: size)
        let frames = renderer.retainedFrames(for: tree.root)
        func frame() throws -> (total: Double, plan: Double, draw: Double, damaged: Double, build: Double) {
            let start = DispatchTime.now().uptimeNanoseconds
            let plan = try renderer.plan(tree.root, scale: scale)
            let planned = DispatchTime.now().uptimeNanoseconds
            _ = try frames.render(plan, with: renderer)
            let end = DispatchTime.now().uptimeNanoseconds
            let prepare = min(renderer.statistics.prepareSeconds * 1000, Double(end - planned) / 1e6)
            return (Double(end - start) / 1e6, Double(planned - start) / 1e6, Double(end - planned) / 1e6,
                    renderer.statistics.damagedShare, Double(planned - start) / 1e6 + prepare)
        }
        // Warm-up: the first frame plans everything and uploads the sheet.
        for _ in 0..<2 { _ = try frame() }
        var kinds: [Kind] = []
        for change in [LiveTree.Change.all, .none, .one, .hundred] {
            // One frame of each kind first, uncounted: it carries the change from the kind before.
            tree.apply(change)
            _ = try frame()
            var samples: [(total: Double, plan: Double, draw: Double, damaged: Double, build: Double)] = []
            var sets: [Double] = []
            for _ in 0..<self.frames {
                let setting = DispatchTime.now().uptimeNanoseconds
                tree.apply(change)
                sets.append(Double(DispatchTime.now().uptimeNanoseconds - setting) / 1e6)
                samples.append(try frame())
            }
            kinds.append(Kind(change: change, frame: FrameStats.percentile(samples.map(\.total), 0.5),
                              plan: FrameStats.percentile(samples.map(\.plan), 0.5),
                              draw: FrameStats.percentile(samples.map(\.draw), 0.5),
                              damaged: FrameStats.percentile(samples.map(\.damaged), 0.5),
                              build: FrameStats.percentile(samples.map(\.build), 0.5),
                              set: FrameStats.percentile(sets, 0.5)))
        }
        // The check a user would make: the incremental frame against a fresh renderer's whole frame.
        tree.apply(.hundred)
        let live = try renderer.render(tree.root, scale: scale)
        let (fresh, _) = try choice.makeRenderer()
        let expected = try fresh.render(Planner(scale: scale).plan(tree.root))
        let identical = live.byteCount == expected.byteCount
            && memcmp(live.baseAddress, expected.baseAddress, live.byteCount) == 0
        return Figures(backend: renderer.name, layers: count, width: live.width, height: live.height, kinds: kinds,
                       identical: identical)
    }
}
