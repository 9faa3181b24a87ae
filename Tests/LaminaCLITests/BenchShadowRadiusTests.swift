import Foundation
import Lamina
import LaminaBench
import Testing

/// The `shadow-radius-N` benchmark scenes: one centred square whose shadow is made again every frame.
@Suite struct BenchShadowRadiusTests {
    @Test func theScenesHoldOneSquareWithTheirRadius() throws {
        let size = CGSize(width: 200, height: 200)
        for (scene, radius) in [(BenchScene.shadowRadius3, 3.0), (.shadowRadius30, 30), (.shadowRadius300, 300),
                                (.shadowRadius1000, 1000)] {
            let root = try scene.makeRoot(size: size)
            let square = try #require(root.sublayers?.first)
            #expect(root.sublayers?.count == 1 && square.frame == CGRect(x: 50, y: 50, width: 100, height: 100))
            #expect(square.shadowRadius == radius && square.shadowOpacity == 1 && scene.shadowRadius == radius)
            scene.prepareFrame(root, frame: 3)
            #expect(square.shadowOpacity == 0.997)
        }
        #expect(BenchScene.cards500.shadowRadius == nil)
    }

    @Test func everyFrameMakesTheShadowAgain() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["bench", "--size", "200x200", "--warmup", "1", "--frames", "2", "--backend", "all",
                                  "--scene", "shadow-radius-3", "--scene", "shadow-radius-1000", "--json", "out.json"],
                                 in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try BenchTests.readJSON(folder.appendingPathComponent("out.json"))
        let scenes = try #require(json["scenes"] as? [[String: Any]])
        #expect(scenes.map { $0["scene"] as? String } == ["shadow-radius-3", "shadow-radius-1000"])
        for scene in scenes {
            for renderer in try #require(scene["renderers"] as? [[String: Any]]) {
                let name = renderer["renderer"] as? String ?? "?"
                #expect(try BenchTests.number(renderer["shadowsBlurred"]) == 1, "\(name)")
                #expect(try BenchTests.number(renderer["shadowsReused"]) == 0, "\(name)")
            }
        }
    }
}
