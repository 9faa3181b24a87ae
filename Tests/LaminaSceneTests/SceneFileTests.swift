import Foundation
import Lamina
import Testing

/// Damage that only decoding finds, and the options' defaults.
@Suite struct SceneFileTests {
    @Test func anImageThatFailsToDecodeAfterAGoodHeaderNamesTheDecodersReason() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Data(contentsOf: Fixtures.url("sheet.png"))
        let truncated = folder.appendingPathComponent("truncated.png")
        try bytes.prefix(bytes.count - 30).write(to: truncated)
        var reason = "(decoded)"
        do {
            _ = try Image(contentsOfFile: truncated.path)
        } catch {
            reason = "\(error)"
        }
        #expect(reason.hasPrefix(#"cannot decode "\#(truncated.path)": "#))
        #expect(
            problems(sceneWithLayer(#""contents": "truncated.png""#), in: folder) == [
                "scene.json:1:46: layers[0].contents: \(reason)"
            ])
    }

    @Test func optionsDefaultToTheSafeValues() {
        let options = SceneOptions()
        #expect(options.limits == .default)
        #expect(options.allowFilesOutsideSceneFolder == false)
    }

    @Test func onlyFileURLsAreRead() throws {
        let url = try #require(URL(string: "https://example.com/scene.json"))
        #expect(throws: SceneError.self) { try Scene.load(contentsOf: url) }
        do {
            _ = try Scene.load(contentsOf: url)
        } catch {
            #expect("\(error)" == "https://example.com/scene.json: not a file URL")
        }
    }
}
