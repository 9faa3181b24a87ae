import Foundation
import LaminaCore
import Testing

@testable import LaminaLayers

/// Coordinate conversion and hit testing against hand-computed values (docs/semantics.md, "Geometry":
/// p -> position + transform(p - A), then the superlayer's sublayerTransform about its anchor).
@Suite struct GeometryTests {
    func close(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-9) -> Bool { abs(a - b) <= tolerance }

    func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
        close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
    }

    func close(_ a: CGRect, _ b: CGRect, _ tolerance: CGFloat = 1e-9) -> Bool {
        close(a.minX, b.minX, tolerance) && close(a.minY, b.minY, tolerance) && close(a.width, b.width, tolerance)
            && close(a.height, b.height, tolerance)
    }

    func isNaN(_ p: CGPoint) -> Bool { p.x.isNaN && p.y.isNaN }

    func layer(_ name: String, _ frame: CGRect, in parent: Layer? = nil) -> Layer {
        let layer = Layer(frame: frame)
        layer.name = name
        parent?.addSublayer(layer)
        return layer
    }

    func root(_ w: CGFloat = 400, _ h: CGFloat = 300) -> Layer {
        layer("root", CGRect(x: 0, y: 0, width: w, height: h))
    }

    /// root > a (100, 50, 200, 100) > b (10, 20, 50, 50); root > c (300, 200, 10, 10).
    func nested() -> (root: Layer, a: Layer, b: Layer, c: Layer) {
        let r = root()
        let a = layer("a", CGRect(x: 100, y: 50, width: 200, height: 100), in: r)
        let b = layer("b", CGRect(x: 10, y: 20, width: 50, height: 50), in: a)
        let c = layer("c", CGRect(x: 300, y: 200, width: 10, height: 10), in: r)
        return (r, a, b, c)
    }

    // MARK: Conversion

    @Test func nestedTranslationsConvertUpAndDown() {
        let (r, a, b, c) = nested()
        // b's (5,5) is a's (15,25) is the root's (115,75).
        #expect(b.convert(CGPoint(x: 5, y: 5), to: a) == CGPoint(x: 15, y: 25))
        #expect(b.convert(CGPoint(x: 5, y: 5), to: r) == CGPoint(x: 115, y: 75))
        #expect(a.convert(CGPoint(x: 5, y: 5), from: b) == CGPoint(x: 15, y: 25))
        #expect(b.convert(CGPoint(x: 115, y: 75), from: r) == CGPoint(x: 5, y: 5))
        #expect(r.convert(CGPoint(x: 5, y: 5), from: b) == CGPoint(x: 115, y: 75))
        // Across the tree, through the common ancestor: c's origin is the root's (300,200), b's (190,130).
        #expect(b.convert(CGPoint.zero, from: c) == CGPoint(x: 190, y: 130))
        #expect(c.convert(CGPoint(x: 190, y: 130), from: b) == .zero)
        // To and from itself: unchanged.
        #expect(b.convert(CGPoint(x: 3, y: 4), to: b) == CGPoint(x: 3, y: 4))
    }

    @Test func nilMeansTheSpaceTheRootIsPlacedIn() {
        let (r, _, b, _) = nested()
        // A root placed at the origin (frame (0, 0, 400, 300)): the top space is its layer space.
        #expect(b.convert(CGPoint(x: 5, y: 5), to: nil) == CGPoint(x: 115, y: 75))
        #expect(b.convert(CGPoint(x: 115, y: 75), from: nil) == CGPoint(x: 5, y: 5))
        // The root's own position, anchor and transform count, as for a root layer in a window:
        // p -> (1000, 1000) + 3 (p - (200, 150)).
        r.position = CGPoint(x: 1000, y: 1000)
        r.transform = Transform3D(scaleX: 3, y: 3)
        #expect(b.convert(CGPoint(x: 5, y: 5), to: nil) == CGPoint(x: 745, y: 775))
        #expect(close(b.convert(CGPoint(x: 745, y: 775), from: nil), CGPoint(x: 5, y: 5)))
        #expect(r.convert(CGPoint(x: 7, y: 8), to: nil) == CGPoint(x: 421, y: 574))
        let rect = CGRect(x: 0, y: 0, width: 50, height: 50)
        #expect(b.convert(rect, to: nil) == CGRect(x: 730, y: 760, width: 150, height: 150))
        // A root's hitTest takes its point in that same space.
        #expect(r.hitTest(CGPoint(x: 745, y: 775)) === b)
        #expect(r.hitTest(CGPoint(x: 115, y: 75)) == nil)
        #expect(r.hitTest(CGPoint(x: 1000, y: 1000)) === r)
    }

    @Test func layersInDifferentTreesMeetThroughTheirRoots() {
        let r1 = root(), r2 = root()
        r1.position = CGPoint(x: 500, y: 500)
        let x = layer("x", CGRect(x: 10, y: 10, width: 5, height: 5), in: r1)
        let y = layer("y", CGRect(x: 30, y: 40, width: 5, height: 5), in: r2)
        // r1 is placed at (500, 500) - (200, 150): its (10, 10) is the top space's (310, 360); r2 sits at the
        // origin, so that is r2's (310, 360) and y's (280, 320).
        #expect(x.convert(CGPoint.zero, to: y) == CGPoint(x: 280, y: 320))
        #expect(y.convert(CGPoint.zero, to: x) == CGPoint(x: -280, y: -320))
        #expect(x.convert(CGPoint(x: 1, y: 2), to: r2) == CGPoint(x: 311, y: 362))
        #expect(x.convert(CGPoint(x: 1, y: 2), to: nil) == CGPoint(x: 311, y: 362))
        #expect(r1.convert(CGPoint(x: 311, y: 362), from: nil) == CGPoint(x: 11, y: 12))
    }

    @Test func settingFrameWorksBackThroughTheTransform() {
        let l = Layer()
        l.bounds = CGRect(x: 3, y: 4, width: 10, height: 20)
        // Scale 2 x 3: the bounds take the frame's size through the inverse, the centre lands on the frame's.
        l.transform = Transform3D(scaleX: 2, y: 3)
        l.frame = CGRect(x: 100, y: 200, width: 40, height: 30)
        #expect(l.bounds == CGRect(x: 3, y: 4, width: 20, height: 10))
        #expect(l.position == CGPoint(x: 120, y: 215))
        #expect(close(l.frame, CGRect(x: 100, y: 200, width: 40, height: 30)))
        // Anchor (0, 0): position = centre - L((0.5, 0.5) x size) = (30, 20) - 2 x (10, 5)... per axis.
        l.anchorPoint = .zero
        l.transform = Transform3D(scaleX: 2, y: 2)
        l.frame = CGRect(x: 10, y: 10, width: 40, height: 20)
        #expect(l.bounds.size == CGSize(width: 20, height: 10))
        #expect(l.position == CGPoint(x: 10, y: 10))
        #expect(close(l.frame, CGRect(x: 10, y: 10, width: 40, height: 20)))
        // A translation is taken back out of the position.
        l.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        l.transform = Transform3D(translationX: 5, y: 7)
        l.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(l.position == CGPoint(x: 0, y: -2))
        #expect(l.frame == CGRect(x: 0, y: 0, width: 10, height: 10))
        // A quarter turn swaps width and height.
        l.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        l.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        #expect(close(l.bounds.width, 30) && close(l.bounds.height, 40))
        #expect(close(l.position, CGPoint(x: 20, y: 15)))
        #expect(close(l.frame, CGRect(x: 0, y: 0, width: 40, height: 30)))
        // An eighth of a turn: the size is the inverse's bounding box, (10 + 10) / sqrt(2) a side, whose turned
        // bounding box is 20 a side, centred on the frame's centre.
        l.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 4))
        l.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(close(l.bounds.width, 20 / 2.0.squareRoot()) && close(l.bounds.height, 20 / 2.0.squareRoot()))
        #expect(close(l.frame, CGRect(x: -5, y: -5, width: 20, height: 20)))
        // A 3D transform is ignored when setting.
        l.transform = Transform3D(perspectiveDistance: 500)
        l.frame = CGRect(x: 0, y: 0, width: 10, height: 20)
        #expect(l.bounds.size == CGSize(width: 10, height: 20) && l.position == CGPoint(x: 5, y: 10))
        // As is a 2x2 part that cannot be inverted.
        l.transform = Transform3D(scaleX: 0, y: 1)
        l.frame = CGRect(x: 0, y: 0, width: 8, height: 6)
        #expect(l.bounds.size == CGSize(width: 8, height: 6) && l.position == CGPoint(x: 4, y: 3))
    }

    @Test func anchorPointPicksThePointThatPositionNames() {
        let r = root()
        let l = layer("l", .zero, in: r)
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.position = CGPoint(x: 10, y: 10)
        l.anchorPoint = .zero
        #expect(l.convert(CGPoint.zero, to: r) == CGPoint(x: 10, y: 10))
        #expect(l.convert(CGPoint(x: 100, y: 50), to: r) == CGPoint(x: 110, y: 60))
        l.anchorPoint = CGPoint(x: 1, y: 1)
        #expect(l.convert(CGPoint(x: 100, y: 50), to: r) == CGPoint(x: 10, y: 10))
        #expect(l.convert(CGPoint.zero, to: r) == CGPoint(x: -90, y: -40))
        #expect(r.hitTest(CGPoint(x: 5, y: 5)) === l)
        #expect(r.hitTest(CGPoint(x: 15, y: 5)) === r)
    }

    @Test func boundsOriginScrollsTheSublayers() {
        let r = root()
        // Anchor (200,100) sits at (100,100): the parent's space is the root's shifted by 100 in x.
        let parent = layer("parent", .zero, in: r)
        parent.bounds = CGRect(x: 100, y: 0, width: 200, height: 200)
        parent.position = CGPoint(x: 100, y: 100)
        let child = layer("child", CGRect(x: 100, y: 0, width: 10, height: 10), in: parent)
        #expect(child.convert(CGPoint.zero, to: r) == CGPoint.zero)
        #expect(parent.convert(CGPoint(x: 100, y: 0), to: r) == CGPoint.zero)
        #expect(r.convert(CGPoint(x: 5, y: 5), to: child) == CGPoint(x: 5, y: 5))
        #expect(r.hitTest(CGPoint(x: 5, y: 5)) === child)
        // The root's (105,5) is the parent's (205,5): inside the parent's bounds, outside the child.
        #expect(r.hitTest(CGPoint(x: 105, y: 5)) === parent)
        // The root's (250,5) is the parent's (350,5): outside (the bounds end at x = 300).
        #expect(r.hitTest(CGPoint(x: 250, y: 5)) === r)
    }

    @Test func rotationTurnsClockwiseAboutTheAnchor() {
        let r = root()
        let l = layer("l", .zero, in: r)
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        l.position = CGPoint(x: 200, y: 200)
        l.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        // p - A = (50,0) turns to (0,50): below the position on a y-down screen.
        #expect(close(l.convert(CGPoint(x: 100, y: 25), to: r), CGPoint(x: 200, y: 250)))
        // (0,0) - A = (-50,-25) turns to (25,-50).
        #expect(close(l.convert(CGPoint.zero, to: r), CGPoint(x: 225, y: 150)))
        #expect(close(l.convert(CGPoint(x: 200, y: 250), from: r), CGPoint(x: 100, y: 25)))
        #expect(close(l.convert(l.bounds, to: r), CGRect(x: 175, y: 150, width: 50, height: 100)))
        // The root's (200,240) is the layer's (90,25); (240,200) would be (50,-15), outside.
        #expect(r.hitTest(CGPoint(x: 200, y: 240)) === l)
        #expect(r.hitTest(CGPoint(x: 240, y: 200)) === r)
    }

    @Test func scaleIsAboutTheAnchor() {
        let r = root()
        let l = layer("l", .zero, in: r)
        l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        l.position = CGPoint(x: 50, y: 50)
        l.transform = Transform3D(scaleX: 2, y: 3)
        // (10,10) - A = (5,5), scaled (10,15); (0,0) - A = (-5,-5), scaled (-10,-15).
        #expect(l.convert(CGPoint(x: 10, y: 10), to: r) == CGPoint(x: 60, y: 65))
        #expect(l.convert(CGPoint.zero, to: r) == CGPoint(x: 40, y: 35))
        // (59,64) - position = (9,14), unscaled (4.5,14/3), plus A.
        #expect(close(l.convert(CGPoint(x: 59, y: 64), from: r), CGPoint(x: 9.5, y: 5 + 14.0 / 3)))
        #expect(r.hitTest(CGPoint(x: 59, y: 64)) === l)
        #expect(r.hitTest(CGPoint(x: 61, y: 50)) === r)
    }

    @Test func sublayerTransformActsAboutTheParentsAnchor() {
        let r = root()
        let parent = layer("parent", CGRect(x: 0, y: 0, width: 100, height: 100), in: r)
        parent.sublayerTransform = Transform3D(scaleX: 2, y: 2)
        let child = layer("child", CGRect(x: 60, y: 60, width: 10, height: 10), in: parent)
        // The child's (0,0) is (60,60) before the sublayerTransform; about A = (50,50): 50 + 2 x 10 = 70.
        #expect(child.convert(CGPoint.zero, to: parent) == CGPoint(x: 70, y: 70))
        #expect(child.convert(CGPoint(x: 10, y: 10), to: r) == CGPoint(x: 90, y: 90))
        #expect(child.convert(CGPoint(x: 80, y: 80), from: r) == CGPoint(x: 5, y: 5))
        #expect(r.hitTest(CGPoint(x: 80, y: 80)) === child)
        // (65,65) is the child's (-2.5,-2.5): the parent, which its own sublayerTransform does not move.
        #expect(r.hitTest(CGPoint(x: 65, y: 65)) === parent)
        #expect(parent.convert(CGPoint(x: 99, y: 99), to: r) == CGPoint(x: 99, y: 99))
    }

    /// parent (0, 0, 200, 200) with perspective d = 500; child (50, 50, 100, 100) centred on the parent's
    /// anchor (100,100) and moved `z` towards the eye.
    func perspectiveScene(z: CGFloat) -> (root: Layer, parent: Layer, child: Layer) {
        let r = root()
        let parent = layer("parent", CGRect(x: 0, y: 0, width: 200, height: 200), in: r)
        parent.sublayerTransform = Transform3D(perspectiveDistance: 500)
        let child = layer("child", CGRect(x: 50, y: 50, width: 100, height: 100), in: parent)
        child.transform = Transform3D(translationX: 0, y: 0, z: z)
        return (r, parent, child)
    }

    @Test func perspectiveEnlargesAFaceMovedTowardsTheEye() {
        let (r, parent, child) = perspectiveScene(z: 100)
        // w = 1 - 100/500 = 0.8: about the parent's anchor (100,100), everything grows by 1.25. The child's
        // (0,0) is 50 left and up of the anchor, so it lands 62.5 left and up: (37.5,37.5).
        #expect(close(child.convert(CGPoint.zero, to: parent), CGPoint(x: 37.5, y: 37.5)))
        #expect(close(child.convert(CGPoint(x: 100, y: 100), to: parent), CGPoint(x: 162.5, y: 162.5)))
        #expect(close(child.convert(CGPoint(x: 90, y: 50), to: r), CGPoint(x: 150, y: 100)))
        #expect(close(child.convert(CGPoint(x: 162.5, y: 100), from: parent), CGPoint(x: 100, y: 50)))
        #expect(close(child.convert(child.bounds, to: parent), CGRect(x: 37.5, y: 37.5, width: 125, height: 125)))
        // (160,100) is the child's (50 + 60/1.25, 50) = (98,50): hit only because of the perspective.
        #expect(close(child.convert(CGPoint(x: 160, y: 100), from: r), CGPoint(x: 98, y: 50)))
        #expect(r.hitTest(CGPoint(x: 160, y: 100)) === child)
        // (40,40) is the child's (2,2); (35,35) is (-2,-2), outside it.
        #expect(r.hitTest(CGPoint(x: 40, y: 40)) === child)
        #expect(r.hitTest(CGPoint(x: 35, y: 35)) === parent)
    }

    @Test func perspectiveOfAFaceTurnedAboutY() throws {
        let (r, parent, child) = perspectiveScene(z: 0)
        let angle = CGFloat.pi / 3
        child.transform = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)
        // The right edge's middle, (50,0,0) from the anchor, turns to (50 cos, 0, -50 sin): away from the eye,
        // so w = 1 + 50 sin / 500 and x = 50 cos / w = 25 / (1 + sqrt(3) / 20).
        let w = 1 + 50 * sin(angle) / 500
        let expected = CGPoint(x: 100 + 50 * cos(angle) / w, y: 100)
        #expect(close(child.convert(CGPoint(x: 100, y: 50), to: parent), expected))
        #expect(abs(expected.x - (100 + 25 / (1 + 3.0.squareRoot() / 20))) < 1e-9)
        // The left edge comes towards the eye: w = 1 - 50 sin / 500.
        let left = CGPoint(x: 100 - 50 * cos(angle) / (1 - 50 * sin(angle) / 500), y: 100)
        #expect(close(child.convert(CGPoint(x: 0, y: 50), to: parent), left))
        // A corner: y is divided by the same w.
        #expect(close(child.convert(CGPoint.zero, to: parent), CGPoint(x: left.x, y: 100 - 50 / (1 - sin(angle) / 10))))
        #expect(close(child.convert(expected, from: parent), CGPoint(x: 100, y: 50)))
        #expect(r.hitTest(CGPoint(x: expected.x - 0.01, y: 100)) === child)
        #expect(r.hitTest(CGPoint(x: expected.x + 0.01, y: 100)) === parent)
    }

    @Test func pointsBehindTheEyeHaveNoImage() {
        // z = 600 > d = 500: w = 1 - 600/500 = -0.2, behind the eye; nothing of the child is drawn.
        let (r, parent, child) = perspectiveScene(z: 600)
        #expect(isNaN(child.convert(CGPoint.zero, to: parent)))
        #expect(isNaN(child.convert(CGPoint(x: 100, y: 100), from: r)))
        #expect(child.convert(child.bounds, to: parent).isNull)
        #expect(r.hitTest(CGPoint(x: 100, y: 100)) === parent)
    }

    @Test func aLayerScaledToZeroHasNoPreimage() {
        let (r, a, b, _) = nested()
        b.transform = Transform3D(scaleX: 0, y: 0)
        // b collapses onto its position (35,45) in a: it maps, but nothing maps back.
        #expect(b.convert(CGPoint(x: 5, y: 5), to: a) == CGPoint(x: 35, y: 45))
        #expect(isNaN(b.convert(CGPoint(x: 35, y: 45), from: a)))
        #expect(b.convert(CGRect(x: 0, y: 0, width: 1, height: 1), from: a).isNull)
        #expect(r.hitTest(CGPoint(x: 135, y: 95)) === a)
    }

    @Test func conversionsRoundTrip() {
        let r = root()
        let a = layer("a", CGRect(x: 40, y: 30, width: 200, height: 150), in: r)
        a.bounds.origin = CGPoint(x: -7, y: 13)
        a.transform = Transform3D(rotationAngle: 0.4).scaledBy(x: 1.5, y: 0.75)
        a.sublayerTransform = Transform3D(perspectiveDistance: 800)
        let b = layer("b", CGRect(x: 20, y: 10, width: 80, height: 60), in: a)
        b.anchorPoint = CGPoint(x: 0.2, y: 0.9)
        b.transform = Transform3D(rotationAngle: 0.5, x: 1, y: 1, z: 0).translatedBy(x: 0, y: 0, z: 40)
        let c = layer("c", CGRect(x: 5, y: 5, width: 30, height: 30), in: b)
        c.transform = Transform3D(rotationAngle: -0.3)
        let d = layer("d", CGRect(x: 250, y: 10, width: 20, height: 20), in: r)
        d.transform = Transform3D(scaleX: -1, y: 2)
        let points = [CGPoint(x: 0, y: 0), CGPoint(x: 12.5, y: -3), CGPoint(x: 29, y: 17)]
        for (from, to) in [(c, d), (d, c), (c, r), (b, a), (a, c), (c, c)] {
            for p in points {
                let there = from.convert(p, to: to)
                #expect(there.x.isFinite && there.y.isFinite)
                #expect(close(to.convert(p, from: from), there))
                #expect(close(from.convert(there, from: to), p, 1e-8), "\(from.name!) -> \(to.name!): \(p)")
                #expect(close(to.convert(there, to: from), p, 1e-8))
            }
        }
        // nil is the root, both ways.
        #expect(close(c.convert(points[1], to: nil), c.convert(points[1], to: r)))
        #expect(close(c.convert(points[1], from: nil), c.convert(points[1], from: r)))
    }

    @Test func rectConversionIsTheBoundingBoxOfTheCorners() {
        let (r, a, b, _) = nested()
        #expect(b.convert(b.bounds, to: r) == CGRect(x: 110, y: 70, width: 50, height: 50))
        #expect(b.convert(CGRect(x: 110, y: 70, width: 50, height: 50), from: r) == b.bounds)
        #expect(a.convert(CGRect.null, from: b).isNull)
        // A quarter turn about the corner (anchor (0,0)): (0,0,10,20) covers x -20...0, y 0...10.
        b.anchorPoint = .zero
        b.position = .zero
        b.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        let turned = b.convert(CGRect(x: 0, y: 0, width: 10, height: 20), to: a)
        #expect(close(turned, CGRect(x: -20, y: 0, width: 20, height: 10)))
        // The same as CGRect.applying with the layer's affine transform.
        #expect(close(b.convert(CGRect(x: 1, y: 2, width: 3, height: 4), to: a),
                      CGRect(x: 1, y: 2, width: 3, height: 4).applying(b.affineTransform())))
    }

    @Test func affineTransformReadsAndWritesTransform() {
        let l = Layer()
        #expect(l.affineTransform() == .identity)
        let m = CGAffineTransform(a: 1, b: 0.5, c: -0.5, d: 2, tx: 10, ty: 20)
        l.setAffineTransform(m)
        #expect(l.transform == Transform3D(affine: 1, 0.5, -0.5, 2, 10, 20))
        #expect(l.affineTransform() == m)
        // Setting replaces any 3D part; a transform that is not affine reads as the identity, as CALayer's does.
        l.transform = Transform3D(perspectiveDistance: 500).translatedBy(x: 3, y: 4)
        #expect(l.affineTransform() == .identity)
        l.transform = Transform3D(scaleX: 2, y: 2, z: 2)
        #expect(l.affineTransform() == .identity)
        l.transform = Transform3D(translationX: 3, y: 4, z: 1)
        #expect(l.affineTransform() == .identity)
        l.transform = Transform3D(translationX: 3, y: 4)
        #expect(l.affineTransform() == CGAffineTransform(translationX: 3, y: 4))
        l.setAffineTransform(.identity)
        #expect(l.transform == .identity)
    }

    // MARK: Hit testing

    @Test func hitTestTakesAPointInTheSuperlayersSpace() {
        let (r, a, b, _) = nested()
        #expect(r.hitTest(CGPoint(x: 115, y: 75)) === b)
        // a's superlayer is the root: the same point.
        #expect(a.hitTest(CGPoint(x: 115, y: 75)) === b)
        // b's superlayer is a: a's (15,25) is b's (5,5).
        #expect(b.hitTest(CGPoint(x: 15, y: 25)) === b)
        #expect(b.hitTest(CGPoint(x: 115, y: 75)) == nil)
        #expect(a.hitTest(CGPoint(x: 50, y: 60)) == nil)
        #expect(r.hitTest(CGPoint(x: 150, y: 60)) === a)
        #expect(r.hitTest(CGPoint(x: 305, y: 205))?.name == "c")
        // Min edges are in, max edges are out.
        #expect(r.hitTest(CGPoint(x: 110, y: 70)) === b)
        #expect(r.hitTest(CGPoint(x: 160, y: 70)) === a)
        #expect(r.hitTest(CGPoint(x: 400, y: 0)) == nil)
        #expect(r.hitTest(CGPoint(x: -1, y: 5)) == nil)
    }

    @Test func aRootTakesAPointInTheSpaceItIsPlacedIn() {
        let r = layer("root", .zero)
        r.bounds = CGRect(x: 10, y: 10, width: 100, height: 100)
        r.position = CGPoint(x: 500, y: 500)
        r.transform = Transform3D(scaleX: 2, y: 2)
        // p -> (500, 500) + 2 (p - (60, 60)), as for a root layer in a window: its (15, 15) is the top's (410, 410).
        #expect(r.hitTest(CGPoint(x: 410, y: 410)) === r)
        #expect(r.hitTest(CGPoint(x: 390, y: 390)) == nil)  // its (5, 5)
        #expect(r.hitTest(CGPoint(x: 598, y: 598)) === r)  // its (109, 109)
        #expect(r.hitTest(CGPoint(x: 15, y: 15)) == nil)
        #expect(r.hitTest(r.convert(CGPoint(x: 109, y: 109), to: nil)) === r)
    }

    @Test func containsIsTheBoundsHalfOpen() {
        let l = Layer()
        l.bounds = CGRect(x: -5, y: 0, width: 10, height: 10)
        #expect(l.contains(CGPoint(x: -5, y: 0)) && l.contains(CGPoint(x: 4.99, y: 9.99)))
        #expect(!l.contains(CGPoint(x: 5, y: 5)) && !l.contains(CGPoint(x: 0, y: 10)))
        #expect(!l.contains(CGPoint(x: -6, y: 5)))
        l.bounds = CGRect(x: 0, y: 0, width: 0, height: 10)
        #expect(!l.contains(.zero))
    }

    @Test func hiddenLayersAndTheirSubtreesAreNotHit() {
        let (r, a, b, _) = nested()
        a.isHidden = true
        #expect(r.hitTest(CGPoint(x: 115, y: 75)) === r)
        #expect(a.hitTest(CGPoint(x: 115, y: 75)) == nil)
        a.isHidden = false
        b.isHidden = true
        #expect(r.hitTest(CGPoint(x: 115, y: 75)) === a)
        r.isHidden = true
        #expect(r.hitTest(CGPoint(x: 115, y: 75)) == nil)
    }

    @Test func opacityPlaysNoPartAsInCoreAnimation() {
        let (r, a, b, _) = nested()
        b.opacity = 0
        a.opacity = 0
        #expect(r.hitTest(CGPoint(x: 115, y: 75)) === b)
    }

    @Test func sublayersAreHitOutsideTheirSuperlayerUnlessItMasks() {
        let r = root(100, 100)
        let parent = layer("parent", CGRect(x: 10, y: 10, width: 50, height: 50), in: r)
        let child = layer("child", CGRect(x: 40, y: 40, width: 50, height: 50), in: parent)
        // The root's (80,80) is the parent's (70,70), outside its bounds, and the child's (30,30).
        #expect(r.hitTest(CGPoint(x: 80, y: 80)) === child)
        #expect(r.hitTest(CGPoint(x: 55, y: 55)) === child)
        parent.masksToBounds = true
        #expect(r.hitTest(CGPoint(x: 80, y: 80)) === r)
        #expect(r.hitTest(CGPoint(x: 55, y: 55)) === child)
        #expect(r.hitTest(CGPoint(x: 20, y: 20)) === parent)
        // A zero-size container that does not mask still passes hits to its sublayers.
        let container = layer("container", CGRect(x: 0, y: 0, width: 0, height: 0), in: r)
        container.position = CGPoint(x: 5, y: 80)
        let inner = layer("inner", CGRect(x: 0, y: 0, width: 10, height: 10), in: container)
        #expect(r.hitTest(CGPoint(x: 9, y: 85)) === inner)
        container.masksToBounds = true
        #expect(r.hitTest(CGPoint(x: 9, y: 85)) === r)
        // A masking receiver: nothing outside its own bounds.
        r.masksToBounds = true
        #expect(r.hitTest(CGPoint(x: 101, y: 50)) == nil)
    }

    @Test func singleSidedLayersFacingAwayAreNotHitAsTheyAreNotDrawn() {
        let r = root(100, 100)
        let face = layer("face", CGRect(x: 0, y: 0, width: 50, height: 50), in: r)
        let sticker = layer("sticker", CGRect(x: 10, y: 10, width: 10, height: 10), in: face)
        // Turned half about y around its anchor (25,25), the face's (x, y) shows at (50 - x, y): the sticker's
        // 10...20 at 30...40.
        face.transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
        #expect(r.hitTest(CGPoint(x: 35, y: 15)) === sticker)
        #expect(r.hitTest(CGPoint(x: 5, y: 5)) === face)
        face.isDoubleSided = false
        #expect(r.hitTest(CGPoint(x: 35, y: 15)) === r)
        #expect(r.hitTest(CGPoint(x: 5, y: 5)) === r)
        face.transform = .identity
        #expect(r.hitTest(CGPoint(x: 15, y: 15)) === sticker)
        // Facing is decided after every transform: a mirrored superlayer turns a single-sided sublayer away...
        face.isDoubleSided = true
        face.transform = Transform3D(scaleX: -1, y: 1)
        sticker.isDoubleSided = false
        #expect(r.hitTest(CGPoint(x: 35, y: 15)) === face)
        // ...also when hit testing starts below the mirror (the point is in the face's space)...
        #expect(sticker.hitTest(CGPoint(x: 15, y: 15)) == nil)
        // ...and a second mirror turns it back (about its own anchor, so it stays in place).
        sticker.transform = Transform3D(scaleX: -1, y: 1)
        #expect(r.hitTest(CGPoint(x: 35, y: 15)) === sticker)
        #expect(sticker.hitTest(CGPoint(x: 15, y: 15)) === sticker)
    }

    @Test func zPositionThenArrayOrderDecideTheFrontMost() {
        let r = root(100, 100)
        let frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        let names = ["a", "b", "c", "d"]
        let z: [CGFloat] = [1, 0, 0, -1]
        let layers = zip(names, z).map { name, z in
            let l = layer(name, frame, in: r)
            l.zPosition = z
            return l
        }
        // Painted d, b, c, a: a is in front.
        #expect(r.hitTest(CGPoint(x: 5, y: 5))?.name == "a")
        layers[0].isHidden = true
        #expect(r.hitTest(CGPoint(x: 5, y: 5))?.name == "c")
        layers[2].isHidden = true
        #expect(r.hitTest(CGPoint(x: 5, y: 5))?.name == "b")
        layers[1].zPosition = -2
        #expect(r.hitTest(CGPoint(x: 5, y: 5))?.name == "d")
    }

    @Test func overlappingSiblingsAndTheirSubtrees() {
        let r = root(100, 100)
        let back = layer("back", CGRect(x: 0, y: 0, width: 20, height: 20), in: r)
        let front = layer("front", CGRect(x: 10, y: 10, width: 20, height: 20), in: r)
        #expect(r.hitTest(CGPoint(x: 5, y: 5)) === back)
        #expect(r.hitTest(CGPoint(x: 15, y: 15)) === front)
        #expect(r.hitTest(CGPoint(x: 25, y: 25)) === front)
        // A sublayer of the back sibling is still behind the front sibling...
        let backChild = layer("backChild", CGRect(x: 12, y: 12, width: 20, height: 20), in: back)
        #expect(r.hitTest(CGPoint(x: 15, y: 15)) === front)
        #expect(r.hitTest(CGPoint(x: 31, y: 31)) === backChild)
        // ...and in front of its own superlayer.
        #expect(r.hitTest(CGPoint(x: 13, y: 13)) === front)
        #expect(back.hitTest(CGPoint(x: 13, y: 13)) === backChild)
        // Raising the back sibling brings its whole subtree forward.
        back.zPosition = 1
        #expect(r.hitTest(CGPoint(x: 15, y: 15)) === backChild)
        #expect(r.hitTest(CGPoint(x: 11, y: 11)) === back)
    }

    @Test func deepChainsNeedNoRecursion() {
        let depth = 10_000
        let r = root(20_000, 20)
        var leaf = r
        for i in 0..<depth {
            // Each level is 1 point to the right of its superlayer.
            leaf = layer("level \(i)", CGRect(x: i == 0 ? 0 : 1, y: 0, width: 10, height: 10), in: leaf)
        }
        #expect(leaf.convert(CGPoint.zero, to: nil) == CGPoint(x: CGFloat(depth - 1), y: 0))
        #expect(leaf.convert(CGPoint(x: CGFloat(depth + 1), y: 5), from: nil) == CGPoint(x: 2, y: 5))
        // Levels depth-5 ... depth-1 (covering [i, i + 10)) all contain x = depth + 4; the deepest wins.
        #expect(r.hitTest(CGPoint(x: CGFloat(depth + 4), y: 5)) === leaf)
        #expect(r.hitTest(CGPoint(x: 15_000, y: 5)) === r)
        leaf.isHidden = true
        #expect(r.hitTest(CGPoint(x: CGFloat(depth + 4), y: 5)) === leaf.superlayer)
    }
}
