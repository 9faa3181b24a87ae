import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `lamina bench` run as a user would, on tiny outputs so that the suite stays fast. No timing is asserted: the
/// machines that run tests are too noisy for that; only the shape and the sense of the figures.
@Suite struct BenchTests {
    /// The tiny run every test builds on.
    static let tiny = ["bench", "--size", "256x256", "--frames", "2", "--warmup", "0"]

    static func object(_ value: Any?) throws -> [String: Any] {
        try #require(value as? [String: Any])
    }

    static func readJSON(_ url: URL) throws -> [String: Any] {
        try object(JSONSerialization.jsonObject(with: Data(contentsOf: url)))
    }

    static func number(_ value: Any?) throws -> Double {
        try #require((value as? NSNumber)?.doubleValue)
    }

    @Test func jsonHasTheDocumentedKeysAndSaneFigures() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(Self.tiny + ["--scene", "sprites-1k", "--scene", "deeptree", "--json", "out.json"],
                                 in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("\r"), "no progress bar when stderr is not a terminal")
        let json = try Self.readJSON(folder.appendingPathComponent("out.json"))
        for key in ["schemaVersion", "laminaVersion", "build", "date", "machine", "gles", "glesUnavailable", "settings",
                    "scenes"] {
            #expect(json.keys.contains(key), "missing \(key)")
        }
        let machine = try Self.object(json["machine"])
        for key in ["cpuModel", "cores", "memoryBytes", "os", "kernel", "pixmanVersion", "cairoVersion"] {
            #expect(machine.keys.contains(key), "missing machine.\(key)")
        }
        #expect(try Self.number(machine["cores"]) >= 1)
        let settings = try Self.object(json["settings"])
        #expect(settings["frames"] as? Int == 2 && settings["warmup"] as? Int == 0)
        #expect(settings["size"] as? String == "256x256")
        #expect(settings["backends"] as? [String] == ["cpu"])
        #expect(settings["scenes"] as? [String] == ["sprites-1k", "deeptree"])
        #expect(settings.keys.contains("memcpyRuns") && settings.keys.contains("peakMemorySource"))

        let scenes = try #require(json["scenes"] as? [[String: Any]])
        #expect(scenes.count == 2)
        for scene in scenes {
            for key in ["scene", "source", "width", "height", "scale", "layers", "quads", "textures", "renderers",
                        "baselines"] {
                #expect(scene.keys.contains(key), "missing scenes[].\(key)")
            }
            #expect(scene["width"] as? Int == 256 && scene["height"] as? Int == 256)
            let renderers = try #require(scene["renderers"] as? [[String: Any]])
            #expect(renderers.count == 1)
            let cpu = renderers[0]
            #expect(cpu["renderer"] as? String == "cpu")
            for key in ["frameMs", "framesPerSecond", "layersPerSecond", "planMsMedian", "firstFrameMs", "drawCalls",
                        "quadsDrawn", "bytesUploadedPerFrame", "uploadMsMedian", "offscreenPasses",
                        "customDrawsPerFrame", "peakMemoryBytes", "ratios"] {
                #expect(cpu.keys.contains(key), "missing renderers[].\(key)")
            }
            let frame = try Self.object(cpu["frameMs"])
            let (median, low, high) = (try Self.number(frame["median"]), try Self.number(frame["min"]),
                                       try Self.number(frame["max"]))
            #expect(low > 0 && low <= median && median <= high)
            #expect(try Self.number(frame["p95"]) <= high && Self.number(frame["p95"]) >= median)
            #expect(try Self.number(cpu["drawCalls"]) > 0)
            #expect(try Self.number(cpu["peakMemoryBytes"]) > 1_000_000)
            let fps = try Self.number(cpu["framesPerSecond"])
            #expect(abs(fps - 1000 / median) <= 0.01 * fps)
            let layers = try Self.number(scene["layers"])
            #expect(abs(try Self.number(cpu["layersPerSecond"]) - layers * fps) <= 0.01 * layers * fps)
            let ratios = try Self.object(cpu["ratios"])
            #expect(Set(ratios.keys) == ["memcpy", "cairo", "glesInstanced"])
            #expect(try Self.number(ratios["cairo"]) > 0)
            #expect(ratios["glesInstanced"] is NSNull, "no gles baseline with --backend cpu")

            let baselines = try Self.object(scene["baselines"])
            let memcpy = try Self.object(baselines["memcpy"])
            #expect(memcpy["bytesWritten"] as? Int == 256 * 256 * 4)
            let cairo = try Self.object(baselines["cairo"])
            let cairoFrame = try Self.object(cairo["frameMs"])
            #expect(try Self.number(cairoFrame["min"]) <= Self.number(cairoFrame["median"]))
            #expect(cairo["skipped"] is NSNull)
            let gles = try Self.object(baselines["glesInstanced"])
            #expect(gles["frameMs"] is NSNull && gles["skipped"] is String)
        }
        let sprites = scenes[0]
        #expect(sprites["scene"] as? String == "sprites-1k" && sprites["source"] as? String == "built-in")
        #expect(sprites["layers"] as? Int == 1001 && sprites["quads"] as? Int == 1001)
        #expect(sprites["textures"] as? Int == 1)
        // The documented count: every sprite lies wholly inside the output, so each reads its 64 x 64 frame.
        let memcpy = try Self.object(Self.object(sprites["baselines"])["memcpy"])
        #expect(memcpy["bytesRead"] as? Int == 1_000 * 64 * 64 * 4)
    }

    @Test func chartHasABarPerSceneAndSeries() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(Self.tiny + ["--scene", "sprites-1k", "--scene", "deeptree", "--chart", "chart.svg"],
                                 in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOf: folder.appendingPathComponent("chart.svg"), encoding: .utf8)
        #expect(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.hasSuffix("</svg>\n"))
        #expect(svg.contains("log scale"))
        for scene in ["sprites-1k", "deeptree"] {
            for series in ["cpu", "memcpy", "cairo"] {
                #expect(svg.components(separatedBy: "data-scene=\"\(scene)\" data-series=\"\(series)\"").count == 2,
                        "one \(series) bar for \(scene)")
            }
            #expect(!svg.contains("data-scene=\"\(scene)\" data-series=\"gles\""))
        }
        #expect(svg.components(separatedBy: "<svg ").count == 2 && svg.components(separatedBy: "<title>").count
            == svg.components(separatedBy: "</title>").count)
    }

    @Test func aSceneFileKeepsItsSizeUnlessToldOtherwise() throws {
        let folder = try CLI.temporaryFolder()
        try """
            {"size": [64, 48], "backgroundColor": "#FFFFFF",
             "layers": [{"frame": [8, 8, 24, 16], "backgroundColor": "#FF0000"}]}
            """.write(to: folder.appendingPathComponent("box.json"), atomically: true, encoding: .utf8)
        let own = try CLI.run(["bench", "--scene", "box.json", "--frames", "2", "--warmup", "0", "--json", "a.json"],
                              in: folder)
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.output.contains("box.json: 64x48"))
        let ownJSON = try Self.readJSON(folder.appendingPathComponent("a.json"))
        let scene = try #require((ownJSON["scenes"] as? [[String: Any]])?.first)
        #expect(scene["scene"] as? String == "box.json" && scene["source"] as? String == "file")
        #expect(scene["width"] as? Int == 64 && scene["height"] as? Int == 48 && scene["layers"] as? Int == 2)

        // --size fits the scene inside WxH, aspect kept: 256x256 gives scale 4, 256x192 pixels.
        let sized = try CLI.run(Self.tiny + ["--scene", "box.json", "--json", "b.json"], in: folder)
        #expect(sized.status == 0, "\(sized.stderr)")
        let scaledJSON = try Self.readJSON(folder.appendingPathComponent("b.json"))
        let scaled = try #require((scaledJSON["scenes"] as? [[String: Any]])?.first)
        #expect(scaled["width"] as? Int == 256 && scaled["height"] as? Int == 192)
        #expect(try Self.number(scaled["scale"]) == 4)
    }

    @Test func badArgumentsExitTwoWithAMessage() throws {
        let folder = try CLI.temporaryFolder()
        try "{\"size\": [10, 10],\n \"layers\": [{\"opacity\": \"half\"}]}".write(
            to: folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--frames", "0"], "--frames must be at least 1"),
            (["--warmup=-1"], "--warmup must be 0 or more"),
            (["--size", "12x"], "--size must be WxH"),
            (["--size", "32x32"], "--size must be WxH"),
            (["--backend", "vulkan"], "--backend must be cpu, gles or all"),
            (["--scene", "nope"], "unknown scene \"nope\""),
            (["--scene", "missing.json"], "missing.json"),
            (["--scene", "bad.json"], "bad.json:2:25: layers[0].opacity"),
            (["--json", "no/such/folder/out.json"], "cannot write no/such/folder/out.json"),
            (["--chart", "no/such/folder/out.svg"], "cannot write no/such/folder/out.svg"),
            (["--churn", "0"], "--churn must be at least 1"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["bench"] + arguments, in: folder)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.output.isEmpty, "\(arguments): nothing measured")
        }
    }

    @Test func deeptreeRuns() throws {
        let result = try CLI.run(Self.tiny + ["--scene", "deeptree"])
        #expect(result.status == 0, "\(result.stderr)")
        // 1,000 nested layers and the root; each level paints its square, and the leaf its sprite too.
        #expect(result.output.contains("deeptree: 256x256, 1001 layers, 1002 quads"), "\(result.output)")
        #expect(result.output.contains("  cpu: ") && result.output.contains("baseline cairo: "))
    }

    @Test func deeptreeIsAVisibleChain() throws {
        let root = try BenchScene.deeptree.makeRoot(size: CGSize(width: 256, height: 256))
        #expect(BenchScene.visibleLayerCount(root) == 1_001)
        var depth = 0
        var layer = root
        while let child = layer.sublayers.first {
            #expect(layer.sublayers.count == 1)
            depth += 1
            layer = child
        }
        #expect(depth == 1_000)
        // The chain winds round the middle and stays inside the output, so every level's square is drawn.
        let plan = try Planner().plan(root)
        #expect(plan.quads.count == 1_002)
        let onScreen = plan.quads.filter { $0.coverage(width: 256, height: 256) != nil }
        #expect(onScreen.count == 1_002)
        let image = try CPURenderer().render(plan)
        #expect(image.rgba(x: 128, y: 128) == RGBA8(r: 0x20, g: 0x28, b: 0x30, a: 255), "the circle's middle is empty")
    }
}

@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display"))
struct BenchGLESTests {
    @Test func allBackendsReportTheGLDriverAndTheInstancedBaseline() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(BenchTests.tiny + ["--backend", "all", "--scene", "sprites-1k", "--json", "out.json",
                                                    "--chart", "chart.svg"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try BenchTests.readJSON(folder.appendingPathComponent("out.json"))
        let gles = try BenchTests.object(json["gles"])
        for key in ["platform", "device", "vendor", "renderer", "version", "software"] {
            #expect(gles.keys.contains(key), "missing gles.\(key)")
        }
        #expect((gles["renderer"] as? String)?.isEmpty == false)
        let scene = try #require((json["scenes"] as? [[String: Any]])?.first)
        let renderers = try #require(scene["renderers"] as? [[String: Any]])
        #expect(renderers.map { $0["renderer"] as? String } == ["cpu", "gles"])
        for renderer in renderers { #expect(try BenchTests.number(renderer["drawCalls"]) > 0) }
        let baseline = try BenchTests.object(BenchTests.object(scene["baselines"])["glesInstanced"])
        #expect(baseline["frameMs"] is [String: Any] && baseline["skipped"] is NSNull)
        let svg = try String(contentsOf: folder.appendingPathComponent("chart.svg"), encoding: .utf8)
        for series in ["cpu", "gles", "memcpy", "cairo", "glesInstanced"] {
            #expect(svg.contains("data-scene=\"sprites-1k\" data-series=\"\(series)\""), "\(series)")
        }
    }
}
