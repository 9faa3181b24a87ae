import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The emitter code of SpecialisedLayers.md (Sources/Lamina/Lamina.docc), run as written and checked by its pixels.
@Suite struct DocCEmitterExampleTests {
    @Test func theSparksExample() throws {
        let dotImage = try Image(width: 4, height: 4, color: .white)

        let sparks = EmitterLayer()
        sparks.frame = CGRect(x: 0, y: 0, width: 320, height: 120)
        sparks.emitterPosition = CGPoint(x: 160, y: 110)
        sparks.renderMode = .additive
        let spark = EmitterCell()
        spark.contents = dotImage                            // any Image
        spark.birthRate = 40                                 // particles a second
        spark.lifetime = 2                                   // seconds
        spark.velocity = 60                                  // points a second
        spark.emissionLongitude = -.pi / 2                   // up
        spark.emissionRange = .pi / 8
        spark.color = Color(red: 1, green: 0.6, blue: 0.2)
        sparks.emitterCells = [spark]

        let root = Layer()
        root.bounds = sparks.frame
        root.backgroundColor = .black
        root.addSublayer(sparks)
        var pictures: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(root, at: 1)
            // The newest spark sits on the emitter, orange; nothing below the emitter or far to the side.
            let p = image.rgba(x: 160, y: 110)
            #expect(p.r == 255 && p.g >= 153 && p.b >= 51, "\(renderer.name): \(p)")
            #expect(image.rgba(x: 160, y: 118) == RGBA8(r: 0, g: 0, b: 0, a: 255), "\(renderer.name)")
            #expect(image.rgba(x: 20, y: 60) == RGBA8(r: 0, g: 0, b: 0, a: 255), "\(renderer.name)")
            pictures.append(image)
        }
        if pictures.count == 2 { #expect(ImageDifference.meetsParity(pictures[0], pictures[1])) }
    }
}
