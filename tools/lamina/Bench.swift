import ArgumentParser
import Foundation
import Lamina

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure how fast the renderers composite the built-in benchmark scenes.",
        discussion: """
            Scenes: \(BenchScene.allCases.map(\.rawValue).joined(separator: ", ")). Each frame is planned from \
            the layer tree and rendered (GLES: into its framebuffer, then glFinish); the figures are over the \
            counted frames after warm-up. Placement uses SplitMix64 with a fixed seed, so every run draws the \
            same frames. With gles, the minimal instanced GL loop over the same quads is timed as a baseline; \
            for upload, a plain memcpy of the same bytes.
            """)

    @Option(help: "Renderer: cpu, gles or all.")
    var backend: String = "cpu"

    @Option(name: .customLong("scene"), help: "Scene to run; repeat for several. Default: sprites-10k.")
    var scenes: [String] = []

    @Option(help: "Frames to count.") var frames: Int = 20
    @Option(help: "Frames to draw first, uncounted.") var warmup: Int = 3
    @Option(help: "Output size in pixels, WxH.") var size: String = "1920x1080"
    @Option(help: "Instead of scenes: make, use and release N renderers, and report memory before and after.")
    var churn: Int?

    mutating func run() throws {
        guard frames >= 1, warmup >= 0 else { throw CLIFailure.badInput("--frames must be at least 1, --warmup 0 or more") }
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 64, parts[1] >= 64, parts[0] <= 16384, parts[1] <= 16384 else {
            throw CLIFailure.badInput("--size must be WxH with sides 64...16384, got \(size)")
        }
        let backends: [BackendChoice]
        switch backend {
        case "cpu": backends = [.cpu]
        case "gles": backends = [.gles]
        case "all": backends = [.cpu, .gles]
        default: throw CLIFailure.badInput("--backend must be cpu, gles or all, got \(backend)")
        }
        let names = scenes.isEmpty ? [BenchScene.sprites10k.rawValue] : scenes
        let chosen = try names.map { name -> BenchScene in
            guard let scene = BenchScene(rawValue: name) else {
                throw CLIFailure.badInput(
                    "unknown scene \"\(name)\" (expected \(BenchScene.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return scene
        }
        let size = CGSize(width: parts[0], height: parts[1])
        if let churn {
            guard churn >= 1 else { throw CLIFailure.badInput("--churn must be at least 1") }
            for choice in backends { try Self.churn(choice, count: churn) }
            return
        }
        print("lamina \(LaminaVersion.string) bench: \(ProcessInfo.processInfo.activeProcessorCount) cores, "
              + "\(parts[0])x\(parts[1]), \(frames) frames after \(warmup) warm-up")
        for choice in backends {
            let (renderer, why) = try choice.makeRenderer()
            print("\(choice.rawValue): \(why)")
            for scene in chosen {
                try measure(scene, renderer: renderer, size: size)
            }
        }
    }

    private func measure(_ scene: BenchScene, renderer: Renderer, size: CGSize) throws {
        let root = try scene.makeRoot(size: size)
        let target = try Image(width: Int(size.width), height: Int(size.height))
        let gles = renderer as? GLESRenderer
        var planTimes: [Double] = [], totals: [Double] = [], uploaded: [Int] = [], uploadTimes: [Double] = []
        var lastPlan = RenderPlan(width: 1, height: 1)
        var drawsBefore = 0
        var firstFrame = 0.0
        for frame in 0..<(warmup + frames) {
            if frame == warmup { drawsBefore = BenchScene.drawCount(root) }
            scene.prepareFrame(root, frame: frame)
            let start = DispatchTime.now().uptimeNanoseconds
            let plan = try Planner().plan(root)
            let planned = DispatchTime.now().uptimeNanoseconds
            if let gles {
                try gles.renderOffscreen(plan)
                try gles.finish()
            } else {
                try renderer.render(plan, into: target)
            }
            let done = DispatchTime.now().uptimeNanoseconds
            if frame == 0 { firstFrame = Double(done - start) / 1e6 }
            if frame >= warmup {
                planTimes.append(Double(planned - start) / 1e6)
                totals.append(Double(done - start) / 1e6)
                uploaded.append(renderer.statistics.bytesUploaded)
                uploadTimes.append(renderer.statistics.uploadSeconds * 1000)
            }
            lastPlan = plan
        }
        let stats = renderer.statistics
        let median = Self.percentile(totals, 0.5)
        let draws = BenchScene.drawCount(root) - drawsBefore
        print("""
              \(scene.rawValue): \(f(median)) ms/frame median (min \(f(totals.min()!)), max \(f(totals.max()!)), \
            p95 \(f(Self.percentile(totals, 0.95)))), \(f(1000 / median)) fps, \(stats.drawCalls) draw calls, \
            \(stats.quads) quads
                plan \(f(Self.percentile(planTimes, 0.5))) ms (\(f(100 * Self.percentile(planTimes, 0.5) / median))% of the frame, \
            including custom drawing), \(f(Double(draws) / Double(frames))) layers drawn per frame; first frame \
            \(f(firstFrame)) ms
            """)
        if scene == .upload, gles != nil {
            let bytes = Double(uploaded.max() ?? 0)
            let memcpyMs = Self.memcpyMilliseconds(bytes: Int(bytes))
            let uploadMs = Self.percentile(uploadTimes, 0.5)
            print("    upload \(f(bytes / 1e6)) MB/frame in \(f(uploadMs)) ms: \(f(bytes / 1e3 / uploadMs)) MB/s; "
                  + "plain memcpy of the same bytes: \(f(memcpyMs)) ms, \(f(bytes / 1e3 / memcpyMs)) MB/s "
                  + "(upload / memcpy = \(f(uploadMs / memcpyMs))x)")
        }
        if gles != nil, [.sprites1k, .sprites10k, .sprites100k, .nineslice2k].contains(scene) {
            let baseline = try Self.baseline(for: lastPlan)
            var times: [Double] = []
            for frame in 0..<(warmup + frames) {
                let start = DispatchTime.now().uptimeNanoseconds
                try baseline.drawFrame()
                if frame >= warmup { times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
            }
            let base = Self.percentile(times, 0.5)
            print("    baseline (one instanced draw, one texture, no Lamina): \(f(base)) ms/frame, 1 draw call; "
                  + "Lamina / baseline = \(f(median / base))x")
        }
    }

    /// The minimal GL loop over the plan's textured quads (axis-aligned ones: the benchmark scenes').
    private static func baseline(for plan: RenderPlan) throws -> GLESBaseline {
        var image: Image?
        var quads: [(destination: CGRect, source: CGRect)] = []
        for quad in plan.quads {
            guard case .texture(let texture) = quad.paint else { continue }
            image = image ?? texture.image
            let corners = quad.corners.map(\.projected)
            let a = texture.unitToTexel.apply(.zero).projected, b = texture.unitToTexel.apply(CGPoint(x: 1, y: 1)).projected
            quads.append((CGRect(x: corners[0].x, y: corners[0].y, width: corners[2].x - corners[0].x,
                                 height: corners[2].y - corners[0].y),
                          CGRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)))
        }
        guard let image else { throw CLIFailure.failed("the scene has no textured quads for a baseline") }
        return try GLESBaseline(image: image, quads: quads, width: plan.width, height: plan.height)
    }

    /// Makes, uses and releases `count` renderers; prints resident memory after the first tenth and at the end.
    private static func churn(_ choice: BackendChoice, count: Int) throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 128, height: 128)
        let layer = Layer(frame: root.bounds)
        layer.contents = try Image(width: 64, height: 64, color: .red)
        root.addSublayer(layer)
        let plan = try Planner().plan(root)
        var baseline = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 1...count {
            let (renderer, _) = try choice.makeRenderer()
            let image = try renderer.render(plan)
            guard image.rgba(x: 64, y: 64) == RGBA8(r: 255, g: 0, b: 0, a: 255) else {
                throw CLIFailure.failed("renderer \(index) drew the wrong pixels")
            }
            if index == max(1, count / 10) { baseline = residentKilobytes() }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let end = residentKilobytes()
        print("\(choice.rawValue): \(count) renderers made, used and released in \(String(format: "%.1f", seconds)) s; "
              + "resident memory \(baseline / 1024) MB after \(max(1, count / 10)), \(end / 1024) MB after \(count) "
              + "(\(end - baseline) kB growth)")
    }

    private static func residentKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// Median time of copying `bytes` with memcpy.
    private static func memcpyMilliseconds(bytes: Int) -> Double {
        guard bytes > 0 else { return 0 }
        let source = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let destination = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { source.deallocate(); destination.deallocate() }
        memset(source, 1, bytes)
        memset(destination, 2, bytes)
        var times: [Double] = []
        for _ in 0..<11 {
            let start = DispatchTime.now().uptimeNanoseconds
            memcpy(destination, source, bytes)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return percentile(times, 0.5)
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * p).rounded())))
        return sorted[index]
    }

    private func f(_ value: Double) -> String { String(format: "%.2f", value) }
}
