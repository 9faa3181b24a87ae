import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Every reference scene under Scenes/ (the shared conformance cases, ported, and Lamina's own), rendered
/// by every renderer at its scales and checked at its probe pixels.
@Suite struct ReferenceSceneTests {
    static let folder = Bundle.module.url(forResource: "Scenes", withExtension: nil)!
    static let scenes = ReferenceScenes.probeFiles(under: folder)

    @Test func corpusIsPresent() {
        #expect(Self.scenes.count >= 8, "found \(Self.scenes)")
    }

    @Test(arguments: scenes)
    func probesMatch(_ scene: String) throws {
        for renderer in ReferenceScenes.renderers() {
            let failures = try ReferenceScenes.check(scene, in: Self.folder, renderer: renderer)
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        }
    }
}
