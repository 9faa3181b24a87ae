import Foundation
import Lamina
import LaminaBench

/// A scene to measure: a built-in one, or a scene file.
struct BenchSceneSource {
    var name: String
    var builtIn: BenchScene?
    var file: URL?

    /// A scene file, loaded once now so that a bad one exits 2 before anything is measured.
    static func file(_ path: String) throws -> BenchSceneSource {
        let source = BenchSceneSource(
            name: URL(fileURLWithPath: path).lastPathComponent, builtIn: nil, file: URL(fileURLWithPath: path))
        _ = try source.load()
        return source
    }

    private func load() throws -> Scene {
        guard let file else { throw CLIFailure.failed("\(name) is not a scene file") }
        do {
            return try Scene.load(contentsOf: file)
        } catch let error as SceneError {
            throw CLIFailure.badInput(error.description)
        } catch {
            throw CLIFailure.badInput("\(file.relativePath): \(error)")
        }
    }

    /// A fresh layer tree and the planner's scale. Built-in scenes fill `size` (default 1920 x 1080) at scale 1,
    /// or, on a tiny output, a larger layout at a smaller scale (`BenchLayout`); a scene file keeps its own size and
    /// scale, or with `size` is scaled, aspect kept, to fit inside it.
    func make(size: CGSize?) throws -> (root: Layer, scale: CGFloat) {
        if let builtIn {
            let layout = BenchLayout(output: size ?? CGSize(width: 1920, height: 1080))
            return (try builtIn.makeRoot(size: layout.points), layout.scale)
        }
        let scene = try load()
        guard let size else { return (scene.root, scene.scale) }
        let points = scene.root.bounds.size
        guard points.width > 0, points.height > 0 else { return (scene.root, scene.scale) }
        return (scene.root, min(size.width / points.width, size.height / points.height))
    }

    func prepareFrame(_ root: Layer, frame: Int) {
        builtIn?.prepareFrame(root, frame: frame)
    }

    func redrawnLayers(_ root: Layer, frame: Int) -> [Layer] {
        builtIn?.redrawnLayers(root, frame: frame) ?? []
    }
}

/// Median, min, max, p95 and mean of a run's counted frame times, in milliseconds.
struct FrameStats {
    var median: Double, min: Double, max: Double, p95: Double, mean: Double

    init(_ times: [Double]) {
        precondition(!times.isEmpty)
        median = Self.percentile(times, 0.5)
        min = times.min()!
        max = times.max()!
        p95 = Self.percentile(times, 0.95)
        mean = times.reduce(0, +) / Double(times.count)
    }

    /// The value at rank round(p x (n - 1)) of the sorted values (n = 20: the median is the 11th, p95 the 19th).
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        let index = Swift.min(sorted.count - 1, Swift.max(0, Int((Double(sorted.count - 1) * p).rounded())))
        return sorted[index]
    }
}

/// One renderer's figures on one scene.
struct RendererFigures {
    var renderer: String
    var frame: FrameStats
    var planMedian: Double
    var firstFrame: Double
    var drawCalls: Int
    var quadsDrawn: Int
    /// Quads left out under an opaque one, on the last frame (`RenderStatistics.quadsHidden`).
    var quadsHidden: Int
    var bytesUploadedPerFrame: Double
    var uploadMedian: Double
    /// Medians over the counted frames (RenderStatistics of each frame).
    var offscreenPasses: Int
    var shadowsBlurred: Int
    var shadowsReused: Int
    /// The same counters for the first frame (frame 0, a warm-up frame when there is warm-up), which makes every
    /// shadow.
    var firstFrameOffscreenPasses: Int
    var firstFrameShadowsBlurred: Int
    var customDrawsPerFrame: Double
    /// Vector pictures (gradient, shape and text layers) made per counted frame (median) and on the first frame, of
    /// `vectorLayers` such layers in the tree (docs/benchmarks.md, "Vector layers").
    var picturesMade: Int = 0
    var firstFramePicturesMade: Int = 0
    var vectorLayers: Int = 0
    var peakMemoryBytes: Int
    /// gles: the frame's time split into its parts (BenchGLESSplit.swift).
    var glesSplit: GLESFrameSplit? = nil
    /// The frame's CPU build time and its drawing (BenchBuildTime.swift).
    var buildSplit: FrameBuildSplit? = nil
    var framesPerSecond: Double { 1000 / frame.median }
    /// The share of vector layers whose picture was not made again in a counted frame (median frame).
    var pictureHitRate: Double? {
        vectorLayers > 0 ? 1 - Double(picturesMade) / Double(vectorLayers) : nil
    }
}

/// A baseline's figures on one scene; `skipped` says why there are none.
struct BaselineFigures {
    var frame: FrameStats?
    var note: String?
    var skipped: String?
    /// memcpy only: the bytes counted.
    var bytesRead = 0, bytesWritten = 0

    static func skipped(_ why: String) -> BaselineFigures { BaselineFigures(frame: nil, note: nil, skipped: why) }
}

/// Everything measured on one scene.
struct SceneResult {
    var name: String
    var isFile: Bool
    var width: Int, height: Int, scale: Double
    var layers: Int
    var quads: Int
    var textures: Int
    var renderers: [RendererFigures] = []
    var memcpy = BaselineFigures.skipped("not measured")
    var cairo = BaselineFigures.skipped("not measured")
    var glesInstanced = BaselineFigures.skipped("not measured: --backend cpu")
    /// Planning the scene's frames from scratch (no plan cache), median ms: what the renderers' cached planning is
    /// measured against.
    var freshPlanMedian = 0.0
    /// The same frames planned with a plan cache, measured alongside (planning alone, no drawing), median ms.
    var cachedPlanMedian = 0.0
    /// The animations attached in the tree, and the median ms of applying them all to a frame's snapshot
    /// (`presentationSnapshot(at:)` of the root, frame after frame at 60 fps times): 0 without animations.
    var animations = 0
    var animationMedian = 0.0

    /// Lamina's median frame time over the baseline's; nil without the baseline.
    func ratio(_ figures: RendererFigures, _ baseline: BaselineFigures) -> Double? {
        guard let base = baseline.frame?.median, base > 0 else { return nil }
        return figures.frame.median / base
    }

    var baselines: [(key: String, label: String, figures: BaselineFigures)] {
        [
            ("memcpy", "memcpy floor", memcpy), ("cairo", "cairo", cairo),
            ("glesInstanced", "gles instanced", glesInstanced),
        ]
    }

    func printSummary() {
        print("\(name): \(width)x\(height)\(scale == 1 ? "" : " (scale \(f(scale)))"), \(layers) layers, "
              + "\(quads) quads, \(textures) texture\(textures == 1 ? "" : "s")")
        for r in renderers {
            let uploaded = r.bytesUploadedPerFrame > 0
                ? ", \(megabytes(r.bytesUploadedPerFrame)) MB uploaded/frame" : ""
            let layersPerSecond = group(Double(layers) * r.framesPerSecond)
            let shadows = r.shadowsBlurred + r.shadowsReused + r.firstFrameShadowsBlurred > 0
                ? "\n    shadows per frame: \(r.shadowsBlurred) blurred, \(r.shadowsReused) reused (first frame: "
                    + "\(r.firstFrameShadowsBlurred) blurred, \(r.firstFrameOffscreenPasses) offscreen passes)"
                : ""
            print("""
                  \(r.renderer): \(f(r.frame.median)) ms/frame median (min \(f(r.frame.min)), max \(f(r.frame.max)), \
                p95 \(f(r.frame.p95))), \(f(r.framesPerSecond)) fps, \(layersPerSecond) layers/s, \
                \(r.drawCalls) draw calls\(uploaded)\(r.quadsHidden > 0 ? ", \(r.quadsHidden) quads hidden" : ""), \
                \(r.offscreenPasses) offscreen passes/frame, \
                peak \(megabytes(Double(r.peakMemoryBytes))) MB
                    plan \(f(r.planMedian)) ms (\(f(100 * r.planMedian / r.frame.median))% of the frame, including \
                custom drawing), \(f(r.customDrawsPerFrame)) layers drawn per frame; first frame \(f(r.firstFrame)) ms\
                \(shadows)
                """)
            if let build = r.buildSplit {
                print("    \(build.text(prepareLabel: r.renderer == "gles" ? "encode and upload" : "quad preparation"))")
            }
            if let split = r.glesSplit { print("    split: \(split.text)") }
            if let hitRate = r.pictureHitRate {
                print("    vector pictures per frame: \(r.picturesMade) made, \(r.vectorLayers - r.picturesMade) kept of "
                      + "\(r.vectorLayers) (hit rate \(f(100 * hitRate))%); first frame \(r.firstFramePicturesMade) made")
            }
            if r.uploadMedian > 0, r.bytesUploadedPerFrame > 0 {
                print("    upload \(megabytes(r.bytesUploadedPerFrame)) MB/frame in \(f(r.uploadMedian)) ms: "
                      + "\(f(r.bytesUploadedPerFrame / 1e3 / r.uploadMedian)) MB/s")
            }
        }
        print("  planning alone: \(f(freshPlanMedian)) ms from scratch, \(f(cachedPlanMedian)) ms with a plan cache "
              + "(\(f(100 * cachedPlanMedian / max(freshPlanMedian, 1e-9)))%)")
        if animations > 0 {
            print("  animations: \(group(Double(animations))) evaluated per frame in \(f(animationMedian)) ms median")
        }
        for (_, label, figures) in baselines {
            if let frame = figures.frame {
                var line = "  baseline \(label): \(f(frame.median)) ms/frame median "
                    + "(min \(f(frame.min)), max \(f(frame.max)))"
                if label == "memcpy floor" {
                    line += " for \(megabytes(Double(figures.bytesRead + figures.bytesWritten))) MB"
                }
                if let note = figures.note { line += "; \(note)" }
                print(line)
                let ratios = renderers.compactMap { r in ratio(r, figures).map { "\(r.renderer) \(f($0))x" } }
                if !ratios.isEmpty { print("    Lamina / \(label): \(ratios.joined(separator: ", "))") }
            } else if let skipped = figures.skipped, !skipped.hasPrefix("not measured: --backend") {
                print("  baseline \(label): none (\(skipped))")
            }
        }
    }
}

func f(_ value: Double) -> String { String(format: "%.2f", value) }
func megabytes(_ bytes: Double) -> String { String(format: "%.1f", bytes / 1e6) }
/// 1234567 as "1,234,567".
func group(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var out = ""
    for (index, character) in digits.reversed().enumerated() {
        if index > 0, index % 3 == 0, character != "-" { out.append(",") }
        out.append(character)
    }
    return String(out.reversed())
}

/// Runs the scenes: the renderers first, then the baselines, back to back so that their ratios share the
/// machine's mood of the moment.
struct BenchRunner {
    var frames: Int
    var warmup: Int
    var size: CGSize?

    func measure(_ source: BenchSceneSource, renderers: [BackendChoice], glesBaseline: Bool) throws -> SceneResult {
        let (root, scale) = try source.make(size: size)
        let plan = try planOrFail(root, scale: scale)
        let textures = Set(plan.quads.compactMap { quad -> ObjectIdentifier? in
            guard case .texture(let texture) = quad.paint else { return nil }
            return ObjectIdentifier(texture.image)
        })
        var result = SceneResult(
            name: source.name, isFile: source.file != nil, width: plan.width, height: plan.height,
            scale: Double(scale), layers: BenchScene.visibleLayerCount(root), quads: plan.quads.count,
            textures: textures.count)
        for choice in renderers {
            result.renderers.append(try measureRenderer(choice, source: source))
        }
        (result.freshPlanMedian, result.cachedPlanMedian) = try measureFreshPlan(source)
        (result.animations, result.animationMedian) = measureAnimations(root)
        // The baselines draw the plan of the tree built above (custom drawing done by its first planning).
        result.memcpy = MemcpyFloor.measure(plan, label: "\(source.name) memcpy")
        result.cairo = try measureCairo(source, root: root, plan: plan)
        if glesBaseline { result.glesInstanced = try measureGLESBaseline(source, plan: plan) }
        return result
    }

    /// Plans a frame: with `renderer`, as a renderer plans its frames (with the plan cache it keeps for the tree);
    /// without, from scratch.
    private func planOrFail(_ root: Layer, scale: CGFloat, renderer: Renderer? = nil) throws -> RenderPlan {
        do {
            if let renderer { return try renderer.plan(root, scale: scale) }
            return try Planner(scale: scale).plan(root)
        } catch let error as PlanError {
            throw CLIFailure.badInput(error.description)
        }
    }

    /// The scene's frames planned, on a fresh tree prepared as the renderers' frames are, twice each: with a plan
    /// cache (as a renderer plans, without drawing) and from scratch, one after the other so that both see the
    /// machine alike. The medians, in ms.
    private func measureFreshPlan(_ source: BenchSceneSource) throws -> (fresh: Double, cached: Double) {
        let (root, scale) = try source.make(size: size)
        let planning = CPURenderer(threads: 1)
        var fresh: [Double] = [], cached: [Double] = []
        for frame in 0..<(warmup + frames) {
            source.prepareFrame(root, frame: frame)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try planOrFail(root, scale: scale, renderer: planning)
            let middle = DispatchTime.now().uptimeNanoseconds
            _ = try planOrFail(root, scale: scale)
            let end = DispatchTime.now().uptimeNanoseconds
            if frame >= warmup {
                cached.append(Double(middle - start) / 1e6)
                fresh.append(Double(end - middle) / 1e6)
            }
        }
        return (FrameStats.percentile(fresh, 0.5), FrameStats.percentile(cached, 0.5))
    }

    /// The animations in `root`'s tree and the median ms of applying all of them to a frame: the root's
    /// presentation at one 60 fps frame time after another (the committed snapshot is kept, so this is the
    /// animations' own cost).
    private func measureAnimations(_ root: Layer) -> (count: Int, median: Double) {
        var count = 0
        var pending = [root]
        while let layer = pending.popLast() {
            count += layer.animationKeys()?.count ?? 0
            pending.append(contentsOf: layer.sublayers ?? [])
        }
        guard count > 0 else { return (0, 0) }
        var times: [Double] = []
        for frame in 0..<(warmup + frames) {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = root.presentationSnapshot(at: 10 + Double(frame) / 60)
            let end = DispatchTime.now().uptimeNanoseconds
            if frame >= warmup { times.append(Double(end - start) / 1e6) }
        }
        return (count, FrameStats.percentile(times, 0.5))
    }

    private func measureRenderer(_ choice: BackendChoice, source: BenchSceneSource) throws -> RendererFigures {
        // A fresh tree and renderer for each run: no texture cache or drawing carries over from another run, and
        // the peak memory is this run's own (the tree's images included).
        PeakMemory.reset()
        let (root, scale) = try source.make(size: size)
        let (renderer, _) = try choice.makeRenderer()
        let planner = Planner(scale: scale)
        let (width, height) = try planner.outputSize(for: root.bounds.size)
        let target = try Image(width: width, height: height)
        let gles = renderer as? GLESRenderer
        gles?.measuresFrameTimes = true
        var split = GLESFrameSplit.Samples()
        var build = FrameBuildSplit.Samples()
        var planTimes: [Double] = [], totals: [Double] = [], uploaded: [Double] = [], uploadTimes: [Double] = []
        var drawsBefore = 0, firstFrame = 0.0, first = RenderStatistics()
        var passes: [Double] = [], blurred: [Double] = [], reused: [Double] = [], made: [Double] = []
        var firstMade = 0
        let progress = Progress(label: "\(source.name) \(choice.rawValue)", total: warmup + frames)
        defer { progress.finish() }
        for frame in 0..<(warmup + frames) {
            if frame == warmup { drawsBefore = BenchScene.drawCount(root) }
            source.prepareFrame(root, frame: frame)
            let start = DispatchTime.now().uptimeNanoseconds
            let plan = try planOrFail(root, scale: scale, renderer: renderer)
            let planned = DispatchTime.now().uptimeNanoseconds
            do {
                if let gles {
                    try gles.renderOffscreen(plan)
                    try gles.finish()
                } else {
                    try renderer.render(plan, into: target)
                }
            } catch {
                throw CLIFailure.failed("\(source.name) on \(choice.rawValue): \(error)")
            }
            let done = DispatchTime.now().uptimeNanoseconds
            if let gles, frame >= warmup {
                // Outside the frame's time: what reading it back would add.
                do { try gles.measureReadback(into: target) } catch {
                    throw CLIFailure.failed("\(source.name) on \(choice.rawValue): \(error)")
                }
                split.add(gles.frameTimings)
            }
            let pictures = renderer.planCache(for: root).statistics.picturesMade
            if frame == 0 {
                firstFrame = Double(done - start) / 1e6
                first = renderer.statistics
                firstMade = pictures
            }
            if frame >= warmup {
                build.add(planStep: Double(planned - start) / 1e6, frame: Double(done - start) / 1e6,
                          stages: renderer.lastPlanTimings, statistics: renderer.statistics,
                          nodeValueLayers: renderer.planCache(for: root).statistics.nodeValueLayers)
                planTimes.append(Double(planned - start) / 1e6)
                totals.append(Double(done - start) / 1e6)
                uploaded.append(Double(renderer.statistics.bytesUploaded))
                uploadTimes.append(renderer.statistics.uploadSeconds * 1000)
                passes.append(Double(renderer.statistics.offscreenPasses))
                blurred.append(Double(renderer.statistics.shadowsBlurred))
                reused.append(Double(renderer.statistics.shadowsReused))
                made.append(Double(pictures))
            }
            progress.update(frame + 1)
        }
        let stats = renderer.statistics
        return RendererFigures(
            renderer: choice.rawValue, frame: FrameStats(totals), planMedian: FrameStats.percentile(planTimes, 0.5),
            firstFrame: firstFrame, drawCalls: stats.drawCalls, quadsDrawn: stats.quadsDrawn,
            quadsHidden: stats.quadsHidden,
            bytesUploadedPerFrame: uploaded.reduce(0, +) / Double(frames),
            uploadMedian: FrameStats.percentile(uploadTimes, 0.5),
            offscreenPasses: Int(FrameStats.percentile(passes, 0.5)),
            shadowsBlurred: Int(FrameStats.percentile(blurred, 0.5)),
            shadowsReused: Int(FrameStats.percentile(reused, 0.5)),
            firstFrameOffscreenPasses: first.offscreenPasses, firstFrameShadowsBlurred: first.shadowsBlurred,
            customDrawsPerFrame: Double(BenchScene.drawCount(root) - drawsBefore) / Double(frames),
            picturesMade: Int(FrameStats.percentile(made, 0.5)), firstFramePicturesMade: firstMade,
            vectorLayers: BenchScene.vectorLayerCount(root), peakMemoryBytes: PeakMemory.bytes(), glesSplit: split.split(plan: FrameStats.percentile(planTimes, 0.5)),
            buildSplit: build.split)
    }

    private func measureCairo(_ source: BenchSceneSource, root: Layer, plan: RenderPlan) throws -> BaselineFigures {
        // The plain-cairo baseline draws quads straight onto its surface; offscreen groups (group opacity, masks,
        // rounded clips where shapes meet) would need cairo groups of their own, so such scenes get no cairo figure
        // rather than one for a different picture.
        if !plan.groups.isEmpty {
            return .skipped("the plan has \(plan.groups.count) offscreen group\(plan.groups.count == 1 ? "" : "s") "
                + "(group opacity, masks or rounded clips), which the plain-cairo baseline does not draw")
        }
        let cairo: CairoBaseline
        do {
            cairo = try CairoBaseline(plan: plan)
        } catch {
            return .skipped("\(error)")
        }
        var times: [Double] = []
        let progress = Progress(label: "\(source.name) cairo", total: warmup + frames)
        defer { progress.finish() }
        for frame in 0..<(warmup + frames) {
            source.prepareFrame(root, frame: frame)
            let redrawn = source.redrawnLayers(root, frame: frame)
            let start = DispatchTime.now().uptimeNanoseconds
            // What a cairo program redrawing these badges would do: the same drawing code (LaminaDrawing is a
            // thin layer over cairo) into the same images.
            for layer in redrawn { layer.display() }
            // cards-500-moving: moving a card costs a cairo program nothing beyond drawing it elsewhere, but the
            // resized card's shadow must be blurred again.
            if source.builtIn == .cards500Moving { try cairo.blurShadowAgain(frame) }
            try cairo.drawFrame()
            if frame >= warmup { times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
            progress.update(frame + 1)
        }
        var notes = cairo.notes
        if source.builtIn == .drawn1kRedraw10 {
            notes.append("10 badges redrawn per frame with the scene's drawing code")
        }
        if source.builtIn == .cards500Moving {
            notes.append("cards drawn where the first frame has them (moves not followed); one shadow blurred "
                         + "again per frame, as for the resized card")
        }
        return BaselineFigures(frame: FrameStats(times), note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    private func measureGLESBaseline(_ source: BenchSceneSource, plan: RenderPlan) throws -> BaselineFigures {
        if source.builtIn == .upload { return .skipped("the baseline uploads its texture once, not every frame") }
        let made: (GLESBaseline, String?)
        do {
            guard let baseline = try GLESInstancedBaseline.make(for: plan) else {
                return .skipped(GLESInstancedBaseline.whyNot(plan))
            }
            made = baseline
        } catch {
            return .skipped("\(error)")
        }
        var times: [Double] = []
        let progress = Progress(label: "\(source.name) gles baseline", total: warmup + frames)
        defer { progress.finish() }
        for frame in 0..<(warmup + frames) {
            let start = DispatchTime.now().uptimeNanoseconds
            do { try made.0.drawFrame() } catch { return .skipped("\(error)") }
            if frame >= warmup { times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
            progress.update(frame + 1)
        }
        var notes = ["one instanced draw"]
        if let note = made.1 { notes.append(note) }
        if source.builtIn == .drawn1kRedraw10 { notes.append("no redraws or re-uploads") }
        return BaselineFigures(frame: FrameStats(times), note: notes.joined(separator: "; "))
    }
}

/// A progress bar on stderr for runs over a second, only when stderr is a terminal (never in tests or CI logs).
final class Progress {
    private static let enabled = isatty(2) == 1
    private let label: String, total: Int
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastDrawn: UInt64 = 0
    private var shown = false

    init(label: String, total: Int) {
        self.label = label
        self.total = total
    }

    func update(_ done: Int) {
        guard Self.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - start > 1_000_000_000, now - lastDrawn > 100_000_000 || done == total else { return }
        lastDrawn = now
        shown = true
        let width = 30, filled = width * done / max(total, 1)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(total)\u{1B}[K".utf8))
    }

    /// Clears the bar's line, so that it never mixes with the figures.
    func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}

/// Peak resident memory of the process.
enum PeakMemory {
    /// Whether VmHWM could be reset; where not, the figure is ru_maxrss: the peak of the whole process so far.
    nonisolated(unsafe) static var resettable = true

    /// Resets the kernel's high-water mark to the current resident size (Linux 4.0+, "5" to clear_refs), so
    /// that the next reading is the peak of what follows.
    static func reset() {
        // Hand memory freed by earlier runs back to the kernel first; glibc would otherwise keep it resident, and
        // the reset mark would start from an earlier run's peak.
        trim?(0)
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else {
            resettable = false
            return
        }
        defer { close(fd) }
        if write(fd, "5", 1) != 1 { resettable = false }
    }

    /// glibc's malloc_trim, looked up at run time: Swift's Glibc module leaves out malloc.h.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    static func bytes() -> Int {
        if resettable, let kilobytes = ProcessMemory.statusKilobytes("VmHWM:") { return kilobytes * 1024 }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    static var source: String {
        resettable ? "VmHWM, reset before each run" : "ru_maxrss, the whole process so far"
    }
}

/// The machine the figures came from.
struct BenchMachine {
    var cpuModel: String
    var cores: Int
    var memoryBytes: Int
    var os: String
    var kernel: String
    var pixmanVersion: String
    var cairoVersion: String

    #if DEBUG
    static let build = "debug"
    #else
    static let build = "release"
    #endif

    static func current() -> BenchMachine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let pretty = release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let memory = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") } ?? 0
        return BenchMachine(
            cpuModel: model, cores: ProcessInfo.processInfo.activeProcessorCount, memoryBytes: memory * 1024,
            os: pretty ?? "unknown", kernel: kernel, pixmanVersion: CPURenderer.pixmanVersion,
            cairoVersion: CairoBaseline.version)
    }

}
