import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Random access in time (docs/animation.md, "Random access in time"): one loaded scene drawn at shuffled times,
/// earlier ones included, has the same pixels, byte for byte, as a scene loaded afresh and advanced to each time; on
/// every renderer, with still and live frames (a live frame takes finished animations off their layers), and with
/// edits and control lines, which survive going back.
@Suite struct RandomAccessTimeTests {
    /// A timeline whose entries start implicit animations that overlap (a second position change while the first
    /// still runs starts from where the first has got to), a transition, a text and a shape change with actions
    /// off, and a layer whose own animations finish (a live frame takes them off).
    static let scene = #"""
        {"size": [120, 80], "backgroundColor": "#FFFFFF",
         "layers": [
          {"name": "box", "frame": [10, 10, 30, 20], "backgroundColor": "#FF0000", "cornerRadius": 4},
          {"name": "spinner", "frame": [60, 40, 20, 20], "backgroundColor": "#0080FF",
           "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 3,
                           "duration": 1.5},
                          {"type": "keyframe", "keyPath": "opacity", "values": [1, 0.2, 1], "duration": 2,
                           "beginTime": 0.5}]},
          {"name": "card", "frame": [80, 5, 35, 30], "backgroundColor": "#00A000"},
          {"name": "label", "type": "text", "frame": [5, 50, 60, 25], "string": "one", "fontSize": 14,
           "foregroundColor": "#000000"},
          {"name": "tri", "type": "shape", "frame": [90, 50, 25, 25], "fillColor": "#FF00FF",
           "path": [{"moveTo": [0, 25]}, {"lineTo": [12, 0]}, {"lineTo": [25, 25]}, {"closePath": true}]}],
         "timeline": [
          {"at": 0.5, "layer": "box", "set": {"position": [60, 30], "backgroundColor": "#0000FF"},
           "animationDuration": 1, "timingFunction": "linear"},
          {"at": 1, "layer": "box", "set": {"position": [30, 60], "opacity": 0.5}, "animationDuration": 1.2},
          {"at": 1.2, "layer": "card", "set": {"backgroundColor": "#FFA000"}, "disableActions": true,
           "transition": {"type": "transition", "transitionType": "push", "subtype": "fromLeft", "duration": 1}},
          {"at": 1.5, "layer": "label", "set": {"string": "two", "foregroundColor": "#C00000"},
           "disableActions": true},
          {"at": 2, "layer": "tri", "set": {"fillColor": "#00FFFF"}, "animationDuration": 0.5},
          {"at": 2.5, "layer": "box", "set": {"frame": [70, 10, 40, 40], "cornerRadius": 12}},
          {"at": 2.5, "layer": "box", "set": {"backgroundColor": "#808000"}, "animationDuration": 2}]}
        """#

    /// Times out of order: backwards across entries, to the start, past the end, the same time twice.
    static let times = [2.0, 0.5, 3.0, 0.0, 1.25, 2.6, 1.0, 4.5, 1.6, 0.0, 3.0, 1.75, 0.75, 2.5, 1.1]

    static func load() throws -> Scene {
        try Scene.load(data: Data(scene.utf8), baseDirectory: FileManager.default.temporaryDirectory,
                       fileName: "scene.json")
    }

    /// Where two images differ first, or nil when every byte is the same.
    static func firstDifference(_ a: Image, _ b: Image) -> String? {
        guard a.width == b.width, a.height == b.height else { return "sizes \(a) and \(b)" }
        for y in 0..<a.height {
            for x in 0..<a.width where a.word(x: x, y: y) != b.word(x: x, y: y) {
                return "(\(x), \(y)): \(a.rgba(x: x, y: y)) against \(b.rgba(x: x, y: y))"
            }
        }
        return nil
    }

    /// The frame of `scene` at `time`: still (`render(_:scale:at:)`) or live (`livePlan`, which takes finished
    /// animations off as a display's frames do).
    static func frame(_ scene: Scene, at time: Double, renderer: Renderer, live: Bool) throws -> Image {
        if live {
            return try renderer.render(renderer.livePlan(scene.root, scale: 1, at: time).plan)
        }
        return try renderer.render(scene.root, scale: 1, at: time)
    }

    @Test func shuffledTimesFromOneLoadEqualFreshLoads() throws {
        for renderer in ReferenceScenes.renderers() {
            for live in [false, true] {
                let scene = try Self.load()
                for time in Self.times {
                    scene.advance(to: time)
                    let image = try Self.frame(scene, at: time, renderer: renderer, live: live)
                    let fresh = try Self.load()
                    fresh.advance(to: time)
                    let expected = try renderer.render(fresh.root, scale: 1, at: time)
                    let difference = Self.firstDifference(image, expected)
                    #expect(difference == nil, "\(renderer.name), \(live ? "live" : "still") frame at \(time) s: \(difference ?? "")")
                }
            }
        }
    }

    /// Going back puts back what the timeline changed, and a live frame's removal of finished animations.
    @Test func goingBackRestoresModelValuesAndAnimations() throws {
        let scene = try Self.load()
        let box = try #require(scene.root.sublayers?.first { $0.name == "box" })
        let spinner = try #require(scene.root.sublayers?.first { $0.name == "spinner" })
        #expect(spinner.animationKeys()?.count == 2)
        scene.advance(to: 3)
        #expect(box.position == CGPoint(x: 90, y: 30) && box.opacity == 0.5 && scene.timeline.appliedCount == 7)
        // A live frame past their ends takes the spinner's animations off.
        _ = try CPURenderer().livePlan(scene.root, scale: 1, at: 3)
        #expect(spinner.animationKeys() == nil)
        scene.advance(to: 0.25)
        #expect(scene.timeline.appliedCount == 0 && scene.timeline.appliedTime == -.infinity)
        #expect(box.position == CGPoint(x: 25, y: 20) && box.opacity == 1 && box.animationKeys() == nil)
        #expect(box.backgroundColor == Color(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(spinner.animationKeys()?.count == 2)
        scene.advance(to: 1)
        #expect(scene.timeline.appliedCount == 2 && box.position == CGPoint(x: 30, y: 60))
        #expect(Set(box.animationKeys() ?? []) == ["position", "backgroundColor", "opacity"])
    }

    /// An edit (`lamina batch`'s "set") made after the timeline has run is the file's: at every time, going back
    /// or not, the frame is that of a fresh load with the edit, advanced to the time.
    @Test func editsSurviveGoingBack() throws {
        let edit = Data(##"{"layer": "box", "set": {"backgroundColor": "#00FF00", "borderWidth": 3}}"##.utf8)
        let renderer = CPURenderer()
        let scene = try Self.load()
        scene.advance(to: 3)
        try scene.edit(controlLine: edit, file: "jobs.jsonl", line: 1, path: "set[0]")
        for time in [3.0, 0.25, 2.0, 0.6, 4.0] {
            scene.advance(to: time)
            let fresh = try Self.load()
            try fresh.edit(controlLine: edit, file: "jobs.jsonl", line: 1, path: "set[0]")
            fresh.advance(to: time)
            let difference = Self.firstDifference(try renderer.render(scene.root, scale: 1, at: time),
                                                  try renderer.render(fresh.root, scale: 1, at: time))
            #expect(difference == nil, "at \(time) s: \(difference ?? "")")
        }
    }

    /// A control line applied while playing keeps its change when the time goes back (without its animation): the
    /// frame is that of a fresh load with the line as an edit.
    @Test func controlLinesSurviveGoingBack() throws {
        let line = ##"{"layer": "card", "set": {"backgroundColor": "#4000C0", "cornerRadius": 6}}"##
        let renderer = CPURenderer()
        let scene = try Self.load()
        scene.advance(to: 2.2)
        try scene.apply(controlLine: line, lineNumber: 1, at: 2.2)
        // Animating from 2.2: halfway through the default 0.25 s at 2.325.
        let card = try #require(scene.root.sublayers?.first { $0.name == "card" })
        #expect(card.animationKeys()?.contains("backgroundColor") == true)
        for time in [0.3, 1.5, 2.25, 3.5] {
            scene.advance(to: time)
            let fresh = try Self.load()
            try fresh.edit(controlLine: Data(line.utf8), file: "<control>", line: 1, path: "")
            fresh.advance(to: time)
            let difference = Self.firstDifference(try renderer.render(scene.root, scale: 1, at: time),
                                                  try renderer.render(fresh.root, scale: 1, at: time))
            #expect(difference == nil, "at \(time) s: \(difference ?? "")")
        }
        // Before the card's entry at 1.2 the line's colour shows; from it on, the entry's. The radius no entry sets.
        scene.advance(to: 0.3)
        #expect(card.backgroundColor == Color(red: 0x40 / 255.0, green: 0, blue: 0xC0 / 255.0, alpha: 1))
        #expect(card.cornerRadius == 6 && card.animationKeys() == nil)
        scene.advance(to: 1.3)
        #expect(card.backgroundColor == Color(red: 1, green: 0xA0 / 255.0, blue: 0, alpha: 1))
        #expect(card.cornerRadius == 6 && card.animationKeys() == ["transition"])
    }
}
