import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

/// `lamina export` run as a user runs it (issue 15, part 4): PNG frames through a pattern, y4m and raw on
/// stdout, the sidecar, identical bytes across --jobs and shards, and exit statuses.
@Suite struct ExportCLITests {
    /// A 21x11 scene (odd, so chroma planes round up) with a half-transparent background, an opaque green
    /// box, and an image from a file, so that every job loads its own copy of the scene and its image.
    static let scene = ##"""
        {"size": [21, 11], "backgroundColor": "#FF000080",
         "layers": [{"frame": [2, 2, 6, 6], "backgroundColor": "#00FF00", "cornerRadius": 2},
                    {"frame": [12, 1, 8, 8], "contents": "blue.png", "opacity": 0.75}]}
        """##

    func folder() throws -> URL {
        let folder = try CLI.temporaryFolder()
        try Image(width: 4, height: 4, color: .blue).writePNG(to: folder.appendingPathComponent("blue.png"))
        try Self.scene.write(to: folder.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        return folder
    }

    func export(_ arguments: [String], in folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLI.Result {
        let result = try CLI.run(["export", "s.json", "--backend", "cpu"] + arguments, in: folder)
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// The files in `folder` whose names end in `suffix`, by name.
    func files(_ folder: URL, _ suffix: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(suffix) {
            found[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return found
    }

    @Test func pngFramesThroughThePatternWithASidecar() throws {
        let folder = try folder()
        let result = try export(["-o", "out/f-%03d.png", "--duration", "0.1", "--fps", "30", "--jobs", "2"], in: folder)
        #expect(result.stderr.contains("wrote 3 frames, 21x11 at 30 fps, to out/f-%03d.png"), "\(result.stderr)")
        let out = folder.appendingPathComponent("out")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            == ["export.json", "f-000.png", "f-001.png", "f-002.png"])
        let frame = try Image(contentsOfFile: out.appendingPathComponent("f-002.png").path)
        #expect(frame.width == 21 && frame.height == 11)
        #expect(frame.rgba(x: 0, y: 0) == RGBA8(r: 255, g: 0, b: 0, a: 128))
        #expect(frame.rgba(x: 5, y: 5) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        let sidecar = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("export.json"))) as? [String: Any])
        #expect(sidecar["format"] as? String == "png" && sidecar["pixelFormat"] as? String == "rgba")
        #expect(sidecar["frameCount"] as? Int == 3 && sidecar["firstFrame"] as? Int == 0 && sidecar["lastFrame"] as? Int == 2)
        #expect(sidecar["width"] as? Int == 21 && sidecar["height"] as? Int == 11 && sidecar["scale"] as? Double == 1)
        #expect(sidecar["fps"] as? Double == 30 && sidecar["frameRate"] as? String == "30/1")
        #expect(sidecar["duration"] as? Double == 0.1 && sidecar["start"] as? Double == 0)
        let sceneBytes = try Data(contentsOf: folder.appendingPathComponent("s.json"))
        #expect(sidecar["sceneSHA256"] as? String == SHA256.hash(sceneBytes).hex)
        #expect(sidecar["laminaVersion"] as? String == LaminaVersion.string)
    }

    @Test func y4mOnStandardOutput() throws {
        let folder = try folder()
        let result = try export(["-o", "-", "--duration", "0.05", "--fps", "59.94", "--scale", "2"], in: folder)
        let header = "YUV4MPEG2 W42 H22 F60000:1001 Ip A1:1 C420jpeg XCOLORRANGE=FULL\n"
        #expect(result.stdout.prefix(header.utf8.count) == Data(header.utf8))
        let frameBytes = 6 + 42 * 22 + 2 * 21 * 11
        // 0.05 s at 59.94 fps: frames at 0, 1/59.94 and 2/59.94 s.
        #expect(result.stdout.count == header.utf8.count + 3 * frameBytes)
        let first = result.stdout.dropFirst(header.utf8.count)
        #expect(first.prefix(6) == Data("FRAME\n".utf8))
        // Luma of the half-red background over black (128, 0, 0): 0.299 x 128 = 38; of the green box: 150.
        let luma = Array(first.dropFirst(6).prefix(42 * 22))
        #expect(luma[0] == 38 && luma[10 * 42 + 10] == 150)
        // No sidecar for stdout.
        #expect(try files(folder, ".json").keys.sorted() == ["s.json"])
    }

    @Test func rawFramesHoldThePNGPixels() throws {
        let folder = try folder()
        _ = try export(["-o", "f%d.png", "--duration", "0.02", "--fps", "50"], in: folder)
        let png = try Image(contentsOfFile: folder.appendingPathComponent("f0.png").path)
        for (format, order) in [("rgba", [0, 1, 2, 3]), ("bgra", [2, 1, 0, 3])] {
            let raw = try export(["-o", "-", "--format", "raw", "--pixel-format", format, "--duration", "0.02", "--fps", "50"],
                                 in: folder)
            #expect(raw.stdout.count == 21 * 11 * 4)
            let bytes = [UInt8](raw.stdout)
            for (x, y) in [(0, 0), (5, 5), (15, 4), (20, 10)] {
                let p = png.rgba(x: x, y: y)
                let channels = [p.r, p.g, p.b, p.a]
                #expect((0..<4).map { bytes[(y * 21 + x) * 4 + $0] } == order.map { channels[$0] }, "\(format) \(x),\(y)")
            }
        }
        // yuv420p raw is the y4m stream's frames without markers.
        let yuv = try export(["-o", "-", "--format", "raw", "--pixel-format", "yuv420p", "--duration", "0.02", "--fps", "50"], in: folder)
        let y4m = try export(["-o", "-", "--duration", "0.02", "--fps", "50"], in: folder)
        let headerEnd = try #require(y4m.stdout.firstIndex(of: 0x0A))
        #expect(y4m.stdout[(headerEnd + 1)...].dropFirst(6) == yuv.stdout)
    }

    @Test func identicalBytesAcrossJobsAndShards() throws {
        let folder = try folder()
        // Scale 4 (84x44 pixels): tall enough that the CPU renderer splits frames into bands, on 2 threads with
        // --jobs 1 on two cores and on 1 with more jobs, which must not change a byte either.
        let timing = ["--duration", "0.2", "--fps", "60", "--start", "0.25", "--scale", "4"]
        _ = try export(["-o", "whole/%04d.png", "--jobs", "1"] + timing, in: folder)
        _ = try export(["-o", "jobs/%04d.png", "--jobs", "3"] + timing, in: folder)
        // Three shards into one folder, as pods sharing a volume would write them.
        for k in 0..<3 { _ = try export(["-o", "shards/%04d.png", "--shard", "\(k)/3", "--jobs", "2"] + timing, in: folder) }
        let whole = try files(folder.appendingPathComponent("whole"), ".png")
        #expect(whole.keys.sorted() == (0..<12).map { String(format: "%04d.png", $0) })
        #expect(try files(folder.appendingPathComponent("jobs"), ".png") == whole)
        #expect(try files(folder.appendingPathComponent("shards"), ".png") == whole)
        let sidecars = try files(folder.appendingPathComponent("shards"), ".json")
        #expect(sidecars.keys.sorted() == ["export.shard-0-of-3.json", "export.shard-1-of-3.json", "export.shard-2-of-3.json"])
        let middle = try #require(try JSONSerialization.jsonObject(with: sidecars["export.shard-1-of-3.json"]!) as? [String: Any])
        #expect(middle["firstFrame"] as? Int == 4 && middle["lastFrame"] as? Int == 7 && middle["totalFrames"] as? Int == 12)

        // y4m: every shard is a stream of its own; joined (the first header kept) they are the whole stream,
        // by tools/join-y4m.sh as by hand.
        let stream = try export(["-o", "-", "--jobs", "2"] + timing, in: folder).stdout
        #expect(try export(["-o", "-", "--jobs", "1"] + timing, in: folder).stdout == stream)
        var joined = Data()
        for k in 0..<5 {  // 5 shards of 12 frames: blocks of 2 and 3.
            let part = try export(["-o", "part\(k).y4m", "--shard", "\(k)/5"] + timing, in: folder)
            #expect(part.stdout.isEmpty)
            let bytes = try Data(contentsOf: folder.appendingPathComponent("part\(k).y4m"))
            let headerEnd = try #require(bytes.firstIndex(of: 0x0A))
            joined += k == 0 ? bytes : bytes[(headerEnd + 1)...]
        }
        #expect(joined == stream)
        let script = FailureArtifacts.packageRoot.appendingPathComponent("tools/join-y4m.sh").path
        let join = Process()
        join.executableURL = URL(fileURLWithPath: "/bin/sh")
        join.arguments = [script, "joined.y4m"] + (0..<5).map { "part\($0).y4m" }
        join.currentDirectoryURL = folder
        try join.run()
        join.waitUntilExit()
        #expect(join.terminationStatus == 0)
        #expect(try Data(contentsOf: folder.appendingPathComponent("joined.y4m")) == stream)
    }

    /// GLES jobs each make their own context on their own thread, and give the same bytes as one job (the
    /// renderers agree with the CPU's within parity, not byte for byte, so GLES is compared with GLES).
    @Test(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display"))
    func glesJobsGiveTheSameBytes() throws {
        let folder = try folder()
        func stream(_ jobs: Int) throws -> Data {
            let result = try CLI.run(["export", "s.json", "--backend", "gles", "-o", "-", "--duration", "0.1",
                                      "--scale", "3", "--jobs", "\(jobs)"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("using the gles renderer"))
            return result.stdout
        }
        let one = try stream(1)
        #expect(one.count == 58 + 6 * (6 + 63 * 33 + 2 * 32 * 17))  // A 58-byte header, 6 frames.
        #expect(try stream(3) == one)
    }

    @Test func aShardWithNoFramesIsAnEmptyStream() throws {
        let folder = try folder()
        let result = try export(["-o", "-", "--duration", "0.02", "--fps", "100", "--shard", "0/3"], in: folder)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "YUV4MPEG2 W21 H11 F100:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\n")
        _ = try export(["-o", "one.y4m", "--duration", "0.02", "--fps", "100", "--shard", "0/3"], in: folder)
        let sidecar = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("one.y4m.json"))) as? [String: Any])
        #expect(sidecar["frameCount"] as? Int == 0 && sidecar["firstFrame"] is NSNull)
        #expect(sidecar["pixelFormat"] as? String == "yuv420p" && sidecar["colorRange"] as? String == "full")
    }

    @Test func usageErrorsExitTwo() throws {
        let folder = try folder()
        let cases: [([String], String)] = [
            (["-o", "frame.png", "--duration", "1"], "lamina: bad frame pattern \"frame.png\": it needs one %d"),
            (["-o", "%d-%d.png", "--duration", "1"], "more than one %d"),
            (["-o", "f%d.png"], "lamina: a duration is needed: give --duration SECONDS"),
            (["-o", "f%d.png", "--duration", "0"], "--duration must be a positive number"),
            (["-o", "f%d.png", "--duration", "1", "--fps", "0"], "--fps must be a positive number or ratio"),
            (["-o", "f%d.png", "--duration", "1", "--fps=-30"], "--fps must be a positive number or ratio"),
            (["-o", "f%d.png", "--duration", "1", "--shard", "3/3"], "bad shard \"3/3\": the index is 0-based"),
            (["-o", "f%d.png", "--duration", "1", "--shard", "1-3"], "bad shard \"1-3\": expected INDEX/COUNT"),
            (["-o", "f%d.png", "--duration", "1", "--jobs", "0"], "--jobs must be at least 1"),
            (["-o", "f%d.png", "--duration", "1", "--scale", "0"], "--scale must be a positive number"),
            (["-o", "-", "--format", "png", "--duration", "1"], "PNG frames need a file pattern"),
            (["-o", "-", "--pixel-format", "rgba", "--duration", "1"], "y4m holds yuv420p"),
            (["-o", "f%d.png", "--duration", "1", "--format", "gif"], "gif"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(["export", "s.json", "--backend", "cpu"] + arguments, in: folder)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let missing = try CLI.run(["export", "none.json", "-o", "f%d.png", "--duration", "1"], in: folder)
        #expect(missing.status == 2 && missing.stderr.contains("lamina: none.json: the scene cannot be read: no such file"), "\(missing.stderr)")
        // Nothing was written by any of them.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["blue.png", "s.json"])
    }

    @Test func writeFailuresExitOne() throws {
        let folder = try folder()
        let missing = try CLI.run(["export", "s.json", "--backend", "cpu", "-o", "/nonexistent-folder/out.y4m",
                                   "--duration", "0.1"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("lamina: cannot write \"/nonexistent-folder/out.y4m\": no such folder /nonexistent-folder"),
                "\(missing.stderr)")
        let underAFile = try CLI.run(["export", "s.json", "--backend", "cpu", "-o", "s.json/f%d.png", "--duration", "0.1"],
                                     in: folder)
        #expect(underAFile.status == 1)
        #expect(underAFile.stderr.hasPrefix("lamina: cannot create the folder \"s.json\" for the frames: "), "\(underAFile.stderr)")
        if FileManager.default.isWritableFile(atPath: "/dev/full") {
            let full = try CLI.run(["export", "s.json", "--backend", "cpu", "-o", "/dev/full", "--format", "raw",
                                    "--duration", "0.1"], in: folder)
            #expect(full.status == 1)
            #expect(full.stderr.contains("cannot write \"/dev/full\": no space left on device"), "\(full.stderr)")
        }
    }

    /// A reader that quits (ffmpeg stopping) is EPIPE: exit status 1 with a message, not death by SIGPIPE.
    @Test func aClosedPipeExitsOneWithAMessage() throws {
        let folder = try folder()
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["export", "s.json", "--backend", "cpu", "-o", "-", "--duration", "10"]
        process.currentDirectoryURL = folder
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try out.fileHandleForReading.close()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("lamina: cannot write \"<stdout>\": broken pipe"), "\(stderr)")
    }
}
