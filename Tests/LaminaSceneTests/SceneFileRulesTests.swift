import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Files a scene names: only regular files, size limits before reading, each image decoded once, decoded
/// images within the memory budget (issue 13, parts 4 and 6).
@Suite struct SceneFileRulesTests {
    /// A folder holding a 4x4 red PNG "red.png".
    func folderWithImage() throws -> URL {
        let folder = try makeTemporaryFolder()
        let red = try Image(width: 4, height: 4, color: Color(red: 1, green: 0, blue: 0, alpha: 1))
        try red.writePNG(to: folder.appendingPathComponent("red.png"))
        return folder
    }

    @Test func aFIFONamedAsAnImageIsASceneErrorAtOnce() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let json = "{\"size\": [8, 8],\n \"layers\": [{\"frame\": [0, 0, 8, 8], \"contents\": \"pipe.png\"}]}"
        guard let found = finishing(within: 10, { problems(json, in: folder) }) else {
            Issue.record("loading a scene naming a FIFO did not return within 10 s")
            return
        }
        #expect(try found.get() == [
            "scene.json:2:49: layers[0].contents: cannot read \"\(fifo)\": it is a FIFO (named pipe), not a regular file"
        ])
    }

    @Test func aSparseHugeImageGetsTheSizeErrorWithoutBeingRead() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge.png").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x89, 0x50, 0x4E, 0x47])))
        let fd = open(path, O_WRONLY)
        #expect(fd >= 0 && ftruncate(fd, 2 << 30) == 0)
        close(fd)
        let json = #"{"size": [8, 8], "images": {"huge": "huge.png"}}"#
        #expect(problems(json, in: folder) == [
            "scene.json:1:37: images.huge: \"\(path)\" is 2 GiB (2147483648 bytes), over the limit of 256 MiB "
                + "(268435456 bytes) for an image file"
        ])
        // The limit is an option.
        var options = SceneOptions()
        options.maxImageFileBytes = 3
        let small = try folderWithImage()
        defer { try? FileManager.default.removeItem(at: small) }
        let redPath = small.appendingPathComponent("red.png").path
        let bytes = try #require(FileManager.default.attributesOfItem(atPath: redPath)[.size] as? Int)
        #expect(problems(#"{"size": [8, 8], "images": {"red": "red.png"}}"#, in: small, options: options) == [
            "scene.json:1:36: images.red: \"\(redPath)\" is \(bytes) bytes, over the limit of 3 bytes for an image file"
        ])
    }

    @Test func anImageUsedByAHundredLayersIsDecodedOnce() throws {
        let folder = try folderWithImage()
        defer { try? FileManager.default.removeItem(at: folder) }
        let budget = MemoryBudget()
        let layers = (0..<100).map { i in
            // Half by the path as written, half by another spelling of the same file.
            #"{"frame": [0, 0, 4, 4], "contents": "\#(i.isMultiple(of: 2) ? "red.png" : "./red.png")"}"#
        }
        let json = #"{"size": [8, 8], "layers": [\#(layers.joined(separator: ","))]}"#
        let scene = try loadScene(json, in: folder, options: SceneOptions(memoryBudget: budget))
        let images = scene.root.sublayers!.compactMap { $0.contentsImage }
        #expect(images.count == 100)
        #expect(images.allSatisfy { $0 === images[0] })
        // One decoded image's pixels in the budget, not a hundred.
        #expect(budget.inUse == 4 * 4 * 4)
    }

    @Test func decodedImagesPastTheMemoryLimitNameTheImage() throws {
        let folder = try folderWithImage()
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = try Image(width: 64, height: 32, color: Color(red: 0, green: 1, blue: 0, alpha: 1))
        try big.writePNG(to: folder.appendingPathComponent("big.png"))
        let json = #"{"size": [8, 8], "images": {"red": "red.png", "big": "big.png"}}"#
        // 64 bytes for red.png fit; big.png's 8 KiB do not.
        let budget = MemoryBudget(limit: 4096)
        #expect(problems(json, in: folder, options: SceneOptions(memoryBudget: budget)) == [
            "scene.json:1:54: images.big: memory limit 4 KiB exceeded: image \"big.png\" (64x32) needs 8 KiB, "
                + "64 bytes already in use (raise it with --memory-limit or MemoryBudget(limit:))"
        ])
        // The failed load gave red.png's bytes back with the images.
        #expect(budget.inUse == 0)
    }

    @Test func aSceneFromAPipeTakesItsImagesFromTheWorkingFolder() throws {
        // Scene.load through /dev/fd: a pipe's folder is /dev/fd, so the working folder stands in.
        let pipe = Pipe()
        let json = #"{"size": [4, 4], "layers": [{"frame": [0, 0, 4, 4], "contents": "nothing-here.png"}]}"#
        pipe.fileHandleForWriting.write(Data(json.utf8))
        try pipe.fileHandleForWriting.close()
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        let cwd = FileManager.default.currentDirectoryPath
        let error = #expect(throws: SceneError.self) { try Scene.load(contentsOf: URL(fileURLWithPath: path)) }
        #expect(error?.problems.map(\.message) == [
            "\"nothing-here.png\" not found (looked for \(cwd == "/" ? "" : cwd)/nothing-here.png)"
        ])
    }

    @Test func aFIFONamedAsASpriteSheetIsRefusedAtOnce() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("sheet.plist").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let json = #"{"size": [8, 8], "spriteSheets": {"hero": "sheet.plist"}}"#
        guard let found = finishing(within: 10, { problems(json, in: folder) }) else {
            Issue.record("loading a scene naming a FIFO as a sprite sheet did not return within 10 s")
            return
        }
        let lines = try found.get()
        #expect(lines == [
            "scene.json:1:43: spriteSheets.hero: \"sheet.plist\" (\(fifo)) is a FIFO (named pipe), not a regular file"
        ])
    }

    @Test func aFolderAsTheSceneIsNamed() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: SceneError.self) { try Scene.load(contentsOf: folder) }
        #expect(error?.problems.map(\.message) == ["cannot read the file: it is a folder, not a regular file or a pipe"])
    }
}
