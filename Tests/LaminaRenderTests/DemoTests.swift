import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

/// The built-in demo (README's picture): its row of specialised layers on both renderers, with parity.
@Suite struct DemoTests {
    @Test func theSpecialisedRowShowsOnBothRenderers() throws {
        var images: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(try Demo.makeRoot(), at: 0)
            images.append(image)
            #expect(image.width == 960 && image.height == 1020)
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

    /// Row 5: where the cyan and magenta discs overlap inside the gradient, multiply gives backdrop x cyan x magenta:
    /// the gradient there is (241.5, 244.5, 255), cyan #00B7EB, magenta #FF3EA5, so (0, 42.7, 152.1). The cube shows
    /// its red front and orange left face; the emitter's sparks light the dark card, whose corner stays dark.
    @Test func theCompositingRowShowsOnBothRenderers() throws {
        var images: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(try Demo.makeRoot(), at: 0)
            images.append(image)
            #expect(near(image.rgba(x: 162, y: 854), 0, 43, 152, tolerance: 4), "\(renderer.name): \(image.rgba(x: 162, y: 854))")
            // A disc alone multiplies only the backdrop: yellow #FFE100 over (≈245, 247, 255) at x = 138.
            #expect(near(image.rgba(x: 162, y: 930), 245, 218, 0, tolerance: 6), "\(renderer.name): \(image.rgba(x: 162, y: 930))")
            #expect(near(image.rgba(x: 452, y: 890), 239, 68, 68, tolerance: 8), "\(renderer.name): \(image.rgba(x: 452, y: 890))")
            #expect(near(image.rgba(x: 400, y: 880), 245, 158, 11, tolerance: 8), "\(renderer.name): \(image.rgba(x: 400, y: 880))")
            var lit = 0
            for y in 814..<950 { for x in 540..<936 where image.rgba(x: x, y: y).r > 120 { lit += 1 } }
            #expect(lit > 300, "\(renderer.name): \(lit) lit pixels")
            #expect(near(image.rgba(x: 560, y: 830), 17, 24, 39), "\(renderer.name): \(image.rgba(x: 560, y: 830))")
        }
        if images.count == 2 { #expect(ImageDifference.meetsParity(images[0], images[1])) }
    }
}
