import Foundation
import Lamina
import Testing

/// Drawing steps rendered on the CPU renderer, probed at pixels (docs/semantics.md, "Custom drawing").
@Suite struct SceneDrawingRenderTests {
    private let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
    private let black = RGBA8(r: 0, g: 0, b: 0, a: 255)
    private let red = RGBA8(r: 255, g: 0, b: 0, a: 255)
    private let green = RGBA8(r: 0, g: 255, b: 0, a: 255)
    private let blue = RGBA8(r: 0, g: 0, b: 255, a: 255)

    /// A white scene of `size` points with one layer of `frame` that draws `steps` (and has `members`).
    private func scene(
        size: [Int] = [100, 100], frame: String = "[0, 0, 100, 100]", members: String = "", _ steps: String
    ) throws -> Scene {
        try loadScene(
            #"""
            {"size": \#(size), "backgroundColor": "#FFFFFF",
             "layers": [{"frame": \#(frame), \#(members) "draw": [\#(steps)]}]}
            """#)
    }

    private func render(_ scene: Scene, scale: CGFloat = 1) throws -> Image {
        try CPURenderer().render(scene.root, scale: scale)
    }

    /// The pixel under the point (x, y) at `scale` pixels per point.
    private func probe(_ image: Image, _ x: Double, _ y: Double, scale: Double = 1) -> RGBA8 {
        image.rgba(x: Int(x * scale), y: Int(y * scale))
    }

    /// At most `tolerance` apart on every channel (antialiasing and the renderer's rounding).
    private func near(_ a: RGBA8, _ b: RGBA8, tolerance: Int = 6) -> Bool {
        a.maxChannelDifference(to: b) <= tolerance
    }

    /// The book's example: `CGContextSetStrokeColorWithColor(ctx, red)`, `CGContextSetLineWidth(ctx, 10)`,
    /// `CGContextStrokeEllipseInRect(ctx, layer.bounds)` on a blue 100 x 100 layer.
    @Test(arguments: [1.0, 2.0])
    func theBooksRing(scale: Double) throws {
        let scene = try loadScene(
            #"""
            {"size": [200, 200], "backgroundColor": "#FFFFFF",
             "layers": [{"frame": [50, 50, 100, 100], "backgroundColor": "#0000FF",
                         "draw": [{"strokeColor": "#FF0000"}, {"lineWidth": 10}, {"strokeEllipse": "bounds"}]}]}
            """#)
        let image = try render(scene, scale: scale)
        #expect(image.width == Int(200 * scale))
        #expect(near(probe(image, 100, 100, scale: scale), blue))
        #expect(near(probe(image, 100, 52, scale: scale), red))
        #expect(near(probe(image, 148, 100, scale: scale), red))
        #expect(near(probe(image, 52, 100, scale: scale), red))
        #expect(near(probe(image, 100, 147, scale: scale), red))
        // The outer half of the stroke lies outside the bounds and is clipped away.
        #expect(near(probe(image, 100, 47, scale: scale), white))
        #expect(near(probe(image, 153, 100, scale: scale), white))
        // A corner of the layer, outside the ellipse.
        #expect(near(probe(image, 53, 53, scale: scale), blue))
        #expect(scene.root.sublayers![0].contentsImage?.width == 100)
    }

    @Test func evenOddAndNonZeroFills() throws {
        let ring = #"{"fillColor": [0, 1, 0, 1]}, {"rect": [10, 10, 80, 80]}, {"rect": [30, 30, 40, 40]}, "#
        let evenOdd = try render(scene(ring + #"{"fill": "evenodd"}"#))
        #expect(near(probe(evenOdd, 20, 20), green))
        #expect(near(probe(evenOdd, 50, 50), white))
        #expect(near(probe(evenOdd, 5, 5), white))
        let nonZero = try render(scene(ring + #"{"fill": "nonzero"}"#))
        #expect(near(probe(nonZero, 20, 20), green))
        #expect(near(probe(nonZero, 50, 50), green))
        #expect(near(probe(nonZero, 5, 5), white))
    }

    @Test func clip() throws {
        let image = try render(
            scene(
                #"{"ellipse": [0, 0, 100, 100]}, {"rect": [0, 0, 50, 100]}, {"clip": "evenodd"}, "#
                    + #"{"fillColor": [1, 0, 0, 1]}, {"fillRect": "bounds"}"#))
        // Even-odd of the circle and the left half: the right half of the circle and the left corners.
        #expect(near(probe(image, 75, 50), red))
        #expect(near(probe(image, 25, 50), white))
        #expect(near(probe(image, 3, 3), red))
        #expect(near(probe(image, 97, 3), white))
        let nonZero = try render(
            scene(
                #"{"rect": [0, 0, 50, 100]}, {"clip": "nonzero"}, {"fillColor": [1, 0, 0, 1]}, {"fillRect": "bounds"}"#)
        )
        #expect(near(probe(nonZero, 25, 50), red))
        #expect(near(probe(nonZero, 75, 50), white))
    }

    @Test func dashesAlongALongLine() throws {
        let image = try render(
            scene(
                size: [200, 20], frame: "[0, 0, 200, 20]",
                #"{"lineWidth": 4}, {"dash": [10, 5]}, {"moveTo": [0, 10]}, {"lineTo": [200, 10]}, {"stroke": true}"#
            ))
        // On 0..<10, off 10..<15, on 15..<25, ...: dash n starts at 15n.
        for dash in 0..<13 {
            let start = Double(dash * 15)
            #expect(near(probe(image, start + 5, 10), black), "dash \(dash)")
            #expect(near(probe(image, start + 12, 10), white), "gap \(dash)")
        }
        #expect(near(probe(image, 5, 6), white))
        let solid = try render(
            scene(
                size: [200, 20], frame: "[0, 0, 200, 20]",
                #"{"lineWidth": 4}, {"dash": [10, 5]}, {"dash": []}, {"moveTo": [0, 10]}, {"lineTo": [200, 10]}, "#
                    + #"{"stroke": true}"#))
        #expect(near(probe(solid, 12, 10), black))
    }

    @Test func anImageScaledIntoARect() throws {
        let image = try render(
            scene(
                #"{"image": "red-4x4.png", "rect": [10, 10, 40, 20]}, "#
                    + #"{"image": "blue-2x3.png", "rect": [60, 50, 2, 3]}"#))
        #expect(near(probe(image, 30, 20), red))
        #expect(near(probe(image, 11, 11), red))
        #expect(near(probe(image, 48, 28), red))
        #expect(near(probe(image, 5, 20), white))
        #expect(near(probe(image, 30, 35), white))
        #expect(near(probe(image, 61, 52), blue))
        #expect(near(probe(image, 63, 52), white))
    }

    @Test func textIsDrawnInItsBoxOnly() throws {
        let image = try render(
            scene(
                size: [200, 60], frame: "[0, 0, 200, 60]",
                #"{"fillColor": [0, 0, 0, 1]}, {"text": "Hi", "at": [20, 40], "size": 20}"#))
        // Generous box: "Hi" at 20 points is about 21 points wide and 15 tall above the baseline.
        let box = (minX: 15, minY: 15, maxX: 60, maxY: 50)
        var inside = 0
        var outside = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.rgba(x: x, y: y) != white {
                if (box.minX..<box.maxX).contains(x), (box.minY..<box.maxY).contains(y) {
                    inside += 1
                } else {
                    outside += 1
                }
            }
        }
        #expect(inside > 20)
        #expect(outside == 0)
        let serif = try render(
            scene(
                size: [200, 60], frame: "[0, 0, 200, 60]",
                #"{"fillColor": [0, 0, 0, 1]}, {"text": "Hi", "at": [20, 40], "size": 20, "font": "serif"}"#))
        #expect(serif.pixelsDiffer(from: image))
    }

    @Test func saveAndRestoreColoursAndTransforms() throws {
        let image = try render(
            scene(
                #"{"fillColor": [1, 0, 0, 1]}, {"strokeColor": [0, 0, 1, 1]}, {"lineWidth": 4}, {"save": true}, "#
                    + #"{"fillColor": [0, 1, 0, 1]}, {"strokeColor": [0, 0, 0, 1]}, {"lineWidth": 1}, "#
                    + #"{"translate": [50, 0]}, {"fillRect": [0, 0, 20, 20]}, {"restore": true}, "#
                    + #"{"fillRect": [0, 0, 20, 20]}, {"strokeRect": [10, 60, 30, 30]}, {"restore": true}, "#
                    + #"{"fillRect": [0, 30, 10, 10]}"#))
        #expect(near(probe(image, 60, 10), green))
        #expect(near(probe(image, 10, 10), red))
        // The restored line width, 4: the stroke reaches 2 points either side of the edge at x = 10.
        #expect(near(probe(image, 8.5, 75), blue))
        #expect(near(probe(image, 11.5, 75), blue))
        #expect(near(probe(image, 25, 75), white))
        // A restore without a save does nothing.
        #expect(near(probe(image, 5, 35), red))
    }

    @Test func translateRotateAndScale() throws {
        let translated = try render(scene(#"{"translate": [30, 10]}, {"fillRect": [0, 0, 10, 10]}"#))
        #expect(near(probe(translated, 35, 15), black))
        #expect(near(probe(translated, 5, 5), white))

        let scaled = try render(scene(#"{"scale": [2, 3]}, {"fillRect": [0, 0, 10, 10]}"#))
        #expect(near(probe(scaled, 15, 25), black))
        #expect(near(probe(scaled, 25, 5), white))
        #expect(near(probe(scaled, 5, 35), white))

        // +90 degrees turns clockwise on the screen: a bar pointing right from (50, 50) now points down.
        let rotated = try render(scene(#"{"translate": [50, 50]}, {"rotate": 90}, {"fillRect": [0, 0, 30, 10]}"#))
        #expect(near(probe(rotated, 45, 65), black))
        #expect(near(probe(rotated, 65, 45), white))
        #expect(near(probe(rotated, 55, 65), white))

        // Steps compose in order, as CGContext's do: translate then scale scales about the new origin.
        let composed = try render(scene(#"{"translate": [20, 20]}, {"scale": [2, 2]}, {"fillRect": [0, 0, 10, 10]}"#))
        #expect(near(probe(composed, 38, 38), black))
        #expect(near(probe(composed, 15, 15), white))
        #expect(near(probe(composed, 42, 42), white))
    }

    @Test func arcsTurnAsCGContextsInAFlippedContext() throws {
        func pie(_ clockwise: Bool) throws -> Image {
            try render(
                scene(
                    #"{"moveTo": [50, 50]}, {"arc": [50, 50, 40, 0, 90], "clockwise": \#(clockwise)}, "#
                        + #"{"closePath": true}, {"fill": "nonzero"}"#))
        }
        // clockwise false: the angle increases from 0 (right) to 90 (down): the lower right quarter.
        let quarter = try pie(false)
        #expect(near(probe(quarter, 70, 70), black))
        #expect(near(probe(quarter, 70, 30), white))
        #expect(near(probe(quarter, 30, 70), white))
        #expect(near(probe(quarter, 30, 30), white))
        // clockwise true: the other three quarters.
        let rest = try pie(true)
        #expect(near(probe(rest, 70, 70), white))
        #expect(near(probe(rest, 70, 30), black))
        #expect(near(probe(rest, 30, 70), black))
        #expect(near(probe(rest, 30, 30), black))
    }

    @Test func pathsCurvesAndRoundedRects() throws {
        let image = try render(
            scene(
                #"{"fillColor": [0, 0, 1, 1]}, {"moveTo": [10, 10]}, {"lineTo": [40, 10]}, {"lineTo": [10, 40]}, "#
                    + #"{"closePath": true}, {"fill": "nonzero"}, "#
                    + #"{"moveTo": [60, 40]}, {"curveTo": [60, 10, 90, 10, 90, 40]}, {"fill": "nonzero"}, "#
                    + #"{"moveTo": [60, 90]}, {"quadTo": [75, 60, 90, 90]}, {"closePath": true}, "#
                    + #"{"strokeColor": [1, 0, 0, 1]}, {"lineWidth": 2}, {"stroke": true}, "#
                    + #"{"roundedRect": [10, 60, 30, 30, 15]}, {"fill": "nonzero"}"#))
        #expect(near(probe(image, 15, 15), blue))
        #expect(near(probe(image, 35, 35), white))
        #expect(near(probe(image, 75, 25), blue))
        #expect(near(probe(image, 62, 12), white))
        #expect(near(probe(image, 75, 89.5), red))
        #expect(near(probe(image, 75, 80), white))
        #expect(near(probe(image, 25, 75), blue))
        #expect(near(probe(image, 12, 62), white))
    }

    @Test func contentsScaleTwoDrawsATwiceAsLargeBackingImage() throws {
        let line = #"{"lineWidth": 1}, {"moveTo": [0, 10]}, {"lineTo": [20, 10]}, {"stroke": true}"#
        let sharp = try scene(size: [20, 20], frame: "[0, 0, 20, 20]", members: #""contentsScale": 2,"#, line)
        let image = try render(sharp, scale: 2)
        #expect(sharp.root.sublayers![0].contentsImage?.width == 40)
        #expect(sharp.root.sublayers![0].contentsImage?.height == 40)
        // The line covers y 9.5...10.5 points: pixel rows 19 and 20 at 2 pixels per point.
        for x in [0, 11, 39] {
            #expect(near(image.rgba(x: x, y: 18), white))
            #expect(near(image.rgba(x: x, y: 19), black))
            #expect(near(image.rgba(x: x, y: 20), black))
            #expect(near(image.rgba(x: x, y: 21), white))
        }
        // At contentsScale 1 the same line is drawn into 20 pixels and stretched: no row is solid black.
        let blurred = try scene(size: [20, 20], frame: "[0, 0, 20, 20]", line)
        #expect(blurred.root.sublayers![0].contents == nil)
        let stretched = try render(blurred, scale: 2)
        #expect(blurred.root.sublayers![0].contentsImage?.width == 20)
        #expect((16..<24).allSatisfy { !near(stretched.rgba(x: 11, y: $0), black) })
    }

    @Test func drawingHappensOnceUntilMarkedAgain() throws {
        let loaded = try scene(
            size: [60, 60], frame: "[0, 0, 20, 20]", #"{"fillColor": [1, 0, 0, 1]}, {"fillEllipse": "bounds"}"#)
        let layer = loaded.root.sublayers![0]
        #expect(layer.displayCount == 0)
        for _ in 0..<3 { _ = try render(loaded) }
        #expect(layer.displayCount == 1)
        _ = try render(loaded, scale: 2)
        #expect(layer.displayCount == 1)
        layer.setNeedsDisplay()
        let again = try render(loaded)
        #expect(layer.displayCount == 2)
        #expect(near(probe(again, 10, 10), red))
        _ = try render(loaded)
        #expect(layer.displayCount == 2)
    }

    @Test func aBoundsChangeRedrawsOnlyWithNeedsDisplayOnBoundsChange() throws {
        // Changes after a frame would animate implicitly; this test checks the frame right after them.
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        for redraws in [true, false] {
            let loaded = try scene(
                size: [60, 60], frame: "[0, 0, 20, 20]", members: #""needsDisplayOnBoundsChange": \#(redraws),"#,
                #"{"fillColor": [1, 0, 0, 1]}, {"fillEllipse": "bounds"}"#)
            let layer = loaded.root.sublayers![0]
            _ = try render(loaded)
            #expect(layer.displayCount == 1)
            layer.anchorPoint = .zero
            layer.position = .zero
            layer.bounds = CGRect(x: 0, y: 0, width: 60, height: 30)
            let image = try render(loaded)
            #expect(layer.displayCount == (redraws ? 2 : 1))
            #expect(layer.contentsImage?.width == (redraws ? 60 : 20))
            // Either way the ellipse fills the new bounds (redrawn, or the old drawing stretched); a redraw is
            // drawn at the new size, so its edge is sharp where the stretched one is blurred.
            #expect(near(probe(image, 30, 15), red))
            #expect(near(probe(image, 2, 2), white))
            // Moving without resizing never redraws.
            layer.position = CGPoint(x: 1, y: 1)
            _ = try render(loaded)
            #expect(layer.displayCount == (redraws ? 2 : 1))
        }
    }

    @Test func boundsWithAnOriginAreTheDrawingSpace() throws {
        let loaded = try scene(
            size: [60, 60], frame: "[0, 0, 40, 40]", members: "",
            #"{"fillColor": [0, 1, 0, 1]}, {"fillRect": [100, 100, 10, 10]}"#)
        let layer = loaded.root.sublayers![0]
        layer.bounds.origin = CGPoint(x: 100, y: 100)
        let image = try render(loaded)
        #expect(near(probe(image, 5, 5), green))
        #expect(near(probe(image, 15, 15), white))
    }
}

extension Image {
    /// True when some pixel differs from the pixel at the same place of `other` (of the same size).
    fileprivate func pixelsDiffer(from other: Image) -> Bool {
        guard width == other.width, height == other.height else { return true }
        for y in 0..<height {
            for x in 0..<width where rgba(x: x, y: y) != other.rgba(x: x, y: y) { return true }
        }
        return false
    }
}
