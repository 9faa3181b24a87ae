import Foundation
import LaminaCore
import Testing

@testable import LaminaLayers

/// Planner tests: small trees in, exact quads out (no pixels).
@Suite struct PlannerTests {
    func root(_ w: CGFloat = 100, _ h: CGFloat = 100) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        return root
    }

    func corners(_ quad: Quad) -> [CGPoint] { quad.corners.map(\.projected) }

    @Test func backgroundQuadCoversFrameInTargetPixels() throws {
        let r = root()
        let child = Layer(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        child.backgroundColor = .red
        r.addSublayer(child)
        let plan = try Planner(scale: 2).plan(r)
        #expect(plan.width == 200 && plan.height == 200)
        #expect(plan.quads.count == 1)
        #expect(corners(plan.quads[0]) == [
            CGPoint(x: 20, y: 40), CGPoint(x: 80, y: 40), CGPoint(x: 80, y: 120), CGPoint(x: 20, y: 120),
        ])
        #expect(plan.quads[0].paint == .solid(PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1)))
        #expect(plan.quads[0].clip == nil)
    }

    @Test func boundsOriginScrollsSublayersNotOwnContents() throws {
        let r = root(400, 300)
        let parent = Layer()
        parent.bounds = CGRect(x: 50, y: 50, width: 200, height: 200)
        parent.position = CGPoint(x: 150, y: 150)
        parent.backgroundColor = .gray
        let child = Layer(frame: CGRect(x: 50, y: 50, width: 40, height: 40))
        child.backgroundColor = .red
        parent.addSublayer(child)
        r.addSublayer(parent)
        let plan = try Planner().plan(r)
        #expect(corners(plan.quads[0])[0] == CGPoint(x: 50, y: 50))
        #expect(corners(plan.quads[1])[0] == CGPoint(x: 50, y: 50))
        #expect(corners(plan.quads[1])[2] == CGPoint(x: 90, y: 90))
    }

    @Test func zPositionOrdersSiblingsAndTiesKeepArrayOrder() throws {
        let r = root()
        let names = ["a", "b", "c", "d"]
        let z: [CGFloat] = [1, 0, 0, -1]
        for (name, z) in zip(names, z) {
            let l = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            l.name = name
            l.zPosition = z
            l.backgroundColor = .blue
            r.addSublayer(l)
        }
        let plan = try Planner().plan(r)
        #expect(plan.quads.map(\.layerName) == ["d", "b", "c", "a"])
    }

    @Test func hiddenAndTransparentSubtreesEmitNothing() throws {
        let r = root()
        let hidden = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        hidden.backgroundColor = .red
        hidden.isHidden = true
        let child = Layer(frame: CGRect(x: 0, y: 0, width: 5, height: 5))
        child.backgroundColor = .red
        hidden.addSublayer(child)
        let invisible = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        invisible.backgroundColor = .red
        invisible.opacity = 0
        r.sublayers = [hidden, invisible]
        #expect(try Planner().plan(r).quads.isEmpty)
    }

    @Test func opacityMultipliesDownTheTree() throws {
        let r = root()
        let a = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        a.opacity = 0.5
        let b = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        b.opacity = 0.5
        b.backgroundColor = .green
        a.addSublayer(b)
        r.addSublayer(a)
        // Group opacity (the default): a fades as one picture, in which b is drawn at its own opacity.
        let grouped = try Planner().plan(r)
        #expect(grouped.quads.map(\.opacity) == [0.5])
        #expect(grouped.groups == [PlanGroup(range: 0..<1, opacity: 0.5, bounds: PixelBox(x0: 0, y0: 0, x1: 10, y1: 10))])
        // Without it, opacity multiplies down layer by layer.
        a.allowsGroupOpacity = false
        let flat = try Planner().plan(r)
        #expect(flat.quads.map(\.opacity) == [0.25] && flat.groups.isEmpty)
    }

    @Test func anchorPointAndRotationTransformAboutAnchor() throws {
        let r = root()
        let l = Layer()
        l.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
        l.position = CGPoint(x: 50, y: 50)
        l.transform = Transform3D(rotationAngle: .pi / 2)
        l.backgroundColor = .red
        r.addSublayer(l)
        let c = try #require(Planner().plan(r).quads.first).corners.map(\.projected)
        // A quarter turn clockwise on screen about the centre (50, 50): top-left (-10, -5) goes to (5, -10).
        #expect(abs(c[0].x - 55) < 1e-9 && abs(c[0].y - 40) < 1e-9)
        #expect(abs(c[2].x - 45) < 1e-9 && abs(c[2].y - 60) < 1e-9)
    }

    @Test func masksToBoundsClipsContentsAndSublayers() throws {
        let r = root(300, 200)
        let parent = Layer(frame: CGRect(x: 20, y: 20, width: 100, height: 100))
        parent.masksToBounds = true
        parent.backgroundColor = .gray
        let child = Layer(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        child.backgroundColor = .red
        parent.addSublayer(child)
        r.addSublayer(parent)
        let plan = try Planner().plan(r)
        #expect(plan.quads[0].clip == nil)
        #expect(plan.quads[1].clip?.axisAlignedRect == CGRect(x: 20, y: 20, width: 100, height: 100))
        let spans = try #require(plan.quads[1].coverage(width: 300, height: 200)).spans()
        #expect(spans.first == PixelSpan(y: 70, x0: 70, x1: 120))
        #expect(spans.count == 50)
    }

    @Test func perspectiveSublayerTransformMakesHomogeneousCorners() throws {
        let r = root(200, 200)
        let parent = Layer(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        parent.sublayerTransform = Transform3D(perspectiveDistance: 500)
        let face = Layer(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        face.transform = Transform3D(translationX: 0, y: 0, z: 100)
        face.backgroundColor = .blue
        parent.addSublayer(face)
        r.addSublayer(parent)
        let quad = try #require(Planner().plan(r).quads.first)
        // z = 100 toward the eye at d = 500 magnifies about the anchor (100, 100) by 500 / 400.
        let c = quad.corners.map(\.projected)
        #expect(abs(c[0].x - 37.5) < 1e-9 && abs(c[0].y - 37.5) < 1e-9)
        #expect(abs(c[2].x - 162.5) < 1e-9)
        #expect(quad.corners[0].w != 1)
    }

    @Test func deepTreeDoesNotOverflowTheStack() throws {
        let r = root()
        var parent = r
        for _ in 0..<10_000 {
            let l = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            parent.addSublayer(l)
            parent = l
        }
        parent.backgroundColor = .red
        #expect(try Planner().plan(r).quads.count == 1)
    }

    @Test func absurdScalesAndSizesAreErrors() throws {
        #expect(throws: PlanError.invalidScale(0)) { try Planner(scale: 0).plan(root()) }
        #expect(throws: PlanError.invalidSize("1000000000x10 pixels exceeds the limit of 16384 pixels per side")) {
            try Planner().plan(root(1e9, 10))
        }
        #expect(throws: PlanError.self) { try Planner().plan(root(0, 10)) }
    }
}
