import Foundation
import LaminaCore
import LaminaImageIO
import LaminaLayers
import LaminaScene
import Testing

/// `lamina batch`'s pieces in the library (docs/scale.md): manifest lines read into jobs or named problems, edits
/// applied as edits of the file, and images decoded once for many loads.
@Suite struct BatchManifestTests {
    let folder = URL(fileURLWithPath: "/data/batch")

    private func job(_ text: String, line: Int = 3) throws(SceneProblem) -> BatchJob? {
        try BatchManifest.job(Substring(text), line: line, file: "jobs.jsonl", folder: folder)
    }

    private func problem(_ text: String) -> String {
        do { _ = try job(text); return "no problem" } catch { return error.description }
    }

    @Test func aLineIsAJobWithPathsInTheManifestsFolder() throws {
        let read = try job(#"{"scene": "scenes/card.json", "output": "/out/ada.png", "time": 1.5, "scale": 2, "#
            + #""backend": "gles", "set": [{"layer": "title", "set": {"string": "Hello \"Ada\""}}], "#
            + #""images": {"logo": "logos/ada.png"}}"#)
        #expect(read == BatchJob(line: 3, scene: "/data/batch/scenes/card.json", output: "/out/ada.png", time: 1.5,
                                 scale: 2, backend: "gles",
                                 edits: [#"{"layer":"title","set":{"string":"Hello \"Ada\""}}"#],
                                 images: ["logo": "/data/batch/logos/ada.png"]))
        let export = try job(#"{"scene": "a.json", "output": "v.y4m", "export": {"fps": "30000/1001", "duration": 2, "start": 0.5, "format": "y4m"}}"#)
        #expect(export?.export == BatchExport(fps: "30000/1001", duration: 2, start: 0.5, format: "y4m"))
        #expect(try job(#"{"scene": "a.json", "output": "f-%03d.png", "export": {"fps": 24}}"#)?.export?.fps == "24")
        #expect(try job("   ") == nil)
        #expect(try job("# a comment") == nil)
    }

    @Test func badLinesAreNamedWithTheirLineAndPath() {
        #expect(problem(#"{"scene": "a.json", "outptu": "a.png"}"#)
                    == #"jobs.jsonl:3: outptu: unknown key (did you mean "output"?)"#)
        #expect(problem(#"{"scene": "a.json"}"#)
                    == #"jobs.jsonl:3: required key "output" is missing (a PNG path, or a frame pattern or video file for an export)"#)
        #expect(problem(#"{"scene": "a.json", "output": "a.png", "scale": 0}"#)
                    == "jobs.jsonl:3: scale: expected a positive number, got 0")
        #expect(problem(#"{"scene": "a.json", "output": "a.png", "backend": "vulkan"}"#)
                    == #"jobs.jsonl:3: backend: expected "auto", "cpu" or "gles", got "vulkan""#)
        #expect(problem(#"{"scene": "a.json", "output": "a.png", "set": {"layer": "x"}}"#).hasPrefix(
            "jobs.jsonl:3: set: expected a list of control lines"))
        #expect(problem(#"{"scene": "a.json", "output": "a.png", "set": [3]}"#)
                    == #"jobs.jsonl:3: set[0]: expected a control line (an object with "layer" and "set"), got a number"#)
        #expect(problem(#"{"scene": "a.json", "output": "a.png", "images": {"logo": 3}}"#)
                    == "jobs.jsonl:3: images.logo: expected a non-empty string, got a number")
        #expect(problem(#"{"scene": "a.json", "output": "v.y4m", "export": {"format": "mp4"}}"#)
                    == #"jobs.jsonl:3: export.format: expected "png", "y4m" or "raw", got "mp4""#)
        #expect(problem(#"{"scene": "a.json", "output": "v.y4m", "time": 1, "export": {}}"#)
                    == #"jobs.jsonl:3: time: an export draws from "export"."start": it has no "time""#)
        #expect(problem("[1, 2]") == #"jobs.jsonl:3: expected a job (an object with "scene" and "output"), got an array"#)
        #expect(problem(#"{"scene": "a.json", "scene": "b.json", "output": "a.png"}"#).hasPrefix("jobs.jsonl:3: scene: "))
        #expect(problem("{\"scene\": ").hasPrefix("jobs.jsonl:3:"))
    }

    @Test func anEditIsThereAtEveryTimeWithoutAnimating() throws {
        let scene = try loadScene(#"{"size": [20, 20], "layers": [{"name": "box", "frame": [0, 0, 20, 20], "opacity": 1}]}"#)
        try scene.edit(controlLine: Data(#"{"layer": "box", "set": {"opacity": 0.25}}"#.utf8), file: "jobs.jsonl",
                       line: 7, path: "set[0]")
        let box = scene.root.sublayers![0]
        #expect(box.opacity == 0.25)
        #expect(box.animationKeys()?.isEmpty ?? true, "no implicit animation")
        #expect(throws: SceneError.self) {
            try scene.edit(controlLine: Data(#"{"layer": "box", "set": {"opacity": 1}, "transition": {"type": "transition"}}"#.utf8),
                           file: "jobs.jsonl", line: 8, path: "set[1]")
        }
        do {
            try scene.edit(controlLine: Data(#"{"layer": "bx", "set": {"opacity": 1}}"#.utf8), file: "jobs.jsonl",
                           line: 9, path: "set[2]")
            Issue.record("an unknown layer must be an error")
        } catch {
            #expect(error.problems.first?.description == #"jobs.jsonl:9: set[2].layer: no layer is named "bx" (did you mean "box"?)"#)
        }
        #expect(box.opacity == 0.25, "a bad edit changes nothing")
    }

    @Test func sharedImagesAreDecodedOnceWhileTheFileStaysTheSame() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("a.png")
        let image = try Image(width: 2, height: 2)
        try image.writePNG(to: file)
        var options = SceneOptions()
        let cache = SharedImageCache()
        options.sharedImages = cache
        let json = #"{"size": [4, 4], "layers": [{"frame": [0, 0, 4, 4], "contents": "a.png"}]}"#
        let first = try loadScene(json, in: folder, options: options)
        let second = try loadScene(json, in: folder, options: options)
        #expect(cache.decoded == 1 && cache.reused == 1)
        #expect(first.root.sublayers![0].contents as AnyObject === second.root.sublayers![0].contents as AnyObject)
        // Another file in its place is decoded again.
        let bigger = try Image(width: 3, height: 3)
        try bigger.writePNG(to: file)
        _ = try loadScene(json, in: folder, options: options)
        #expect(cache.decoded == 2)
        // A replacement swaps the file a scene names for another.
        let other = folder.appendingPathComponent("b.png")
        try Image(width: 5, height: 5).writePNG(to: other)
        options.imageReplacements = ["a.png": other.path]
        let replaced = try loadScene(json, in: folder, options: options)
        #expect((replaced.root.sublayers![0].contents as? Image)?.width == 5)
    }
}
