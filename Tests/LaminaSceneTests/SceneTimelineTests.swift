import Foundation
import Lamina
import Testing

@testable import LaminaScene

/// The top-level `timeline`, `duration` and `fps`: changes applied at their times animate implicitly, and a frame
/// depends only on its time.
@Suite struct SceneTimelineTests {
    /// A red layer "box" whose background turns blue at 1 s over 2 s, linearly.
    private static let fade = #"""
        {"size": [40, 40], "layers": [{"name": "box", "frame": [0, 0, 40, 40], "backgroundColor": "#FF0000"}],
         "timeline": [{"at": 1, "layer": "box", "set": {"backgroundColor": "#0000FF"}, "animationDuration": 2,
                       "timingFunction": "linear"}]}
        """#

    private func color(_ scene: Scene, at time: Double) throws -> Color {
        let box = try #require(scene.root.sublayers?.first?.presentationSnapshot(at: time))
        return try #require(box.backgroundColor)
    }

    private func expectColor(_ color: Color, _ r: Double, _ g: Double, _ b: Double,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        let parts = [color.red - r, color.green - g, color.blue - b]
        #expect(parts.allSatisfy { abs($0) < 1e-6 }, "\(color)", sourceLocation: sourceLocation)
    }

    @Test func aTimelineChangeAnimatesImplicitlyFromItsTime() throws {
        let scene = try loadScene(Self.fade)
        scene.advance(to: 0.5)
        expectColor(try color(scene, at: 0.5), 1, 0, 0)
        #expect(scene.timeline.appliedCount == 0)
        scene.advance(to: 2)
        #expect(scene.timeline.appliedCount == 1)
        // Straight components, linearly: halfway at 2 s whatever the wall clock says.
        expectColor(try color(scene, at: 2), 0.5, 0, 0.5)
        expectColor(try color(scene, at: 1.5), 0.75, 0, 0.25)
        expectColor(try color(scene, at: 3.5), 0, 0, 1)
        // The model changed at once, as a program's change does.
        expectColor(try #require(scene.root.sublayers?.first?.backgroundColor), 0, 0, 1)
    }

    @Test func advancingIsIdempotentAndTheFrameDependsOnlyOnTheTime() throws {
        let a = try loadScene(Self.fade)
        a.advance(to: 10)
        a.advance(to: 10)
        a.advance(to: 3)
        #expect(a.timeline.appliedCount == 1)
        let b = try loadScene(Self.fade)
        b.advance(to: 2)
        // Advanced far past, or just to the time: the same picture at 2 s.
        let renderer = CPURenderer()
        let imageA = try renderer.render(a.root, scale: 1, at: 2)
        let imageB = try renderer.render(b.root, scale: 1, at: 2)
        #expect(imageA.rgba(x: 20, y: 20) == imageB.rgba(x: 20, y: 20))
        #expect(imageA.rgba(x: 20, y: 20) == RGBA8(r: 128, g: 0, b: 128, a: 255))
    }

    @Test func disableActionsChangesAtOnce() throws {
        let scene = try loadScene(Self.fade.replacingOccurrences(of: #""animationDuration": 2,"#,
                                                                 with: #""disableActions": true,"#))
        scene.advance(to: 1)
        expectColor(try color(scene, at: 1), 0, 0, 1)
        #expect(scene.duration == 1)
    }

    @Test func entriesApplyByTimeThenInFileOrder() throws {
        let scene = try loadScene(#"""
            {"size": [10, 10], "layers": [{"name": "a", "opacity": 1}],
             "timeline": [{"at": 2, "layer": "a", "set": {"opacity": 0.2}, "disableActions": true},
                          {"at": 1, "layer": "a", "set": {"opacity": 0.5}, "disableActions": true},
                          {"at": 2, "layer": "a", "set": {"opacity": 0.3}, "disableActions": true}]}
            """#)
        #expect(scene.timeline.times == [1, 2, 2])
        scene.advance(to: 1.5)
        #expect(scene.root.sublayers![0].opacity == 0.5)
        scene.advance(to: 2)
        #expect(scene.root.sublayers![0].opacity == 0.3)
    }

    /// A transition entry is added to its layer with the change, beginning at the entry's time even though
    /// disableActions is on.
    @Test func aTransitionEntryIsAddedAtItsTime() throws {
        let scene = try loadScene(#"""
            {"size": [20, 20], "layers": [{"name": "pic", "frame": [0, 0, 20, 20], "backgroundColor": "#FF0000"}],
             "timeline": [{"at": 1, "layer": "pic", "set": {"backgroundColor": "#0000FF"}, "disableActions": true,
                           "transition": {"type": "transition", "transitionType": "push", "subtype": "fromTop",
                                          "duration": 1.5}}]}
            """#)
        scene.advance(to: 1.5)
        let layer = scene.root.sublayers![0]
        #expect(layer.animationKeys() == ["transition"])
        let transition = try #require(layer.animation(forKey: "transition") as? Transition)
        #expect(transition.beginTime == 1 && transition.duration == 1.5)
        #expect(transition.type == .push && transition.subtype == .fromTop)
        #expect(scene.duration == 2.5)
        // Halfway (1.75 s), pushed from the top: the new blue above, the old red below.
        let image = try CPURenderer().render(scene.root, scale: 1, at: 1.75)
        #expect(image.rgba(x: 10, y: 3) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        #expect(image.rgba(x: 10, y: 17) == RGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func durationDefaultsToTheLastFiniteEnd() throws {
        func duration(_ layers: String, timeline: String = "[]", extra: String = "") throws -> Double {
            try loadScene(#"{"size": [10, 10], "layers": \#(layers), "timeline": \#(timeline)\#(extra)}"#).duration
        }
        #expect(try duration("[]") == 0)
        // beginTime + active duration (a cycle of 2 s, 2.5 times).
        #expect(try duration(#"[{"animations": [{"type": "basic", "keyPath": "opacity", "toValue": 0, "#
                             + #""beginTime": 1, "duration": 1, "autoreverses": true, "repeatCount": 2.5}]}]"#) == 6)
        // Through the animation's speed, and its layer's and ancestors' timing.
        #expect(try duration(#"[{"beginTime": 1, "sublayers": [{"speed": 2, "timeOffset": 1, "animations": [{"#
                             + #""type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 4, "speed": 0.5}]}]}]"#)
                == 4.5)
        // An infinite repeat never ends; the 0.25 s default duration counts.
        #expect(try duration(#"[{"animations": [{"type": "basic", "keyPath": "opacity", "toValue": 0, "#
                             + #""repeatCount": "infinity"}, {"type": "basic", "keyPath": "opacity", "toValue": 0}]}]"#)
                == 0.25)
        // A timeline entry ends with its implicit animations (0.25 s by default).
        #expect(try duration(#"[{"name": "a"}]"#,
                             timeline: #"[{"at": 3, "layer": "a", "set": {"opacity": 0}}]"#) == 3.25)
        let given = try loadScene(#"{"size": [10, 10], "duration": 7.5, "fps": 24}"#)
        #expect(given.duration == 7.5 && given.fps == 24)
        #expect(try loadScene(#"{"size": [10, 10]}"#).fps == 60)
    }

    /// Every layer of a scene counts as drawn from time 0: a program's change after loading animates too.
    @Test func loadedLayersAnimateImplicitly() throws {
        let scene = try loadScene(#"{"size": [10, 10], "layers": [{"frame": [0, 0, 10, 10], "opacity": 1}]}"#)
        let layer = scene.root.sublayers![0]
        Transaction.begin()
        Transaction.setValue(5.0, forKey: Transaction.Key.mediaTime)
        Transaction.setAnimationDuration(1)
        Transaction.setAnimationTimingFunction(MediaTimingFunction(name: .linear))
        layer.opacity = 0
        Transaction.commit()
        let presented = try #require(layer.presentationSnapshot(at: 5.5))
        #expect(abs(presented.opacity - 0.5) < 1e-6)
        // Loading itself animates nothing.
        #expect(scene.root.sublayers![0].animationKeys()?.count == 1)
    }
}
