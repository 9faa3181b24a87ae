import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// How the planner shows gradient, shape and text layers (docs/semantics.md, "Specialised layers"): one texture
/// quad of a picture made at the density the layer is shown at, kept while nothing it depends on changes.
@Suite struct VectorPicturePlanTests {
    func root(_ child: Layer) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.addSublayer(child)
        return root
    }

    func shape() -> ShapeLayer {
        let shape = ShapeLayer()
        shape.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        shape.path = Path(rect: CGRect(x: 0, y: 0, width: 40, height: 20)).cgPath
        shape.fillColor = .red
        return shape
    }

    /// The images of the plan's texture quads.
    func pictures(_ plan: RenderPlan) -> [Image] {
        plan.quads.compactMap { if case .texture(let t) = $0.paint { t.image } else { nil } }
    }

    @Test func thePictureIsMadeAtTheDensityTheLayerIsShownAt() throws {
        let layer = shape()
        let tree = root(layer)
        // Large enough that the scaled shape is wholly on screen.
        tree.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        layer.position = CGPoint(x: 200, y: 150)
        for (scale, transform, expected) in [(CGFloat(1), Transform3D.identity, 40), (2, .identity, 80),
                                             (1, Transform3D(scaleX: 3, y: 3, z: 1), 120),
                                             (2, Transform3D(scaleX: 0.5, y: 0.5, z: 1), 40)] {
            Transaction.begin()
            Transaction.setDisableActions(true)
            layer.transform = transform
            Transaction.commit()
            let plan = try Planner(scale: scale).plan(tree)
            let images = pictures(plan)
            #expect(images.count == 1)
            #expect(images.first?.width == expected, "scale \(scale), \(transform.m11): \(images.first?.width ?? 0)")
        }
    }

    @Test func anUnchangedPictureIsNotMadeAgain() throws {
        let labels = (0..<20).map { index -> ShapeLayer in
            let layer = shape()
            layer.position = CGPoint(x: 10 + CGFloat(index) * 8, y: 50)
            return layer
        }
        let tree = Layer()
        tree.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        for label in labels { tree.addSublayer(label) }
        let renderer = CPURenderer()
        let planner = renderer
        _ = try renderer.render(tree)
        #expect(planner.planCache(for: tree).statistics.picturesMade == 20)
        // One shape changes its colour and another moves: one picture is made, the moved one is reused.
        Transaction.begin()
        Transaction.setDisableActions(true)
        labels[3].fillColor = .blue
        labels[5].position.x += 3
        Transaction.commit()
        _ = try renderer.render(tree)
        let statistics = planner.planCache(for: tree).statistics
        #expect(statistics.picturesMade == 1, "\(statistics)")
        // Nothing changed: nothing is made or asked for.
        _ = try renderer.render(tree)
        #expect(planner.planCache(for: tree).statistics.picturesMade == 0)
        // A new density makes every picture again.
        _ = try renderer.render(tree, scale: 2)
        #expect(planner.planCache(for: tree).statistics.picturesMade == 20)
    }

    @Test func aMovingLayerKeepsItsPicture() throws {
        let layer = shape()
        let tree = root(layer)
        let renderer = CPURenderer()
        _ = try renderer.render(tree)
        for step in 1...5 {
            Transaction.begin()
            Transaction.setDisableActions(true)
            layer.position = CGPoint(x: 30 + CGFloat(step) * 7.5, y: 30)
            Transaction.commit()
            _ = try renderer.render(tree)
            let statistics = renderer.planCache(for: tree).statistics
            #expect(statistics.picturesMade == 0, "step \(step): \(statistics)")
        }
    }

    @Test func contentsAreIgnoredOnAVectorLayer() throws {
        let layer = shape()
        layer.contents = try Image(width: 4, height: 4, color: .green)
        let plan = try Planner().plan(root(layer))
        #expect(pictures(plan).count == 1)
        #expect(pictures(plan).first?.width == 40)
    }

    @Test func aGradientTakesTheRoundedBoundsAShapeDoesNot() throws {
        let gradient = GradientLayer()
        gradient.frame = CGRect(x: 10, y: 10, width: 60, height: 40)
        gradient.colors = [Color.red, Color.blue]
        gradient.cornerRadius = 10
        let plan = try Planner().plan(root(gradient))
        #expect(plan.quads.count == 1 && plan.quads[0].shape != nil)
        let path = shape()
        path.cornerRadius = 10
        let shapePlan = try Planner().plan(root(path))
        #expect(shapePlan.quads.count == 1 && shapePlan.quads[0].shape == nil)
        path.masksToBounds = true
        let clipped = try Planner().plan(root(path))
        #expect(clipped.quads.count == 1 && clipped.quads[0].shape != nil && clipped.quads[0].clip != nil)
    }

    @Test func aPictureTooLargeForItsDensityIsMadeSmaller() throws {
        let layer = shape()
        layer.path = Path(rect: CGRect(x: 0, y: 0, width: 2000, height: 10)).cgPath
        layer.anchorPoint = .zero
        layer.position = .zero
        layer.transform = Transform3D(scaleX: 8, y: 8, z: 1)
        let tree = root(layer)
        // A target 16,000 pixels wide shows all 16,000 pixels of the scaled shape: more than a picture may have.
        tree.bounds = CGRect(x: 0, y: 0, width: 16_000, height: 100)
        let plan = try Planner(scale: 1).plan(tree)
        let image = try #require(pictures(plan).first)
        #expect(image.width <= 8192 && image.width >= 8000)
    }

    @Test func onlyWhatCanBeSeenOfAHugeLayerIsMade() throws {
        let tree = Layer()
        tree.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        tree.backgroundColor = .white
        // A gradient a million points wide, red to blue: its left end is on screen, and red.
        let gradient = GradientLayer()
        gradient.frame = CGRect(x: 0, y: 0, width: 1_000_000, height: 50)
        gradient.colors = [Color.red, Color.blue]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        tree.addSublayer(gradient)
        // A line 100,000 points long through the lower half, and text in bounds 10 million points wide.
        let line = ShapeLayer()
        var path = Path()
        path.move(to: CGPoint(x: -50_000, y: 75))
        path.addLine(to: CGPoint(x: 50_000, y: 75))
        line.path = path.cgPath
        line.fillColor = nil
        line.strokeColor = .black
        line.lineWidth = 10
        tree.addSublayer(line)
        let text = TextLayer()
        text.frame = CGRect(x: 0, y: 55, width: 10_000_000, height: 10)
        text.fontSize = 8
        text.font = "DejaVu Sans"
        text.string = "far too wide"
        tree.addSublayer(text)
        for scale in [CGFloat(1), 2] {
            let plan = try Planner(scale: scale).plan(tree)
            for image in pictures(plan) {
                #expect(image.width <= Int(204 * scale) + 2 && image.height <= Int(104 * scale) + 2,
                        "\(image.width) x \(image.height) at scale \(scale)")
            }
            var images: [Image] = []
            for renderer in ReferenceScenes.renderers() {
                let image = try renderer.render(tree, scale: scale)
                images.append(image)
                #expect(near(image.rgba(x: Int(100 * scale), y: Int(25 * scale)), 255, 0, 0), "\(renderer.name)")
                #expect(near(image.rgba(x: Int(100 * scale), y: Int(75 * scale)), 0, 0, 0), "\(renderer.name)")
                #expect(near(image.rgba(x: Int(100 * scale), y: Int(90 * scale)), 255, 255, 255), "\(renderer.name)")
            }
            if images.count == 2 { #expect(ImageDifference.meetsParity(images[0], images[1])) }
        }
    }

    @Test func aLayerThatMovesIntoViewIsMadeForWhatItShows() throws {
        // Half a wide shape on screen, then moved: its picture follows what can be seen.
        let layer = shape()
        layer.path = Path(rect: CGRect(x: 0, y: 0, width: 400, height: 20)).cgPath
        let tree = root(layer)
        let renderer = CPURenderer()
        let first = try renderer.render(tree)
        #expect(near(first.rgba(x: 190, y: 20), 255, 0, 0))
        Transaction.begin()
        Transaction.setDisableActions(true)
        layer.position.x -= 300
        Transaction.commit()
        let second = try renderer.render(tree)
        #expect(near(second.rgba(x: 100, y: 20), 255, 0, 0) && near(second.rgba(x: 130, y: 20), 0, 0, 0, 0))
    }
}
