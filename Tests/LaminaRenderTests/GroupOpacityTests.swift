import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Group opacity on every renderer: a fading layer with sublayers is one picture, faded once.
@Suite struct GroupOpacityTests {
    func scene(grouped: Bool, nested: Bool = false) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 60)
        root.backgroundColor = .white
        let group = Layer(frame: CGRect(x: 10, y: 10, width: 80, height: 40))
        group.opacity = 0.5
        group.allowsGroupOpacity = grouped
        let green = Layer(frame: CGRect(x: 0, y: 0, width: 50, height: 40))
        green.backgroundColor = .green
        let red = Layer(frame: CGRect(x: 30, y: 0, width: 50, height: 40))
        red.backgroundColor = .red
        if nested {
            red.opacity = 0.5
            let inner = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
            inner.backgroundColor = .blue
            red.addSublayer(inner)
        }
        group.sublayers = [green, red]
        root.addSublayer(group)
        return root
    }

    func close(_ p: RGBA8, _ r: Int, _ g: Int, _ b: Int) -> Bool {
        p.maxChannelDifference(to: RGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: 255)) <= 2
    }

    @Test func theOverlapDiffersWithAndWithoutGroups() throws {
        for renderer in ReferenceScenes.renderers() {
            let grouped = try renderer.render(scene(grouped: true))
            #expect(renderer.statistics.offscreenPasses == 1, "\(renderer.name)")
            // Inside the group red covers green; the group at 0.5 over white: (255, 128, 128).
            #expect(close(grouped.rgba(x: 50, y: 30), 255, 128, 128), "\(renderer.name): \(grouped.rgba(x: 50, y: 30))")
            #expect(close(grouped.rgba(x: 20, y: 30), 128, 255, 128), "\(renderer.name)")
            let flat = try renderer.render(scene(grouped: false))
            #expect(renderer.statistics.offscreenPasses == 0, "\(renderer.name)")
            // Layer by layer: red 0.5 over (green 0.5 over white) = (255, 64, 64) + (0.5 x (128, 255, 128)).
            #expect(close(flat.rgba(x: 50, y: 30), 191, 128, 64), "\(renderer.name): \(flat.rgba(x: 50, y: 30))")
        }
    }

    @Test func nestedGroupsCompositeInsideOut() throws {
        for renderer in ReferenceScenes.renderers() {
            let image = try renderer.render(scene(grouped: true, nested: true))
            #expect(renderer.statistics.offscreenPasses == 2, "\(renderer.name)")
            // Inner group (red, opacity 0.5, with a blue child): blue covers red, so the inner picture is blue at
            // 0.5 over the green of the outer group: (0, 128, 127). The outer group at 0.5 over white:
            // (128, 191, 191).
            #expect(close(image.rgba(x: 55, y: 30), 128, 191, 191), "\(renderer.name): \(image.rgba(x: 55, y: 30))")
            // Red at 0.5 over green inside the outer group: (128, 127, 0); then 0.5 over white: (191, 191, 128).
            #expect(close(image.rgba(x: 45, y: 15), 191, 191, 128), "\(renderer.name): \(image.rgba(x: 45, y: 15))")
        }
    }

    @Test func groupsSurviveIncrementalPlanning() throws {
        let root = scene(grouped: true, nested: true)
        let first = try Planner().plan(root)
        let again = try Planner().plan(root)
        #expect(again.groups == first.groups && again.quads == first.quads && first.groups.count == 2)
        // A change beside the groups re-plans the root and reuses the group's fragment at a new offset.
        let extra = Layer(frame: CGRect(x: 0, y: 0, width: 5, height: 5))
        extra.backgroundColor = .black
        root.insertSublayer(extra, at: 0)
        let shifted = try Planner().plan(root)
        #expect(shifted.groups.map(\.range) == first.groups.map { ($0.range.lowerBound + 1)..<($0.range.upperBound + 1) })
    }
}
