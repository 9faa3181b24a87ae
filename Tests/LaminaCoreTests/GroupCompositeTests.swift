import Foundation
import Testing

@testable import LaminaCore

/// `PlanGroup.composite`: kept by everything that copies, moves, orders or compares groups.
@Suite struct GroupCompositeTests {
    static let box = PixelBox(x0: 0, y0: 0, x1: 8, y1: 8)

    @Test func groupsAreSourceOverUnlessToldOtherwise() {
        #expect(PlanGroup(range: 0..<1, opacity: 1, bounds: Self.box).composite == .sourceOver)
        #expect(PlanGroup(range: 0..<2, opacity: 1, bounds: Self.box, maskStart: 1, composite: .plus).composite == .plus)
        #expect(GroupComposite.allCases.map(\.rawValue) == [
            "sourceOver", "plus", "multiply", "screen", "overlay", "darken", "lighten", "colorDodge", "colorBurn",
            "softLight", "hardLight", "difference", "exclusion", "hue", "saturation", "color", "luminosity",
            "sourceAtop", "sourceIn", "sourceOut", "destinationOver", "destinationIn", "destinationOut",
            "destinationAtop", "xor", "plusLighter", "plusDarker",
        ])
        // Only a layer's blend modes make the enclosing group offscreen; plus (cross-dissolves) and source-over do not.
        #expect(GroupComposite.allCases.filter(\.isBlendMode).count == 25)
        #expect(!GroupComposite.plus.isBlendMode && !GroupComposite.sourceOver.isBlendMode)
    }

    @Test func movingAGroupKeepsItsComposite() {
        let group = PlanGroup(range: 2..<5, opacity: 0.5, bounds: Self.box, maskStart: 4, composite: .plus)
        let moved = group.shifted(by: 3)
        #expect(moved.range == 5..<8 && moved.maskStart == 7 && moved.composite == .plus)
        let quads = Array(repeating: Quad(unitToTarget: .scale(8, 8), paint: .solid(Color.red.premultiplied)), count: 5)
        let translated = RenderPlan(width: 8, height: 8, quads: quads, groups: [group])
            .translated(x: 2, y: 1, width: 8, height: 8)
        #expect(translated.groups.map(\.composite) == [.plus])
        #expect(translated.groups.first?.bounds == PixelBox(x0: 2, y0: 1, x1: 8, y1: 8))
    }

    @Test func groupsThatDifferOnlyInCompositeAreNotEqualAndOrderOneWay() {
        let over = PlanGroup(range: 0..<2, opacity: 0.5, bounds: Self.box)
        var plus = over
        plus.composite = .plus
        #expect(over != plus && Set([over, plus]).count == 2)
        // The order is total: either input order gives one drawing order.
        #expect(RenderPlan.ordered([over, plus]) == RenderPlan.ordered([plus, over]))
        // A shadow's silhouette that differs only in a group's composite is another shadow (its blur is not reused).
        let quads = [Quad(unitToTarget: .scale(8, 8), paint: .solid(Color.red.premultiplied))]
        let a = ShadowSource(silhouette: RenderPlan(width: 8, height: 8, quads: quads, groups: [
            PlanGroup(range: 0..<1, opacity: 0.5, bounds: Self.box)]), blur: ShadowBlur(sigma: 2), color: Color.black.premultiplied)
        let b = ShadowSource(silhouette: RenderPlan(width: 8, height: 8, quads: quads, groups: [
            PlanGroup(range: 0..<1, opacity: 0.5, bounds: Self.box, composite: .plus)]), blur: ShadowBlur(sigma: 2),
                             color: Color.black.premultiplied)
        #expect(a != b)
    }
}
