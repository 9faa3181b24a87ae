import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Text layers on both renderers at scales 1 and 2 (docs/semantics.md, "Text layers"): the ink on screen is the
/// ink of the text's picture (which TextPictureTests checks against Pango's own measures), put where the layer is,
/// and the renderers agree (parity), also with the layer turned.
@Suite struct TextLayerRenderTests {
    /// A black 240 x 120 root with one white text layer at (20, 10), 200 x 100.
    func scene(_ configure: (TextLayer) -> Void) -> (Layer, TextLayer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 240, height: 120)
        root.backgroundColor = .black
        let text = TextLayer()
        text.frame = CGRect(x: 20, y: 10, width: 200, height: 100)
        text.font = "DejaVu Sans"
        text.fontSize = 16
        text.foregroundColor = .white
        configure(text)
        root.addSublayer(text)
        return (root, text)
    }

    /// The box of the pixels over half ink, in pixels; nil when none. Ink is alpha in a picture (white text on
    /// nothing), and brightness on the screen (white text over black).
    func inkBox(_ image: Image, alpha: Bool = false) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var box: (x0: Int, y0: Int, x1: Int, y1: Int)?
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image.rgba(x: x, y: y)
                guard (alpha ? pixel.a : pixel.g) > 128 else { continue }
                box = box.map { (min($0.x0, x), min($0.y0, y), max($0.x1, x + 1), max($0.y1, y + 1)) } ?? (x, y, x + 1, y + 1)
            }
        }
        return box
    }

    let cases: [(String, (TextLayer) -> Void)] = [
        ("left", { $0.string = "Lamina draws text" }),
        ("centre", { $0.string = "centred"; $0.alignmentMode = .center }),
        ("right", { $0.string = "right"; $0.alignmentMode = .right }),
        ("wrapped", { $0.string = "a sentence long enough to wrap over several lines here"; $0.isWrapped = true }),
        ("truncated", { $0.string = "a line far too long to fit in two hundred points"; $0.truncationMode = .end }),
        ("right to left", { $0.string = "שלום עולם" }),
        ("fallback", { $0.string = "日本語のテキスト" }),
    ]

    @Test func theInkIsThePicturesInkOnBothRenderers() throws {
        for (name, configure) in cases {
            for scale in [CGFloat(1), 2] {
                var images: [Image] = []
                let (root, text) = scene(configure)
                let picture = try #require(try text.textStyle.picture(bounds: text.bounds, density: scale),
                                           "\(name): no picture")
                let expected = try #require(inkBox(picture.image, alpha: true), "\(name): no ink in the picture")
                let offset = (x: Int(20 * scale), y: Int(10 * scale))
                for renderer in ReferenceScenes.renderers() {
                    let image = try renderer.render(root, scale: scale)
                    images.append(image)
                    let ink = try #require(inkBox(image), "\(name), \(renderer.name): no ink")
                    #expect(ink.x0 == expected.x0 + offset.x && ink.x1 == expected.x1 + offset.x
                            && ink.y0 == expected.y0 + offset.y && ink.y1 == expected.y1 + offset.y,
                            "\(name), \(renderer.name) at scale \(scale): \(ink) vs \(expected) + \(offset)")
                    // Cut off at the bounds: nothing outside the layer.
                    #expect(ink.x0 >= offset.x && ink.x1 <= Int(220 * scale) && ink.y1 <= Int(110 * scale),
                            "\(name), \(renderer.name)")
                }
                if images.count == 2 {
                    #expect(ImageDifference.meetsParity(images[0], images[1]), "\(name) at scale \(scale)")
                }
            }
        }
    }

    @Test func aTurnedLabelMeetsParity() throws {
        var images: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            let (root, text) = scene { $0.string = "turned text"; $0.fontSize = 24 }
            text.transform = Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1)
            images.append(try renderer.render(root, scale: 2))
        }
        if images.count == 2 { #expect(ImageDifference.meetsParity(images[0], images[1])) }
        #expect(images.first.flatMap { inkBox($0) } != nil)
    }
}
