import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Replicator layers loaded from scene files, rendered by every renderer at scales 1 and 2: each instance's
/// place and colour (the sublayer's colour times the instance colour), and parity between the renderers.
@Suite struct ReplicatorSceneRenderTests {
    static func load(_ json: String) throws -> Scene {
        try Scene.load(data: Data(json.utf8), baseDirectory: FileManager.default.temporaryDirectory,
                       fileName: "replicator.json")
    }

    /// Renders `json` at `time` with each renderer at scales 1 and 2, checks `probes` ((x, y) in points and the
    /// expected straight RGBA) on each, and parity between the CPU and GLES images.
    static func check(_ json: String, at time: Double = 0, probes: [(CGPoint, RGBA8)]) throws {
        let scene = try load(json)
        for scale in [1.0, 2.0] {
            var images: [Image] = []
            for renderer in ReferenceScenes.renderers() {
                let image = try renderer.render(scene.root, scale: scale, at: time)
                images.append(image)
                for (point, expected) in probes {
                    let pixel = image.rgba(x: Int(point.x * scale), y: Int(point.y * scale))
                    #expect(near(pixel, Int(expected.r), Int(expected.g), Int(expected.b), Int(expected.a)),
                            "\(renderer.name) at scale \(scale), (\(point.x), \(point.y)): \(pixel), expected \(expected)")
                }
            }
            // The CPU image and, where an EGL display opens, the GLES image.
            if images.count == 2 {
                #expect(ImageDifference.meetsParity(images[0], images[1]), "parity at scale \(scale)")
            }
        }
    }

    /// Five instances 20 points apart; instance i's colour is white + i x (-0.2, -0.1, 0, 0), times the
    /// sublayer's orange.
    @Test func instancesAreTranslatedAndTinted() throws {
        let json = #"""
            {"size": [120, 40], "backgroundColor": "#000000", "layers": [
             {"type": "replicator", "frame": [0, 0, 120, 40], "instanceCount": 5,
              "instanceTransform": [{"translate": [20, 0]}], "instanceColor": [1, 1, 1, 1],
              "instanceRedOffset": -0.2, "instanceGreenOffset": -0.1,
              "sublayers": [{"frame": [2, 10, 16, 16], "backgroundColor": "#ff8000"}]}
            ]}
            """#
        var probes: [(CGPoint, RGBA8)] = []
        for i in 0..<5 {
            let red = 255 * (1 - 0.2 * Double(i)), green = 128 * (1 - 0.1 * Double(i))
            probes.append((CGPoint(x: 10 + 20 * Double(i), y: 18),
                           RGBA8(r: UInt8(red.rounded()), g: UInt8(green.rounded()), b: 0, a: 255)))
            // The gap between instances stays the background.
            probes.append((CGPoint(x: 19 + 20 * Double(i), y: 18), RGBA8(r: 0, g: 0, b: 0, a: 255)))
        }
        // No sixth instance.
        probes.append((CGPoint(x: 110, y: 18), RGBA8(r: 0, g: 0, b: 0, a: 255)))
        try Self.check(json, probes: probes)
    }

    /// instanceCount 0 draws none of the sublayers, but the replicator's own background once.
    @Test func zeroInstancesDrawNothing() throws {
        let json = #"""
            {"size": [40, 40], "backgroundColor": "#000000", "layers": [
             {"type": "replicator", "frame": [0, 0, 20, 40], "backgroundColor": "#0000ff", "instanceCount": 0,
              "sublayers": [{"frame": [0, 0, 40, 40], "backgroundColor": "#ff0000"}]}
            ]}
            """#
        try Self.check(json, probes: [
            (CGPoint(x: 10, y: 20), RGBA8(r: 0, g: 0, b: 255, a: 255)),
            (CGPoint(x: 30, y: 20), RGBA8(r: 0, g: 0, b: 0, a: 255)),
        ])
    }

    /// A rotation turns each instance about the replicator's anchor (its centre): four instances a quarter turn
    /// apart go round clockwise from the top.
    @Test func rotationTurnsAboutTheAnchor() throws {
        let json = #"""
            {"size": [100, 100], "backgroundColor": "#000000", "layers": [
             {"type": "replicator", "frame": [0, 0, 100, 100], "instanceCount": 4,
              "instanceTransform": [{"rotate": 90}], "instanceRedOffset": -0.25,
              "sublayers": [{"frame": [45, 5, 10, 10], "backgroundColor": "#ff0000"}]}
            ]}
            """#
        try Self.check(json, probes: [
            (CGPoint(x: 50, y: 10), RGBA8(r: 255, g: 0, b: 0, a: 255)),
            (CGPoint(x: 90, y: 50), RGBA8(r: 191, g: 0, b: 0, a: 255)),
            (CGPoint(x: 50, y: 90), RGBA8(r: 128, g: 0, b: 0, a: 255)),
            (CGPoint(x: 10, y: 50), RGBA8(r: 64, g: 0, b: 0, a: 255)),
            (CGPoint(x: 50, y: 50), RGBA8(r: 0, g: 0, b: 0, a: 255)),
        ])
    }

    /// With instanceDelay 1, instance i of an animated sublayer shows the animation at t - i: at t = 3 the three
    /// instances (30 points apart downwards) are at x = 70, 50 and 30.
    @Test func instanceDelayShiftsEachInstancesTime() throws {
        let json = #"""
            {"size": [100, 100], "backgroundColor": "#000000", "layers": [
             {"type": "replicator", "frame": [0, 0, 100, 100], "instanceCount": 3,
              "instanceTransform": [{"translate": [0, 30]}], "instanceDelay": 1,
              "sublayers": [{"bounds": [0, 0, 10, 10], "position": [10, 10], "backgroundColor": "#00ff00",
                "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 10, "toValue": 90,
                  "duration": 4}]}]}
            ]}
            """#
        let green = RGBA8(r: 0, g: 255, b: 0, a: 255), black = RGBA8(r: 0, g: 0, b: 0, a: 255)
        try Self.check(json, at: 3, probes: [
            (CGPoint(x: 70, y: 10), green), (CGPoint(x: 50, y: 40), green), (CGPoint(x: 30, y: 70), green),
            // Where an undelayed instance would be.
            (CGPoint(x: 70, y: 40), black), (CGPoint(x: 70, y: 70), black),
        ])
    }
}
