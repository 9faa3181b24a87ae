import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `lamina render` with scenes from standard input and pipes, hostile files, `--memory-limit` and atomic
/// output (issue 13, parts 4, 6 and 7).
@Suite struct CLIFileTests {
    /// A folder with a 4x4 blue "blue.png" and the scene `scene` (which draws it at the top left of 8x8 red).
    func folder() throws -> URL {
        let folder = try CLI.temporaryFolder()
        try Image(width: 4, height: 4, color: .blue).writePNG(to: folder.appendingPathComponent("blue.png"))
        return folder
    }

    let scene = ##"{"size": [8, 8], "backgroundColor": "#FF0000", "layers": [{"frame": [0, 0, 4, 4], "contents": "blue.png"}]}"##

    func expectPicture(_ path: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let image = try Image(contentsOfFile: path.path)
        #expect(image.rgba(x: 1, y: 1) == RGBA8(r: 0, g: 0, b: 255, a: 255), sourceLocation: sourceLocation)
        #expect(image.rgba(x: 6, y: 6) == RGBA8(r: 255, g: 0, b: 0, a: 255), sourceLocation: sourceLocation)
    }

    @Test func aSceneFromStandardInputTakesImagesFromTheWorkingFolder() throws {
        let folder = try folder()
        let result = try CLI.run(["render", "-", "--backend", "cpu", "-o", "out.png"], in: folder,
                                 input: Data(scene.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        try expectPicture(folder.appendingPathComponent("out.png"))
        // /dev/stdin, a pipe here, works the same.
        let devStdin = try CLI.run(["render", "/dev/stdin", "--backend", "cpu", "-o", "dev.png"], in: folder,
                                   input: Data(scene.utf8))
        #expect(devStdin.status == 0, "\(devStdin.stderr)")
        try expectPicture(folder.appendingPathComponent("dev.png"))
        // Problems name the file <stdin>.
        let bad = try CLI.run(["render", "-", "-o", "x.png"], in: folder, input: Data(#"{"size": [8, 8], "scale": -1}"#.utf8))
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("lamina: <stdin>:1:27: scale: "), "\(bad.stderr)")
    }

    @Test func aSceneFromStandardInputNeedsAnOutputName() throws {
        let folder = try folder()
        for scene in ["-", "/dev/stdin"] {
            let result = try CLI.run(["render", scene, "--backend", "cpu"], in: folder, input: Data(self.scene.utf8))
            #expect(result.status == 2)
            #expect(result.stderr == "lamina: a scene read from standard input or a pipe needs -o (a PNG path, or - for stdout)\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["blue.png"])
    }

    @Test func aFIFONamedAsAnImageIsAnErrorAtOnce() throws {
        let folder = try folder()
        #expect(mkfifo(folder.appendingPathComponent("pipe.png").path, 0o644) == 0)
        try #"{"size": [8, 8], "layers": [{"frame": [0, 0, 4, 4], "contents": "pipe.png"}]}"#.write(
            to: folder.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        guard let run = finishing(within: 60, { try CLI.run(["render", "s.json", "--backend", "cpu"], in: folder) }) else {
            Issue.record("lamina render did not return within 60 s for a FIFO named as an image")
            return
        }
        let result = try run.get()
        #expect(result.status == 2)
        #expect(result.stderr.contains("s.json:1:65: layers[0].contents: cannot read \""), "\(result.stderr)")
        #expect(result.stderr.contains("pipe.png\": it is a FIFO (named pipe), not a regular file"))
    }

    @Test func memoryLimitValues() throws {
        let folder = try folder()
        try scene.write(to: folder.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        for bad in ["lots", "-1G", "0", "2X"] {
            let result = try CLI.run(["render", "s.json", "--memory-limit=\(bad)"], in: folder)
            #expect(result.status == 2, "\(bad)")
            #expect(result.stderr == "lamina: --memory-limit: expected a size such as 512M, 2G, 1.5GiB or a number of "
                + "bytes, got \"\(bad)\"\n")
        }
        for good in ["512M", "1.5GiB", "1048576"] {
            let result = try CLI.run(["render", "s.json", "--backend", "cpu", "--memory-limit", good, "-o", "ok.png"],
                                     in: folder)
            #expect(result.status == 0, "\(good): \(result.stderr)")
        }
        // 64 bytes of image and 256 of output fit in 300 bytes; the 8x8 output does not fit in 100.
        let tight = try CLI.run(["render", "s.json", "--backend", "cpu", "--memory-limit", "100"], in: folder)
        #expect(tight.status == 2)
        #expect(tight.stderr == "lamina: using the cpu renderer (requested)\nlamina: memory limit 100 bytes exceeded: "
            + "the 8x8 output image needs 256 bytes, 64 bytes already in use (raise it with --memory-limit or "
            + "MemoryBudget(limit:))\n")
        // Encoding the PNG takes a straight-alpha copy of the output: 64 + 256 + 256 bytes in all.
        let encoding = try CLI.run(["render", "s.json", "--backend", "cpu", "--memory-limit", "575"], in: folder)
        #expect(encoding.status == 2)
        #expect(encoding.stderr.hasSuffix("lamina: memory limit 575 bytes exceeded: encoding the 8x8 output as PNG "
            + "needs 256 bytes, 320 bytes already in use (raise it with --memory-limit or MemoryBudget(limit:))\n"))
        let exact = try CLI.run(["render", "s.json", "--backend", "cpu", "--memory-limit", "576", "-o", "ok.png"],
                                in: folder)
        #expect(exact.status == 0, "\(exact.stderr)")
    }

    @Test func overTheMemoryLimitNamesTheImage() throws {
        let folder = try folder()
        try Image(width: 64, height: 32, color: .green).writePNG(to: folder.appendingPathComponent("big.png"))
        try #"{"size": [8, 8], "images": {"small": "blue.png", "big": "big.png"}}"#.write(
            to: folder.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["render", "s.json", "--memory-limit", "4K"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == "lamina: s.json:1:57: images.big: memory limit 4 KiB exceeded: image \"big.png\" "
            + "(64x32) needs 8 KiB, 64 bytes already in use (raise it with --memory-limit or MemoryBudget(limit:))\n")
    }

    @Test func aFullDiskKeepsTheOldPicture() throws {
        guard let disk = TemporaryMount.tmpfs(bytes: 64 << 10) else {
            print("CLIFileTests: no tmpfs could be mounted here (needs root and CAP_SYS_ADMIN); skipped")
            return
        }
        defer { disk.unmount() }
        let folder = try folder()
        // Noise does not compress: its PNG is far larger than the 64 KiB disk.
        let noise = try Image(width: 256, height: 256)
        var seed: UInt32 = 12345
        for y in 0..<256 { for x in 0..<256 {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            noise.setWord(seed | 0xFF00_0000, x: x, y: y)
        } }
        try noise.writePNG(to: folder.appendingPathComponent("noise.png"))
        try #"{"size": [256, 256], "layers": [{"frame": [0, 0, 256, 256], "contents": "noise.png"}]}"#.write(
            to: folder.appendingPathComponent("noise.json"), atomically: true, encoding: .utf8)
        try scene.write(to: folder.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        let output = disk.url.appendingPathComponent("out.png")
        #expect(try CLI.run(["render", "s.json", "--backend", "cpu", "-o", output.path], in: folder).status == 0)
        let old = try Data(contentsOf: output)
        let full = try CLI.run(["render", "noise.json", "--backend", "cpu", "-o", output.path], in: folder)
        #expect(full.status == 1)
        #expect(full.stderr.hasSuffix("lamina: cannot write \"\(output.path)\": no space left on device\n"), "\(full.stderr)")
        #expect(try Data(contentsOf: output) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.url.path) == ["out.png"])
    }
}
