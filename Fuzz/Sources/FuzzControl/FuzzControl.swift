import FuzzSupport
import Foundation
import LaminaCore
import LaminaLayers
import LaminaScene

/// Control lines (`lamina play --control`) on arbitrary bytes: each line of the input is read as a playback line
/// (`{"seek": 2}`, a seek moving the scene's timeline) or applied to a small scene with named layers; every line is
/// applied or refused with a `SceneError` naming `<control>` and its line, never a trap. The scene's layers are then presented at a later time, as the next frame would. Each line is also read as
/// a `lamina batch` manifest line (`BatchManifest.job`): a job or a problem placed on `jobs.jsonl` and the line, and
/// a job's `"set"` lines applied as edits (`Scene.edit`) to a fresh scene, placed the same way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControl(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzDriver.data(bytes, count)
    let scene = FuzzControlScene.make()
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
    for (index, line) in lines.prefix(64).enumerated() {
        do {
            // A playback line moves the scene's time (backwards too, as `lamina play` does); any other changes layers.
            if let command = try PlaybackCommand.parse(String(line), lineNumber: index + 1) {
                if case .seek(let time) = command { scene.advance(to: time) }
                continue
            }
            try scene.apply(controlLine: String(line), lineNumber: index + 1, at: Double(index) * 0.1)
        } catch {
            if error.problems.isEmpty { FuzzDriver.fail("a SceneError with no problem") }
            if error.problems.contains(where: { $0.file != "<control>" || $0.line != index + 1 }) {
                FuzzDriver.fail("a problem not placed on <control>:\(index + 1): \(error)")
            }
        }
    }
    _ = scene.root.presentationSnapshot(at: 10)
    let edited = FuzzControlScene.make()
    for (index, line) in lines.prefix(64).enumerated() {
        do throws(SceneProblem) {
            guard let job = try BatchManifest.job(line, line: index + 1, file: "jobs.jsonl",
                                                  folder: URL(fileURLWithPath: "/nonexistent")) else { continue }
            if job.line != index + 1 || !job.scene.hasPrefix("/") || !job.output.hasPrefix("/") {
                FuzzDriver.fail("a job with line \(job.line) or relative paths: \(job)")
            }
            for (number, edit) in job.edits.enumerated() {
                do {
                    try edited.edit(controlLine: Data(edit.utf8), file: "jobs.jsonl", line: job.line, path: "set[\(number)]")
                } catch {
                    if error.problems.contains(where: { $0.file != "jobs.jsonl" || $0.line != job.line
                        || !$0.path.hasPrefix("set[\(number)]") }) {
                        FuzzDriver.fail("an edit's problem not placed on jobs.jsonl:\(job.line) set[\(number)]: \(error)")
                    }
                }
            }
        } catch {
            if error.file != "jobs.jsonl" || error.line != index + 1 {
                FuzzDriver.fail("a manifest problem not placed on jobs.jsonl:\(index + 1): \(error)")
            }
        }
    }
    _ = edited.root.presentationSnapshot(at: 10)
    return 0
}

enum FuzzControlScene {
    static let source = """
        {"size": [200, 100], "backgroundColor": "#000000",
         "layers": [{"name": "box", "frame": [10, 10, 50, 50], "backgroundColor": "#ff0000"},
                    {"name": "card", "frame": [100, 10, 80, 60], "cornerRadius": 8, "backgroundColor": "#00ff00",
                     "sublayers": [{"name": "inner", "frame": [5, 5, 20, 20], "backgroundColor": "#0000ff"}]}],
         "timeline": [{"at": 1, "layer": "box", "set": {"opacity": 0.5, "frame": [20, 20, 40, 40]}},
                      {"at": 2, "layer": "card", "set": {"backgroundColor": "#ffff00"}, "animationDuration": 1}]}
        """

    /// A new scene for each input, so no input sees another's changes.
    static func make() -> Scene {
        do {
            return try Scene.load(data: Data(source.utf8), baseDirectory: URL(fileURLWithPath: "/nonexistent"),
                                  fileName: "control.json")
        } catch {
            FuzzDriver.fail("the fuzz target's own scene failed: \(error)")
        }
    }
}

@main enum FuzzControlMain {
    static func main() { FuzzDriver.run(fuzzControl) }
}
