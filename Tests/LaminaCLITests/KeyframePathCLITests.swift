import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `lamina render SCENE --time T` of keyframe animations along a path (docs/animation.md, "Keyframes"), on the
/// CPU and GLES backends: the boxes are where each calculation mode puts them at the chosen times.
@Suite struct KeyframePathCLITests {
    /// Rows of 6 x 6 boxes along moveTo (10, y), lineTo (30, y), lineTo (110, y) in 1 s (keyframes at 0, 20, 100
    /// along): linear (keyframes evenly spaced: the corner at 0.5 s), discrete (each keyframe a third), paced
    /// (constant speed over 100), and linear with key times [0, 0.2, 1] and an easeIn timing function on the
    /// second segment; a value-function spin of a bar in the last row.
    static let scene = #"""
        {"size": [120, 80], "backgroundColor": "#000000",
         "layers": [
          {"name": "linear", "bounds": [0, 0, 6, 6], "position": [60, 10], "backgroundColor": "#FF0000",
           "animations": [{"keyPath": "position", "duration": 1,
             "path": [{"moveTo": [10, 10]}, {"lineTo": [30, 10]}, {"lineTo": [110, 10]}]}]},
          {"name": "discrete", "bounds": [0, 0, 6, 6], "position": [60, 25], "backgroundColor": "#FF0000",
           "animations": [{"keyPath": "position", "duration": 1, "calculationMode": "discrete",
             "path": [{"moveTo": [10, 25]}, {"lineTo": [30, 25]}, {"lineTo": [110, 25]}]}]},
          {"name": "paced", "bounds": [0, 0, 6, 6], "position": [60, 40], "backgroundColor": "#FF0000",
           "animations": [{"keyPath": "position", "duration": 1, "calculationMode": "paced",
             "path": [{"moveTo": [10, 40]}, {"lineTo": [30, 40]}, {"lineTo": [110, 40]}]}]},
          {"name": "timed", "bounds": [0, 0, 6, 6], "position": [60, 55], "backgroundColor": "#FF0000",
           "animations": [{"keyPath": "position", "duration": 1, "keyTimes": [0, 0.2, 1],
             "timingFunctions": ["linear", [0, 0, 0, 1]],
             "path": [{"moveTo": [10, 55]}, {"lineTo": [30, 55]}, {"lineTo": [110, 55]}]}]},
          {"name": "spin", "bounds": [0, 0, 30, 4], "position": [60, 70], "backgroundColor": "#00FF00",
           "animations": [{"keyPath": "transform", "valueFunction": "rotateZ", "values": [0, 12.566370614359172], "duration": 1}]}
         ]}
        """#

    static let red = RGBA8(r: 255, g: 0, b: 0, a: 255), green = RGBA8(r: 0, g: 255, b: 0, a: 255)
    static let black = RGBA8(r: 0, g: 0, b: 0, a: 255)

    /// The scene at `time` with `backend`.
    static func render(at time: Double, backend: String) throws -> Image {
        let folder = try CLI.temporaryFolder()
        try scene.write(to: folder.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["render", "scene.json", "--backend", backend, "--time", "\(time)", "-o", "out.png"],
                                 in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        return try Image(contentsOfFile: folder.appendingPathComponent("out.png").path)
    }

    /// Red at each x of `at` on row y, black at each of `empty`.
    static func check(_ image: Image, row y: Int, at: [Int], empty: [Int], _ what: String) {
        for x in at { #expect(image.rgba(x: x, y: y) == red, "\(what): a box at (\(x), \(y))") }
        for x in empty { #expect(image.rgba(x: x, y: y) == black, "\(what): nothing at (\(x), \(y))") }
    }

    static func checkAll(backend: String) throws {
        // 0.25 s: linear half its first segment (20), discrete the first keyframe (10), paced 25 along (35),
        // timed 1/16 into its second segment, eased by [0, 0, 0, 1] (x = t^3, y = 3t^2 - 2t^3: t = 0.3969,
        // y = 0.3475): 20 + 80 x 0.3475 = 47.8 along, at x 57.8 (linear easing would give 25 along, x 35).
        let quarter = try render(at: 0.25, backend: backend)
        check(quarter, row: 10, at: [20], empty: [35], "\(backend) linear 0.25 s")
        check(quarter, row: 25, at: [10], empty: [20], "\(backend) discrete 0.25 s")
        check(quarter, row: 40, at: [35], empty: [20], "\(backend) paced 0.25 s")
        check(quarter, row: 55, at: [58], empty: [35, 48], "\(backend) eased second segment 0.25 s")
        // 0.75 s: linear half its second segment (70), discrete the last keyframe from 2/3 (110), paced 75 along
        // (85).
        let late = try render(at: 0.75, backend: backend)
        check(late, row: 10, at: [70], empty: [85], "\(backend) linear 0.75 s")
        check(late, row: 25, at: [110], empty: [30, 90], "\(backend) discrete 0.75 s")
        check(late, row: 40, at: [85], empty: [70], "\(backend) paced 0.75 s")
        // 0.1 s: timed reaches half its first segment (20) at half of 0.2; discrete still the first keyframe.
        // 0.5 s: discrete the second keyframe (30), linear at the corner (30).
        let early = try render(at: 0.1, backend: backend)
        check(early, row: 55, at: [20], empty: [12], "\(backend) key times 0.1 s")
        let half = try render(at: 0.5, backend: backend)
        check(half, row: 25, at: [30], empty: [10, 110], "\(backend) discrete 0.5 s")
        check(half, row: 10, at: [30], empty: [60], "\(backend) linear 0.5 s")
        // The spin: 4π radians in 1 s: at 0.125 s a quarter turn (the bar upright), at 0.25 s half a turn (flat).
        let upright = try render(at: 0.125, backend: backend)
        #expect(upright.rgba(x: 60, y: 60) == green && upright.rgba(x: 70, y: 70) == black, "\(backend) spin 0.125 s")
        #expect(quarter.rgba(x: 70, y: 70) == green && quarter.rgba(x: 60, y: 62) == black, "\(backend) spin 0.25 s")
    }

    @Test func cpuBackend() throws {
        try Self.checkAll(backend: "cpu")
    }

    @Test(.enabled(if: GLESAvailability.skipReason == nil || ProcessInfo.processInfo.environment["LAMINA_REQUIRE_GLES"] == "1",
                   "no EGL display"))
    func glesBackend() throws {
        try Self.checkAll(backend: "gles")
    }
}
