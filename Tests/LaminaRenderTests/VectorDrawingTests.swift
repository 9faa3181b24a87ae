import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Vector drawings (docs/semantics.md, "Vector drawings") painted by a drawing layer on both renderers, at probe
/// pixels whose values follow from the geometry, the paints and the compositing rules; parity between renderers.
@Suite struct VectorDrawingTests {
    typealias D = VectorDrawing
    static let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
    static let red = Color(red: 1, green: 0, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 1)
    static let green = Color(red: 0, green: 1, blue: 0)

    static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> RGBA8 { RGBA8(r: r, g: g, b: b, a: 255) }

    static func rect(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat) -> Path {
        Path(rect: CGRect(x: x, y: y, width: w, height: h))
    }

    static func fill(_ path: Path, _ color: Color, _ rule: FillRule = .winding) -> D.Item {
        .fill(path, .color(color), rule)
    }

    /// A `size` white root holding a drawing layer over all of it.
    static func scene(_ drawing: VectorDrawing, size: CGSize = CGSize(width: 100, height: 100)) -> Layer {
        let root = Layer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = .white
        let layer = DrawingLayer()
        layer.frame = root.bounds
        layer.drawing = drawing
        root.addSublayer(layer)
        return root
    }

    /// Renders `drawing` on every renderer at each scale; each probe point (in points) must be within `tolerance`
    /// of its colour; the renderers must meet the parity bound. Returns the first renderer's images by scale.
    @discardableResult
    static func check(_ drawing: VectorDrawing, _ probes: [(CGPoint, RGBA8)], tolerance: Int = 2,
                      scales: [CGFloat] = [1, 2], size: CGSize = CGSize(width: 100, height: 100),
                      _ comment: String) throws -> [Image] {
        Transaction.setDisableActions(true)
        defer { Transaction.flush() }
        var first: [Image] = []
        for scale in scales {
            var images: [Image] = []
            for renderer in ReferenceScenes.renderers() {
                let image = try renderer.render(scene(drawing, size: size), scale: scale)
                images.append(image)
                for (p, want) in probes {
                    let pixel = image.rgba(x: Int(p.x * scale), y: Int(p.y * scale))
                    #expect(pixel.maxChannelDifference(to: want) <= tolerance,
                            "\(comment), \(renderer.name) at scale \(scale), \(p): \(pixel), want \(want)")
                }
            }
            if images.count == 2 {
                #expect(ImageDifference.meetsParity(images[0], images[1]), "\(comment): parity at scale \(scale)")
            }
            first.append(images[0])
        }
        return first
    }

    @Test func fillRules() throws {
        var path = Self.rect(10, 10, 80, 80)
        path.addRect(CGRect(x: 30, y: 30, width: 40, height: 40))
        try Self.check(VectorDrawing(items: [Self.fill(path, Self.red, .evenOdd)]),
                       [(CGPoint(x: 20, y: 20), Self.rgb(255, 0, 0)), (CGPoint(x: 50, y: 50), Self.white),
                        (CGPoint(x: 5, y: 5), Self.white)], "even-odd leaves the hole")
        try Self.check(VectorDrawing(items: [Self.fill(path, Self.red)]),
                       [(CGPoint(x: 20, y: 20), Self.rgb(255, 0, 0)), (CGPoint(x: 50, y: 50), Self.rgb(255, 0, 0))],
                       "non-zero fills it")
    }

    @Test func dashedStrokes() throws {
        let line = Path([.move(to: CGPoint(x: 10, y: 50)), .line(to: CGPoint(x: 90, y: 50))])
        let black = Color(red: 0, green: 0, blue: 0)
        // Dashes 10 on, 10 off from x = 10: ink on 10..20, 30..40; 10 points wide.
        let dashed = VectorDrawing(items: [.stroke(line, .color(black), D.StrokeStyle(width: 10, dashes: [10, 10]))])
        try Self.check(dashed, [(CGPoint(x: 15, y: 50), Self.rgb(0, 0, 0)), (CGPoint(x: 25, y: 50), Self.white),
                                (CGPoint(x: 35, y: 47), Self.rgb(0, 0, 0)), (CGPoint(x: 35, y: 57), Self.white)],
                       "dashes")
        // A phase of 5 moves the pattern back by 5: ink on 10..15, 25..35.
        let shifted = VectorDrawing(items: [.stroke(line, .color(black),
                                                    D.StrokeStyle(width: 10, dashes: [10, 10], dashPhase: 5))])
        try Self.check(shifted, [(CGPoint(x: 12, y: 50), Self.rgb(0, 0, 0)), (CGPoint(x: 20, y: 50), Self.white),
                                 (CGPoint(x: 30, y: 50), Self.rgb(0, 0, 0))], "dash phase")
        #expect(dashed.paintedBounds == CGRect(x: 10, y: 45, width: 80, height: 10))
    }

    @Test func linearGradients() throws {
        let stops = [D.GradientStop(offset: 0, color: Self.red), D.GradientStop(offset: 1, color: Self.blue)]
        let across = VectorDrawing(items: [.fill(Self.rect(0, 0, 100, 100),
                                                 .linear(stops: stops, start: CGPoint(x: 25, y: 0),
                                                         end: CGPoint(x: 75, y: 0), opacity: 1), .winding)])
        // Pixel centres: x = 50.5 is 25.5 / 50 of the way; padded beyond the ends.
        try Self.check(across, [(CGPoint(x: 10, y: 50), Self.rgb(255, 0, 0)), (CGPoint(x: 90, y: 50), Self.rgb(0, 0, 255)),
                                (CGPoint(x: 50, y: 50), Self.rgb(125, 0, 130))], scales: [1], "red to blue, padded")
        // Translucent stops and the paint's opacity: red from opaque to clear over white, at half opacity.
        let fading = [D.GradientStop(offset: 0, color: Self.red),
                      D.GradientStop(offset: 1, color: Color(red: 1, green: 0, blue: 0, alpha: 0))]
        let translucent = VectorDrawing(items: [.fill(Self.rect(0, 0, 100, 100),
                                                      .linear(stops: fading, start: .zero,
                                                              end: CGPoint(x: 100, y: 0), opacity: 0.5), .winding)])
        // At x = 0.5: alpha 0.5 x 0.995; at 50.5: 0.5 x 0.495 (green and blue 255 x (1 - alpha)).
        try Self.check(translucent, [(CGPoint(x: 0, y: 50), Self.rgb(255, 128, 128)),
                                     (CGPoint(x: 50, y: 50), Self.rgb(255, 192, 192))], tolerance: 3, scales: [1],
                       "translucent stops at half opacity")
    }

    @Test func radialGradientsWithAHighlight() throws {
        let stops = [D.GradientStop(offset: 0, color: .white), D.GradientStop(offset: 1, color: .black)]
        func disc(_ h: Double, _ angle: Double) -> VectorDrawing {
            VectorDrawing(items: [.fill(Self.rect(0, 0, 100, 100),
                                        .radial(stops: stops, center: CGPoint(x: 50, y: 50), end: CGPoint(x: 90, y: 50),
                                                highlight: h, angle: angle, opacity: 1), .winding)])
        }
        // No highlight: t = distance / 40; (70.5, 50.5) is 20.5 from the centre; padded black beyond the radius.
        try Self.check(disc(0, 0), [(CGPoint(x: 50, y: 50), Self.rgb(250, 250, 250)),
                                    (CGPoint(x: 70, y: 50), Self.rgb(124, 124, 124)),
                                    (CGPoint(x: 95, y: 50), Self.rgb(0, 0, 0))], tolerance: 4, scales: [1], "centred")
        // Highlight 0.5 at angle 0: the focal point is 20 towards the end, (70, 50), white there; the centre is a
        // third of the way from the focal point to the circle (20 (1 - t) = 40 t): 255 x 2/3.
        try Self.check(disc(0.5, 0), [(CGPoint(x: 70, y: 50), Self.rgb(252, 252, 252)),
                                      (CGPoint(x: 50, y: 50), Self.rgb(169, 169, 169))], tolerance: 5, scales: [1],
                       "highlight towards the end")
        // At 90 degrees the focal point turns to (50, 70) (y down).
        try Self.check(disc(0.5, 90), [(CGPoint(x: 50, y: 70), Self.rgb(252, 252, 252)),
                                       (CGPoint(x: 50, y: 50), Self.rgb(169, 169, 169))], tolerance: 5, scales: [1],
                       "highlight turned by the angle")
    }

    @Test func aGroupsOpacityDoesNotDoubleTheOverlap() throws {
        let group = D.Group(items: [Self.fill(Self.rect(10, 10, 50, 50), Self.red),
                                    Self.fill(Self.rect(40, 40, 50, 50), Self.red)], opacity: 0.5)
        try Self.check(VectorDrawing(items: [.group(group)]),
                       [(CGPoint(x: 20, y: 20), Self.rgb(255, 128, 128)), (CGPoint(x: 50, y: 50), Self.rgb(255, 128, 128)),
                        (CGPoint(x: 80, y: 80), Self.rgb(255, 128, 128)), (CGPoint(x: 80, y: 20), Self.white)],
                       "half opacity, overlap once")
        // Without the group each fill is faded on its own: the overlap is darker.
        let half = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        try Self.check(VectorDrawing(items: [Self.fill(Self.rect(10, 10, 50, 50), half),
                                             Self.fill(Self.rect(40, 40, 50, 50), half)]),
                       [(CGPoint(x: 20, y: 20), Self.rgb(255, 128, 128)), (CGPoint(x: 50, y: 50), Self.rgb(255, 64, 64))],
                       scales: [1], "two translucent fills")
    }

    @Test func operators() throws {
        func drawing(_ op: D.Operator) -> VectorDrawing {
            VectorDrawing(items: [Self.fill(Self.rect(10, 10, 50, 50), Self.red),
                                  .group(D.Group(items: [Self.fill(Self.rect(40, 40, 50, 50), Self.blue)], operator: op))])
        }
        let (r, b, w) = (Self.rgb(255, 0, 0), Self.rgb(0, 0, 255), Self.white)
        let points = [CGPoint(x: 20, y: 20), CGPoint(x: 50, y: 50), CGPoint(x: 80, y: 80)]
        let expected: [(D.Operator, [RGBA8])] = [
            (.over, [r, b, b]), (.destinationOut, [r, w, w]), (.destinationIn, [w, r, w]), (.xor, [r, w, b]),
            (.add, [r, Self.rgb(255, 0, 255), b]),
        ]
        for (op, colours) in expected {
            try Self.check(drawing(op), Array(zip(points, colours)), scales: [1], "\(op)")
        }
        // Destination-in through a mask at half opacity: the red below keeps half its alpha where the group (the
        // top half) and its mask (the left half) let it, and is cleared everywhere else.
        let masked = VectorDrawing(items: [
            Self.fill(Self.rect(0, 0, 100, 100), Self.red),
            .group(D.Group(items: [Self.fill(Self.rect(0, 0, 100, 50), Self.blue)], opacity: 0.5,
                           operator: .destinationIn,
                           mask: VectorDrawing(items: [Self.fill(Self.rect(0, 0, 50, 100), .black)]))),
        ])
        try Self.check(masked, [(CGPoint(x: 25, y: 25), Self.rgb(255, 128, 128)), (CGPoint(x: 75, y: 25), w),
                                (CGPoint(x: 25, y: 75), w), (CGPoint(x: 75, y: 75), w)], "destination-in, masked, faded")
    }

    @Test func masksWithEachAlphaMode() throws {
        let everywhere = Self.fill(Self.rect(0, 0, 100, 100), Self.red)
        func masked(_ mask: VectorDrawing) -> VectorDrawing {
            VectorDrawing(items: [.group(D.Group(items: [everywhere], mask: mask))])
        }
        let left = Self.fill(Self.rect(0, 0, 50, 100), .black)
        let full = CGRect(x: 0, y: 0, width: 100, height: 100)
        let (l, r) = (CGPoint(x: 25, y: 50), CGPoint(x: 75, y: 50))
        try Self.check(masked(VectorDrawing(items: [left])), [(l, Self.rgb(255, 0, 0)), (r, Self.white)], "alpha")
        try Self.check(masked(VectorDrawing(items: [left], alpha: .inverted, extent: full)),
                       [(l, Self.white), (r, Self.rgb(255, 0, 0))], "inverted alpha over the extent")
        // Luminance: a 50 % grey (128) on the left, white on the right: red at 128/255 over white, and red.
        let grey = Color(red: 128.0 / 255, green: 128.0 / 255, blue: 128.0 / 255)
        let luma = VectorDrawing(items: [Self.fill(Self.rect(0, 0, 50, 100), grey),
                                         Self.fill(Self.rect(50, 0, 50, 100), .white)], alpha: .luminance)
        try Self.check(masked(luma), [(l, Self.rgb(255, 127, 127)), (r, Self.rgb(255, 0, 0))], "luminance")
        var inverse = luma
        inverse.alpha = .invertedLuminance
        inverse.extent = full
        try Self.check(masked(inverse), [(l, Self.rgb(255, 128, 128)), (r, Self.white)], "inverted luminance")
        // A drawing's own alpha mode applies to its picture.
        let own = VectorDrawing(items: [left], alpha: .inverted, extent: full)
        try Self.check(own, [(l, Self.white), (r, Self.rgb(255, 255, 255))], "an inverted drawing is white")
        let picture = try #require(try own.picture(density: 1))
        #expect(picture.image.word(x: 75, y: 50) == 0xFFFF_FFFF && picture.image.word(x: 25, y: 50) == 0)
    }

    @Test func colourFilters() throws {
        func filtered(_ filter: D.ColorFilter) -> VectorDrawing {
            VectorDrawing(items: [.group(D.Group(items: [Self.fill(Self.rect(20, 20, 60, 60), Self.red)],
                                                 colorFilter: filter))])
        }
        let inside = CGPoint(x: 50, y: 50), outside = CGPoint(x: 10, y: 10)
        try Self.check(filtered(.fill(Self.green, amount: 1)), [(inside, Self.rgb(0, 255, 0)), (outside, Self.white)],
                       scales: [1], "fill")
        try Self.check(filtered(.fill(Self.green, amount: 0.5)), [(inside, Self.rgb(128, 128, 0))], scales: [1],
                       "half a fill")
        // Red's luminance is 0.2126: tint from black to blue gives 0.2126 blue; tritone below 0.5 mixes dark to mid
        // at 0.4252.
        try Self.check(filtered(.tint(black: .black, white: Self.blue, amount: 1)), [(inside, Self.rgb(0, 0, 54))],
                       scales: [1], "tint")
        try Self.check(filtered(.tritone(bright: .white, mid: Self.red, dark: .black, amount: 1)),
                       [(inside, Self.rgb(108, 0, 0))], scales: [1], "tritone")
    }

    @Test func blurKeepsTheCentreAndSoftensEdgesSymmetrically() throws {
        let drawing = VectorDrawing(items: [.group(D.Group(items: [Self.fill(Self.rect(30, 30, 40, 40), .black)],
                                                           blur: 3))])
        #expect(drawing.paintedBounds == CGRect(x: 21, y: 21, width: 58, height: 58), "3 sigma outset")
        let images = try Self.check(drawing, [(CGPoint(x: 50, y: 50), Self.rgb(0, 0, 0)),
                                              (CGPoint(x: 10, y: 50), Self.white)], scales: [1], "blur")
        let image = images[0]
        // Across the left edge at x = 30: pixels 29 and 30 are about half; 26 lighter, 33 darker; mirrored on the
        // right edge (x = 70: pixels 70 and 69).
        let a29 = Int(image.rgba(x: 29, y: 50).g), a30 = Int(image.rgba(x: 30, y: 50).g)
        #expect(abs(a29 + a30 - 255) <= 8 && a29 > 100 && a30 < 155, "\(a29) \(a30)")
        #expect(Int(image.rgba(x: 26, y: 50).g) > a29 && Int(image.rgba(x: 33, y: 50).g) < a30)
        for d in 0..<6 {
            let lhs = Int(image.rgba(x: 29 - d, y: 50).g), rhs = Int(image.rgba(x: 70 + d, y: 50).g)
            #expect(abs(lhs - rhs) <= 2, "symmetric at \(d): \(lhs) \(rhs)")
        }
    }

    @Test func dropShadowsGoUnderTheGroup() throws {
        let shadow = D.DropShadow(color: .black, offset: CGSize(width: 20, height: 20), blur: 0)
        let drawing = VectorDrawing(items: [.group(D.Group(items: [Self.fill(Self.rect(20, 20, 30, 30), Self.red)],
                                                           shadow: shadow))])
        #expect(drawing.paintedBounds == CGRect(x: 20, y: 20, width: 50, height: 50))
        try Self.check(drawing, [(CGPoint(x: 30, y: 30), Self.rgb(255, 0, 0)), (CGPoint(x: 45, y: 45), Self.rgb(255, 0, 0)),
                                 (CGPoint(x: 60, y: 60), Self.rgb(0, 0, 0)), (CGPoint(x: 60, y: 30), Self.white),
                                 (CGPoint(x: 15, y: 15), Self.white)], scales: [1, 2], "shadow offset")
    }

    /// Columns of `image` (scale 1) in rows y0..<y1 with a pixel darker than 128 (green channel).
    static func inkedColumns(_ image: Image, rows: Range<Int>) -> ClosedRange<Int>? {
        var columns: [Int] = []
        for x in 0..<image.width where rows.contains(where: { image.rgba(x: x, y: $0).g < 128 }) { columns.append(x) }
        guard let lo = columns.min(), let hi = columns.max() else { return nil }
        return lo...hi
    }

    @Test func textIsDrawnWherePlacedAndJustified() throws {
        func text(_ justification: D.TextJustification, x: CGFloat) -> VectorDrawing {
            VectorDrawing(items: [.text(D.TextRun(text: "HH", font: "DejaVu Sans", size: 40, fill: .black,
                                                  justification: justification, lineHeight: 48,
                                                  origin: CGPoint(x: x, y: 70)))])
        }
        let size = CGSize(width: 200, height: 100)
        // The H's ink sits on the baseline (y 70) and reaches about 29 points up (DejaVu's cap height, 0.73 em).
        let left = try Self.check(text(.left, x: 20), [(CGPoint(x: 10, y: 60), Self.white),
                                                       (CGPoint(x: 100, y: 20), Self.white)],
                                  scales: [1], size: size, "left")[0]
        let l = try #require(Self.inkedColumns(left, rows: 45..<68))
        #expect(l.lowerBound >= 20 && l.lowerBound <= 26 && l.upperBound > 70 && l.upperBound < 80, "\(l)")
        #expect(Self.inkedColumns(left, rows: 72..<100) == nil && Self.inkedColumns(left, rows: 0..<38) == nil,
                "nothing below the baseline or above the caps")
        let centre = try Self.check(text(.center, x: 100), [], scales: [1], size: size, "centre")[0]
        let c = try #require(Self.inkedColumns(centre, rows: 45..<68))
        #expect(abs((c.lowerBound + c.upperBound) / 2 - 100) <= 2, "centred on 100: \(c)")
        let right = try Self.check(text(.right, x: 180), [], scales: [1], size: size, "right")[0]
        let r = try #require(Self.inkedColumns(right, rows: 45..<68))
        #expect(r.upperBound <= 180 && r.upperBound >= 174 && r.count == l.count, "ends at 180: \(r)")
        // Tracking of 500 (half an em) adds 20 points after each character: the second H moves by 20.
        var tracked = text(.left, x: 20)
        if case .text(var run) = tracked.items[0] {
            run.tracking = 500
            tracked.items[0] = .text(run)
        }
        let spaced = try Self.check(tracked, [], scales: [1], size: size, "tracking")[0]
        let s = try #require(Self.inkedColumns(spaced, rows: 45..<68))
        #expect(abs(s.count - l.count - 20) <= 2, "\(s) against \(l)")
    }

    @Test func imagesAreStretchedOverTheirRectangle() throws {
        let image = try Image(width: 2, height: 2)
        image.setRGBA(Self.rgb(255, 0, 0), x: 0, y: 0)
        image.setRGBA(Self.rgb(0, 255, 0), x: 1, y: 0)
        image.setRGBA(Self.rgb(0, 0, 255), x: 0, y: 1)
        image.setRGBA(Self.rgb(0, 0, 0), x: 1, y: 1)
        let drawing = VectorDrawing(items: [.image(DrawingImage(image), rect: CGRect(x: 20, y: 20, width: 60, height: 60),
                                                   opacity: 1)])
        try Self.check(drawing, [(CGPoint(x: 22, y: 22), Self.rgb(255, 0, 0)), (CGPoint(x: 77, y: 22), Self.rgb(0, 255, 0)),
                                 (CGPoint(x: 22, y: 77), Self.rgb(0, 0, 255)), (CGPoint(x: 77, y: 77), Self.rgb(0, 0, 0)),
                                 (CGPoint(x: 50, y: 50), Self.rgb(60, 64, 64)), (CGPoint(x: 10, y: 50), Self.white)],
                       tolerance: 3, scales: [1], "bilinear stretch (the centre pixel, 50.5, samples the image at 0.517)")
        #expect(drawing.paintedBounds == CGRect(x: 20, y: 20, width: 60, height: 60))
    }

    @Test func absurdValuesGiveAnErrorOrNothing() throws {
        let nan = CGFloat.nan
        let notFinite = VectorDrawing(items: [.fill(Path([.move(to: CGPoint(x: nan, y: 0)), .line(to: CGPoint(x: 1, y: nan))]),
                                                    .color(Self.red), .winding),
                                              .stroke(Self.rect(0, 0, 10, 10), .color(Self.red),
                                                      D.StrokeStyle(width: .infinity)),
                                              .group(D.Group(items: [Self.fill(Self.rect(0, 0, 10, 10), Self.red)],
                                                             transform: CGAffineTransform(a: nan, b: 0, c: 0, d: 1,
                                                                                          tx: 0, ty: 0)))])
        #expect(notFinite.paintedBounds == nil)
        #expect(try notFinite.picture(density: 1) == nil)
        let huge = VectorDrawing(items: [Self.fill(Self.rect(-1e30, -1e30, 2e30, 2e30), Self.red)])
        #expect(throws: ImageError.self) { try huge.picture(density: 1) }
        // Seen through a small window, a huge fill is drawn where it can be (beyond cairo's range: nothing).
        let window = try huge.picture(density: 1, visible: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(window.map { $0.image.width == 10 && $0.image.height == 10 } ?? true)
        let many = VectorDrawing(items: Array(repeating: Self.fill(Self.rect(0, 0, 1, 1), Self.red), count: 100_000))
        #expect(throws: VectorDrawingError.tooManyItems(count: VectorDrawing.mostItems + 1, limit: VectorDrawing.mostItems)) {
            try many.picture(density: 1)
        }
        // On a layer, the renderers name the layer and the limit.
        for renderer in ReferenceScenes.renderers() {
            do {
                _ = try renderer.render(Self.scene(many))
                Issue.record("\(renderer.name): rendered a drawing of 100,000 items")
            } catch let error as PlanError {
                #expect(error == .drawingFailed("a layer: cannot draw its drawing: the drawing has 65537 items or more, beyond the limit of 65536"),
                        "\(renderer.name): \(error)")
            }
        }
        var deep = D.Item.group(D.Group(items: [Self.fill(Self.rect(0, 0, 1, 1), Self.red)], opacity: 0.5))
        for _ in 0..<100 { deep = .group(D.Group(items: [deep], opacity: 0.9)) }
        #expect(throws: VectorDrawingError.tooDeep(limit: VectorDrawing.mostDepth)) {
            try VectorDrawing(items: [deep]).picture(density: 1)
        }
        // A degenerate gradient and a zero-period dash draw something sane.
        let odd = VectorDrawing(items: [
            .fill(Self.rect(0, 0, 10, 10), .linear(stops: [D.GradientStop(offset: .nan, color: Self.red)],
                                                   start: .zero, end: .zero, opacity: 1), .winding),
            .stroke(Self.rect(20, 0, 10, 10), .color(Self.red), D.StrokeStyle(width: 1, dashes: [0, 0])),
        ])
        let picture = try #require(try odd.picture(density: 1))
        #expect(picture.image.width == 31)
    }

    @Test func paintedBounds() {
        #expect(VectorDrawing().paintedBounds == nil)
        let square = Self.fill(Self.rect(10, 20, 30, 40), Self.red)
        #expect(VectorDrawing(items: [square]).paintedBounds == CGRect(x: 10, y: 20, width: 30, height: 40))
        let moved = D.Group(items: [square], transform: CGAffineTransform(translationX: 5, y: -5))
        #expect(VectorDrawing(items: [.group(moved)]).paintedBounds == CGRect(x: 15, y: 15, width: 30, height: 40))
        var masked = moved
        masked.mask = VectorDrawing(items: [Self.fill(Self.rect(0, 0, 20, 20), .black)])
        #expect(VectorDrawing(items: [.group(masked)]).paintedBounds == CGRect(x: 15, y: 15, width: 5, height: 5))
        let extent = CGRect(x: 0, y: 0, width: 7, height: 7)
        #expect(VectorDrawing(items: [square], extent: extent).paintedBounds == extent)
        #expect(VectorDrawing(items: [.fill(Self.rect(0, 0, 10, 10), .color(.clear), .winding)]).paintedBounds == nil)
    }

    @Test func strokeAndTextBounds() throws {
        let corner = Path([.move(to: CGPoint(x: 10, y: 10)), .line(to: CGPoint(x: 50, y: 10)),
                           .line(to: CGPoint(x: 50, y: 50))])
        // A miter join at a right angle reaches half the width out on both sides of the corner; butt ends do not.
        let mitred = VectorDrawing(items: [.stroke(corner, .color(Self.red), D.StrokeStyle(width: 10))])
        #expect(mitred.paintedBounds == CGRect(x: 10, y: 5, width: 45, height: 45))
        // Square caps reach half the width beyond each end.
        let capped = VectorDrawing(items: [.stroke(corner, .color(Self.red), D.StrokeStyle(width: 10, cap: .square))])
        #expect(capped.paintedBounds == CGRect(x: 5, y: 5, width: 50, height: 50))
        // Text: ink above the baseline at y 70, from about x 20; a stroke widens it by half its width.
        let run = D.TextRun(text: "H", font: "DejaVu Sans", size: 40, fill: .black, lineHeight: 48,
                            origin: CGPoint(x: 20, y: 70))
        let ink = try #require(VectorDrawing(items: [.text(run)]).paintedBounds)
        #expect(ink.maxY > 70 && ink.maxY < 72 && ink.minY > 36 && ink.minY < 42 && ink.minX > 20 && ink.minX < 26,
                "\(ink)")
        var stroked = run
        stroked.stroke = Self.blue
        stroked.strokeWidth = 4
        let outline = try #require(VectorDrawing(items: [.text(stroked)]).paintedBounds)
        #expect(abs(outline.minX - (ink.minX - 2)) < 0.01 && abs(outline.maxY - (ink.maxY + 2)) < 0.01)
        // A stroke only (no fill) is drawn: the H's outline, hollow inside its stems.
        stroked.fill = nil
        let picture = try #require(try VectorDrawing(items: [.text(stroked)]).picture(density: 1))
        #expect(picture.image.width > 20 && picture.image.height > 25)
    }

    @Test func theHighlightIsClampedAndTextFarAwayIsSkipped() throws {
        let stops = [D.GradientStop(offset: 0, color: .white), D.GradientStop(offset: 1, color: .black)]
        func disc(_ h: Double) throws -> Image {
            let drawing = VectorDrawing(items: [.fill(Self.rect(0, 0, 40, 40),
                                                      .radial(stops: stops, center: CGPoint(x: 20, y: 20),
                                                              end: CGPoint(x: 40, y: 20), highlight: h, angle: 0,
                                                              opacity: 1), .winding)])
            return try #require(try drawing.picture(density: 1)).image
        }
        let (clamped, limit) = (try disc(5), try disc(0.99))
        #expect(memcmp(clamped.baseAddress, limit.baseAddress, clamped.byteCount) == 0, "h beyond 0.99 is 0.99")
        let far = D.TextRun(text: "H", font: "DejaVu Sans", size: 40, fill: .black, lineHeight: 48,
                            origin: CGPoint(x: 1e12, y: 0))
        let drawing = VectorDrawing(items: [.text(far), Self.fill(Self.rect(0, 0, 1, 1), Self.red)])
        let window = try #require(try drawing.picture(density: 1, visible: CGRect(x: 0, y: 0, width: 10, height: 10)))
        #expect(window.image.width == 10 && window.image.word(x: 0, y: 0) == 0xFFFF_0000 && window.image.word(x: 5, y: 0) == 0)
    }
}
