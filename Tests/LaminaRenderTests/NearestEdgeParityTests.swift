import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Nearest sampling where sample points fall exactly on texel edges (docs/semantics.md, "Parity"): halved images,
/// doubled images half a pixel off, images moved by half a texel, quarter turns, on images in the GLES atlas at
/// several slots and on one too large for it. Both renderers take the texel before the edge (pixman's rule) at any
/// magnitude and wherever the image lies in its texture, so the pictures are the same byte for byte.
@Suite struct NearestEdgeParityTests {
    /// An image of unrelated opaque colours, so that a neighbouring texel is always a visible difference.
    static func noise(width: Int, height: Int, seed: UInt32) throws -> Image {
        let image = try Image(width: width, height: height)
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                image.setRGBA(RGBA8(r: UInt8(state >> 24), g: UInt8((state >> 16) & 0xFF), b: UInt8((state >> 8) & 0xFF),
                                    a: 255), x: x, y: y)
            }
        }
        return image
    }

    /// The layouts whose sample points lie on texel edges, for an image of `width` x `height` texels: halved at a
    /// whole point, doubled half a point off, 1:1 half a point off, and a quarter turn of a halved image.
    static func layers(_ image: Image, width: Int, height: Int, at origin: CGPoint) -> [Layer] {
        let w = CGFloat(width), h = CGFloat(height)
        var layers: [Layer] = []
        func add(_ frame: CGRect, transform: Transform3D? = nil) {
            let layer = Layer(frame: frame)
            layer.contents = image
            layer.minificationFilter = .nearest
            layer.magnificationFilter = .nearest
            if let transform { layer.transform = transform }
            layers.append(layer)
        }
        let (x, y) = (origin.x, origin.y)
        add(CGRect(x: x, y: y, width: w / 2, height: h / 2))
        add(CGRect(x: x + w / 2 + 2.5, y: y + 0.5, width: w * 2, height: h * 2))
        add(CGRect(x: x + 0.5, y: y + h * 2 + 3.5, width: w, height: h))
        add(CGRect(x: x + w + 3, y: y + h * 2 + 3, width: w / 2, height: h / 2),
            transform: Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1))
        return layers
    }

    /// A scene of `layers` over white, after `fillers` small images of other sizes drawn first (which move the
    /// tested image to another atlas slot on a GLES renderer that meets them first).
    static func scene(_ layers: [Layer], fillers: Int, width: CGFloat, height: CGFloat) throws -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = .white
        for index in 0..<fillers {
            let side = 5 + 7 * index
            let filler = Layer(frame: CGRect(x: CGFloat(index), y: 0, width: 1, height: 1))
            filler.contents = try noise(width: side, height: side + 3, seed: UInt32(index))
            filler.minificationFilter = .nearest
            filler.magnificationFilter = .nearest
            root.addSublayer(filler)
        }
        for layer in layers { root.addSublayer(layer) }
        return root
    }

    @Test func samplesOnTexelEdgesTakeTheSameTexelsOnBothRenderersWhereverTheAtlasPutsTheImage() throws {
        guard ReferenceScenes.renderers().count == 2 else { return }
        let cpu = CPURenderer()
        var first: [CGFloat: Image] = [:]
        for fillers in [0, 1, 3, 6] {
            // A renderer of its own for each placement: its atlas meets the fillers first.
            let gles = try #require(GLESAvailability.renderer())
            let image = try Self.noise(width: 26, height: 22, seed: 99)
            let root = try Self.scene(Self.layers(image, width: 26, height: 22, at: CGPoint(x: 4, y: 6)), fillers: fillers,
                                      width: 120, height: 100)
            for scale: CGFloat in [1, 2] {
                let a = try cpu.render(root, scale: scale), b = try gles.render(root, scale: scale)
                let difference = try #require(ImageDifference(a, b, premultiplied: true))
                #expect(difference.maxChannelDifference == 0,
                        "\(fillers) fillers @\(scale)x: \(difference.differingPixels) pixels differ")
                // And the same pixels whatever the placement (below the fillers' row).
                if let earlier = first[scale] {
                    var moved = 0
                    for y in Int(4 * scale)..<b.height {
                        for x in 0..<b.width where earlier.rgba(x: x, y: y) != b.rgba(x: x, y: y) { moved += 1 }
                    }
                    #expect(moved == 0, "\(fillers) fillers @\(scale)x: \(moved) pixels changed with the placement")
                } else {
                    first[scale] = b
                }
            }
        }
    }

    /// An image too large for the atlas (texel coordinates past 256, where a float has no room left for pixman's
    /// 1/65536 step), halved: output pixel i samples point 2i + 1, exactly on an edge, and takes texel 2i.
    @Test func aHalvedLargeImageTakesTheTexelBeforeEachEdgeOnBothRenderers() throws {
        let image = try Self.noise(width: 600, height: 6, seed: 7)
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 300, height: 3)
        let layer = Layer(frame: root.bounds)
        layer.contents = image
        layer.minificationFilter = .nearest
        root.addSublayer(layer)
        for renderer in ReferenceScenes.renderers() {
            let picture = try renderer.render(root)
            var wrong = 0
            for y in 0..<3 {
                for x in 0..<300 where picture.rgba(x: x, y: y) != image.rgba(x: 2 * x, y: 2 * y) { wrong += 1 }
            }
            #expect(wrong == 0, "\(renderer.name): \(wrong) pixels took another texel")
        }
    }
}
