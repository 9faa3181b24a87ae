import Foundation
import LaminaCore
import Testing

/// Which quads hide what is under them (RenderPlan+Occlusion.swift), read from quads made by hand.
@Suite struct OpaqueQuadTests {
    static let opaque: Image = {
        let image = try! Image(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 { image.setWord(0xFF10_2030 &+ UInt32(x * 4 + y), x: x, y: y) } }
        return image
    }()

    static func texture(_ image: Image = opaque, tint: Color? = nil, additive: Bool = false) -> Paint {
        .texture(TextureSource(image: image, unitToTexel: .scale(4, 4), clamp: TexelRect(x0: 0, y0: 0, x1: 4, y1: 4),
                               filter: .linear, tint: tint, additive: additive))
    }

    static let white = Paint.solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1))

    /// The quad over target pixels (x, y) - (x + w, y + h).
    static func quad(_ paint: Paint, x: CGFloat = 0, y: CGFloat = 0, w: CGFloat = 20, h: CGFloat = 10,
                     opacity: Float = 1, clip: ConvexPolygon? = nil, edges: QuadEdges = []) -> Quad {
        Quad(unitToTarget: Matrix3.scale(w, h).concatenating(.translation(x, y)), paint: paint, opacity: opacity,
             clip: clip, antialiasedEdges: edges)
    }

    /// The quad's opaque box, asked on a second frame (an image's pixels must hold still for a frame first).
    func box(_ quad: Quad) -> PixelBox? {
        let images = OpaqueImages()
        withUnsafePointer(to: quad) { _ = Quad.opaqueBox(at: $0, width: 20, height: 10, opaqueImages: images) }
        images.endFrame()
        return withUnsafePointer(to: quad) { Quad.opaqueBox(at: $0, width: 20, height: 10, opaqueImages: images) }
    }

    @Test func opaqueQuadsAndTheirBoxes() {
        let whole = PixelBox(x0: 0, y0: 0, x1: 20, y1: 10)
        #expect(box(Self.quad(Self.white)) == whole)
        #expect(box(Self.quad(Self.texture())) == whole)
        // Reaching past the target: its pixels in the target.
        #expect(box(Self.quad(Self.texture(), x: -5, y: -5, w: 40, h: 30)) == whole)
        // Flipped along x: still one rectangle of pixels.
        let flipped = Quad(unitToTarget: Matrix3.scale(-20, 10).concatenating(.translation(20, 0)), paint: Self.white)
        #expect(box(flipped) == whole)
        // A clip cuts the box.
        let clip = ConvexPolygon(rect: CGRect(x: 2, y: 1, width: 10, height: 5))
        #expect(box(Self.quad(Self.white, clip: clip)) == PixelBox(x0: 2, y0: 1, x1: 12, y1: 6))
        // Fractional edges: the pixels whose centres it covers (0.5 ... 10.5 of 0.4 ... 10.6).
        #expect(box(Self.quad(Self.white, x: 0.4, w: 10.2)) == PixelBox(x0: 0, y0: 0, x1: 11, y1: 10))
        // An opacity that rounds to 255 of 255 draws the texture opaque on both renderers.
        #expect(box(Self.quad(Self.texture(), opacity: 0.999)) == whole)
        // A clip that cuts nothing of the target.
        let wide = ConvexPolygon(vertices: [CGPoint(x: 10, y: -20), CGPoint(x: 40, y: 5), CGPoint(x: 10, y: 30),
                                            CGPoint(x: -20, y: 5)])
        #expect(box(Self.quad(Self.white, clip: wide)) == whole)
    }

    @Test func quadsThatAreNotOpaqueEverywhere() {
        let translucent = try! Image(width: 4, height: 4)
        for y in 0..<4 { for x in 0..<4 { translucent.setWord(0xFF10_2030, x: x, y: y) } }
        translucent.setWord(0xFE10_2030, x: 3, y: 3)
        let turned = Quad(unitToTarget: Matrix3.scale(20, 10).concatenating(Matrix3(
            m11: cos(0.1), m12: sin(0.1), m13: 0, m21: -sin(0.1), m22: cos(0.1), m23: 0, m31: 0, m32: 0, m33: 1)),
            paint: Self.white)
        let cases: [(String, Quad)] = [
            ("translucent colour", Self.quad(.solid(PremultipliedColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5)))),
            ("colour at opacity 0.99", Self.quad(Self.white, opacity: 0.99)),
            ("texture at opacity 0.99", Self.quad(Self.texture(), opacity: 0.99)),
            ("one translucent texel", Self.quad(Self.texture(translucent))),
            ("tinted", Self.quad(Self.texture(tint: Color(red: 1, green: 0.5, blue: 0.5)))),
            ("additive", Self.quad(Self.texture(additive: true))),
            ("antialiased edges", Self.quad(Self.white, edges: .all)),
            ("turned", turned),
            ("a turned clip", Self.quad(Self.white, clip: ConvexPolygon(vertices: [
                CGPoint(x: 10, y: -2), CGPoint(x: 22, y: 5), CGPoint(x: 10, y: 12), CGPoint(x: -2, y: 5)]))),
        ]
        for (name, quad) in cases { #expect(box(quad) == nil, "\(name)") }
    }

    /// The last quad inside no group that covers an area; what is inside a group hides nothing.
    @Test func theLastOpaqueQuadOutsideGroups() {
        let quads = [
            Self.quad(Self.white), Self.quad(Self.texture()), Self.quad(Self.white, w: 10),
            Self.quad(Self.white), Self.quad(Self.texture(), opacity: 0.5),
        ]
        let areas = [PixelBox(x0: 0, y0: 0, x1: 20, y1: 10), PixelBox(x0: 0, y0: 0, x1: 10, y1: 5),
                     PixelBox(x0: 10, y0: 5, x1: 20, y1: 10), PixelBox(x0: 3, y0: 3, x1: 3, y1: 8)]
        let images = OpaqueImages()
        let plain = RenderPlan(width: 20, height: 10, quads: quads, groups: [])
        #expect(plain.lastOpaqueQuads(covering: areas, opaqueImages: images) == [3, 3, 3, nil])
        // The texture's image is known to be opaque from the second frame that sees it unchanged.
        let grouped = RenderPlan(width: 20, height: 10, quads: quads, groups: [
            PlanGroup(range: 3..<4, opacity: 0.5, bounds: PixelBox(x0: 0, y0: 0, x1: 20, y1: 10))])
        #expect(grouped.lastOpaqueQuads(covering: areas, opaqueImages: images) == [0, 2, 0, nil])
        images.endFrame()
        #expect(grouped.lastOpaqueQuads(covering: areas, opaqueImages: images) == [1, 2, 1, nil])
        // Pixel bounds from the renderer rule quads out first: the same answers.
        let bounds = quads.map { $0.damageBounds(width: 20, height: 10) }
        #expect(grouped.lastOpaqueQuads(covering: areas, bounds: bounds, opaqueImages: images) == [1, 2, 1, nil])
        // The opaque image was scanned once.
        #expect(images.scans == 1)
    }

    /// The steps from a hiding quad on: the groups that end before it are passed over whole, the others kept.
    @Test func stepsFromAHidingQuad() {
        let quads = (0..<8).map { _ in Self.quad(Self.white) }
        let whole = PixelBox(x0: 0, y0: 0, x1: 20, y1: 10)
        let outer = PlanGroup(range: 0..<3, opacity: 0.5, bounds: whole)
        let inner = PlanGroup(range: 1..<3, opacity: 0.5, bounds: whole, maskStart: 2)
        let after = PlanGroup(range: 5..<7, opacity: 0.5, bounds: whole)
        let plan = RenderPlan(width: 20, height: 10, quads: quads, groups: [outer, inner, after])
        func steps(from start: Int) -> [PlanStep] {
            var steps: [PlanStep] = []
            plan.forEachStep(from: start) { steps.append($0) }
            return steps
        }
        var all: [PlanStep] = []
        plan.forEachStep { all.append($0) }
        #expect(steps(from: 0) == all)
        #expect(steps(from: 3) == [.quad(3), .quad(4), .begin(after), .quad(5), .quad(6), .end(after), .quad(7)])
        #expect(steps(from: 7) == [.quad(7)])
    }
}
