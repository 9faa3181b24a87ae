import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

/// `lamina bench`'s build time and drawing (docs/benchmarks.md, "Build time and drawing"), and the tiny `--size`
/// that shows the build time directly. No timing is asserted, only that the figures exist, are numbers of the right
/// sign, and add up to the frame.
@Suite struct BenchBuildTimeTests {
    typealias J = BenchTests

    /// The renderers measured by `--backend all`: gles too where an EGL display opens.
    static var backends: [String] { GLESAvailability.skipReason == nil ? ["cpu", "gles"] : ["cpu"] }

    @Test func buildAndDrawAccountForEveryFrameOnBothRenderers() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["bench", "--backend", "all", "--size", "32x18", "--frames", "3", "--warmup", "1",
                                  "--scene", "animated-1k", "--scene", "sprites-1k", "--json", "out.json"],
                                 in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        // The text: a build line per renderer and scene, with the stages and the drawing.
        let buildLines = result.output.split(separator: "\n").filter { $0.hasPrefix("    build ") }
        #expect(buildLines.count == 2 * Self.backends.count, "\(result.output)")
        for line in buildLines {
            #expect(line.contains("snapshot") && line.contains("presentation") && line.contains("plan")
                    && line.contains("draw") && line.contains("medians per frame"), "\(line)")
        }
        if Self.backends.contains("gles") { #expect(result.output.contains("encode and upload")) }
        let nodeLines = buildLines.filter { $0.hasSuffix("; node values in 3 of 3 frames (1,000 layers)") }
        #expect(nodeLines.count == Self.backends.count, "\(result.output)")
        #expect(result.output.contains("quad preparation"))

        let json = try J.readJSON(folder.appendingPathComponent("out.json"))
        let scenes = try #require(json["scenes"] as? [[String: Any]])
        #expect(scenes.map { $0["scene"] as? String } == ["animated-1k", "sprites-1k"])
        for scene in scenes {
            let renderers = try #require(scene["renderers"] as? [[String: Any]])
            #expect(renderers.map { $0["renderer"] as? String } == Self.backends.map { $0 })
            for r in renderers {
                let label = "\(scene["scene"] ?? "") \(r["renderer"] ?? "")"
                let frame = try J.object(r["frameMs"]), build = try J.object(r["buildMs"]),
                    draw = try J.object(r["drawMs"])
                for (name, stats) in [("buildMs", build), ("drawMs", draw)] {
                    for key in ["median", "min", "max", "p95", "mean"] {
                        #expect(try J.number(stats[key]) >= 0, "\(label) \(name).\(key)")
                    }
                    #expect(try J.number(stats["min"]) <= J.number(stats["median"])
                            && J.number(stats["median"]) <= J.number(stats["max"]), "\(label) \(name)")
                }
                // Frame by frame, build + draw is the frame: so the means add up (to the JSON's 4 decimals) and no
                // build median exceeds the frame's.
                let sum = try J.number(build["mean"]) + J.number(draw["mean"])
                #expect(abs(sum - (try J.number(frame["mean"]))) <= 0.0003, "\(label): \(sum) vs \(frame)")
                #expect(try J.number(build["median"]) <= J.number(frame["median"]), "\(label)")
                #expect(try J.number(build["max"]) <= J.number(frame["max"]), "\(label)")
                let split = try J.object(r["buildSplit"])
                let stages = ["snapshotMs", "presentationMs", "planMs", "prepareMs"]
                #expect(Set(split.keys) == Set(stages + ["nodeValueFrames", "nodeValueLayers"]), "\(label)")
                for key in split.keys { #expect(try J.number(split[key]) >= 0, "\(label) buildSplit.\(key)") }
                // The stages are what the build is made of: the plan step (snapshot, presentation, plan, as the
                // bench's own clock saw them) and the preparation, so none can exceed the build's maximum.
                for key in stages {
                    #expect(try J.number(split[key]) <= J.number(build["max"]) + 0.0001, "\(label) \(key)")
                }
                // animated-1k's counted frames are made from node values alone (the warm-up frame planned the
                // tree), its 1,000 sprites each; sprites-1k has no animation.
                let animated = scene["scene"] as? String == "animated-1k"
                #expect(try J.number(split["nodeValueFrames"]) == (animated ? 3 : 0), "\(label)")
                #expect(try J.number(split["nodeValueLayers"]) == (animated ? 1_000 : 0), "\(label)")
            }
        }
    }

    @Test func aTinySizeDrawsTheFullSizeTreeScaledDown() throws {
        let folder = try CLI.temporaryFolder()
        func run(_ size: String) throws -> [String: Any] {
            let result = try CLI.run(["bench", "--size", size, "--frames", "1", "--warmup", "0", "--scene",
                                      "sprites-1k", "--json", "\(size).json"], in: folder)
            #expect(result.status == 0, "\(size): \(result.stderr)")
            let json = try J.readJSON(folder.appendingPathComponent("\(size).json"))
            #expect(try J.object(json["settings"])["size"] as? String == size)
            return try #require((json["scenes"] as? [[String: Any]])?.first)
        }
        let tiny = try run("32x18"), full = try run("1920x1080"), small = try run("64x64"), odd = try run("7x50")
        // The output is the size asked for.
        #expect(tiny["width"] as? Int == 32 && tiny["height"] as? Int == 18)
        #expect(full["width"] as? Int == 1920 && full["height"] as? Int == 1080)
        #expect(small["width"] as? Int == 64 && small["height"] as? Int == 64)
        #expect(odd["width"] as? Int == 7 && odd["height"] as? Int == 50)
        // Under 64 pixels a side: the 1920 x 1080 layout (shorter side 1080 points) at 1/60 (1/154.3); from 64 on
        // the scene is laid out at the output's size, at scale 1, as before.
        #expect(abs(try J.number(tiny["scale"]) - 18.0 / 1080) < 1e-4)
        #expect(abs(try J.number(odd["scale"]) - 7.0 / 1080) < 1e-4)
        #expect(try J.number(small["scale"]) == 1 && J.number(full["scale"]) == 1)
        // The same tree and the same quads as the full-size frame.
        #expect(tiny["layers"] as? Int == full["layers"] as? Int && tiny["layers"] as? Int == 1_001)
        #expect(tiny["quads"] as? Int == full["quads"] as? Int)
    }

    @Test func sizesOutOfRangeAndTinyTiledPansAreRefused() throws {
        let folder = try CLI.temporaryFolder()
        let cases: [([String], String)] = [
            (["--size", "0x32"], "--size must be WxH with sides 1...16384, got 0x32"),
            (["--size", "32x16385"], "--size must be WxH with sides 1...16384"),
            (["--size", "4x"], "--size must be WxH"),
            (["--tiled-pan", "--size", "32x32"], "--size with --tiled-pan must have sides of at least 64"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["bench"] + arguments, in: folder)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.output.isEmpty, "\(arguments): nothing measured")
        }
    }

    @Test func liveFramesReportTheirBuildTimeAtATinySize() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["bench", "--live", "--backend", "cpu", "--layers", "300", "--size", "40x30",
                                  "--frames", "2", "--json", "live.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.contains("live cpu: 300 sprites at 40x30"), "\(result.output)")
        #expect(result.output.contains("a live frame equals a fresh renderer's, byte for byte: yes"))
        let json = try J.readJSON(folder.appendingPathComponent("live.json"))
        let live = try #require((json["live"] as? [[String: Any]])?.first)
        #expect(live["width"] as? Int == 40 && live["height"] as? Int == 30)
        let frames = try #require(live["frames"] as? [[String: Any]])
        #expect(frames.count == 4)
        for frame in frames {
            let build = try J.number(frame["buildMs"]), plan = try J.number(frame["planMs"])
            let total = try J.number(frame["frameMs"])
            // The build is the plan and the renderer's preparation: at least the plan, at most the frame.
            #expect(build >= plan && build <= total + 1e-9, "\(frame)")
            // Setting the positions is timed apart from the frame: a number, and none for the frame with no change
            // is larger than a whole second on 300 sprites.
            let set = try J.number(frame["setMs"])
            #expect(set >= 0 && set < 1000, "\(frame)")
        }
        #expect(result.output.contains("; set "), "\(result.output)")
    }

    /// moving-100k moves every sprite before every frame, each to a whole point inside the output.
    @Test func movingSpritesAllMoveInsideTheOutput() throws {
        let size = CGSize(width: 200, height: 120)
        let root = try BenchScene.moving100k.makeRoot(size: size)
        let sprites = try #require(root.sublayers)
        #expect(sprites.count == 100_000)
        let before = sprites.map(\.position)
        BenchScene.moving100k.prepareFrame(root, frame: 1)
        let after = sprites.map(\.position)
        let moved = zip(before, after).filter { $0 != $1 }.count
        // 137 x 57 places: a sprite stays where it was about once in 7,800 times.
        #expect(moved > 99_900, "\(moved) moved")
        let outside = after.filter { position in
            !(position.x >= 0 && position.x + 64 <= size.width && position.y >= 0 && position.y + 64 <= size.height
              && position.x == position.x.rounded() && position.y == position.y.rounded())
        }
        #expect(outside.isEmpty, "\(outside.prefix(5))")
    }
}
