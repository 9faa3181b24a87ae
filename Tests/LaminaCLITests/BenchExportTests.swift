import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `lamina bench --export` and the animated scenes, run as a user would on tiny outputs. No timing is asserted, only
/// the shape and sense of the figures.
@Suite struct BenchExportTests {
    @Test func exportFiguresComeForEveryBackend() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["bench", "--export", "--size", "128x96", "--frames", "60", "--backend", "cpu",
                                  "--json", "export.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("export animated-1k on cpu: 128x96, 60 frames at 60 fps:"))
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("export.json"))) as? [String: Any])
        let exports = try #require(json["exports"] as? [[String: Any]])
        #expect(exports.count == 1)
        let figures = try #require(exports.first)
        for key in ["oneJobFps", "oneJobAllCoresFps", "jobsFps", "ratio"] {
            let value = try #require((figures[key] as? NSNumber)?.doubleValue, "missing \(key)")
            #expect(value > 0 && value.isFinite, "\(key): \(value)")
        }
        #expect((figures["frames"] as? NSNumber)?.intValue == 60)
    }

    @Test func theAnimatedSceneReportsItsAnimations() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["bench", "--size", "256x256", "--frames", "2", "--warmup", "0", "--scene",
                                  "animated-1k", "--json", "out.json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("animations: 1,000 evaluated per frame in"))
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("out.json"))) as? [String: Any])
        let scene = try #require((json["scenes"] as? [[String: Any]])?.first)
        #expect((scene["animations"] as? NSNumber)?.intValue == 1000)
        #expect(((scene["animationMsMedian"] as? NSNumber)?.doubleValue ?? 0) > 0)
    }
}
