import ArgumentParser
import Foundation
import Lamina
import LaminaBench

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure how fast the renderers composite benchmark scenes, against three baselines.",
        discussion: """
            Scenes: \(BenchScene.allCases.map(\.rawValue).joined(separator: ", ")), or a scene file (a path \
            ending in .json), drawn at its own size and scale; with --size, a scene file is scaled (aspect kept) \
            to fit WxH. Each frame is planned from the layer tree and rendered (cpu: into an image; gles: into \
            its framebuffer, then glFinish); the figures are over the counted frames after warm-up. Placement \
            uses SplitMix64 with a fixed seed, so every run draws the same frames. Beside each scene: a memcpy \
            of the bytes a frame must read and write, the same quads drawn with plain cairo calls, and (with \
            gles) a minimal instanced GL loop; see docs/benchmarks.md.
            """)

    @Option(help: "Renderer: cpu, gles or all.")
    var backend: String = "cpu"

    @Option(name: .customLong("scene"),
            help: ArgumentHelp("A built-in scene or a scene file (.json); repeat for several. Default: sprites-10k.",
                               valueName: "name|file"))
    var scenes: [String] = []

    @Option(help: "Frames to count.") var frames: Int = 20
    @Option(help: "Frames to draw first, uncounted.") var warmup: Int = 3
    @Option(help: ArgumentHelp(
        "Output size in pixels, sides 1...16384 (default 1920x1080; scene files: their own size). Under 64 pixels a side, built-in scenes keep a full-size layout drawn scaled down, so drawing costs next to nothing and the build time shows.",
        valueName: "WxH"))
    var size: String?
    @Option(help: ArgumentHelp("Write every figure as JSON to this file.", valueName: "out.json"))
    var json: String?
    @Option(help: ArgumentHelp("Write an SVG bar chart of the median frame times to this file.", valueName: "out.svg"))
    var chart: String?
    @Option(help: "Instead of scenes: make, use and release N renderers, and report memory before and after.")
    var churn: Int?
    @Flag(help: ArgumentHelp(
        "Instead of the scenes' frame times: export each scene (default animated-1k) through lamina export's pipeline with 1 job on 1 thread, 1 job on every core, and a job per core, and report frames/s; --frames frames (at least 60) at 60 fps."))
    var export = false
    @Flag(help: ArgumentHelp(
        "Instead of the scenes: live frames of a tree of small textured layers (100,000 on cpu, 20,000 on gles, or --layers) with nothing, one, 100 and every layer moved before each frame; medians of --frames frames (default here 7) against the frame where every layer moved, and a byte-for-byte check against a fresh renderer."))
    var live = false
    @Option(help: "With --live: the number of layers (default 100,000 on cpu, 20,000 on gles).")
    var layers: Int?
    @Flag(help: ArgumentHelp(
        "Instead of the scenes: a tiled layer of 1,000,000 x 1,000,000 points panned across --frames frames (default here 100), live and offline; median and maximum frame times and resident memory before and after."))
    var tiledPan = false

    mutating func run() throws {
        let settings = try validatedSettings()
        if let churn {
            guard churn >= 1 else { throw CLIFailure.badInput("--churn must be at least 1") }
            for choice in settings.backends { try Self.churn(choice, count: churn) }
            return
        }
        // Check the output paths before minutes of measuring, so a typo fails at once.
        for path in [json, chart].compactMap({ $0 }) { try Self.checkWritable(path) }
        if export {
            try runExports(settings)
            return
        }
        if live {
            try runLive(settings)
            return
        }
        if tiledPan {
            try runTiledPan(settings)
            return
        }
        let machine = BenchMachine.current()
        var renderers: [(BackendChoice, String)] = []
        var glesInfo: GLESInfo?
        var glesUnavailable: String?
        for choice in settings.backends {
            do {
                let (renderer, why) = try choice.makeRenderer()
                if let gles = renderer as? GLESRenderer { glesInfo = gles.info }
                renderers.append((choice, why))
            } catch let failure as CLIFailure where backend == "all" && choice == .gles {
                // `all` on a machine without EGL still measures the CPU side.
                glesUnavailable = failure.message
                note("lamina: skipping gles: \(failure.message)")
            }
        }
        let sizeText = size ?? "1920x1080 (scene files: their own size)"
        print("lamina \(LaminaVersion.string) bench (\(BenchMachine.build) build): \(machine.cpuModel), "
              + "\(machine.cores) cores, \(sizeText), \(frames) frames after \(warmup) warm-up")
        for (choice, why) in renderers { print("\(choice.rawValue): \(why)") }
        if let info = glesInfo {
            print("    EGL platform \(info.platform), device \(info.device); GL_VENDOR \(info.vendor); "
                  + "GL_RENDERER \(info.renderer); GL_VERSION \(info.version)")
        }
        var report = BenchReport(machine: machine, gles: glesInfo, glesUnavailable: glesUnavailable,
                                 backends: renderers.map(\.0.rawValue),
                                 scenes: scenes.isEmpty ? [BenchScene.sprites10k.rawValue] : scenes,
                                 frames: frames, warmup: warmup, size: size)
        let runner = BenchRunner(frames: frames, warmup: warmup, size: settings.size)
        for scene in settings.scenes {
            let result = try runner.measure(scene, renderers: renderers.map(\.0),
                                            glesBaseline: renderers.contains { $0.0 == .gles })
            result.printSummary()
            report.scenes.append(result)
        }
        if let json {
            try Self.write(report.json(), to: json)
            note("lamina: wrote \(json)")
        }
        if let chart {
            try Self.write(report.chartSVG(), to: chart)
            note("lamina: wrote \(chart)")
        }
    }

    /// `--tiled-pan`: the tiled pan's frames on each backend (BenchTiled.swift).
    private func runTiledPan(_ settings: Settings) throws {
        let machine = BenchMachine.current()
        print("lamina \(LaminaVersion.string) bench --tiled-pan (\(BenchMachine.build) build): \(machine.cpuModel), "
              + "\(machine.cores) cores")
        let counted = CommandLine.arguments.contains("--frames") ? frames : 100
        let bench = TiledPanBench(frames: counted, size: settings.size ?? CGSize(width: 1920, height: 1080))
        var lines: [String] = []
        for choice in settings.backends {
            let (backend, runs) = try bench.measure(choice)
            print("tiled-pan \(backend): \(counted) frames at \(Int(bench.size.width))x\(Int(bench.size.height)), "
                  + "\(TiledPan.step.x), \(TiledPan.step.y) points a frame")
            for run in runs { run.printSummary() }
            lines.append(#"{"backend": "\#(backend)", "runs": [\#(runs.map(\.json).joined(separator: ", "))]}"#)
        }
        if let json {
            try Self.write("{\"tiledPan\": [\n  " + lines.joined(separator: ",\n  ") + "\n]}\n", to: json)
            note("lamina: wrote \(json)")
        }
    }

    /// `--live`: the live tree's frames on each backend.
    private func runLive(_ settings: Settings) throws {
        if let layers, layers < 1 { throw CLIFailure.badInput("--layers must be at least 1") }
        let machine = BenchMachine.current()
        print("lamina \(LaminaVersion.string) bench --live (\(BenchMachine.build) build): \(machine.cpuModel), "
              + "\(machine.cores) cores")
        // 7 frames of each kind unless --frames says otherwise (its default, 20, is for the scenes).
        let counted = CommandLine.arguments.contains("--frames") ? frames : 7
        let layout = BenchLayout(output: settings.size ?? CGSize(width: 1920, height: 1080))
        let bench = LiveBench(frames: counted, size: layout.points, scale: layout.scale, layers: layers)
        var lines: [String] = []
        for choice in settings.backends {
            let figures = try bench.measure(choice)
            figures.printSummary()
            lines.append(figures.json)
        }
        if let json {
            try Self.write("{\"live\": [\n  " + lines.joined(separator: ",\n  ") + "\n]}\n", to: json)
            note("lamina: wrote \(json)")
        }
    }

    /// `--export`: each scene exported with 1 and 2 jobs on each backend.
    private func runExports(_ settings: Settings) throws {
        let machine = BenchMachine.current()
        print("lamina \(LaminaVersion.string) bench --export (\(BenchMachine.build) build): \(machine.cpuModel), "
              + "\(machine.cores) cores")
        let sources = scenes.isEmpty ? [BenchSceneSource(name: BenchScene.animated1k.rawValue,
                                                         builtIn: .animated1k, file: nil)] : settings.scenes
        let bench = ExportBench(frames: max(frames, 60), size: settings.size)
        var lines: [String] = []
        for source in sources {
            for choice in settings.backends {
                let figures = try bench.measure(source, backend: choice)
                figures.printSummary()
                lines.append(#"{"scene": \#(figures.scene.jsonQuoted), "backend": "\#(figures.backend)", "#
                    + #""width": \#(figures.width), "height": \#(figures.height), "frames": \#(figures.frames), "#
                    + #""oneJobFps": \#(figures.oneJob), "oneJobAllCoresFps": \#(figures.oneJobAllCores), "#
                    + #""jobs": \#(figures.jobs), "jobsFps": \#(figures.everyCore), "ratio": \#(figures.ratio)}"#)
            }
        }
        if let json {
            try Self.write("{\"exports\": [\n  " + lines.joined(separator: ",\n  ") + "\n]}\n", to: json)
            note("lamina: wrote \(json)")
        }
    }

    struct Settings {
        var backends: [BackendChoice]
        var scenes: [BenchSceneSource]
        var size: CGSize?
    }

    /// Every argument checked before anything runs; mistakes exit 2 with a message.
    private func validatedSettings() throws -> Settings {
        guard frames >= 1 else { throw CLIFailure.badInput("--frames must be at least 1, got \(frames)") }
        guard warmup >= 0 else { throw CLIFailure.badInput("--warmup must be 0 or more, got \(warmup)") }
        var pixels: CGSize?
        if let size {
            let parts = size.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let w = parts[0], let h = parts[1], (1...16384).contains(w),
                  (1...16384).contains(h)
            else {
                throw CLIFailure.badInput("--size must be WxH with sides 1...16384, got \(size)")
            }
            // A tiny output lays the built-in scenes out larger and draws them scaled down (BenchLayout); the tiled
            // pan has no such layout.
            if tiledPan, min(w, h) < BenchLayout.tinySide {
                throw CLIFailure.badInput(
                    "--size with --tiled-pan must have sides of at least \(BenchLayout.tinySide), got \(size)")
            }
            pixels = CGSize(width: w, height: h)
        }
        let backends: [BackendChoice]
        switch backend {
        case "cpu": backends = [.cpu]
        case "gles": backends = [.gles]
        case "all": backends = [.cpu, .gles]
        default: throw CLIFailure.badInput("--backend must be cpu, gles or all, got \(backend)")
        }
        let names = scenes.isEmpty ? [BenchScene.sprites10k.rawValue] : scenes
        let chosen = try names.map { name -> BenchSceneSource in
            if name.lowercased().hasSuffix(".json") { return try BenchSceneSource.file(name) }
            guard let scene = BenchScene(rawValue: name) else {
                let known = BenchScene.allCases.map(\.rawValue).joined(separator: ", ")
                throw CLIFailure.badInput(
                    "unknown scene \"\(name)\" (expected \(known) or a scene file ending in .json)")
            }
            return BenchSceneSource(name: name, builtIn: scene, file: nil)
        }
        return Settings(backends: backends, scenes: chosen, size: pixels)
    }

    private static func checkWritable(_ path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIFailure.badInput("cannot write \(path): no folder \(folder)")
        }
    }

    private static func write(_ text: String, to path: String) throws {
        do {
            // Atomic: an interrupted or failed write leaves the previous report as it was.
            try FileOutput.write(Data(text.utf8), to: path)
        } catch {
            throw CLIFailure.failed(error.description)
        }
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
            if index == max(1, count / 10) { baseline = ProcessMemory.residentKilobytes }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let end = ProcessMemory.residentKilobytes
        print("\(choice.rawValue): \(count) renderers made, used and released in \(String(format: "%.1f", seconds)) s; "
              + "resident memory \(baseline / 1024) MB after \(max(1, count / 10)), \(end / 1024) MB after \(count) "
              + "(\(end - baseline) kB growth)")
    }
}
