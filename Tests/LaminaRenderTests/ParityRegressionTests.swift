import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Reduced random trees (tools/random-trees.sh, tools/reduce-scene.py) that once drew differently on the two
/// renderers, each checked on both: the pixels it must have, and CPU against GLES byte for byte.
@Suite struct ParityRegressionTests {
    /// Random tree 60112 (issue 29): an image layer 0.03 points tall under a skew, far down the target. Its map
    /// reaches texel 0 through a translation of -37,299 texels, more than pixman's 16.16 fixed point holds: the CPU
    /// renderer left its one covered pixel empty, the GLES renderer drew it.
    @Test func aSliverUnderASkewFarDownTheTargetIsDrawnOnBothRenderers() throws {
        let image = try Image(width: 13, height: 11)
        let blue = RGBA8(r: 80, g: 153, b: 205, a: 255)
        for y in 0..<11 {
            for x in 0..<13 { image.setRGBA(x < 6 ? blue : RGBA8(r: 79, g: 234, b: 82, a: 255), x: x, y: y) }
        }
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 151, height: 108)
        let skewed = Layer()
        skewed.transform = Transform3D(m11: 1, m12: -0.2997, m13: 0, m14: 0, m21: 0, m22: 0.954, m23: 0, m24: 0,
                                       m31: 0, m32: 0, m33: 1, m34: 0, m41: 19, m42: 16, m43: 0, m44: 1)
        let sliver = Layer()
        sliver.bounds = CGRect(x: 0, y: 0, width: 32, height: 0.03)
        sliver.position = CGPoint(x: -5, y: 79)
        sliver.contents = image
        skewed.addSublayer(sliver)
        root.addSublayer(skewed)
        var pictures: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            let picture = try renderer.render(root)
            // The one pixel whose centre the sliver covers, sampled at texel (4.27, 0.56): the blue half.
            #expect(picture.rgba(x: 8, y: 94) == blue, "\(renderer.name)")
            pictures.append(picture)
        }
        if pictures.count == 2 {
            #expect(ImageDifference(pictures[0], pictures[1], premultiplied: true)?.maxChannelDifference == 0)
        }
    }
}

extension ParityRegressionTests {
    /// Random tree 62402 (issue 29): a rounded sliver (0.31 points wide, corner radius 0.14) just left of its
    /// superlayer's clip. The pixel whose centre lies on the clip's edge is inside the clip and within the shape's
    /// reach, so it takes the shape's coverage (117 of 255); the CPU renderer's full-frame redraw left the quad out,
    /// its damage bounds cut to the clip before the reach was counted.
    @Test func aRoundedSliverBesideAClipShadesThePixelOnTheClipsEdge() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 87, height: 82)
        let clip = Layer()
        clip.bounds = CGRect(x: 2.19, y: 9, width: 13, height: 32)
        clip.position = CGPoint(x: 49, y: 43)
        clip.masksToBounds = true
        let sliver = Layer(frame: CGRect(x: 1.84, y: 14, width: 0.31, height: 1))
        sliver.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
        sliver.cornerRadius = 0.14
        clip.addSublayer(sliver)
        root.addSublayer(clip)
        var pictures: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            // Twice: a fresh renderer's first frame, then a frame drawn over the first (live frames).
            for _ in 0..<2 {
                let picture = try renderer.render(root)
                #expect(picture.rgba(x: 42, y: 32) == RGBA8(r: 255, g: 0, b: 0, a: 117), "\(renderer.name)")
                pictures.append(picture)
            }
        }
        if pictures.count == 4 {
            #expect(ImageDifference(pictures[0], pictures[2], premultiplied: true)?.maxChannelDifference == 0)
        }
    }
}
