import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The built-in demo (README's picture): its row of specialised layers on both renderers, with parity.
@Suite struct DemoTests {
    @Test func theSpecialisedRowShowsOnBothRenderers() throws {
        var images: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(try Demo.makeRoot())
            images.append(image)
            #expect(image.width == 960 && image.height == 820)
            // The axial card's top is its first colour, #F43F5E.
            #expect(near(image.rgba(x: 74, y: 591), 244, 63, 94, tolerance: 6), "\(renderer.name): \(image.rgba(x: 74, y: 591))")
            // Replicator instance 0, at the top of the ring: #10B981, opaque.
            #expect(near(image.rgba(x: 840, y: 606), 16, 185, 129), "\(renderer.name): \(image.rgba(x: 840, y: 606))")
            // The text card: light ink on its dark background.
            var ink = 0
            for y in 600..<700 { for x in 550..<730 where image.rgba(x: x, y: y).r > 200 { ink += 1 } }
            #expect(ink > 500, "\(renderer.name): \(ink) light pixels")
        }
        if images.count == 2 { #expect(ImageDifference.meetsParity(images[0], images[1])) }
    }
}
