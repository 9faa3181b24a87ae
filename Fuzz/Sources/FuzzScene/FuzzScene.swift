import FuzzSupport
import Foundation
import LaminaScene

/// Scene loading on arbitrary bytes: a `Scene` or a `SceneError` with at least one problem, never a trap.
/// A loaded scene's animations and timeline are then evaluated at a few times; nothing is planned or rendered.
///
/// Relative file names resolve in a temporary folder holding copies of the scene and image test fixtures
/// (PNGs, a corrupt and a huge one, sprite-sheet plists), so mutated scenes reach the image and sprite-sheet
/// code too; files outside that folder stay refused by the default options.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzDriver.data(bytes, count)
    do {
        var scene = try Scene.load(data: data, baseDirectory: FuzzFiles.folder, fileName: "fuzz.json")
        if !(scene.size.width.isFinite && scene.size.height.isFinite) { FuzzDriver.fail("size \(scene.size)") }
        // The animations and the timeline, evaluated at a few times up to the scene's end (no picture is made):
        // whatever the file's numbers, a presentation or nothing, never a trap.
        let end = scene.duration.isFinite ? min(max(scene.duration, 0), 1e6) : 0
        for time in [0, end * 0.37, end, end + 1] {
            scene.advance(to: time)
            _ = scene.root.presentationSnapshot(at: time)
        }
    } catch let error as SceneError {
        if error.problems.isEmpty { FuzzDriver.fail("a SceneError with no problem") }
    } catch {
        FuzzDriver.fail("not a SceneError: \(error)")
    }
    return 0
}

/// The folder scenes load their files from.
enum FuzzFiles {
    static let folder: URL = {
        // This file is Fuzz/Sources/FuzzScene/FuzzScene.swift; the fixtures are in Tests/ of the same checkout.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        // The scene fixtures, and the images of the reference scenes (whose files the scene corpus names).
        var files = [root.appendingPathComponent("Tests/LaminaSceneTests/Fixtures")].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).map {
                folder.appendingPathComponent($0)
            }
        }
        let referenceScenes = root.appendingPathComponent("Tests/LaminaRenderTests/Scenes")
        for path in FileManager.default.subpaths(atPath: referenceScenes.path) ?? [] where path.hasSuffix(".png") {
            files.append(referenceScenes.appendingPathComponent(path))
        }
        if files.isEmpty { FuzzDriver.fail("no fixtures under \(root.path)") }
        // TMPDIR: tools/fuzz.sh points it at its scratch folder, which it removes afterwards.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-fuzz-scene-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files {
                let target = folder.appendingPathComponent(file.lastPathComponent)
                if !FileManager.default.fileExists(atPath: target.path) {
                    try FileManager.default.copyItem(at: file, to: target)
                }
            }
        } catch {
            FuzzDriver.fail("cannot prepare \(folder.path): \(error)")
        }
        return folder
    }()
}

@main enum FuzzSceneMain {
    static func main() { FuzzDriver.run(fuzzScene) }
}
