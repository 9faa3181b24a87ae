import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Replicator layers through the API on both renderers (docs/semantics.md, "Replicator layers"): instances placed
/// by instanceTransform about the anchor, tinted by instanceColor and its offsets, shifted in time by instanceDelay.
@Suite struct ReplicatorLayerTests {
    /// A 200 x 60 white root; a replicator over it whose one sublayer is a 20 x 20 square at (10, 20).
    func scene(count: Int, color: Color = .white, redOffset: Float = 0, alphaOffset: Float = 0,
               square: Color = .white) -> (Layer, ReplicatorLayer, Layer) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 60)
        root.backgroundColor = .black
        let replicator = ReplicatorLayer()
        replicator.frame = root.bounds
        replicator.instanceCount = count
        replicator.instanceTransform = Transform3D(translationX: 40, y: 0)
        replicator.instanceColor = color
        replicator.instanceRedOffset = redOffset
        replicator.instanceAlphaOffset = alphaOffset
        let item = Layer(frame: CGRect(x: 10, y: 20, width: 20, height: 20))
        item.backgroundColor = square
        replicator.addSublayer(item)
        root.addSublayer(replicator)
        return (root, replicator, item)
    }

    func close(_ p: RGBA8, _ r: Int, _ g: Int, _ b: Int, _ a: Int = 255, tolerance: Int = 2) -> Bool {
        p.maxChannelDifference(to: RGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b), a: UInt8(a))) <= tolerance
    }

    @Test func instancesAreTranslatedAndCounted() throws {
        for scale in [CGFloat(1), 2] {
            var pictures: [Image] = []
            for renderer in ReferenceScenes.renderers() {
                let (root, _, _) = scene(count: 4)
                let image = try renderer.render(root, scale: scale)
                pictures.append(image)
                for i in 0..<4 {
                    let x = Int((20 + 40 * CGFloat(i)) * scale), y = Int(30 * scale)
                    #expect(close(image.rgba(x: x, y: y), 255, 255, 255), "\(renderer.name) instance \(i) at \(scale)")
                }
                // No fifth instance, nothing between instances.
                #expect(close(image.rgba(x: Int(180 * scale), y: Int(30 * scale)), 0, 0, 0), "\(renderer.name)")
                #expect(close(image.rgba(x: Int(40 * scale), y: Int(30 * scale)), 0, 0, 0), "\(renderer.name)")
            }
            if pictures.count == 2 { #expect(ImageDifference.meetsParity(pictures[0], pictures[1])) }
        }
    }

    @Test func instanceColorAndOffsetsMultiplyEachInstance() throws {
        var pictures: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            // Instance i: (1 - 0.25 i, 1, 0.5, 1 - 0.25 i) times white, over black.
            let (root, _, _) = scene(count: 4, color: Color(red: 1, green: 1, blue: 0.5), redOffset: -0.25,
                                     alphaOffset: -0.25)
            let image = try renderer.render(root)
            pictures.append(image)
            for i in 0..<4 {
                let alpha = 1 - 0.25 * Double(i), red = 1 - 0.25 * Double(i)
                let expected = (Int((red * alpha * 255).rounded()), Int((alpha * 255).rounded()),
                                Int((0.5 * alpha * 255).rounded()))
                let pixel = image.rgba(x: 20 + 40 * i, y: 30)
                #expect(close(pixel, expected.0, expected.1, expected.2), "\(renderer.name) instance \(i): \(pixel)")
            }
            #expect(renderer.statistics.offscreenPasses >= 3, "\(renderer.name): tinted instances are groups")
        }
        if pictures.count == 2 { #expect(ImageDifference.meetsParity(pictures[0], pictures[1])) }
    }

    @Test func aTintMultipliesEveryComponentOfTexturedContent() throws {
        // A red-and-green image tinted (0.5, 1, 1): red halves, green stays.
        let image = try Image(width: 2, height: 1)
        image.setRGBA(RGBA8(r: 255, g: 0, b: 0, a: 255), x: 0, y: 0)
        image.setRGBA(RGBA8(r: 0, g: 255, b: 0, a: 255), x: 1, y: 0)
        var pictures: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            let (root, _, item) = scene(count: 2, color: Color(red: 0.5, green: 1, blue: 1))
            item.backgroundColor = nil
            item.contents = image
            item.magnificationFilter = .nearest
            let frame = try renderer.render(root)
            pictures.append(frame)
            #expect(close(frame.rgba(x: 15, y: 30), 128, 0, 0), "\(renderer.name): \(frame.rgba(x: 15, y: 30))")
            #expect(close(frame.rgba(x: 25, y: 30), 0, 255, 0), "\(renderer.name): \(frame.rgba(x: 25, y: 30))")
            #expect(close(frame.rgba(x: 55, y: 30), 128, 0, 0), "\(renderer.name) second instance")
        }
        if pictures.count == 2 { #expect(ImageDifference.meetsParity(pictures[0], pictures[1])) }
    }

    @Test func zeroInstancesDrawNoSublayersButTheReplicatorItself() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, replicator, _) = scene(count: 0)
            replicator.backgroundColor = .blue
            let image = try renderer.render(root)
            #expect(close(image.rgba(x: 20, y: 30), 0, 0, 255), "\(renderer.name)")
        }
    }

    @Test func theInstanceTransformTurnsAboutTheAnchorPoint() throws {
        var pictures: [Image] = []
        for renderer in ReferenceScenes.renderers() {
            let root = Layer()
            root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            root.backgroundColor = .black
            let replicator = ReplicatorLayer()
            replicator.frame = root.bounds
            replicator.instanceCount = 4
            replicator.instanceTransform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
            // A marker above the centre: quarter turns about (50, 50) put copies right, below and left of it.
            let marker = Layer(frame: CGRect(x: 45, y: 5, width: 10, height: 10))
            marker.backgroundColor = .white
            replicator.addSublayer(marker)
            root.addSublayer(replicator)
            let image = try renderer.render(root)
            pictures.append(image)
            for (x, y) in [(50, 10), (90, 50), (50, 90), (10, 50)] {
                #expect(close(image.rgba(x: x, y: y), 255, 255, 255), "\(renderer.name) at (\(x), \(y))")
            }
            #expect(close(image.rgba(x: 50, y: 50), 0, 0, 0), "\(renderer.name)")
        }
        if pictures.count == 2 { #expect(ImageDifference.meetsParity(pictures[0], pictures[1])) }
    }

    @Test func instanceDelayShiftsEachInstancesTime() throws {
        for renderer in ReferenceScenes.renderers() {
            let (root, replicator, item) = scene(count: 3)
            replicator.instanceTransform = Transform3D(translationX: 0, y: 0)
            replicator.instanceDelay = 0.5
            item.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            // The square runs from x = 0 to x = 100 over 1 s, starting at time 10.
            let move = BasicAnimation(keyPath: "position.x")
            move.fromValue = 5.0
            move.toValue = 105.0
            move.duration = 1
            move.beginTime = 10
            move.fillMode = .both
            move.isRemovedOnCompletion = false  // kept, so its fill holds the end at t = 11 (Core Animation's rule)
            item.add(move, forKey: "move")
            let image = try renderer.render(root, at: 11)
            // At t = 11: instance 0 at the end (x 100..110), instance 1 (t - 0.5) at 50..60, instance 2 at the start.
            #expect(close(image.rgba(x: 105, y: 5), 255, 255, 255), "\(renderer.name)")
            #expect(close(image.rgba(x: 55, y: 5), 255, 255, 255), "\(renderer.name)")
            #expect(close(image.rgba(x: 5, y: 5), 255, 255, 255), "\(renderer.name)")
            #expect(close(image.rgba(x: 30, y: 5), 0, 0, 0), "\(renderer.name)")
            #expect(close(image.rgba(x: 80, y: 5), 0, 0, 0), "\(renderer.name)")
        }
    }
}
