import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// What a plan decides against the target's pixels must not be moved with a layer, and what a quad shades must lie
/// in its damage box: live frames of random animated trees (`LiveAnimationRandomTests`) found a picture cut to the
/// part that could be seen, replicator instances beyond the target and a sheared sliver's reach, each drawn
/// otherwise than a fresh frame draws it.
@Suite struct PlacementDecisionTests {
    /// Moves `container` to `to` between two live frames and compares the second with a fresh frame, on every
    /// renderer; returns the pixels that differ, and 1 for "NAME plan" where the quads lie otherwise.
    func movedFrameDifferences(_ root: Layer, _ container: Layer, to: CGPoint) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for renderer in ReferenceScenes.renderers() {
            Transaction.setDisableActions(true)
            defer { Transaction.flush() }
            let start = container.position
            _ = try renderer.render(root)
            container.position = to
            let live = try renderer.render(root)
            // The plans too: each quad where a fresh plan puts it (a picture's quad covers the part it was made for).
            let plan = try renderer.plan(root), freshPlan = try Planner().plan(root)
            let placed = plan.quads.count == freshPlan.quads.count
                && zip(plan.quads, freshPlan.quads).allSatisfy { $0.unitToTarget == $1.unitToTarget }
            if !placed { result[renderer.name + " plan"] = 1 }
            let fresh = try ReferenceScenes.renderers().first { $0.name == renderer.name }!.render(root)
            result[renderer.name] = AnimatedNodeFrameTests.differences(live, fresh).count
            container.position = start
            Transaction.flush()
        }
        return result
    }

    /// A gradient mostly beyond the target's left side is made for the part that can be seen; moved fully into
    /// view, it must be made again, not moved. (The other way, a whole picture moved partly out of view, is one of
    /// `LiveAnimationRandomTests.treesThatOnceDifferedDrawAsFreshFrames`: it shows only where the picture is
    /// resampled.)
    @Test func aPictureMadeForWhatCanBeSeenIsMadeAgainWhenMoved() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 80, height: 40)
        root.backgroundColor = .white
        let container = Layer(frame: CGRect(x: -60, y: 5, width: 80, height: 30))
        let gradient = GradientLayer()
        gradient.frame = container.bounds
        gradient.colors = [Color.red, Color.blue, Color(red: 0.2, green: 0.9, blue: 0.3)]
        gradient.startPoint = CGPoint(x: 0.3, y: 0.4)
        gradient.endPoint = CGPoint(x: 1, y: 0.9)
        container.addSublayer(gradient)
        root.addSublayer(container)
        let differences = try movedFrameDifferences(root, container, to: CGPoint(x: 40, y: 20))
        #expect(differences.values.allSatisfy { $0 == 0 }, "\(differences)")
    }

    /// A replicator partly in view whose instances all lie beyond the target plans none of them; moved so that they
    /// come into view, they must be planned.
    @Test func replicatorInstancesBeyondTheTargetArePlannedWhenMovedIntoView() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
        root.backgroundColor = .white
        let container = Layer(frame: CGRect(x: 60, y: 0, width: 100, height: 40))
        let replicator = ReplicatorLayer()
        replicator.frame = container.bounds
        replicator.backgroundColor = Color(red: 0.8, green: 0.8, blue: 1)
        replicator.instanceCount = 3
        replicator.instanceTransform = Transform3D(translationX: 10, y: 0)
        replicator.instanceColor = Color(red: 1, green: 0.5, blue: 0.5)
        let item = Layer(frame: CGRect(x: 45, y: 10, width: 20, height: 20))
        item.backgroundColor = .green
        replicator.addSublayer(item)
        container.addSublayer(replicator)
        root.addSublayer(container)
        let differences = try movedFrameDifferences(root, container, to: CGPoint(x: 50, y: 20))
        #expect(differences.values.allSatisfy { $0 == 0 }, "\(differences)")
    }

    /// A thin sheared sliver, rounded or with four antialiased edges, shades pixels well past its corners (its
    /// outline's reach meets far beyond a sharp corner): every pixel it shades lies in its damage box.
    @Test func aShearedSliverShadesOnlyInsideItsDamageBox() throws {
        for rounded in [true, false] {
            let root = Layer()
            root.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
            root.backgroundColor = .white
            let sliver = Layer()
            sliver.bounds = CGRect(x: 0, y: 0, width: 42, height: 31)
            sliver.position = CGPoint(x: 60, y: 40)
            sliver.backgroundColor = Color(red: 0.9, green: 0.1, blue: 0.1)
            if rounded { sliver.cornerRadius = 15 } else { sliver.allowsEdgeAntialiasing = true }
            // The unit square's sides at about 2 degrees to each other.
            sliver.setAffineTransform(CGAffineTransform(a: 0.294, b: -0.0747, c: -0.146, d: 0.0316, tx: 0, ty: 0))
            root.addSublayer(sliver)
            for renderer in ReferenceScenes.renderers() {
                let plan = try renderer.plan(root)
                let picture = try renderer.render(plan)
                let boxes = plan.quads.dropFirst().compactMap { $0.damageBounds(width: plan.width, height: plan.height) }
                var outside = 0, shaded = 0
                for y in 0..<picture.height {
                    for x in 0..<picture.width where picture.word(x: x, y: y) != 0xFFFF_FFFF {
                        shaded += 1
                        if !boxes.contains(where: { $0.x0 <= x && x < $0.x1 && $0.y0 <= y && y < $0.y1 }) { outside += 1 }
                    }
                }
                #expect(shaded > 20, "\(renderer.name), rounded \(rounded): \(shaded) pixels shaded")
                #expect(outside == 0, "\(renderer.name), rounded \(rounded): \(outside) of \(shaded) outside the box")
            }
        }
    }

    /// A clip collapsed to a point or a line (the bounds of a layer 1e-300 points wide, with masksToBounds) holds
    /// nothing: its quad draws nothing on either renderer, as its empty damage box says. Its edges of no length
    /// used to clip nothing, and the quad was drawn whole (an extreme random tree's first frame differed from its
    /// redraw).
    @Test func aClipOfNoAreaClipsEverythingAway() throws {
        let image = try Image(width: 19, height: 86)
        for y in 0..<86 { for x in 0..<19 { image.setWord(0xFF80_4020, x: x, y: y) } }
        let p = CGPoint(x: 16.140625, y: 19.75)
        let clips = [ConvexPolygon(vertices: [p, p, p, p]),
                     ConvexPolygon(vertices: [p, p, CGPoint(x: p.x, y: 60), CGPoint(x: p.x, y: 60)])]
        for clip in clips {
            for paint in [Paint.solid(PremultipliedColor(red: 1, green: 0, blue: 0, alpha: 1)),
                          .texture(TextureSource(image: image, unitToTexel: .scale(19, 86),
                                                 clamp: TexelRect(x0: 0, y0: 0, x1: 19, y1: 86), filter: .linear))] {
                let quad = Quad(unitToTarget: Matrix3.unitSquare(to: CGRect(x: -2.86, y: 16.75, width: 19, height: 86)),
                                paint: paint, opacity: 0.59, clip: clip)
                let plan = RenderPlan(width: 40, height: 100, quads: [quad])
                #expect(quad.damageBounds(width: 40, height: 100) == nil)
                for renderer in ReferenceScenes.renderers() {
                    let picture = try renderer.render(plan)
                    var painted = 0
                    for y in 0..<100 { for x in 0..<40 where picture.word(x: x, y: y) != 0 { painted += 1 } }
                    #expect(painted == 0, "\(renderer.name), clip \(clip.vertices): \(painted) pixels painted")
                }
            }
        }
    }

    /// A sliver whose long side reaches 1e19 pixels across the target shades pixels inside its damage box: the
    /// box's far side, the near side plus the width, kept no bits of the width at that size (it was (0, 0) - (1, 1)).
    @Test func aSliverReachingFarPastTheTargetShadesInsideItsBox() throws {
        let m = Matrix3(m11: -0.016666526283945538, m12: 0.03642096320772951, m13: 0,
                        m21: -1.8169874663286325e+19, m22: -8.008440488782239e+18, m23: 0,
                        m31: 79.18219319633948, m32: 61.98345369240665, m33: 1)
        let quad = Quad(unitToTarget: m, paint: .solid(PremultipliedColor(red: 0.16, green: 0.4, blue: 0.448, alpha: 0.8)))
        let plan = RenderPlan(width: 111, height: 115, quads: [quad])
        let box = try #require(quad.damageBounds(width: 111, height: 115))
        for renderer in ReferenceScenes.renderers() {
            let picture = try renderer.render(plan)
            var outside = 0, shaded = 0
            for y in 0..<115 {
                for x in 0..<111 where picture.word(x: x, y: y) != 0 {
                    shaded += 1
                    if !(box.x0 <= x && x < box.x1 && box.y0 <= y && y < box.y1) { outside += 1 }
                }
            }
            #expect(shaded > 0, "\(renderer.name)")
            #expect(outside == 0, "\(renderer.name): \(outside) of \(shaded) shaded pixels outside \(box)")
        }
    }
}
