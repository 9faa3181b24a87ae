import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `lamina batch` (docs/scale.md): stills, variants through "set", replaced images and exports, byte for byte those
/// of `lamina render`/`export` on the edited scene; bad lines named with their line and the others going on;
/// shards, --shard auto, --resume and the summary.
@Suite struct BatchCLITests {
    /// A white 120 x 60 card with a red box named "box" and an image layer "logo" drawing `logo.png` (a 2 x 2 green
    /// image) at (70, 10, 20, 20).
    static let card = #"""
        {"size": [120, 60], "backgroundColor": "#ffffff",
         "images": {"logo": "logo.png"},
         "layers": [{"name": "box", "frame": [10, 10, 40, 40], "backgroundColor": "#ff0000"},
                    {"name": "logo", "frame": [70, 10, 20, 20], "contents": "logo", "contentsGravity": "resize"}]}
        """#

    private func solid(_ colour: RGBA8, to url: URL) throws {
        let image = try Image(width: 2, height: 2)
        for y in 0..<2 { for x in 0..<2 { image.setRGBA(colour, x: x, y: y) } }
        try image.writePNG(to: url)
    }

    private func folder() throws -> URL {
        let folder = try CLI.temporaryFolder()
        try Self.card.write(to: folder.appendingPathComponent("card.json"), atomically: true, encoding: .utf8)
        try solid(RGBA8(r: 0, g: 255, b: 0, a: 255), to: folder.appendingPathComponent("logo.png"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("logos"), withIntermediateDirectories: true)
        try solid(RGBA8(r: 0, g: 0, b: 255, a: 255), to: folder.appendingPathComponent("logos/ada.png"))
        return folder
    }

    private func write(_ lines: [String], to url: URL) throws {
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    private func bytes(_ folder: URL, _ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    private func summary(_ folder: URL, _ name: String = "summary.json") throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: bytes(folder, name)) as? [String: Any]
        return object?["jobs"] as? [[String: Any]] ?? []
    }

    @Test func stillsVariantsAndReplacedImagesAreTheBytesOfRender() throws {
        let folder = try folder()
        try write([
            ##"{"scene": "card.json", "output": "out/plain.png", "backend": "cpu"}"##,
            ##"{"scene": "card.json", "output": "out/blue.png", "backend": "cpu", "set": [{"layer": "box", "set": {"backgroundColor": "#0000ff"}}]}"##,
            ##"{"scene": "card.json", "output": "out/ada.png", "backend": "cpu", "images": {"logo": "logos/ada.png"}, "scale": 2}"##,
        ], to: folder.appendingPathComponent("jobs.jsonl"))
        let result = try CLI.run(["batch", "jobs.jsonl", "--jobs", "2"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("3 jobs: 3 ok, 0 skipped, 0 failed"), "\(result.stderr)")
        // The same as lamina render of the file, and of the file edited as the variant says.
        var render = try CLI.run(["render", "card.json", "--backend", "cpu", "-o", "plain.png"], in: folder)
        #expect(render.status == 0)
        #expect(try bytes(folder, "out/plain.png") == bytes(folder, "plain.png"))
        let edited = Self.card.replacingOccurrences(of: ##""backgroundColor": "#ff0000""##, with: ##""backgroundColor": "#0000ff""##)
        try edited.write(to: folder.appendingPathComponent("edited.json"), atomically: true, encoding: .utf8)
        render = try CLI.run(["render", "edited.json", "--backend", "cpu", "-o", "edited.png"], in: folder)
        #expect(try bytes(folder, "out/blue.png") == bytes(folder, "edited.png"))
        let blue = try Image(contentsOfFile: folder.appendingPathComponent("out/blue.png").path)
        #expect(blue.rgba(x: 30, y: 30) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        // The logo replaced by logos/ada.png (blue), at scale 2; the original logo is green.
        let ada = try Image(contentsOfFile: folder.appendingPathComponent("out/ada.png").path)
        #expect(ada.width == 240 && ada.height == 120)
        #expect(ada.rgba(x: 160, y: 40) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        let plain = try Image(contentsOfFile: folder.appendingPathComponent("out/plain.png").path)
        #expect(plain.rgba(x: 80, y: 20) == RGBA8(r: 0, g: 255, b: 0, a: 255))
        #expect(plain.rgba(x: 30, y: 30) == RGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func badJobsAreNamedWithTheirLineAndTheOthersGoOn() throws {
        let folder = try folder()
        try write([
            ##"{"scene": "card.json", "output": "good.png", "backend": "cpu"}"##,
            "# a comment, and a blank line",
            "",
            ##"{"scene": "card.json", "output": "titel.png", "set": [{"layer": "titel", "set": {"opacity": 0.5}}]}"##,
            ##"{"scene": "card.json", "outptu": "x.png"}"##,
            "not json",
            ##"{"scene": "missing.json", "output": "missing.png"}"##,
            ##"{"scene": "card.json", "output": "anim.png", "set": [{"layer": "box", "set": {"opacity": 0.5}, "animationDuration": 1}]}"##,
            ##"{"scene": "card.json", "output": "f.y4m", "export": {"fps": 10, "fomat": "y4m"}}"##,
            ##"{"scene": "card.json", "output": "t.png", "time": -1}"##,
        ], to: folder.appendingPathComponent("jobs.jsonl"))
        let result = try CLI.run(["batch", "jobs.jsonl", "--backend", "cpu", "--summary", "summary.json"], in: folder)
        #expect(result.status == 2, "a bad job is bad input: \(result.stderr)")
        for line in [
            #"lamina: jobs.jsonl:4: set[0].layer: no layer is named "titel" (did you mean "title"?)"#
                .replacingOccurrences(of: " (did you mean \"title\"?)", with: ""),
            #"lamina: jobs.jsonl:5: outptu: unknown key (did you mean "output"?)"#,
            "lamina: jobs.jsonl:6:1: ",
            "lamina: jobs.jsonl:7: missing.json: the scene cannot be read: no such file",
            "lamina: jobs.jsonl:8: set[0].animationDuration: an edit applies before the first frame, as in the scene file: it cannot animate",
            #"lamina: jobs.jsonl:9: export.fomat: unknown key (did you mean "format"?)"#,
            "lamina: jobs.jsonl:10: time: expected a number, 0 or more, got -1",
        ] {
            #expect(result.stderr.contains(line), "\(line)\n\(result.stderr)")
        }
        #expect(result.stderr.contains("8 jobs: 1 ok, 0 skipped, 7 failed"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("good.png").path))
        for name in ["titel.png", "missing.png", "anim.png", "f.y4m", "t.png"] {
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
        let records = try summary(folder)
        #expect(records.map { $0["line"] as? Int } == [1, 4, 5, 6, 7, 8, 9, 10])
        #expect(records.map { $0["status"] as? String } == ["ok"] + Array(repeating: "failed", count: 7))
        #expect((records[2]["error"] as? String) == #"jobs.jsonl:5: outptu: unknown key (did you mean "output"?)"#)
        #expect((records[0]["outputs"] as? [String])?.first?.hasSuffix("/good.png") == true)
    }

    @Test func shardsTakeContiguousBlocksAndResumeSkipsWhatIsDone() throws {
        let folder = try folder()
        let lines = (0..<5).map { ##"{"scene": "card.json", "output": "out/\##($0).png", "backend": "cpu"}"## }
        try write(lines, to: folder.appendingPathComponent("jobs.jsonl"))
        var result = try CLI.run(["batch", "jobs.jsonl", "--shard", "0/2", "--summary", "s0.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try summary(folder, "s0.json").map { $0["line"] as? Int } == [1, 2])
        // Slurm's array index and count; an array counted from 1 (SLURM_ARRAY_TASK_MIN).
        result = try CLI.run(["batch", "jobs.jsonl", "--shard", "auto", "--summary", "s1.json"], in: folder,
                             environment: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "2",
                                           "SLURM_ARRAY_TASK_MIN": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try summary(folder, "s1.json").map { $0["line"] as? Int } == [3, 4, 5])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path)
        #expect(files.sorted() == ["0.png", "1.png", "2.png", "3.png", "4.png"])
        // --resume: the two done are skipped; the two removed, and one cut short before its IEND chunk (what a
        // machine that died before the shard's flush may leave), are drawn again, the same bytes.
        let before = try bytes(folder, "out/3.png")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("out/0.png"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("out/4.png"))
        try before.dropLast(12).write(to: folder.appendingPathComponent("out/2.png"))
        result = try CLI.run(["batch", "jobs.jsonl", "--resume", "--summary", "s.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try summary(folder, "s.json").map { $0["status"] as? String } == ["ok", "skipped", "ok", "skipped", "ok"])
        #expect(try bytes(folder, "out/3.png") == before)
        #expect(try bytes(folder, "out/2.png") == before)
        #expect(try bytes(folder, "out/0.png") == bytes(folder, "out/1.png"))
        // --shard auto outside Slurm, and a shard past the count, are usage errors.
        result = try CLI.run(["batch", "jobs.jsonl", "--shard", "auto"], in: folder,
                             environment: ["SLURM_ARRAY_TASK_ID": "", "SLURM_ARRAY_TASK_COUNT": ""])
        #expect(result.status == 2 && result.stderr.contains("--shard auto"), "\(result.stderr)")
        result = try CLI.run(["batch", "jobs.jsonl", "--shard", "2/2"], in: folder)
        #expect(result.status == 2 && result.stderr.contains("--shard"), "\(result.stderr)")
    }

    @Test func exportJobsAreTheBytesOfExport() throws {
        let folder = try folder()
        try write([
            ##"{"scene": "card.json", "output": "v.y4m", "backend": "cpu", "export": {"fps": "10", "duration": 0.3}, "set": [{"layer": "box", "set": {"opacity": 0.5}}]}"##,
            ##"{"scene": "card.json", "output": "frames/f-%02d.png", "backend": "cpu", "export": {"fps": 10, "duration": 0.2, "start": 0.1}}"##,
        ], to: folder.appendingPathComponent("jobs.jsonl"))
        var result = try CLI.run(["batch", "jobs.jsonl"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let edited = Self.card.replacingOccurrences(of: ##""backgroundColor": "#ff0000""##,
                                                    with: ##""backgroundColor": "#ff0000", "opacity": 0.5"##)
        try edited.write(to: folder.appendingPathComponent("edited.json"), atomically: true, encoding: .utf8)
        result = try CLI.run(["export", "edited.json", "--backend", "cpu", "--fps", "10", "--duration", "0.3",
                              "-o", "ref.y4m"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try bytes(folder, "v.y4m") == bytes(folder, "ref.y4m"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("v.y4m.json").path))
        result = try CLI.run(["export", "card.json", "--backend", "cpu", "--fps", "10", "--duration", "0.2",
                              "--start", "0.1", "-o", "ref/f-%02d.png"], in: folder)
        for frame in ["00", "01"] {
            #expect(try bytes(folder, "frames/f-\(frame).png") == bytes(folder, "ref/f-\(frame).png"))
        }
        // Resumed: the sidecar is there, nothing is drawn again.
        result = try CLI.run(["batch", "jobs.jsonl", "--resume"], in: folder)
        #expect(result.stderr.contains("2 jobs: 0 ok, 2 skipped, 0 failed"), "\(result.stderr)")
    }

    @Test func joinedShardsAreTheWholeExportByteForByte() throws {
        let folder = try folder()
        let common = ["--backend", "cpu", "--fps", "10", "--duration", "1"]
        for k in 0..<3 {
            let result = try CLI.run(["export", "card.json"] + common + ["--shard", "\(k)/3", "-o", "part-\(k).y4m"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
        }
        _ = try CLI.run(["export", "card.json"] + common + ["-o", "whole.y4m"], in: folder)
        var result = try CLI.run(["join", "-o", "joined.y4m", "part-0.y4m", "part-1.y4m", "part-2.y4m"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try bytes(folder, "joined.y4m") == bytes(folder, "whole.y4m"))
        // The joined sidecar is the whole export's, but for the output's name.
        let whole = String(decoding: try bytes(folder, "whole.y4m.json"), as: UTF8.self)
        #expect(String(decoding: try bytes(folder, "joined.y4m.json"), as: UTF8.self)
                    == whole.replacingOccurrences(of: #""output": "whole.y4m""#, with: #""output": "joined.y4m""#))
        // A shard missing, or out of order, is named.
        result = try CLI.run(["join", "-o", "bad.y4m", "part-0.y4m", "part-2.y4m"], in: folder)
        #expect(result.status == 2 && result.stderr.contains("part-2.y4m.json starts at frame 6: frames 3 to 5 are missing"),
                "\(result.stderr)")
        result = try CLI.run(["join", "-o", "bad.y4m", "part-0.y4m", "part-1.y4m"], in: folder)
        #expect(result.status == 2 && result.stderr.contains("the parts hold frames 0 to 5 of 10"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad.y4m").path))
        // Raw shards are concatenated.
        for k in 0..<2 {
            _ = try CLI.run(["export", "card.json"] + common + ["--shard", "\(k)/2", "-o", "r-\(k).rgba"], in: folder)
        }
        _ = try CLI.run(["export", "card.json"] + common + ["-o", "r.rgba"], in: folder)
        result = try CLI.run(["join", "-o", "rj.rgba", "r-0.rgba", "r-1.rgba"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try bytes(folder, "rj.rgba") == bytes(folder, "r.rgba"))
        result = try CLI.run(["join", "-o", "x.y4m", "part-0.y4m", "r-1.rgba"], in: folder)
        #expect(result.status == 2 && result.stderr.contains("r-1.rgba is not a y4m stream"), "\(result.stderr)")
    }

    /// --gpus: one worker per EGL device. Here (llvmpipe) `all` finds no hardware device and says so; the software
    /// device named by hand gives GLES's bytes, those of `lamina render --backend gles`.
    @Test func gpusGiveOneWorkerPerDevice() throws {
        guard GLESAvailability.renderer() != nil else { return }
        let folder = try folder()
        try write([##"{"scene": "card.json", "output": "g.png"}"##], to: folder.appendingPathComponent("jobs.jsonl"))
        let devices = EGLDisplayConnection.devices()
        var result = try CLI.run(["batch", "jobs.jsonl", "--gpus", "all", "--backend", "cpu"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let hardware = devices.filter { !$0.isSoftware }
        if hardware.isEmpty {
            #expect(result.stderr.contains("--gpus all: no GPU here"), "\(result.stderr)")
        } else {
            #expect(result.stderr.contains("on \(hardware.count) GPU"), "\(result.stderr)")
        }
        if let software = devices.first(where: \.isSoftware) {
            result = try CLI.run(["batch", "jobs.jsonl", "--gpus", software.name], in: folder)
            #expect(result.status == 0 && result.stderr.contains("1 worker on 1 GPU: \(software.name)"), "\(result.stderr)")
            _ = try CLI.run(["render", "card.json", "--backend", "gles", "-o", "ref.png"], in: folder)
            #expect(try bytes(folder, "g.png") == bytes(folder, "ref.png"))
        }
        result = try CLI.run(["batch", "jobs.jsonl", "--gpus", "99"], in: folder)
        #expect(result.status == 2 && result.stderr.contains(#"--gpus: no EGL device "99""#), "\(result.stderr)")
    }
}
