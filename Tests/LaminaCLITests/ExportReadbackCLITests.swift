import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `lamina export --backend gles --readback ring` reads its frames back through the GLES renderer's readback ring
/// (frame n + 1 drawn before frame n is collected and encoded, tools/lamina/ExportFrames.swift): its PNG frames and its
/// y4m stream hold the bytes of `lamina render --time T --backend gles`, a fresh process and renderer per frame, with
/// one job and with two; so does `--readback direct` (what `auto` picks on llvmpipe).
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct ExportReadbackCLITests {
    /// 40 x 24: a box moving 2 pixels a frame (at 10 fps), a rounded card whose colour changes at 0.3 s, a layer
    /// turning with antialiased edges, and an image moving by whole pixels, so that each frame differs from the
    /// last in a part of the picture (the ring's retained target redraws only that part).
    static let scene = ##"""
        {"size": [40, 24], "backgroundColor": "#202830",
         "layers": [
          {"name": "box", "frame": [0, 2, 8, 8], "backgroundColor": "#FF4000",
           "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 4, "toValue": 24, "duration": 1}]},
          {"name": "card", "frame": [2, 12, 14, 10], "backgroundColor": "#00C0FF", "cornerRadius": 3},
          {"name": "turn", "frame": [22, 12, 10, 8], "backgroundColor": "#F0F000C0", "allowsEdgeAntialiasing": true,
           "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 90,
                           "duration": 1}]},
          {"name": "picture", "frame": [30, 2, 4, 4], "contents": "blue.png",
           "animations": [{"type": "basic", "keyPath": "position.y", "fromValue": 4, "toValue": 14, "duration": 1}]}],
         "timeline": [{"at": 0.3, "layer": "card", "set": {"backgroundColor": "#80FF80"}}]}
        """##
    static let times = (0..<6).map { Double($0) / 10 }

    func folder() throws -> URL {
        let folder = try CLI.temporaryFolder()
        try Image(width: 4, height: 4, color: .blue).writePNG(to: folder.appendingPathComponent("blue.png"))
        try Self.scene.write(to: folder.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        return folder
    }

    func run(_ arguments: [String], in folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try CLI.run(arguments, in: folder)
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    }

    func bytes(_ image: Image) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: image.baseAddress, count: image.byteCount))
    }

    @Test func pngFramesAndY4MEqualFreshRendersOfEachFrame() throws {
        let folder = try folder()
        // The reference: each frame drawn alone, by a fresh process.
        var expected: [Image] = []
        for (number, time) in Self.times.enumerated() {
            try run(["render", "s.json", "--backend", "gles", "--time", "\(time)", "-o", "ref-\(number).png"], in: folder)
            expected.append(try Image(contentsOfFile: folder.appendingPathComponent("ref-\(number).png").path))
        }
        // Distinct frames, so that a frame out of order or read back twice would be noticed.
        #expect(Set(expected.map(bytes)).count == Self.times.count)
        let writer = Y4MWriter(width: 40, height: 24, rate: try #require(FrameRate(10)))
        let y4m = expected.reduce(writer.header) { $0 + writer.frame($1) }
        for jobs in [1, 2] {
            let export = ["export", "s.json", "--backend", "gles", "--fps", "10", "--duration", "0.6", "--jobs", "\(jobs)",
                          "--readback", "ring"]
            try run(export + ["-o", "png\(jobs)/f-%02d.png"], in: folder)
            for number in expected.indices {
                let frame = try Image(contentsOfFile: folder.appendingPathComponent("png\(jobs)/f-0\(number).png").path)
                #expect(bytes(frame) == bytes(expected[number]), "--jobs \(jobs), frame \(number)")
            }
            try run(export + ["-o", "video\(jobs).y4m"], in: folder)
            #expect(try Data(contentsOf: folder.appendingPathComponent("video\(jobs).y4m")) == y4m, "--jobs \(jobs)")
        }
        try run(["export", "s.json", "--backend", "gles", "--fps", "10", "--duration", "0.6", "--jobs", "1",
                 "--readback", "direct", "-o", "direct.y4m"], in: folder)
        #expect(try Data(contentsOf: folder.appendingPathComponent("direct.y4m")) == y4m, "--readback direct")
    }
}
