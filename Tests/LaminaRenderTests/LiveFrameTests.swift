import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Damage and live frames on small scenes whose answers are known: which pixels each change damages, what a kept
/// frame becomes, and what the renderers report.
@Suite struct LiveFrameTests {
    func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> PixelBox { PixelBox(x0: x0, y0: y0, x1: x1, y1: y1) }

    /// A 100 x 60 white root with two 10 x 10 squares: red at (10, 10), blue at (50, 20).
    func scene() -> (root: Layer, red: Layer, blue: Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 60)
        root.backgroundColor = .white
        let red = Layer(frame: CGRect(x: 10, y: 10, width: 10, height: 10))
        red.backgroundColor = .red
        let blue = Layer(frame: CGRect(x: 50, y: 20, width: 10, height: 10))
        blue.backgroundColor = .blue
        root.sublayers = [red, blue]
        return (root, red, blue)
    }

    /// The damage of the next plan of `root` by `planner` (with its plan cache), after `change`.
    func damage(_ root: Layer, _ planner: Renderer, after change: () -> Void) throws -> DamageRegion? {
        Transaction.begin()
        Transaction.setDisableActions(true)
        change()
        Transaction.commit()
        return try planner.plan(root, at: 0).damage?.region
    }

    @Test func aMovedLayerDamagesWhereItWasAndWhereItIs() throws {
        let (root, red, _) = scene()
        let planner = CPURenderer()
        let first = try planner.plan(root, at: 0)
        #expect(first.damage == nil, "the first plan has nothing to be measured against")
        #expect(first.identity != 0)
        // One pixel wider each way than the square: antialiasing and rounding.
        let moved = try damage(root, planner) { red.position.x += 30 }
        #expect(moved?.rects.sorted { $0.x0 < $1.x0 } == [box(9, 9, 21, 21), box(39, 9, 51, 21)])
        #expect(planner.planCache(for: root).statistics.layersPlanned == 0
                    && planner.planCache(for: root).statistics.layersUpdated == 1,
                "patched: only the red square's node was updated (its quad moved), nothing planned")
        let none = try damage(root, planner) {}
        #expect(none?.isEmpty == true)
    }

    @Test func colourChangesRemovalsAndReordersDamageWhatTheyTouch() throws {
        let (root, red, blue) = scene()
        let planner = CPURenderer()
        _ = try planner.plan(root, at: 0)
        #expect(try damage(root, planner) { blue.backgroundColor = .green }?.rects == [box(49, 19, 61, 31)])
        #expect(try damage(root, planner) { red.removeFromSuperlayer() }?.rects == [box(9, 9, 21, 21)])
        // Overlapping siblings swapped: the one that changed its place in the order is redrawn.
        root.addSublayer(red)
        red.frame = CGRect(x: 45, y: 15, width: 10, height: 10)
        _ = try damage(root, planner) {}
        let swapped = try damage(root, planner) { root.insertSublayer(red, at: 0) }
        let region = try #require(swapped)
        #expect(region.intersects(box(50, 20, 55, 25)), "the overlap: \(region)")
        #expect(!region.intersects(box(0, 0, 40, 60)))
    }

    @Test func anImageChangedInPlaceDamagesTheQuadsThatShowIt() throws {
        let (root, red, _) = scene()
        let image = try Image(width: 4, height: 4, color: .black)
        red.contents = image
        let planner = CPURenderer()
        _ = try planner.plan(root, at: 0)
        #expect(try damage(root, planner) {}?.isEmpty == true)
        image.setRGBA(RGBA8(r: 0, g: 255, b: 0, a: 255), x: 0, y: 0)
        image.markModified()
        #expect(try damage(root, planner) {}?.rects == [box(9, 9, 21, 21)])
        #expect(try damage(root, planner) {}?.isEmpty == true)
    }

    @Test func aFrameTheCallerHoldsIsNeverWrittenAgain() throws {
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        for renderer in ReferenceScenes.renderers() {
            let (root, red, _) = scene()
            let first = try renderer.render(root)
            #expect(renderer.statistics.damagedShare == 1, "\(renderer.name): the first frame is drawn whole")
            red.backgroundColor = .green
            let second = try renderer.render(root)
            #expect(second !== first)
            #expect(first.rgba(x: 15, y: 15) == RGBA8(r: 255, g: 0, b: 0, a: 255), "\(renderer.name)")
            #expect(second.rgba(x: 15, y: 15) == RGBA8(r: 0, g: 255, b: 0, a: 255), "\(renderer.name)")
            // The second frame was copied from the first and redrawn where the square is: 12 x 12 of 100 x 60.
            #expect(renderer.statistics.pixelsRedrawn == 144 && renderer.statistics.targetPixels == 6000,
                    "\(renderer.name): \(renderer.statistics)")
        }
    }

    @Test func aFrameLetGoIsRedrawnInPlaceWhereItIsStale() throws {
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        for renderer in ReferenceScenes.renderers() {
            let (root, red, blue) = scene()
            var frame: Image? = try renderer.render(root)
            let address = frame!.baseAddress
            frame = nil
            red.backgroundColor = .green
            frame = try renderer.render(root)
            #expect(frame!.baseAddress == address, "\(renderer.name): the kept image is reused")
            #expect(renderer.statistics.pixelsRedrawn == 144)
            frame = nil
            // Nothing changed: nothing is drawn.
            frame = try renderer.render(root)
            #expect(renderer.statistics.pixelsRedrawn == 0 && renderer.statistics.damagedShare == 0)
            // Kept by the caller now, so the next frame goes into a second image, which is two frames behind: it
            // is redrawn where either change was.
            let kept = frame!
            blue.backgroundColor = .black
            let next = try renderer.render(root)
            #expect(next !== kept)
            #expect(next.rgba(x: 15, y: 15) == RGBA8(r: 0, g: 255, b: 0, a: 255), "\(renderer.name)")
            #expect(next.rgba(x: 55, y: 25) == RGBA8(r: 0, g: 0, b: 0, a: 255), "\(renderer.name)")
            #expect(kept.rgba(x: 55, y: 25) == RGBA8(r: 0, g: 0, b: 255, a: 255), "\(renderer.name)")
            #expect(renderer.retainedFrames(for: root).keptImages == 2)
        }
    }

    @Test func aRegionRedrawNamesAWrongTargetAndCutsARegionToTheTarget() throws {
        let (root, _, _) = scene()
        let plan = try Planner().plan(root)
        var outside = DamageRegion()
        outside.add(PixelBox(x0: -50, y0: -50, x1: 10, y1: 10))
        outside.add(PixelBox(x0: 90, y0: 50, x1: 5000, y1: 5000))
        for renderer in ReferenceScenes.renderers() {
            let small = try Image(width: 10, height: 10)
            #expect(throws: RenderError.targetMismatch("plan is 100x60, target is 10x10")) {
                try renderer.render(plan, into: small, redrawing: outside)
            }
            // A region reaching past the target is cut to it: the corners are redrawn, the rest untouched.
            let whole = try renderer.render(plan)
            let target = try Image(width: 100, height: 60, color: .black)
            try renderer.render(plan, into: target, redrawing: outside)
            #expect(target.rgba(x: 5, y: 5) == whole.rgba(x: 5, y: 5), "\(renderer.name)")
            #expect(target.rgba(x: 95, y: 55) == whole.rgba(x: 95, y: 55), "\(renderer.name)")
            #expect(target.rgba(x: 50, y: 5) == RGBA8(r: 0, g: 0, b: 0, a: 255), "\(renderer.name)")
            // The CPU draws the two corners; GLES draws its framebuffer whole (it holds no picture of this plan,
            // which has no identity) and reads back the two corners.
            #expect(renderer.statistics.pixelsRedrawn == (renderer.name == "cpu" ? 100 + 100 : 6000),
                    "\(renderer.name): \(renderer.statistics)")
        }
    }

    /// An outer group whose only quads inside the region are an inner group's: cut down to those, the two groups
    /// would cover the same quads and open the other way round, their opacities rounded in the other order (a
    /// random live frame was off by one so). The restricted plan keeps a placeholder of the outer group, and the
    /// region redrawn is the whole plan's, for every colour and pair of opacities tried.
    @Test func nestedGroupsKeepTheirOrderInARestrictedPlan() throws {
        var region = DamageRegion()
        region.add(PixelBox(x0: 20, y0: 0, x1: 40, y1: 10))
        var differing = 0
        for renderer in ReferenceScenes.renderers() {
            for step in 0..<24 {
                let (a, b) = (Float(0.3) + Float(step % 6) * 0.11, Float(0.2) + Float(step / 6) * 0.17)
                let colour = PremultipliedColor(red: Float(step) / 23 * 0.9, green: 0.57, blue: 0.31, alpha: 0.93)
                let unit = { (x: CGFloat) in Matrix3.unitSquare(to: CGRect(x: x, y: 0, width: 12, height: 10)) }
                var plan = RenderPlan(width: 40, height: 10, quads: [
                    Quad(unitToTarget: Matrix3.unitSquare(to: CGRect(x: 0, y: 0, width: 40, height: 10)),
                         paint: .solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1))),
                    Quad(unitToTarget: unit(0), paint: .solid(colour)),
                    Quad(unitToTarget: unit(24), paint: .solid(colour)),
                ])
                plan.groups = [PlanGroup(range: 1..<3, opacity: a, bounds: PixelBox(x0: 0, y0: 0, x1: 40, y1: 10)),
                               PlanGroup(range: 2..<3, opacity: b, bounds: PixelBox(x0: 20, y0: 0, x1: 40, y1: 10))]
                let part = plan.restricted(to: region)
                #expect(part.quads.count == 3, "the placeholder, the inner group's quad and the background")
                #expect(RenderPlan.ordered(part.groups).map(\.opacity) == [a, b], "the outer group opens first")
                let whole = try renderer.render(plan)
                let target = try Image(width: 40, height: 10, color: Color(red: 1, green: 0, blue: 1))
                try renderer.render(plan, into: target, redrawing: region)
                for x in 20..<40 where target.rgba(x: x, y: 5) != whole.rgba(x: x, y: 5) { differing += 1 }
            }
        }
        #expect(differing == 0, "\(differing) pixels of the redrawn region differ from the whole plan's")
    }

    @Test func aRestrictedPlanDrawsThePlanInsideItsRegion() throws {
        // Groups, a mask and a rounded clip, redrawn in two small rectangles of a retained frame.
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        root.backgroundColor = .white
        let group = Layer(frame: CGRect(x: 5, y: 5, width: 50, height: 40))
        group.opacity = 0.5
        group.backgroundColor = .blue
        let child = Layer(frame: CGRect(x: 10, y: 10, width: 30, height: 20))
        child.backgroundColor = .red
        child.cornerRadius = 6
        group.addSublayer(child)
        let masked = Layer(frame: CGRect(x: 40, y: 20, width: 30, height: 30))
        masked.backgroundColor = .green
        let mask = Layer(frame: CGRect(x: 5, y: 5, width: 15, height: 15))
        mask.backgroundColor = .black
        masked.mask = mask
        let far = Layer(frame: CGRect(x: 72, y: 2, width: 6, height: 6))
        far.backgroundColor = .black
        root.sublayers = [group, masked, far]
        let plan = try Planner().plan(root)
        var region = DamageRegion()
        region.add(PixelBox(x0: 12, y0: 12, x1: 30, y1: 22))
        region.add(PixelBox(x0: 44, y0: 24, x1: 70, y1: 50))
        for renderer in ReferenceScenes.renderers() {
            let whole = try renderer.render(plan)
            let target = try Image(width: 80, height: 60, color: Color(red: 1, green: 0, blue: 1))
            memcpy(target.baseAddress, whole.baseAddress, whole.byteCount)
            // Spoil the region, then redraw it.
            for rect in region.rects {
                for y in rect.y0..<rect.y1 { for x in rect.x0..<rect.x1 { target.setRGBA(RGBA8(r: 1, g: 2, b: 3, a: 4), x: x, y: y) } }
            }
            try renderer.render(plan, into: target, redrawing: region)
            #expect(memcmp(target.baseAddress, whole.baseAddress, whole.byteCount) == 0, "\(renderer.name)")
        }
        // The part of the plan kept: quads that reach the region, groups cut to its box.
        let part = plan.restricted(to: region)
        #expect(part.quads.count == plan.quads.count - 1, "all but the far square")
        #expect(part.groups.allSatisfy { $0.bounds.x0 >= 12 && $0.bounds.y0 >= 12 && $0.bounds.x1 <= 70 })
    }
}

/// Live frames of animations: each frame's damage follows what the animations moved, faded or dissolved.
@Suite struct LiveAnimationFrameTests {
    @Test func animatedLiveFramesEqualFreshFramesAtTheSameTimes() throws {
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        for renderer in ReferenceScenes.renderers() {
            let root = Layer()
            root.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
            root.backgroundColor = .white
            let mover = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
            mover.backgroundColor = .red
            mover.cornerRadius = 5
            mover.shadowOpacity = 0.5
            let fader = Layer(frame: CGRect(x: 60, y: 30, width: 30, height: 30))
            fader.backgroundColor = .blue
            let still = Layer(frame: CGRect(x: 95, y: 5, width: 20, height: 20))
            still.backgroundColor = .green
            root.sublayers = [mover, fader, still]
            let move = BasicAnimation(keyPath: "position.x")
            move.fromValue = 20.0
            move.toValue = 100.0
            move.duration = 1
            move.beginTime = 1
            mover.add(move, forKey: "move")
            let fade = BasicAnimation(keyPath: "opacity")
            fade.fromValue = 1.0
            fade.toValue = 0.2
            fade.duration = 1
            fade.beginTime = 1
            fader.add(fade, forKey: "fade")
            let fresh = renderer is CPURenderer ? CPURenderer() as Renderer : try #require(GLESAvailability.renderer())
            for step in 0...12 {
                let time = 1 + Double(step) * 0.1
                let frame = try renderer.render(root, at: time)
                let expected = try fresh.render(Planner().plan(root, at: time))
                #expect(memcmp(frame.baseAddress, expected.baseAddress, frame.byteCount) == 0,
                        "\(renderer.name) at \(time)")
                if step > 0, step <= 10 {
                    // The still square is never redrawn; the moving and fading ones are.
                    #expect(renderer.statistics.damagedShare > 0 && renderer.statistics.damagedShare < 0.6,
                            "\(renderer.name) at \(time): \(renderer.statistics.damagedShare)")
                }
            }
        }
    }
}
