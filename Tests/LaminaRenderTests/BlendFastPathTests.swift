import Foundation
import Lamina
import LaminaCore
import LaminaTestSupport
import Testing

/// The CPU renderer's fast path for a blended group of one solid quad (CPUBandJob+BlendFastPath.swift: no buffer,
/// the quad's pixels combined straight with those beneath) gives the group path's pixels byte for byte: the same
/// plan with a transparent quad added to each such group (which then takes the group path) renders the same bytes.
/// Plain, antialiased, rounded, rotated and half-transparent cards, layer opacity, and a textured card (which takes
/// the group path either way); GLES (the group path) stays within parity of the fast path's frame.
@Suite struct BlendFastPathTests {
    /// A 140 x 100 white root with two stripes and leaf cards of several kinds, each with `filter`.
    static func scene(_ filter: String) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 140, height: 100)
        root.backgroundColor = .white
        let stripe = Layer(frame: CGRect(x: 0, y: 20, width: 140, height: 24))
        stripe.backgroundColor = Color(red: 0.9, green: 0.4, blue: 0.1, alpha: 1)
        let glass = Layer(frame: CGRect(x: 50, y: 0, width: 24, height: 100))
        glass.backgroundColor = Color(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.5)
        var layers = [stripe, glass]
        func card(_ frame: CGRect, _ color: Color) -> Layer {
            let card = Layer(frame: frame)
            card.backgroundColor = color
            card.compositingFilter = filter
            layers.append(card)
            return card
        }
        _ = card(CGRect(x: 4, y: 6, width: 30, height: 28), Color(red: 0.3, green: 0.8, blue: 0.5, alpha: 1))
        _ = card(CGRect(x: 20.3, y: 30.6, width: 33.5, height: 21.2),
                 Color(red: 0.8, green: 0.2, blue: 0.6, alpha: 0.5))
        card(CGRect(x: 60, y: 10, width: 40, height: 30), Color(red: 0.2, green: 0.3, blue: 0.9, alpha: 0.85))
            .cornerRadius = 9
        card(CGRect(x: 90, y: 50, width: 36, height: 26), Color(red: 0.95, green: 0.85, blue: 0.1, alpha: 0.7))
            .transform = Transform3D(rotationAngle: .pi / 7)
        card(CGRect(x: 10, y: 60, width: 40, height: 30), Color(red: 0.5, green: 0.1, blue: 0.2, alpha: 1))
            .opacity = 0.6
        card(CGRect(x: 70.5, y: 62, width: 20, height: 30), Color(red: 0.1, green: 0.9, blue: 0.9, alpha: 0.3))
            .cornerRadius = 5
        card(CGRect(x: 104, y: 8, width: 30, height: 30), .black).contents =
            TestImages.quadrants(width: 30, height: 30)
        root.sublayers = layers
        return root
    }

    /// `plan` with a transparent quad added to each one-quad group: the same picture, drawn through its buffer.
    static func forcingGroups(_ plan: RenderPlan) -> RenderPlan {
        var forced = plan
        forced.identity = 0
        forced.damage = nil
        forced.quadBounds = nil
        let singles = plan.groups.filter { $0.range.count == 1 }.map(\.range.lowerBound)
        for index in Set(singles).sorted(by: >) {
            var clear = plan.quads[index]
            clear.paint = .solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0))
            forced.quads.insert(clear, at: index + 1)
            forced.groups = forced.groups.map { group in
                var group = group
                let r = group.range
                if r.lowerBound > index {
                    group = group.shifted(by: 1)
                } else if r.contains(index) {
                    group.range = r.lowerBound..<(r.upperBound + 1)
                    if let m = group.maskStart, m > index { group.maskStart = m + 1 }
                }
                return group
            }
        }
        return forced
    }

    @Test(arguments: ["multiplyBlendMode", "screenBlendMode", "overlayBlendMode", "colorDodgeBlendMode",
                      "softLightBlendMode", "differenceBlendMode", "hueBlendMode", "luminosityBlendMode", "sourceIn",
                      "sourceOut", "destinationIn", "destinationAtop", "plusDarker"])
    func fastPathEqualsTheGroupPath(_ filter: String) throws {
        let root = Self.scene(filter)
        for scale in [1.0, 2.0] {
            let plan = try Planner(scale: scale).plan(root, at: 0)
            let singles = plan.groups.filter { $0.range.count == 1 && $0.composite.isBlendMode }
            #expect(singles.count >= 5, "\(filter): the leaf cards are one-quad groups")
            let forced = Self.forcingGroups(plan)
            #expect(forced.groups.allSatisfy { $0.range.count > 1 })
            let fast = try CPURenderer().render(plan)
            let grouped = try CPURenderer().render(forced)
            #expect(fast.byteCount == grouped.byteCount)
            #expect(memcmp(fast.baseAddress, grouped.baseAddress, fast.byteCount) == 0, "\(filter) at \(scale)")
            if GLESAvailability.skipReason == nil, let gles = try GLESAvailability.renderer() {
                let other = try gles.render(plan)
                #expect(ImageDifference.meetsParity(fast, other), "\(filter) at \(scale): gles")
            }
        }
    }
}
