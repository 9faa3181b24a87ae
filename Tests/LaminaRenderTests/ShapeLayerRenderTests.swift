import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Shape layers on both renderers at scales 1 and 2 (docs/semantics.md, "Shape layers"): fill rules, strokes, caps,
/// dashes and strokeStart/End at probe pixels well inside or outside the shape, and parity.
@Suite struct ShapeLayerRenderTests {
    /// A 200 x 100 white root holding one shape layer (frame: the root's bounds, unless given).
    func scene(frame: CGRect? = nil, _ configure: (ShapeLayer) -> Void) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = .white
        let shape = ShapeLayer()
        shape.frame = frame ?? root.bounds
        configure(shape)
        root.addSublayer(shape)
        return root
    }

    /// A straight line from (20, 50) to (180, 50), stroked in black, 10 points wide, no fill.
    func line(_ shape: ShapeLayer) {
        var path = Path()
        path.move(to: CGPoint(x: 20, y: 50))
        path.addLine(to: CGPoint(x: 180, y: 50))
        shape.path = path.cgPath
        shape.fillColor = nil
        shape.strokeColor = .black
        shape.lineWidth = 10
    }

    /// Renders at scales 1 and 2 on every renderer; `inked` points must be `ink`, `clear` points white; parity.
    func check(_ make: () -> Layer, inked: [CGPoint], clear: [CGPoint], ink: RGBA8 = RGBA8(r: 0, g: 0, b: 0, a: 255),
               comment: String) throws {
        let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
        for scale in [CGFloat(1), 2] {
            var images: [Image] = []
            for renderer in ReferenceScenes.renderers() {
                let image = try renderer.render(make(), scale: scale)
                images.append(image)
                for (points, want) in [(inked, ink), (clear, white)] {
                    for p in points {
                        let pixel = image.rgba(x: Int(p.x * scale), y: Int(p.y * scale))
                        #expect(pixel.maxChannelDifference(to: want) <= 2,
                                "\(comment), \(renderer.name) at scale \(scale), \(p): \(pixel), want \(want)")
                    }
                }
            }
            if images.count == 2 {
                #expect(ImageDifference.meetsParity(images[0], images[1]), "\(comment) at scale \(scale)")
            }
        }
    }

    @Test func fillRules() throws {
        var path = Path(rect: CGRect(x: 20, y: 20, width: 160, height: 60))
        path.addRect(CGRect(x: 70, y: 35, width: 60, height: 30))
        try check({ scene { $0.path = path.cgPath } }, inked: [CGPoint(x: 30, y: 30), CGPoint(x: 100, y: 50)],
                  clear: [CGPoint(x: 10, y: 10), CGPoint(x: 190, y: 90)], comment: "non-zero (default black fill)")
        try check({ scene {
            $0.path = path.cgPath
            $0.fillRule = .evenOdd
        } }, inked: [CGPoint(x: 30, y: 30), CGPoint(x: 150, y: 70)], clear: [CGPoint(x: 100, y: 50)],
                  comment: "even-odd")
    }

    @Test func strokeWidthAndCaps() throws {
        try check({ scene { line($0) } }, inked: [CGPoint(x: 100, y: 46), CGPoint(x: 21, y: 53.5)],
                  clear: [CGPoint(x: 100, y: 42), CGPoint(x: 17, y: 50), CGPoint(x: 183, y: 50)], comment: "butt")
        try check({ scene {
            line($0)
            $0.lineCap = .square
        } }, inked: [CGPoint(x: 17, y: 50), CGPoint(x: 183, y: 53)], clear: [CGPoint(x: 13, y: 50)],
                  comment: "square")
        try check({ scene {
            line($0)
            $0.lineCap = .round
        } }, inked: [CGPoint(x: 16.5, y: 50), CGPoint(x: 183, y: 50)],
                  clear: [CGPoint(x: 16, y: 45.5), CGPoint(x: 13, y: 50)], comment: "round")
    }

    @Test func joins() throws {
        // A right angle at (100, 20): a miter fills the outer corner square, a bevel cuts it.
        var path = Path()
        path.move(to: CGPoint(x: 40, y: 20))
        path.addLine(to: CGPoint(x: 100, y: 20))
        path.addLine(to: CGPoint(x: 100, y: 80))
        func corner(_ join: ShapeLayerLineJoin) -> () -> Layer {
            { self.scene {
                $0.path = path.cgPath
                $0.fillColor = nil
                $0.strokeColor = .black
                $0.lineWidth = 16
                $0.lineJoin = join
            } }
        }
        try check(corner(.miter), inked: [CGPoint(x: 106, y: 14)], clear: [CGPoint(x: 110, y: 10)], comment: "miter")
        try check(corner(.bevel), inked: [CGPoint(x: 103, y: 17)], clear: [CGPoint(x: 107, y: 13)], comment: "bevel")
    }

    @Test func dashesAndTheirPhase() throws {
        try check({ scene {
            line($0)
            $0.lineDashPattern = [20, 10]
        } }, inked: [CGPoint(x: 30, y: 50), CGPoint(x: 60, y: 50), CGPoint(x: 90, y: 48)],
                  clear: [CGPoint(x: 45, y: 50), CGPoint(x: 75, y: 50)], comment: "dashes")
        try check({ scene {
            line($0)
            $0.lineDashPattern = [20, 10]
            $0.lineDashPhase = 10
        } }, inked: [CGPoint(x: 25, y: 50), CGPoint(x: 45, y: 50)], clear: [CGPoint(x: 35, y: 50)],
                  comment: "phase 10")
    }

    @Test func strokeStartAndEndCutTheStrokeNotTheFill() throws {
        try check({ scene {
            line($0)
            $0.strokeEnd = 0.5
        } }, inked: [CGPoint(x: 30, y: 50), CGPoint(x: 95, y: 50)], clear: [CGPoint(x: 105, y: 50)],
                  comment: "strokeEnd 0.5")
        try check({ scene {
            line($0)
            $0.strokeStart = 0.25
            $0.strokeEnd = 0.75
        } }, inked: [CGPoint(x: 65, y: 50), CGPoint(x: 135, y: 50)],
                  clear: [CGPoint(x: 55, y: 50), CGPoint(x: 145, y: 50)], comment: "0.25 to 0.75")
        try check({ scene {
            line($0)
            $0.strokeStart = 0.6
            $0.strokeEnd = 0.4
        } }, inked: [], clear: [CGPoint(x: 100, y: 50), CGPoint(x: 30, y: 50)], comment: "start after end")
        // A filled square stroked for the first quarter of its outline: the fill is whole.
        try check({ scene {
            $0.path = Path(rect: CGRect(x: 40, y: 20, width: 60, height: 60)).cgPath
            $0.fillColor = .black
            $0.strokeColor = .black
            $0.lineWidth = 8
            $0.strokeEnd = 0.25
        } }, inked: [CGPoint(x: 70, y: 50), CGPoint(x: 70, y: 17)], clear: [CGPoint(x: 70, y: 83.5)],
                  comment: "fill unaffected")
    }

    @Test func thePathIsNotClippedToTheBounds() throws {
        try check({ scene(frame: CGRect(x: 0, y: 0, width: 10, height: 10)) {
            $0.path = Path(rect: CGRect(x: 50, y: 30, width: 100, height: 40)).cgPath
        } }, inked: [CGPoint(x: 100, y: 50)], clear: [CGPoint(x: 40, y: 50)], comment: "unclipped")
        try check({ scene(frame: CGRect(x: 0, y: 0, width: 100, height: 100)) {
            $0.path = Path(rect: CGRect(x: 50, y: 30, width: 100, height: 40)).cgPath
            $0.masksToBounds = true
        } }, inked: [CGPoint(x: 90, y: 50)], clear: [CGPoint(x: 110, y: 50)], comment: "masksToBounds")
    }

    @Test func aShapeCastsTheShadowOfWhatItPaints() throws {
        // A 20-point disc with a hard shadow 40 points to the right: the shadow is round too.
        try check({ scene(frame: CGRect(x: 0, y: 0, width: 200, height: 100)) {
            $0.path = Path(ellipseIn: CGRect(x: 20, y: 30, width: 40, height: 40)).cgPath
            $0.shadowOpacity = 1
            $0.shadowRadius = 0
            $0.shadowOffset = CGSize(width: 100, height: 0)
        } }, inked: [CGPoint(x: 140, y: 50), CGPoint(x: 40, y: 50)],
                  clear: [CGPoint(x: 122, y: 32), CGPoint(x: 90, y: 50)], comment: "shadow")
    }
}
