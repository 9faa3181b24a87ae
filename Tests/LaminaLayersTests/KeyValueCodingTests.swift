import Foundation
import LaminaCore
import LaminaDrawing
@testable import LaminaLayers
import Testing

/// Key-value coding, custom keys, layout and the time conversions of layers (docs/porting-layers.md).
@Suite struct KeyValueCodingTests {
    /// A layer with a custom animatable key, declared the documented way.
    final class ProgressLayer: Layer {
        var progress: CGFloat {
            get { value(forKey: "progress") as? CGFloat ?? 0 }
            set { setValue(newValue, forKey: "progress") }
        }
        override class func needsDisplay(forKey key: String) -> Bool {
            key == "progress" || super.needsDisplay(forKey: key)
        }
        override class func defaultValue(forKey key: String) -> Any? {
            key == "progress" ? CGFloat(0.25) : super.defaultValue(forKey: key)
        }
        /// The progress each drawing saw.
        nonisolated(unsafe) var drawn: [CGFloat] = []
        override func draw(in context: DrawingContext) {
            drawn.append(progress)
            context.setFillColor(.red)
            context.fill(CGRect(x: 0, y: 0, width: bounds.width * progress, height: bounds.height))
        }
    }

    @Test func propertiesByKeyGiveTheirValues() throws {
        let layer = Layer()
        layer.position = CGPoint(x: 10, y: 20)
        layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 40)
        layer.opacity = 0.5
        layer.isHidden = true
        layer.backgroundColor = .red
        #expect(layer.value(forKey: "position") as? CGPoint == CGPoint(x: 10, y: 20))
        #expect(layer.value(forKey: "bounds") as? CGRect == CGRect(x: 0, y: 0, width: 30, height: 40))
        #expect(layer.value(forKey: "opacity") as? Float == 0.5)
        #expect((layer.value(forKey: "opacity") as? NSNumber)?.doubleValue == 0.5)
        #expect(layer.value(forKey: "hidden") as? Bool == true)
        #expect(layer.value(forKey: "isHidden") as? Bool == true)
        #expect(layer.value(forKey: "backgroundColor") as? Color == .red)
        #expect(layer.value(forKey: "borderColor") as? Color == .black)
        #expect(layer.value(forKey: "shadowPath") == nil)
        #expect(layer.value(forKey: "contents") == nil)
        #expect(layer.value(forKey: "transform") as? Transform3D == .identity)
        #expect(layer.value(forKey: "speed") as? Float == 1)
        #expect(layer.value(forKey: "frame") as? CGRect == CGRect(x: -5, y: 0, width: 30, height: 40))
        #expect(layer.value(forKeyPath: "position.x") as? CGFloat == 10)
        #expect(layer.value(forKeyPath: "bounds.size.width") as? CGFloat == 30)
        #expect(layer.value(forKeyPath: "bounds.size") as? CGSize == CGSize(width: 30, height: 40))
        layer.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let angle = try #require(layer.value(forKeyPath: "transform.rotation.z") as? CGFloat)
        #expect(abs(angle - .pi / 2) < 1e-12)
        #expect(layer.value(forKey: "nothingHere") == nil)
    }

    @Test func settingByKeyGoesThroughTheSetters() throws {
        let layer = Layer()
        layer.setValue(CGPoint(x: 3, y: 4), forKey: "position")
        layer.setValue(NSNumber(value: 0.25), forKey: "opacity")
        layer.setValue(true, forKey: "hidden")
        layer.setValue(Color.blue, forKey: "backgroundColor")
        layer.setValue(7, forKeyPath: "position.x")
        layer.setValue(CGFloat(50), forKeyPath: "bounds.size.width")
        layer.setValue(2.0, forKeyPath: "transform.scale")
        layer.setValue(12.0, forKeyPath: "sublayerTransform.translation.x")
        layer.setValue("named", forKey: "name")
        layer.setValue(nil, forKey: "borderColor")
        layer.setValue(0.5, forKey: "speed")
        #expect(layer.position == CGPoint(x: 7, y: 4))
        #expect(layer.opacity == 0.25)
        #expect(layer.isHidden)
        #expect(layer.backgroundColor == .blue)
        #expect(layer.bounds.size == CGSize(width: 50, height: 0))
        #expect(layer.transform.m11 == 2 && layer.transform.m22 == 2 && layer.transform.m33 == 2)
        #expect(layer.sublayerTransform.m41 == 12)
        #expect(layer.name == "named")
        #expect(layer.borderColor == nil)
        #expect(layer.speed == 0.5)
        // A value of the wrong type is ignored.
        layer.setValue("red", forKey: "opacity")
        #expect(layer.opacity == 0.25)
        // In the transaction: a frame sees it once committed.
        Transaction.flush()
        #expect(layer.presentationSnapshot()?.position == CGPoint(x: 7, y: 4))
    }

    @Test func specialisedLayersKeys() throws {
        let shape = ShapeLayer()
        shape.setValue(4.0, forKey: "lineWidth")
        shape.setValue(Color.green, forKey: "fillColor")
        #expect(shape.lineWidth == 4)
        #expect(shape.value(forKey: "lineWidth") as? CGFloat == 4)
        #expect(shape.value(forKey: "fillColor") as? Color == .green)
        let gradient = GradientLayer()
        gradient.setValue([Color.red, Color.blue], forKey: "colors")
        #expect(gradient.colors as? [Color] == [.red, .blue])
        #expect(gradient.value(forKey: "startPoint") as? CGPoint == CGPoint(x: 0.5, y: 0))
        gradient.setValue("radial", forKey: "type")
        #expect(gradient.type == .radial)
        #expect(gradient.value(forKey: "type") as? GradientLayerType == .radial)
        shape.setValue("round", forKey: "lineCap")
        #expect(shape.lineCap == .round)
        let text = TextLayer()
        text.setValue("Hello", forKey: "string")
        text.setValue(true, forKey: "wrapped")
        #expect(text.string as? String == "Hello" && text.isWrapped)
        #expect(text.value(forKey: "string") as? String == "Hello")
        #expect(text.value(forKey: "wrapped") as? Bool == true)
        let replicator = ReplicatorLayer()
        replicator.setValue(NSNumber(value: 3), forKey: "instanceCount")
        replicator.setValue(0.5, forKey: "instanceDelay")
        replicator.setValue(-0.25, forKey: "instanceRedOffset")
        #expect(replicator.instanceCount == 3)
        #expect(replicator.value(forKey: "instanceCount") as? Int == 3)
        #expect(replicator.value(forKey: "instanceDelay") as? Double == 0.5)
        #expect(replicator.value(forKey: "instanceRedOffset") as? Float == -0.25)
        // On a plain layer these are custom keys.
        let plain = Layer()
        plain.setValue(4, forKey: "instanceCount")
        #expect(plain.value(forKey: "instanceCount") as? Int == 4)
    }

    @Test func customKeysAreStoredCopiedAndDefaulted() throws {
        let layer = ProgressLayer()
        #expect(layer.progress == 0.25)  // the class's default
        #expect(layer.value(forKey: "unknown") == nil)
        layer.progress = 0.75
        layer.setValue("text", forKey: "label")
        layer.setValue(CGPoint(x: 1, y: 2), forKey: "spot")
        #expect(layer.progress == 0.75)
        #expect(layer.value(forKey: "label") as? String == "text")
        #expect(layer.value(forKeyPath: "spot.y") as? CGFloat == 2)
        layer.setValue(5.0, forKeyPath: "spot.x")
        #expect(layer.value(forKey: "spot") as? CGPoint == CGPoint(x: 5, y: 2))
        // needsDisplay(forKey:) marks the layer.
        #expect(layer.needsDisplay())
        let copy = Layer(layer: layer)
        #expect(copy.value(forKey: "progress") as? CGFloat == 0.75)
        #expect(copy.value(forKey: "label") as? String == "text")
        Transaction.flush()
        #expect(layer.presentationSnapshot()?.customValues["progress"] as? CGFloat == 0.75)
        layer.setValue(nil, forKey: "label")
        #expect(layer.value(forKey: "label") == nil)
        #expect(Layer.defaultValue(forKey: "cornerRadius") as? CGFloat == 0)
        #expect(Layer.defaultValue(forKey: "anchorPoint") as? CGPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(Layer.defaultValue(forKey: "borderColor") as? Color == .black)
        #expect(Layer.defaultValue(forKey: "progress") == nil)
        #expect(Layer.needsDisplay(forKey: "progress") == false)
        #expect(layer.shouldArchiveValue(forKey: "progress"))
    }

    @Test func customKeysAnimateInSnapshotsAndPresentationCopies() throws {
        let layer = ProgressLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.progress = 1
        Transaction.flush()
        _ = layer.presentationSnapshot()
        let animation = BasicAnimation(keyPath: "progress")
        animation.fromValue = 0.0
        animation.toValue = 1.0
        animation.duration = 2
        animation.beginTime = 100
        layer.add(animation, forKey: "fill")
        Transaction.flush()
        let halfway = try #require(layer.presentationSnapshot(at: 101))
        #expect(halfway.customValues["progress"] as? CGFloat == 0.5)
        let quarter = try #require(layer.presentationSnapshot(at: 100.5))
        #expect(quarter.customValues["progress"] as? CGFloat == 0.25)
        #expect(layer.progress == 1)
        // A point-valued custom key.
        layer.setValue(CGPoint.zero, forKey: "spot")
        let move = BasicAnimation(keyPath: "spot")
        move.toValue = CGPoint(x: 10, y: 20)
        move.duration = 1
        move.beginTime = 200
        layer.add(move, forKey: "move")
        Transaction.flush()
        #expect(layer.presentationSnapshot(at: 200.5)?.customValues["spot"] as? CGPoint == CGPoint(x: 5, y: 10))
    }

    @Test func animatedCustomKeyDrawsThePresentedValue() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let layer = ProgressLayer()
        layer.frame = root.bounds
        layer.progress = 1
        root.addSublayer(layer)
        _ = try root.presentationForFrame(at: 0)
        let animation = BasicAnimation(keyPath: "progress")
        animation.fromValue = 0.0
        animation.toValue = 1.0
        animation.duration = 2
        animation.beginTime = 100
        layer.add(animation, forKey: "fill")
        layer.drawn = []
        _ = try root.presentationForFrame(at: 100.5)
        _ = try root.presentationForFrame(at: 101.5)
        #expect(layer.drawn == [0.25, 0.75])
        layer.removeAnimation(forKey: "fill")
        _ = try root.presentationForFrame(at: 102)
        #expect(layer.drawn == [0.25, 0.75, 1])
        _ = try root.presentationForFrame(at: 103)
        #expect(layer.drawn.count == 3)
    }

    final class LayoutLayer: Layer {
        nonisolated(unsafe) var layouts = 0
        nonisolated(unsafe) var log: [String]?
        override func layoutSublayers() {
            layouts += 1
            log?.append(name ?? "")
            for sublayer in sublayers ?? [] { sublayer.bounds.size.width = bounds.width / 2 }
        }
    }

    @Test func layoutRunsBeforeCommitsSuperlayersFirst() throws {
        let parent = LayoutLayer()
        parent.name = "parent"
        let child = LayoutLayer()
        child.name = "child"
        var log: [String] = []
        parent.log = []
        child.log = []
        parent.addSublayer(child)
        #expect(parent.needsLayout())
        parent.layoutIfNeeded()
        #expect(!parent.needsLayout())
        #expect(parent.layouts == 1)
        // A new size marks the layer; a commit lays out, superlayers first.
        Transaction.begin()
        child.bounds = CGRect(x: 0, y: 0, width: 1, height: 1)
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 10)
        #expect(parent.needsLayout() && child.needsLayout())
        parent.log = []
        child.log = []
        Transaction.commit()
        log = (parent.log ?? []) + (child.log ?? [])
        #expect(log == ["parent", "child"])
        #expect(child.bounds.width == 50)
        #expect(!child.needsLayout())
        // A moved layer without size change is not marked.
        child.position = CGPoint(x: 3, y: 3)
        #expect(!child.needsLayout())
        child.setNeedsLayout()
        #expect(child.needsLayout())
        Transaction.flush()
        #expect(!child.needsLayout())
    }

    final class WillDrawDelegate: LayerDelegate {
        var events: [String] = []
        func layerWillDraw(_ layer: Layer) { events.append("will") }
        func draw(_ layer: Layer, in context: DrawingContext) { events.append("draw") }
        func layoutSublayers(of layer: Layer) { events.append("layout") }
    }

    @Test func delegateLaysOutAndIsToldBeforeDrawing() throws {
        let delegate = WillDrawDelegate()
        let layer = Layer()
        layer.delegate = delegate
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.setNeedsDisplay()
        _ = try layer.presentationForFrame(at: 0)
        #expect(delegate.events == ["layout", "will", "draw"])
    }

    @Test func timeConversionsAndAnimationDefaults() {
        let parent = Layer()
        let child = Layer()
        parent.addSublayer(child)
        child.beginTime = 10
        child.speed = 2
        #expect(child.convertTime(15, from: nil) == 10)
        #expect(child.convertTime(10, to: nil) == 15)
        #expect(child.convertTime(10, to: parent) == 15)
        #expect(parent.convertTime(15, to: child) == 10)
        #expect(Animation.defaultValue(forKey: "duration") as? Double == 0)
        #expect(Animation.defaultValue(forKey: "speed") as? Float == 1)
        #expect(Animation.defaultValue(forKey: "removedOnCompletion") as? Bool == true)
        #expect(Animation.defaultValue(forKey: "fillMode") as? FillMode == .removed)
        #expect(Animation.defaultValue(forKey: "keyPath") == nil)
    }
}
