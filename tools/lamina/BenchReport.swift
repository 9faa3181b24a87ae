import Foundation
import Lamina

/// A JSON value written with its keys in the order given, so the file reads machine, settings, scenes, and
/// its key names stay put (docs/benchmarks.md lists them).
indirect enum BenchJSON {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([BenchJSON])
    case object([(String, BenchJSON)])

    static func number(_ value: Double?) -> BenchJSON { value.map { .number($0) } ?? .null }
    static func string(_ value: String?) -> BenchJSON { value.map { .string($0) } ?? .null }

    func text(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .number(let value):
            guard value.isFinite else { return "null" }
            // Four decimals: far below the noise, and short. Whole numbers print without ".0".
            let rounded = (value * 10_000).rounded() / 10_000
            return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
        case .string(let value): return Self.quoted(value)
        case .array(let values):
            if values.isEmpty { return "[]" }
            return "[\n" + values.map { inner + $0.text(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            return "{\n" + members.map { inner + Self.quoted($0.0) + ": " + $0.1.text(indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    private static func quoted(_ value: String) -> String { value.jsonQuoted }
}

/// Everything one `lamina bench` run measured, as JSON and as a chart.
struct BenchReport {
    var machine: BenchMachine
    var gles: GLESInfo?
    var glesUnavailable: String?
    var backends: [String]
    var sceneNames: [String]
    var frames: Int
    var warmup: Int
    var size: String?
    var date = Date()
    var scenes: [SceneResult] = []

    init(machine: BenchMachine, gles: GLESInfo?, glesUnavailable: String?, backends: [String], scenes: [String],
         frames: Int, warmup: Int, size: String?) {
        self.machine = machine
        self.gles = gles
        self.glesUnavailable = glesUnavailable
        self.backends = backends
        self.sceneNames = scenes
        self.frames = frames
        self.warmup = warmup
        self.size = size
    }

    var isoDate: String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    var day: String { String(isoDate.prefix(10)) }

    func json() -> String {
        let glesObject: BenchJSON = gles.map { info in
            .object([
                ("platform", .string(info.platform)), ("device", .string(info.device)),
                ("vendor", .string(info.vendor)), ("renderer", .string(info.renderer)),
                ("version", .string(info.version)), ("software", .bool(info.isSoftware)),
            ])
        } ?? .null
        let root: BenchJSON = .object([
            ("schemaVersion", .int(1)),
            ("laminaVersion", .string(LaminaVersion.string)),
            ("build", .string(BenchMachine.build)),
            ("date", .string(isoDate)),
            ("machine", .object([
                ("cpuModel", .string(machine.cpuModel)), ("cores", .int(machine.cores)),
                ("memoryBytes", .int(machine.memoryBytes)), ("os", .string(machine.os)),
                ("kernel", .string(machine.kernel)), ("pixmanVersion", .string(machine.pixmanVersion)),
                ("cairoVersion", .string(machine.cairoVersion)),
            ])),
            ("gles", glesObject),
            ("glesUnavailable", .string(glesUnavailable)),
            ("settings", .object([
                ("backends", .array(backends.map { .string($0) })),
                ("scenes", .array(sceneNames.map { .string($0) })),
                ("frames", .int(frames)), ("warmup", .int(warmup)), ("size", .string(size)),
                ("memcpyRuns", .int(MemcpyFloor.runs)), ("peakMemorySource", .string(PeakMemory.source)),
            ])),
            ("scenes", .array(scenes.map(sceneJSON))),
        ])
        return root.text() + "\n"
    }

    private func frameJSON(_ stats: FrameStats?) -> BenchJSON {
        guard let stats else { return .null }
        return .object([
            ("median", .number(stats.median)), ("min", .number(stats.min)), ("max", .number(stats.max)),
            ("p95", .number(stats.p95)), ("mean", .number(stats.mean)),
        ])
    }

    private func sceneJSON(_ scene: SceneResult) -> BenchJSON {
        let renderers: [BenchJSON] = scene.renderers.map { r in
            .object([
                ("renderer", .string(r.renderer)),
                ("frameMs", frameJSON(r.frame)),
                ("framesPerSecond", .number(r.framesPerSecond)),
                ("layersPerSecond", .number(Double(scene.layers) * r.framesPerSecond)),
                ("planMsMedian", .number(r.planMedian)),
            ] + (r.buildSplit?.jsonMembers ?? [("buildMs", .null), ("drawMs", .null), ("buildSplit", .null)]) + [
                ("firstFrameMs", .number(r.firstFrame)),
                ("drawCalls", .int(r.drawCalls)),
                ("quadsDrawn", .int(r.quadsDrawn)),
                ("quadsHidden", .int(r.quadsHidden)),
                ("bytesUploadedPerFrame", .number(r.bytesUploadedPerFrame)),
                ("uploadMsMedian", .number(r.uploadMedian)),
                ("offscreenPasses", .int(r.offscreenPasses)),
                ("shadowsBlurred", .int(r.shadowsBlurred)),
                ("shadowsReused", .int(r.shadowsReused)),
                ("firstFrameOffscreenPasses", .int(r.firstFrameOffscreenPasses)),
                ("firstFrameShadowsBlurred", .int(r.firstFrameShadowsBlurred)),
                ("customDrawsPerFrame", .number(r.customDrawsPerFrame)),
                ("vectorLayers", .int(r.vectorLayers)),
                ("picturesMadePerFrame", .int(r.picturesMade)),
                ("firstFramePicturesMade", .int(r.firstFramePicturesMade)),
                ("pictureHitRate", .number(r.pictureHitRate)),
                ("peakMemoryBytes", .int(r.peakMemoryBytes)),
                ("glesSplit", r.glesSplit?.json ?? .null),
                ("ratios", .object(scene.baselines.map { ($0.key, .number(scene.ratio(r, $0.figures))) })),
            ])
        }
        let baselines: [(String, BenchJSON)] = scene.baselines.map { key, _, figures in
            var members: [(String, BenchJSON)] = [
                ("frameMs", frameJSON(figures.frame)), ("note", .string(figures.note)),
                ("skipped", .string(figures.skipped)),
            ]
            if key == "memcpy" {
                members += [("bytesRead", .int(figures.bytesRead)), ("bytesWritten", .int(figures.bytesWritten))]
            }
            return (key, .object(members))
        }
        return .object([
            ("scene", .string(scene.name)),
            ("source", .string(scene.isFile ? "file" : "built-in")),
            ("width", .int(scene.width)), ("height", .int(scene.height)), ("scale", .number(scene.scale)),
            ("layers", .int(scene.layers)), ("quads", .int(scene.quads)), ("textures", .int(scene.textures)),
            ("freshPlanMsMedian", .number(scene.freshPlanMedian)),
            ("cachedPlanMsMedian", .number(scene.cachedPlanMedian)),
            ("animations", .number(Double(scene.animations))),
            ("animationMsMedian", .number(scene.animationMedian)),
            ("renderers", .array(renderers)),
            ("baselines", .object(baselines)),
        ])
    }

    // MARK: - Chart

    /// The chart's series: Lamina's renderers, then the baselines, each with its colour.
    private static let series: [(key: String, label: String, colour: String)] = [
        ("cpu", "Lamina cpu", "#1f6fb4"), ("gles", "Lamina gles", "#e8731a"),
        ("memcpy", "memcpy floor", "#8c8c8c"), ("cairo", "plain cairo", "#2e9e44"),
        ("glesInstanced", "gles instanced baseline", "#8a5cc2"),
    ]

    /// A horizontal bar chart of median frame times: one group per scene, one bar per renderer and baseline, on
    /// a log scale so that a 1 ms bar and a 1,000 ms bar are both readable.
    func chartSVG() -> String {
        struct Bar { var key: String, label: String, colour: String, ms: Double }
        let groups: [(String, [Bar])] = scenes.map { scene in
            var bars: [Bar] = []
            for (key, label, colour) in Self.series {
                if let r = scene.renderers.first(where: { $0.renderer == key }) {
                    bars.append(Bar(key: key, label: label, colour: colour, ms: r.frame.median))
                } else if let b = scene.baselines.first(where: { $0.key == key }), let frame = b.figures.frame {
                    bars.append(Bar(key: key, label: label, colour: colour, ms: frame.median))
                }
            }
            return (scene.name, bars)
        }
        let values = groups.flatMap { $0.1.map(\.ms) }.filter { $0 > 0 }
        // A margin below the shortest bar, so that it still shows as a bar.
        let lowDecade = floor(log10(values.min() ?? 1) - 0.3)
        let highDecade = max(ceil(log10(values.max() ?? 10)), lowDecade + 1)
        // Room on the left for the longest scene name (bold 13 px: about 8 px a character).
        let longest = groups.map(\.0.count).max() ?? 0
        let left = max(150, 28 + 8 * Double(longest)), width = left + 810, right = width - 140
        let barHeight = 16.0, barGap = 3.0, groupGap = 18.0
        let legendTop = 64.0, plotTop = legendTop + 40
        func x(_ ms: Double) -> Double {
            let clamped = max(ms, pow(10, lowDecade))
            return left + (right - left) * (log10(clamped) - lowDecade) / (highDecade - lowDecade)
        }
        var plotHeight = 0.0
        for (_, bars) in groups { plotHeight += Double(bars.count) * (barHeight + barGap) + groupGap }
        let height = plotTop + plotHeight + 40
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" \
            font-size="12">
            <rect width="100%" height="100%" fill="#ffffff"/>

            """
        var renderer = "cpu only"
        if let gles { renderer = gles.renderer }
        let title = "lamina bench \(day): median ms per frame, log scale (shorter is faster)"
        let subtitle = "\(machine.cpuModel), \(machine.cores) cores; GLES: \(renderer); \(BenchMachine.build) build, "
            + "\(frames) frames after \(warmup) warm-up"
        svg += text(20, 24, title, size: 16, weight: "bold")
        svg += text(20, 44, subtitle, size: 12, colour: "#444444")
        var legendX = 20.0
        for (_, label, colour) in Self.series {
            svg += "<rect x=\"\(n(legendX))\" y=\"\(n(legendTop))\" width=\"12\" height=\"12\" fill=\"\(colour)\"/>\n"
            svg += text(legendX + 16, legendTop + 10.5, label, size: 12)
            legendX += 26 + Double(label.count) * 7
        }
        // Decade gridlines with labels, and fainter lines at 2x and 5x.
        let gridBottom = plotTop + plotHeight - groupGap / 2
        for decade in Int(lowDecade)...Int(highDecade) {
            for factor in [1.0, 2.0, 5.0] {
                let ms = factor * pow(10, Double(decade))
                guard ms <= pow(10, highDecade) + 1e-9 else { continue }
                let gx = x(ms)
                let major = factor == 1
                svg += "<line x1=\"\(n(gx))\" y1=\"\(n(plotTop - 6))\" x2=\"\(n(gx))\" y2=\"\(n(gridBottom))\" "
                    + "stroke=\"\(major ? "#bbbbbb" : "#e4e4e4")\" stroke-width=\"1\"/>\n"
                if major || (highDecade - lowDecade) <= 2 {
                    svg += text(gx, gridBottom + 16, String(format: "%g ms", ms), size: 11, colour: "#555555",
                                anchor: "middle")
                }
            }
        }
        var y = plotTop
        for (scene, bars) in groups {
            let groupHeight = Double(bars.count) * (barHeight + barGap) - barGap
            svg += text(left - 8, y + groupHeight / 2 + 4, scene, size: 13, weight: "bold", anchor: "end")
            for bar in bars {
                let w = max(1, x(bar.ms) - left)
                svg += "<rect class=\"bar\" data-scene=\"\(escape(scene))\" data-series=\"\(bar.key)\" "
                    + "x=\"\(n(left))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(barHeight))\" "
                    + "fill=\"\(bar.colour)\"><title>\(escape(scene)), \(escape(bar.label)): "
                    + "\(msLabel(bar.ms)) ms</title></rect>\n"
                svg += text(left + w + 5, y + barHeight - 4, "\(msLabel(bar.ms)) ms", size: 11)
                y += barHeight + barGap
            }
            y += groupGap - barGap
        }
        svg += "<line x1=\"\(n(left))\" y1=\"\(n(plotTop - 6))\" x2=\"\(n(left))\" y2=\"\(n(gridBottom))\" "
            + "stroke=\"#333333\" stroke-width=\"1\"/>\n"
        svg += "</svg>\n"
        return svg
    }

    private func text(_ x: Double, _ y: Double, _ value: String, size: Int, weight: String = "normal",
                      colour: String = "#111111", anchor: String = "start") -> String {
        "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(colour)\" "
            + "text-anchor=\"\(anchor)\">\(escape(value))</text>\n"
    }

    private func n(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Three significant figures, at most two decimals: 0.12, 3.45, 45.6, 789, 1234.
    private func msLabel(_ ms: Double) -> String {
        if ms >= 100 { return String(format: "%.0f", ms) }
        if ms >= 10 { return String(format: "%.1f", ms) }
        return String(format: "%.2f", ms)
    }

    private func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
