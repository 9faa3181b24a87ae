import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `lamina render SCENE --time T`: the scene drawn at a time, timeline applied.
@Suite struct RenderTimeCLITests {
    /// A box moving from x 0 to 80 over 1 s, and a strip turning from blue to green from 1 s to 2 s.
    static let scene = #"""
        {"size": [100, 40], "backgroundColor": "#000000",
         "layers": [
          {"name": "box", "frame": [0, 0, 20, 20], "backgroundColor": "#FF0000",
           "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 10, "toValue": 90, "duration": 1}]},
          {"name": "strip", "frame": [0, 20, 100, 20], "backgroundColor": "#0000FF"}],
         "timeline": [{"at": 1, "layer": "strip", "set": {"backgroundColor": "#00FF00"}, "animationDuration": 1,
                       "timingFunction": "linear"}]}
        """#

    private func render(_ arguments: [String], in folder: URL) throws -> Image {
        let result = try CLI.run(["render", "scene.json", "--backend", "cpu", "-o", "out.png"] + arguments, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        return try Image(contentsOfFile: folder.appendingPathComponent("out.png").path)
    }

    @Test func rendersAtTheGivenTime() throws {
        let folder = try CLI.temporaryFolder()
        try Self.scene.write(to: folder.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
        let red = RGBA8(r: 255, g: 0, b: 0, a: 255), black = RGBA8(r: 0, g: 0, b: 0, a: 255)
        // Default time 0: the box at the left, the strip blue.
        let start = try render([], in: folder)
        #expect(start.rgba(x: 5, y: 10) == red && start.rgba(x: 50, y: 10) == black)
        #expect(start.rgba(x: 50, y: 30) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        // Halfway: the box centred at 50.
        let half = try render(["--time", "0.5"], in: folder)
        #expect(half.rgba(x: 45, y: 10) == red && half.rgba(x: 5, y: 10) == black)
        // 1.5 s: the animation is over (the box is back at its model place), the strip halfway to green.
        let later = try render(["--time", "1.5"], in: folder)
        #expect(later.rgba(x: 5, y: 10) == red)
        #expect(later.rgba(x: 50, y: 30) == RGBA8(r: 0, g: 128, b: 128, a: 255))
        let end = try render(["--time=3"], in: folder)
        #expect(end.rgba(x: 50, y: 30) == RGBA8(r: 0, g: 255, b: 0, a: 255))
    }

    /// A forwards fill holds the end value only when the animation is kept (removedOnCompletion false); removed on
    /// completion (the default) it shows the model value after its end, as Core Animation removes it then.
    @Test func aForwardsFillRemovedOnCompletionShowsTheModelLater() throws {
        let folder = try CLI.temporaryFolder()
        let scene = #"""
            {"size": [100, 40], "backgroundColor": "#000000",
             "layers": [
              {"name": "removed", "frame": [0, 0, 20, 20], "backgroundColor": "#FF0000",
               "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 10, "toValue": 90,
                               "duration": 1, "fillMode": "forwards"}]},
              {"name": "kept", "frame": [0, 20, 20, 20], "backgroundColor": "#00FF00",
               "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 10, "toValue": 90,
                               "duration": 1, "fillMode": "forwards", "removedOnCompletion": false}]}]}
            """#
        try scene.write(to: folder.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
        let black = RGBA8(r: 0, g: 0, b: 0, a: 255)
        let later = try render(["--time", "2"], in: folder)
        #expect(later.rgba(x: 5, y: 10) == RGBA8(r: 255, g: 0, b: 0, a: 255))  // the model place, x 0...20
        #expect(later.rgba(x: 85, y: 10) == black)
        #expect(later.rgba(x: 85, y: 30) == RGBA8(r: 0, g: 255, b: 0, a: 255))  // held at the end, x 80...100
        #expect(later.rgba(x: 5, y: 30) == black)
    }

    @Test func aBadTimeIsAUsageError() throws {
        let folder = try CLI.temporaryFolder()
        try Self.scene.write(to: folder.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
        for bad in ["--time=-1", "--time=inf", "--time=nan"] {
            let result = try CLI.run(["render", "scene.json", "-o", "out.png", bad], in: folder)
            #expect(result.status == 2, "\(bad): \(result.stderr)")
            #expect(result.stderr.contains("--time must be a number of seconds, 0 or more"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    }

    /// Export without --duration and --fps takes the scene's (here the default duration: the timeline's change at
    /// 1 s animates for 1 s, so 2 s), and each frame shows the scene at its time.
    @Test func exportTakesTheScenesDurationAndFps() throws {
        let folder = try CLI.temporaryFolder()
        let scene = Self.scene.replacingOccurrences(of: #"{"size": [100, 40],"#, with: #"{"size": [100, 40], "fps": 2,"#)
        try scene.write(to: folder.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["export", "scene.json", "-o", "f%d.png", "--backend", "cpu", "--jobs", "2"],
                                 in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        func frame(_ n: Int) throws -> Image {
            try Image(contentsOfFile: folder.appendingPathComponent("f\(n).png").path)
        }
        // 2 s at 2 fps: frames 0 to 3, at 0, 0.5, 1 and 1.5 s.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("f4.png").path))
        #expect(try frame(1).rgba(x: 45, y: 10) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(try frame(0).rgba(x: 45, y: 10) == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(try frame(3).rgba(x: 50, y: 30) == RGBA8(r: 0, g: 128, b: 128, a: 255))
    }
}
