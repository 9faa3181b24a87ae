import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

/// Runs the built `lamina` binary, as a user would.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    static var binary: URL { LaminaExecutable.url }

    /// Runs the binary in `folder` with `input` on its standard input (none: the test's own).
    static func run(_ arguments: [String], in folder: URL? = nil, input: Data? = nil,
                    environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let folder { process.currentDirectoryURL = folder }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = input.map { _ in Pipe() }
        if let stdin { process.standardInput = stdin }
        try process.run()
        if let stdin, let input {
            // From another thread, so that input larger than a pipe holds cannot stall against our reads.
            let writer = stdin.fileHandleForWriting
            Thread {
                writer.write(input)
                try? writer.close()
            }.start()
        }
        // Drain stdout before waiting, so a large PNG cannot fill the pipe and stall the child; stderr stays
        // far below a pipe's capacity.
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: stdoutData,
                      stderr: String(decoding: stderrData, as: UTF8.self))
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

@Suite struct CLITests {
    @Test func helpListsTheSubcommands() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        for word in ["render", "info", "diff", "bench"] { #expect(result.output.contains(word)) }
        let render = try CLI.run(["render", "--help"])
        #expect(render.status == 0)
        #expect(render.output.contains("--backend") && render.output.contains("-o, --output")
            && render.output.contains("built-in demo"))
        let diff = try CLI.run(["diff", "--help"])
        #expect(diff.output.contains("--tolerance"))
    }

    @Test func renderWithNoSceneWritesTheDemo() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["render"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("using the cpu renderer"))
        let image = try Image(contentsOfFile: folder.appendingPathComponent("lamina-demo.png").path)
        #expect(image.width == Int(Demo.size.width) && image.height == Int(Demo.size.height))
        // The page background, the first gravity panel's grey, and its rounded corner (the page, a little shadow).
        #expect(image.rgba(x: 2, y: 2) == RGBA8(r: 0xF3, g: 0xF4, b: 0xF7, a: 255))
        #expect(image.rgba(x: 30, y: 130) == RGBA8(r: 0xD9, g: 0xDD, b: 0xE5, a: 255))
        let corner = image.rgba(x: 24, y: 84)
        #expect(corner.r > 0xD9 && corner.r <= 0xF3, "\(corner)")
    }

    @Test func renderASceneAtScaleTwoToAChosenFile() throws {
        let folder = try CLI.temporaryFolder()
        let scene = """
            {"size": [20, 10], "backgroundColor": "#FFFFFF",
             "layers": [{"frame": [5, 0, 5, 10], "backgroundColor": "#FF0000"}]}
            """
        try scene.write(to: folder.appendingPathComponent("box.json"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["render", "box.json", "--scale", "2", "--backend", "cpu", "-o", "out.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let image = try Image(contentsOfFile: folder.appendingPathComponent("out.png").path)
        #expect(image.width == 40 && image.height == 20)
        #expect(image.rgba(x: 10, y: 5) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(image.rgba(x: 9, y: 5) == RGBA8(r: 255, g: 255, b: 255, a: 255))
        // Default output name: the scene's base name.
        #expect(try CLI.run(["render", "box.json"], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("box.png").path))
    }

    @Test func renderToStdout() throws {
        let folder = try CLI.temporaryFolder()
        try ##"{"size": [4, 4], "backgroundColor": "#00FF00"}"##.write(
            to: folder.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["render", "s.json", "-o", "-"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let image = try Image(data: result.stdout)
        #expect(image.rgba(x: 1, y: 1) == RGBA8(r: 0, g: 255, b: 0, a: 255))
    }

    @Test func badScenesExitTwoWithPositions() throws {
        let folder = try CLI.temporaryFolder()
        try "{\"size\": [10, 10],\n \"layers\": [{\"opacity\": \"half\"}]}".write(
            to: folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["render", "bad.json"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.json:2:25: layers[0].opacity"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad.png").path))
        let missing = try CLI.run(["render", "nothing-here.json"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nothing-here.json"))
    }

    @Test func aFailureWhileWritingExitsOne() throws {
        let result = try CLI.run(["render", "--backend", "cpu", "-o", "/nonexistent-folder/out.png"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("lamina: cannot write \"/nonexistent-folder/out.png\": no such folder /nonexistent-folder"),
                "\(result.stderr)")
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CLI.run(["render", "--scale", "0"]).status == 2)
        #expect(try CLI.run(["render", "--backend", "vulkan"]).status == 2)
        #expect(try CLI.run(["frobnicate"]).status == 2)
    }

    @Test func diffReportsDifferencesAndExitStatus() throws {
        let folder = try CLI.temporaryFolder()
        let a = try Image(width: 4, height: 4, color: .white)
        let b = try a.duplicate()
        b.setRGBA(RGBA8(r: 250, g: 255, b: 255, a: 255), x: 1, y: 1)
        try a.writePNG(to: folder.appendingPathComponent("a.png"))
        try b.writePNG(to: folder.appendingPathComponent("b.png"))
        let same = try CLI.run(["diff", "a.png", "a.png"], in: folder)
        #expect(same.status == 0 && same.output.contains("max channel difference: 0"))
        let differ = try CLI.run(["diff", "a.png", "b.png", "--output", "d.png"], in: folder)
        #expect(differ.status == 1)
        #expect(differ.output.contains("max channel difference: 5"))
        #expect(differ.output.contains("differing pixels: 1 of 16"))
        let picture = try Image(contentsOfFile: folder.appendingPathComponent("d.png").path)
        #expect(picture.rgba(x: 1, y: 1).r > 0 && picture.rgba(x: 1, y: 1).g == 0)
        #expect(try CLI.run(["diff", "a.png", "b.png", "--tolerance", "5"], in: folder).status == 0)
        let unreadable = try CLI.run(["diff", "a.png", "missing.png"], in: folder)
        #expect(unreadable.status == 2 && unreadable.stderr.contains("missing.png"))
    }

    @Test func infoNamesTheRenderers() throws {
        let result = try CLI.run(["info"])
        #expect(result.status == 0)
        #expect(result.output.contains("cpu renderer: available"))
        #expect(result.output.contains("pixman 0."))
        #expect(result.output.contains("egl"))
    }

    @Test func benchPrintsFrameTimes() throws {
        let result = try CLI.run(["bench", "--scene", "sprites-1k", "--frames", "2", "--warmup", "0", "--size", "320x240"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.contains("sprites-1k:") && result.output.contains("ms/frame median"))
        #expect(result.output.contains("1001 quads"))
        let bad = try CLI.run(["bench", "--scene", "nope"])
        #expect(bad.status == 2 && bad.stderr.contains("unknown scene \"nope\""))
    }
}

@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display"))
struct CLIGLESTests {
    @Test func glesBackendRendersTheSamePixels() throws {
        let folder = try CLI.temporaryFolder()
        let gles = try CLI.run(["render", "--backend", "gles", "-o", "gles.png"], in: folder)
        #expect(gles.status == 0, "\(gles.stderr)")
        #expect(gles.stderr.contains("using the gles renderer (requested)"))
        let cpu = try CLI.run(["render", "--backend", "cpu", "-o", "cpu.png"], in: folder)
        #expect(cpu.status == 0)
        let diff = try CLI.run(["diff", "cpu.png", "gles.png", "--tolerance", "8"], in: folder)
        #expect(diff.status == 0, "\(diff.output)")
    }

    @Test func autoExplainsItsChoiceAndTheEnvironmentOverrides() throws {
        let folder = try CLI.temporaryFolder()
        let auto = try CLI.run(["render", "-o", "a.png"], in: folder)
        #expect(auto.status == 0)
        let info = try CLI.run(["info"])
        if info.output.contains("software rasteriser: yes") {
            #expect(auto.stderr.contains("cpu renderer (auto: the only GL driver is the software rasteriser"))
        } else {
            #expect(auto.stderr.contains("gles renderer (auto: hardware GPU"))
        }
        #expect(info.output.contains("GL_RENDERER: ") && info.output.contains("max texture size: "))
    }

    @Test func aMissingDeviceNamesEveryAttempt() throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["render", "--backend", "gles", "-o", "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["LAMINA_EGL_DEVICE": "/dev/dri/renderD999"]) { $1 }
        let err = Pipe()
        process.standardError = err
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(text.contains("no EGL display could be opened: device /dev/dri/renderD999: LAMINA_EGL_DEVICE names no EGL device"))
        #expect(text.contains("surfaceless default: skipped"))
    }
}
