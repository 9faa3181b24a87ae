import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Random plans whose groups nest, mask and composite with plus or source-over at many opacities: the CPU and GLES
/// renderers must agree on every one.
extension PlusCompositeTests {
    /// Builds a random plan from `seed`: up to three levels of groups, each plus or source-over at an opacity from a
    /// few fixed values or a random one, some masked, some with bounds smaller than the target; solid and textured
    /// quads at fractional places, some with antialiased edges.
    struct RandomPlan {
        var random: TreeRandom
        let texture: Image
        var quads: [Quad] = []
        var groups: [PlanGroup] = []
        let width = 48, height = 40

        init(seed: UInt64) throws {
            random = TreeRandom(seed: seed)
            texture = try Image(width: 8, height: 8)
            for y in 0..<8 {
                for x in 0..<8 {
                    let a = UInt32(random.below(256))
                    let (r, g, b) = (UInt32(random.below(Int(a) + 1)), UInt32(random.below(Int(a) + 1)),
                                     UInt32(random.below(Int(a) + 1)))
                    texture.setWord(a << 24 | r << 16 | g << 8 | b, x: x, y: y)
                }
            }
            texture.markModified()
        }

        mutating func make() -> RenderPlan {
            emit(depth: 0)
            return RenderPlan(width: width, height: height, quads: quads, groups: groups)
        }

        /// Appends one to three items (a quad, or a group of items) at nesting `depth`, often after a quad across
        /// the whole buffer: plus differs from source-over only where something lies below.
        private mutating func emit(depth: Int) {
            if random.chance(0.6) { quads.append(quad(covering: true)) }
            for _ in 0..<(1 + random.below(3)) {
                guard depth < 3, random.chance(depth == 0 ? 0.8 : 0.5) else {
                    quads.append(quad())
                    continue
                }
                let start = quads.count
                emit(depth: depth + 1)
                var maskStart: Int?
                if random.chance(0.3) {
                    maskStart = quads.count
                    quads.append(quad())
                }
                let opacity = random.chance(0.7) ? Float(random.pick([0, 0.25, 0.5, 0.75, 1])) : Float(random.unit())
                groups.append(PlanGroup(range: start..<quads.count, opacity: opacity, bounds: bounds(),
                                        maskStart: maskStart, composite: random.chance(0.5) ? .plus : .sourceOver))
            }
        }

        /// The whole target, or a random box inside it (which cuts the group's picture).
        private mutating func bounds() -> PixelBox {
            guard random.chance(0.4) else { return PixelBox(x0: 0, y0: 0, x1: width, y1: height) }
            let x0 = random.below(width / 2), y0 = random.below(height / 2)
            return PixelBox(x0: x0, y0: y0, x1: x0 + 4 + random.below(width - x0 - 3),
                            y1: y0 + 4 + random.below(height - y0 - 3))
        }

        /// A solid or textured quad at a random place, or over the whole target (`covering`).
        private mutating func quad(covering: Bool = false) -> Quad {
            var x = random.between(-8, Double(width) - 4), y = random.between(-8, Double(height) - 4)
            var w = random.between(4, 40), h = random.between(4, 32)
            if covering { (x, y, w, h) = (0, 0, Double(width), Double(height)) }
            let place = Matrix3.scale(CGFloat(w), CGFloat(h)).concatenating(.translation(CGFloat(x), CGFloat(y)))
            let opacity = random.chance(0.5) ? 1 : Float(random.unit())
            let edges: QuadEdges = random.chance(0.3) ? .all : []
            if random.chance(0.3) {
                // Whole pixels, 1 to 3 target pixels a texel, nearest: sampling is exact on both renderers, so the
                // comparison is of compositing alone (scaled bilinear sampling of a translucent image already
                // differs by up to 3/255 at a few pixels, which stacked groups multiply).
                let k = CGFloat(1 + random.below(3))
                let at = Matrix3.scale(8 * k, 8 * k)
                    .concatenating(.translation(CGFloat(random.below(width) - 8), CGFloat(random.below(height) - 8)))
                let source = TextureSource(image: texture, unitToTexel: .scale(8, 8),
                                           clamp: TexelRect(x0: 0, y0: 0, x1: 8, y1: 8), filter: .nearest)
                return Quad(unitToTarget: covering ? place : at, paint: .texture(source), opacity: opacity,
                            antialiasedEdges: edges)
            }
            let a = Float(random.chance(0.5) ? 1 : random.unit())
            let color = PremultipliedColor(red: a * Float(random.unit()), green: a * Float(random.unit()),
                                           blue: a * Float(random.unit()), alpha: a)
            return Quad(unitToTarget: place, paint: .solid(color), opacity: opacity, antialiasedEdges: edges)
        }
    }

    @Test func randomPlansWithPlusGroupsMatchOnBothRenderers() throws {
        guard let gles = GLESAvailability.renderer() else { return }
        let cpu = CPURenderer()
        var plusChangedSomething = 0
        for seed in UInt64(1)...60 {
            var random = try RandomPlan(seed: seed)
            let plan = random.make()
            let (a, b) = (try cpu.render(plan), try gles.render(plan))
            let difference = ImageDifference(a, b, tolerance: 2, premultiplied: true).map { "\($0)" } ?? "size differs"
            #expect(ImageDifference.meetsParity(a, b), "seed \(seed), \(plan.groups.count) groups: \(difference)")
            // The same plan with every group source-over: where it differs, plus was drawn (and not ignored).
            var over = plan
            over.groups = plan.groups.map { var g = $0; g.composite = .sourceOver; return g }
            if (ImageDifference(a, try cpu.render(over), tolerance: 8)?.pixelsOverTolerance ?? 0) > 0 {
                plusChangedSomething += 1
            }
        }
        print("plus composite: \(plusChangedSomething) of 60 random plans changed by plus")
        #expect(plusChangedSomething >= 20, "plus groups changed only \(plusChangedSomething) of 60 pictures")
    }
}
