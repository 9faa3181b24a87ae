import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Groups composited with plus (`GroupComposite.plus`: premultiplied addition clamped to 1) on every renderer: the
/// exact sums a cross-dissolve relies on, the clamp, masks, the top level, and parity on random plans.
@Suite struct PlusCompositeTests {
    /// Premultiplied bytes of one pixel: red, green, blue, alpha.
    typealias Pixel = (r: Int, g: Int, b: Int, a: Int)

    static func pixel(_ image: Image, _ x: Int, _ y: Int) -> Pixel {
        let w = image.word(x: x, y: y)
        return (Int(w >> 16 & 255), Int(w >> 8 & 255), Int(w & 255), Int(w >> 24))
    }

    static func near(_ p: Pixel, _ q: Pixel, tolerance: Int = 1) -> Bool {
        abs(p.r - q.r) <= tolerance && abs(p.g - q.g) <= tolerance && abs(p.b - q.b) <= tolerance
            && abs(p.a - q.a) <= tolerance
    }

    /// A solid quad over target pixels x0 ..< x1, y0 ..< y1 in a premultiplied colour.
    static func rect(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, _ color: PremultipliedColor,
                     opacity: Float = 1) -> Quad {
        Quad(unitToTarget: Matrix3.scale(x1 - x0, y1 - y0).concatenating(.translation(x0, y0)), paint: .solid(color),
             opacity: opacity)
    }

    static let red = PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = PremultipliedColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let full = PixelBox(x0: 0, y0: 0, x1: 16, y1: 16)

    /// round(c x m / 255), as pixman (and 8-bit GL) multiplies a channel by an opacity byte.
    static func multiply(_ c: Int, _ m: Int) -> Int {
        let t = c * m + 128
        return (t + (t >> 8)) >> 8
    }

    /// The cross-dissolve the animation engine plans: an outer group holding red at opacity 1 - t (source-over onto
    /// its transparent buffer) and blue at opacity t composited with `second`.
    static func dissolve(_ t: Float, second: GroupComposite = .plus) -> RenderPlan {
        RenderPlan(width: 16, height: 16, quads: [rect(0, 0, 16, 16, red), rect(0, 0, 16, 16, blue)], groups: [
            PlanGroup(range: 0..<2, opacity: 1, bounds: full),
            PlanGroup(range: 0..<1, opacity: 1 - t, bounds: full),
            PlanGroup(range: 1..<2, opacity: t, bounds: full, composite: second),
        ])
    }

    @Test func aDissolveOfTwoOpaquePicturesIsTheirWeightedSumAndStaysOpaque() throws {
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(Self.dissolve(0.75))
            #expect(renderer.statistics.offscreenPasses == 3, "\(renderer.name)")
            // byte(0.25) = 64 of red plus byte(0.75) = 191 of blue: alpha 64 + 191 = 255 exactly.
            for (x, y) in [(0, 0), (7, 9), (15, 15)] {
                let p = Self.pixel(image, x, y)
                #expect(p.a == 255 && Self.near(p, (64, 0, 191, 255)), "\(renderer.name) at \(x),\(y): \(p)")
            }
            // Source-over instead lets the red show through: blue covers 191/255 of it, alpha 191 + 64 x 64/255.
            let over = Self.pixel(try renderer.render(Self.dissolve(0.75, second: .sourceOver)), 8, 8)
            #expect(Self.near(over, (16, 0, 191, 207)), "\(renderer.name): \(over)")
        }
    }

    @Test(arguments: [Float(0), 0.1, 0.3, 0.5, 0.7, 0.9, 1])
    func aDissolveStaysOpaqueAtEveryProgress(t: Float) throws {
        let (a, b) = (Int(PremultipliedColor.byte(1 - t)), Int(PremultipliedColor.byte(t)))
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(Self.dissolve(t))
            let p = Self.pixel(image, 5, 11)
            // Where both bytes round up (t = 0.5: 128 + 128) the sum clamps at 255; colours stay at or below it.
            #expect(p.a == 255 && Self.near(p, (a, 0, b, 255)), "\(renderer.name) at \(t): \(p)")
        }
    }

    @Test func translucentColoursAddChannelByChannelAndClampAt255() throws {
        let below = PremultipliedColor(red: 0.6, green: 0.1, blue: 0.5, alpha: 0.8)
        let added = PremultipliedColor(red: 0.7, green: 0.2, blue: 0.6, alpha: 0.9)
        // Left half: the added picture at opacity 1 (red, blue and alpha pass 255 and clamp); right half: at 0.2.
        let plan = RenderPlan(
            width: 16, height: 16,
            quads: [Self.rect(0, 0, 16, 16, below), Self.rect(0, 0, 8, 16, added),
                    Self.rect(8, 0, 16, 16, added)],
            groups: [PlanGroup(range: 0..<3, opacity: 1, bounds: Self.full),
                     PlanGroup(range: 1..<2, opacity: 1, bounds: Self.full, composite: .plus),
                     PlanGroup(range: 2..<3, opacity: 0.2, bounds: Self.full, composite: .plus)])
        let d = below.quantized, s = added.quantized
        let m = Int(PremultipliedColor.byte(0.2))
        let dst = [Int(d.red), Int(d.green), Int(d.blue), Int(d.alpha)]
        let src = [Int(s.red), Int(s.green), Int(s.blue), Int(s.alpha)]
        let clamped = zip(dst, src).map { min($0 + $1, 255) }
        let scaled = zip(dst, src).map { min($0 + Self.multiply($1, m), 255) }
        #expect(clamped == [255, 77, 255, 255] && scaled[3] < 255, "the numbers test what they say: \(clamped) \(scaled)")
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(plan)
            let left = Self.pixel(image, 3, 8), right = Self.pixel(image, 12, 8)
            #expect(Self.near(left, (clamped[0], clamped[1], clamped[2], clamped[3])), "\(renderer.name): \(left)")
            #expect(left.r == 255 && left.b == 255 && left.a == 255, "\(renderer.name): clamped exactly, \(left)")
            #expect(Self.near(right, (scaled[0], scaled[1], scaled[2], scaled[3])), "\(renderer.name): \(right)")
        }
    }

    @Test func aMaskScalesThePictureBeforeItIsAdded() throws {
        // Inside an outer group: red at half opacity, then blue at opacity 0.4 added through a mask that is opaque
        // on the left quarter, half transparent on the next and empty on the right half.
        let mask = [Self.rect(0, 0, 4, 16, PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 1)),
                    Self.rect(4, 0, 8, 16, PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0.5))]
        let plan = RenderPlan(
            width: 16, height: 16, quads: [Self.rect(0, 0, 16, 16, Self.red, opacity: 0.5),
                                           Self.rect(0, 0, 16, 16, Self.blue)] + mask,
            groups: [PlanGroup(range: 0..<4, opacity: 1, bounds: Self.full),
                     PlanGroup(range: 1..<4, opacity: 0.4, bounds: Self.full, maskStart: 2, composite: .plus)])
        let base = Int(PremultipliedColor.byte(0.5)), m = Int(PremultipliedColor.byte(0.4))
        let half = Self.multiply(Self.multiply(255, Int(PremultipliedColor.byte(0.5))), m)
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(plan)
            let (opaque, translucent, none) = (Self.pixel(image, 1, 5), Self.pixel(image, 6, 5), Self.pixel(image, 12, 5))
            #expect(Self.near(opaque, (base, 0, m, base + m)), "\(renderer.name): \(opaque)")
            #expect(Self.near(translucent, (base, 0, half, base + half)), "\(renderer.name): \(translucent)")
            #expect(Self.near(none, (base, 0, 0, base)), "\(renderer.name): the mask hides the rest, \(none)")
        }
    }

    @Test func aPlusGroupAtTheTopLevelAddsToTheTarget() throws {
        // Onto a transparent target: left, nothing below (the picture itself, scaled); right, translucent green below.
        // Bottom rows: opaque white below, which stays white (every channel clamps).
        let green = PremultipliedColor(red: 0, green: 0.5, blue: 0, alpha: 0.5)
        let plan = RenderPlan(
            width: 16, height: 16,
            quads: [Self.rect(8, 0, 16, 8, green), Self.rect(0, 8, 16, 16, PremultipliedColor(red: 1, green: 1,
                                                                                                blue: 1, alpha: 1)),
                    Self.rect(0, 0, 16, 16, Self.blue)],
            groups: [PlanGroup(range: 2..<3, opacity: 0.4, bounds: Self.full, composite: .plus)])
        let m = Int(PremultipliedColor.byte(0.4)), g = Int(PremultipliedColor.byte(0.5))
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(plan)
            let (alone, onGreen, onWhite) = (Self.pixel(image, 2, 2), Self.pixel(image, 12, 2), Self.pixel(image, 5, 12))
            #expect(Self.near(alone, (0, 0, m, m)), "\(renderer.name): \(alone)")
            #expect(Self.near(onGreen, (0, g, m, g + m)), "\(renderer.name): \(onGreen)")
            #expect(Self.near(onWhite, (255, 255, 255, 255), tolerance: 0), "\(renderer.name): \(onWhite)")
        }
    }
}
