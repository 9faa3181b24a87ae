import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `lamina render|export|info` on Lottie files (docs/lottie.md): --frame, --background, the file's own frame rate
/// and duration for export, refusals with exit status 2 naming the JSON path, --allow-unsupported warnings, and
/// the feature report.
@Suite struct LottieCLITests {
    /// 64 x 32 at 10 fps, frames 0..<20 (2 s): a red 16 x 16 square moving from x 8 to x 56 (centre) over frames
    /// 0..20.
    static let moving = #"""
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 64, "h": 32,
         "layers": [{"ty": 4, "nm": "red", "ind": 1, "ip": 0, "op": 20, "st": 0,
           "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [8, 16], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}},
                                      {"t": 20, "s": [56, 16]}]}},
           "shapes": [{"ty": "rc", "p": {"k": [0, 0]}, "s": {"k": [16, 16]}, "r": {"k": 0}},
                      {"ty": "fl", "c": {"k": [1, 0, 0]}, "o": {"k": 100}}]}]}
        """#

    /// The same with a Gaussian blur... and a Wave Warp (ty 7), which Lamina does not draw.
    static let unsupported = moving.replacingOccurrences(
        of: #""ip": 0, "op": 20, "st": 0,"#,
        with: #""ip": 0, "op": 20, "st": 0, "ef": [{"ty": 7, "nm": "Wave Warp", "ef": []}],"#)

    private func folder(with text: String, name: String = "anim.json") throws -> URL {
        let folder = try CLI.temporaryFolder()
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func rendersAFrameOverABackground() throws {
        let folder = try folder(with: Self.moving)
        // Frame 10: the centre at x 32.
        var result = try CLI.run(["render", "anim.json", "--frame", "10", "--backend", "cpu", "-o", "out.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        var image = try Image(contentsOfFile: folder.appendingPathComponent("out.png").path)
        #expect(image.width == 64 && image.height == 32)
        #expect(image.rgba(x: 32, y: 16) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(image.rgba(x: 4, y: 16).a == 0, "transparent where nothing is drawn")
        // The same frame by time, flattened over white, at scale 2.
        result = try CLI.run(["render", "anim.json", "--time", "1", "--background", "white", "--scale", "2",
                              "--backend", "cpu", "-o", "out.png"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        image = try Image(contentsOfFile: folder.appendingPathComponent("out.png").path)
        #expect(image.width == 128 && image.rgba(x: 64, y: 32) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(image.rgba(x: 8, y: 32) == RGBA8(r: 255, g: 255, b: 255, a: 255))
        // --frame on a scene file, and a colour it cannot read, are usage errors.
        result = try CLI.run(["render", "anim.json", "--background", "mauvish", "-o", "out.png"], in: folder)
        #expect(result.status == 2 && result.stderr.contains("--background"))
    }

    @Test func exportsAtTheFilesRateAndDuration() throws {
        let folder = try folder(with: Self.moving)
        let result = try CLI.run(["export", "anim.json", "--backend", "cpu", "--jobs", "1", "-o", "f-%02d.png"],
                                 in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("f-") }
        #expect(files.count == 20, "2 s at 10 fps: \(files.sorted())")
        let frame5 = try Image(contentsOfFile: folder.appendingPathComponent("f-05.png").path)
        #expect(frame5.rgba(x: 20, y: 16) == RGBA8(r: 255, g: 0, b: 0, a: 255), "frame 5: centre at 20")
    }

    @Test func refusesUnsupportedFeaturesUnlessAllowed() throws {
        let folder = try folder(with: Self.unsupported)
        var result = try CLI.run(["render", "anim.json", "--backend", "cpu", "-o", "out.png"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("anim.json:") && result.stderr.contains("layers[0].ef[0]")
                && result.stderr.contains("effect \"Wave Warp\" (ty 7) is not supported"), "\(result.stderr)")
        result = try CLI.run(["render", "anim.json", "--allow-unsupported", "--backend", "cpu", "-o", "out.png"],
                             in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning:") && result.stderr.contains("layers[0].ef[0]"))
        let image = try Image(contentsOfFile: folder.appendingPathComponent("out.png").path)
        #expect(image.rgba(x: 8, y: 16) == RGBA8(r: 255, g: 0, b: 0, a: 255), "the rest is drawn")
    }

    @Test func infoReportsFeaturesAndSupport() throws {
        var folder = try folder(with: Self.moving)
        var result = try CLI.run(["info", "anim.json"], in: folder)
        var text = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(text.contains("size: 64x32 points") && text.contains("frame rate: 10 fps")
                && text.contains("frames: 0 to 20 (2 s)") && text.contains("rectangles: 1")
                && text.contains("everything in the file is drawn"), "\(text)")
        folder = try self.folder(with: Self.unsupported)
        result = try CLI.run(["info", "anim.json"], in: folder)
        text = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 2)
        #expect(text.contains("1 feature cannot be drawn") && text.contains("Wave Warp"), "\(text)")
    }
}
