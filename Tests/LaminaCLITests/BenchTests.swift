import Foundation
import Lamina
import LaminaBench
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
                        "quadsDrawn", "quadsHidden", "bytesUploadedPerFrame", "uploadMsMedian", "offscreenPasses", "shadowsBlurred",
                        "shadowsReused", "firstFrameOffscreenPasses", "firstFrameShadowsBlurred",
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
            #expect(try Self.number(memcpy["bytesWritten"]) >= 256 * 256 * 4, "at least the background")
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
        // The documented count: every sprite lies wholly inside the output, so each reads its 64 x 64 frame and
        // writes its 64 x 64 pixels, over the background's 256 x 256.
        let memcpy = try Self.object(Self.object(sprites["baselines"])["memcpy"])
        #expect(memcpy["bytesRead"] as? Int == 1_000 * 64 * 64 * 4)
        #expect(memcpy["bytesWritten"] as? Int == (256 * 256 + 1_000 * 64 * 64) * 4)
    }

    @Test func roundedSpritesAreOneQuadEachWithEveryBaseline() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(Self.tiny + ["--scene", "rounded-sprites-1k", "--json", "out.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.readJSON(folder.appendingPathComponent("out.json"))
        let scene = try #require((json["scenes"] as? [[String: Any]])?.first)
        // No offscreen group: the rounded sprites are drawn straight onto the target, so cairo draws them too.
        #expect(scene["layers"] as? Int == 1001 && scene["quads"] as? Int == 1001)
        let cpu = try #require((scene["renderers"] as? [[String: Any]])?.first)
        #expect(cpu["offscreenPasses"] as? Int == 0)
        let baselines = try Self.object(scene["baselines"])
        #expect(try Self.object(baselines["cairo"])["skipped"] is NSNull)
        // The same sprites as sprites-1k: the same bytes for the floor (rounded corners count as covered).
        let memcpy = try Self.object(baselines["memcpy"])
        #expect(memcpy["bytesRead"] as? Int == 1_000 * 64 * 64 * 4)
        #expect(memcpy["bytesWritten"] as? Int == (256 * 256 + 1_000 * 64 * 64) * 4)
    }

    /// `bigimage`'s opaque picture covers the root's background: one quad hidden on both renderers, from the
    /// second frame (docs/benchmarks.md, "Opaque layers hide what is under them (2026-11-27)").
    @Test func anOpaquePictureHidesTheBackground() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["bench", "--backend", "all", "--size", "128x72", "--frames", "2", "--warmup", "1",
                                  "--scene", "bigimage", "--json", "out.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("1 quads hidden"), "\(text)")
        let json = try Self.readJSON(folder.appendingPathComponent("out.json"))
        let scene = try #require((json["scenes"] as? [[String: Any]])?.first)
        for renderer in try #require(scene["renderers"] as? [[String: Any]]) {
            #expect(renderer["quadsHidden"] as? Int == 1, "\(renderer["renderer"] ?? "")")
            #expect(renderer["quadsDrawn"] as? Int == 1, "\(renderer["renderer"] ?? "")")
        }
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

    @Test func theCairoBaselineSkipsPlansWithOffscreenGroups() throws {
        let folder = try CLI.temporaryFolder()
        try """
            {"size": [64, 48], "backgroundColor": "#FFFFFF",
             "layers": [{"frame": [8, 8, 40, 30], "opacity": 0.5, "backgroundColor": "#FF0000",
                         "sublayers": [{"frame": [4, 4, 10, 10], "backgroundColor": "#0000FF"}]}]}
            """.write(to: folder.appendingPathComponent("group.json"), atomically: true, encoding: .utf8)
        let run = try CLI.run(["bench", "--backend", "cpu", "--scene", "group.json", "--frames", "2", "--warmup", "0",
                               "--json", "g.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try Self.readJSON(folder.appendingPathComponent("g.json"))
        let scene = try #require((json["scenes"] as? [[String: Any]])?.first)
        let cairo = try Self.object(Self.object(scene["baselines"])["cairo"])
        #expect((cairo["skipped"] as? String)?.contains("1 offscreen group") == true, "\(cairo)")
        #expect(run.output.contains("baseline cairo: none (the plan has 1 offscreen group"))
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
            (["--size", "32x0"], "--size must be WxH"),
            (["--backend", "vulkan"], "--backend must be cpu, gles or all"),
            (["--scene", "nope"], "unknown scene \"nope\""),
            (["--scene", "missing.json"], "missing.json"),
            (["--scene", "bad.json"], "bad.json:2:25: layers[0].opacity"),
            (["--json", "no/such/folder/out.json"], "cannot write no/such/folder/out.json"),
            (["--chart", "no/such/folder/out.svg"], "cannot write no/such/folder/out.svg"),
            (["--churn", "0"], "--churn must be at least 1"),
            (["--live", "--layers", "0"], "--layers must be at least 1"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["bench"] + arguments, in: folder)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.output.isEmpty, "\(arguments): nothing measured")
        }
    }

    @Test func liveFramesAreMeasuredAndCheckedAgainstAFreshRenderer() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["bench", "--live", "--backend", "cpu", "--layers", "300", "--size", "256x256",
                                  "--frames", "2", "--json", "live.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.contains("live cpu: 300 sprites at 256x256"), "\(result.output)")
        for change in ["all", "none", "one", "hundred"] {
            #expect(result.output.contains("\n  \(change) "), "\(change): \(result.output)")
        }
        #expect(result.output.contains("a live frame equals a fresh renderer's, byte for byte: yes"))
        let json = try String(contentsOf: folder.appendingPathComponent("live.json"), encoding: .utf8)
        #expect(json.contains(#""backend": "cpu", "layers": 300, "width": 256, "height": 256"#), "\(json)")
        #expect(json.contains(#""identicalToFresh": true"#) && json.contains(#""change": "none", "frameMs": "#))
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
        while let child = layer.sublayers?.first {
            #expect(layer.sublayers?.count == 1)
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

    /// The cards scenes' JSON at 256 x 256 (16 cards): one warm-up frame (which blurs every shadow) and one counted
    /// frame.
    static func cardsJSON(backend: String = "cpu") throws -> [[String: Any]] {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["bench", "--size", "256x256", "--warmup", "1", "--frames", "1", "--backend", backend,
                                  "--scene", "cards-500", "--scene", "cards-500-moving", "--json", "out.json"],
                                 in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.contains("shadows per frame: 0 blurred, 16 reused (first frame: 16 blurred"),
                "\(result.output)")
        let json = try readJSON(folder.appendingPathComponent("out.json"))
        let scenes = try #require(json["scenes"] as? [[String: Any]])
        #expect(scenes.map { $0["scene"] as? String } == ["cards-500", "cards-500-moving"])
        return scenes
    }

    /// Checks one renderer's shadow counters on the cards scenes: every shadow made on the first frame; on the next,
    /// cards-500 reuses all of them, and cards-500-moving blurs only the resized card's again (the ten moved
    /// cards' silhouettes are the same, relative to the card).
    static func checkCardCounters(_ scenes: [[String: Any]], renderer name: String) throws {
        for scene in scenes {
            // The root, and five layers a card: the card, its clipped content, header, thumbnail and bar. At 256 x 256
            // the scene keeps 1920 x 1080's density: 16 cards.
            #expect(scene["layers"] as? Int == 1 + 5 * 16)
            let cards = 16.0
            let renderers = try #require(scene["renderers"] as? [[String: Any]])
            let r = try #require(renderers.first { $0["renderer"] as? String == name })
            for key in ["offscreenPasses", "shadowsBlurred", "shadowsReused", "firstFrameOffscreenPasses",
                        "firstFrameShadowsBlurred"] {
                #expect(r.keys.contains(key), "missing renderers[].\(key)")
            }
            let blurred = try number(r["shadowsBlurred"]), reused = try number(r["shadowsReused"])
            let passes = try number(r["offscreenPasses"])
            #expect(try number(r["firstFrameShadowsBlurred"]) == cards)
            // The cards' rounded clips go onto their plain quads (the rounded bar lies wholly inside): no clip
            // groups. Two passes a shadow made: silhouette and blur.
            #expect(try number(r["firstFrameOffscreenPasses"]) == 2 * cards, "\(name)")
            if scene["scene"] as? String == "cards-500" {
                #expect(blurred == 0 && reused == cards, "\(name): \(blurred) blurred, \(reused) reused")
                #expect(passes == 0, "\(name)")
            } else {
                #expect(blurred == 1 && reused == cards - 1, "\(name): \(blurred) blurred, \(reused) reused")
                #expect(passes == 2, "\(name)")
            }
            let cairo = try object(object(scene["baselines"])["cairo"])
            #expect(cairo["skipped"] is NSNull && (cairo["note"] as? String)?.contains("shadows blurred once") == true)
        }
    }

    @Test func cardsScenesReuseTheirShadows() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        try Self.checkCardCounters(Self.cardsJSON(), renderer: "cpu")
    }

    @Test func cardsAreDeterministicAndMoveByWholePoints() throws {
        let size = CGSize(width: 1920, height: 1080)
        let a = try BenchScene.cards500Moving.makeRoot(size: size), b = try BenchScene.cards500.makeRoot(size: size)
        #expect(a.sublayers?.count == 500)
        #expect(BenchScene.cardCount(size: CGSize(width: 256, height: 256)) == 16)
        #expect(BenchScene.resizedCardIndex(frame: 1, count: 16) == 4, "not among the moved 10...15, 0...3")
        #expect(a.sublayers!.map(\.frame) == b.sublayers!.map(\.frame), "the same cards in both scenes, every run")
        let card = a.sublayers![0], content = try #require(card.sublayers?.first)
        // The iOS card: the shadow on an outer layer that does not clip; the contents clipped by an inner one.
        #expect(!card.masksToBounds && card.shadowOpacity == 0.4 && card.shadowRadius == 6)
        #expect(card.shadowOffset == CGSize(width: 0, height: 4) && card.cornerRadius == 12 && card.borderWidth == 2)
        #expect(content.masksToBounds && content.cornerRadius == 10 && content.sublayers?.count == 3)
        for card in a.sublayers ?? [] {
            #expect(card.frame.minX >= 0 && card.frame.maxX <= 1920 && card.frame.minY >= 0 && card.frame.maxY <= 1080)
            #expect((160...240).contains(card.bounds.width) && (100...150).contains(card.bounds.height))
        }

        let before = a.sublayers!.map(\.frame)
        BenchScene.cards500Moving.prepareFrame(a, frame: 1)
        BenchScene.cards500.prepareFrame(b, frame: 1)
        #expect(b.sublayers!.map(\.frame) == before, "cards-500 never changes")
        let moved = Set(BenchScene.movedCardIndices(frame: 1)), resized = BenchScene.resizedCardIndex(frame: 1)
        #expect(moved == Set(10..<20) && resized == 260)
        for (index, card) in a.sublayers!.enumerated() {
            let old = before[index], new = card.frame
            if moved.contains(index) {
                #expect(new.size == old.size)
                #expect(new.minX == new.minX.rounded() && new.minY == new.minY.rounded())
            } else if index == resized {
                #expect(new.origin == old.origin)
                #expect(new.width == old.width + 8 && new.height == old.height + 6)
                #expect(card.sublayers![0].bounds.width == new.width - 4, "the contents laid out again")
            } else {
                #expect(new == old)
            }
        }
        #expect(a.sublayers!.indices.filter { moved.contains($0) && a.sublayers![$0].frame != before[$0] }.count >= 8)
        // The resized card shrinks back when it comes round again, 50 frames later.
        BenchScene.cards500Moving.prepareFrame(a, frame: 51)
        #expect(a.sublayers![resized].frame.size == before[resized].size)
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
        // The gles frame split (docs/benchmarks.md, "GLES frame split"); cpu has none.
        #expect(renderers[0]["glesSplit"] is NSNull)
        let split = try BenchTests.object(renderers[1]["glesSplit"])
        for key in ["planMs", "encodeMs", "submitMs", "gpuMs", "finishWaitMs", "readbackMs"] {
            #expect(try BenchTests.number(split[key]) >= 0, "glesSplit.\(key)")
        }
        #expect(try BenchTests.number(split["readbackMs"]) > 0 && BenchTests.number(split["submitMs"]) > 0)
        #expect(["GL_EXT_disjoint_timer_query", "glFinish"].contains(split["gpuClock"] as? String))
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("    split: plan "))
        let baseline = try BenchTests.object(BenchTests.object(scene["baselines"])["glesInstanced"])
        #expect(baseline["frameMs"] is [String: Any] && baseline["skipped"] is NSNull)
        let svg = try String(contentsOf: folder.appendingPathComponent("chart.svg"), encoding: .utf8)
        for series in ["cpu", "gles", "memcpy", "cairo", "glesInstanced"] {
            #expect(svg.contains("data-scene=\"sprites-1k\" data-series=\"\(series)\""), "\(series)")
        }
    }

    @Test func cardsScenesReuseTheirShadowsOnTheGPU() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        try BenchTests.checkCardCounters(BenchTests.cardsJSON(backend: "gles"), renderer: "gles")
    }
}
