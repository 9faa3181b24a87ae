import Foundation
import LaminaCore
import LaminaDrawing
@testable import LaminaLayers
import Testing

/// The model of gradient, shape, text and replicator layers (docs/semantics.md, "Specialised layers"): Core
/// Animation's defaults, transactions, and the animation of every key path Core Animation animates on them.
@Suite struct SpecialLayerModelTests {
    /// `layer` committed and drawn (its snapshot taken), with `setUp` applied without actions.
    func drawn<L: Layer>(_ layer: L, _ setUp: (L) -> Void = { _ in }) -> L {
        Transaction.begin()
        Transaction.setDisableActions(true)
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        setUp(layer)
        Transaction.commit()
        _ = layer.presentationSnapshot(at: 0)
        return layer
    }

    func attach(_ animation: Animation, to layer: Layer) {
        Transaction.begin()
        layer.attach(animation, forKey: "a", keepingBeginTime: true)
        Transaction.commit()
    }

    @Test func defaultsAreCoreAnimations() {
        let gradient = GradientLayer()
        #expect(gradient.gradientStyle.colors.isEmpty && gradient.locations == nil && gradient.type == .axial)
        #expect(gradient.startPoint == CGPoint(x: 0.5, y: 0) && gradient.endPoint == CGPoint(x: 0.5, y: 1))
        let shape = ShapeLayer()
        #expect(shape.path == nil && shape.fillColor == .black && shape.strokeColor == nil && shape.fillRule == .nonZero)
        #expect(shape.lineWidth == 1 && shape.miterLimit == 10 && shape.lineCap == .butt && shape.lineJoin == .miter)
        #expect(shape.lineDashPattern == nil && shape.lineDashPhase == 0 && shape.strokeStart == 0
            && shape.strokeEnd == 1)
        let text = TextLayer()
        #expect(text.string == nil && text.fontSize == 36 && text.foregroundColor == .white && !text.isWrapped)
        #expect(text.alignmentMode == .natural && text.truncationMode == .none && text.font as? String == "sans-serif")
        let replicator = ReplicatorLayer()
        #expect(replicator.instanceCount == 1 && replicator.instanceTransform == .identity)
        #expect(replicator.instanceColor == .white && replicator.instanceDelay == 0)
        #expect(replicator.instanceRedOffset == 0 && replicator.instanceAlphaOffset == 0)
        // A plain layer has none of these.
        #expect(Layer().presentationSnapshot(at: 0) == nil)
        #expect(drawn(Layer()).presentationSnapshot(at: 0)!.state.special == .none)
    }

    @Test func aCommitShowsTheNewStyleAndVersionsChange() throws {
        let shape = drawn(ShapeLayer())
        let before = shape.presentationSnapshot(at: 0)!
        Transaction.begin()
        Transaction.setDisableActions(true)
        shape.strokeColor = .red
        shape.lineDashPattern = [4, 2]
        // Not committed yet: frames still see the old style.
        #expect(shape.presentationSnapshot(at: 0)!.state.shape?.strokeColor == nil)
        Transaction.commit()
        let after = shape.presentationSnapshot(at: 0)!
        #expect(after.state.shape?.strokeColor == .red && after.state.shape?.lineDashPattern == [4, 2])
        #expect(after.contentVersion != before.contentVersion && after.ownVersion != before.ownVersion)
        #expect(shape.strokeColor == .red)
    }

    @Test func aChangeOfADrawnLayerAnimatesImplicitlyUnderItsOwnKey() {
        let shape = drawn(ShapeLayer())
        shape.strokeEnd = 0.5
        #expect(shape.animation(forKey: "strokeEnd") != nil)
        let text = drawn(TextLayer())
        text.string = "changed"
        // A string does not animate (Core Animation's neither).
        #expect(text.animationKeys() == nil)
        text.fontSize = 20
        #expect(text.animation(forKey: "fontSize") != nil)
        let gradient = drawn(GradientLayer())
        gradient.colors = [Color.red, Color.blue]
        #expect(gradient.animation(forKey: "colors") != nil)
        let replicator = drawn(ReplicatorLayer())
        replicator.instanceCount = 3
        #expect(replicator.animationKeys() == nil)
        replicator.instanceColor = .red
        #expect(replicator.animation(forKey: "instanceColor") != nil)
        Transaction.flush()
    }

    @Test func gradientColorsLocationsAndPointsInterpolate() throws {
        let layer = drawn(GradientLayer()) { $0.colors = [Color.black, Color.white] }
        let colors = BasicAnimation(keyPath: "colors")
        colors.fromValue = [Color.black, Color.white]
        colors.toValue = [Color.white, Color(red: 0, green: 0, blue: 1)]
        colors.duration = 1
        attach(colors, to: layer)
        let mid = try #require(layer.presentationSnapshot(at: 0.5)?.state.gradient)
        #expect(mid.colors == [Color(white: 0.5), Color(red: 0.5, green: 0.5, blue: 1)])
        let points = BasicAnimation(keyPath: "endPoint.x")
        points.fromValue = 0.0
        points.toValue = 1.0
        points.duration = 1
        Transaction.begin()
        layer.attach(points, forKey: "p", keepingBeginTime: true)
        Transaction.commit()
        #expect(layer.presentationSnapshot(at: 0.25)?.state.gradient?.endPoint == CGPoint(x: 0.25, y: 1))
        let locations = BasicAnimation(keyPath: "locations")
        locations.fromValue = [0.0, 1.0]
        locations.toValue = [0.5, 1.0]
        locations.duration = 1
        Transaction.begin()
        layer.attach(locations, forKey: "l", keepingBeginTime: true)
        Transaction.commit()
        #expect(layer.presentationSnapshot(at: 0.5)?.state.gradient?.locations == [0.25, 1.0])
    }

    @Test func aColorListOfAnotherLengthSwitchesAtHalfway() throws {
        let layer = drawn(GradientLayer())
        let colors = BasicAnimation(keyPath: "colors")
        colors.fromValue = [Color.black, Color.white]
        colors.toValue = [Color.red, Color.green, Color.blue]
        colors.duration = 1
        attach(colors, to: layer)
        #expect(layer.presentationSnapshot(at: 0.4)?.state.gradient?.colors == [.black, .white])
        #expect(layer.presentationSnapshot(at: 0.6)?.state.gradient?.colors == [.red, .green, .blue])
    }

    @Test func shapePathsOfTheSameStepsInterpolate() throws {
        let layer = drawn(ShapeLayer())
        var from = Path()
        from.move(to: CGPoint(x: 0, y: 0))
        from.addLine(to: CGPoint(x: 100, y: 0))
        var to = Path()
        to.move(to: CGPoint(x: 0, y: 50))
        to.addLine(to: CGPoint(x: 50, y: 100))
        let path = BasicAnimation(keyPath: "path")
        path.fromValue = from
        path.toValue = to
        path.duration = 1
        attach(path, to: layer)
        let mid = try #require(layer.presentationSnapshot(at: 0.5)?.state.shape?.path)
        #expect(mid.elements == [.move(to: CGPoint(x: 0, y: 25)), .line(to: CGPoint(x: 75, y: 50))])
        // Different steps cannot interpolate: the path switches at halfway.
        var other = Path()
        other.addEllipse(in: CGRect(x: 0, y: 0, width: 10, height: 10))
        path.toValue = other
        Transaction.begin()
        layer.attach(path, forKey: "b", keepingBeginTime: true)
        Transaction.commit()
        #expect(layer.presentationSnapshot(at: 0.25)?.state.shape?.path == from)
        #expect(layer.presentationSnapshot(at: 0.75)?.state.shape?.path == other)
    }

    @Test func strokeAndNumberKeyPathsInterpolate() throws {
        let layer = drawn(ShapeLayer()) { $0.strokeColor = .black }
        for (key, from, to) in [("strokeEnd", 0.0, 1.0), ("strokeStart", 0.2, 0.6), ("lineWidth", 2.0, 6.0),
                                ("lineDashPhase", 0.0, 10.0), ("miterLimit", 4.0, 8.0)] {
            let animation = BasicAnimation(keyPath: key)
            animation.fromValue = from
            animation.toValue = to
            animation.duration = 1
            Transaction.begin()
            layer.attach(animation, forKey: key, keepingBeginTime: true)
            Transaction.commit()
        }
        let style = try #require(layer.presentationSnapshot(at: 0.5)?.state.shape)
        #expect(style.strokeEnd == 0.5 && style.strokeStart == 0.4 && style.lineWidth == 4)
        #expect(style.lineDashPhase == 5 && style.miterLimit == 6)
        let color = BasicAnimation(keyPath: "strokeColor")
        color.toValue = Color.white
        color.duration = 1
        attach(color, to: layer)
        #expect(layer.presentationSnapshot(at: 0.5)?.state.shape?.strokeColor == Color(white: 0.5))
    }

    @Test func textAndReplicatorKeyPathsInterpolate() throws {
        let text = drawn(TextLayer())
        let size = BasicAnimation(keyPath: "fontSize")
        size.fromValue = 10.0
        size.toValue = 30.0
        size.duration = 1
        attach(size, to: text)
        #expect(text.presentationSnapshot(at: 0.5)?.state.text?.fontSize == 20)
        let replicator = drawn(ReplicatorLayer())
        let turn = BasicAnimation(keyPath: "instanceTransform.rotation.z")
        turn.fromValue = 0.0
        turn.toValue = Double.pi
        turn.duration = 1
        attach(turn, to: replicator)
        let t = try #require(replicator.presentationSnapshot(at: 0.5)?.state.replicator?.instanceTransform)
        #expect(abs(Double(t.m11)) < 1e-9 && abs(Double(t.m12) - 1) < 1e-9)
        let delay = BasicAnimation(keyPath: "instanceAlphaOffset")
        delay.fromValue = 0.0
        delay.toValue = -0.5
        delay.duration = 1
        Transaction.begin()
        replicator.attach(delay, forKey: "o", keepingBeginTime: true)
        Transaction.commit()
        #expect(replicator.presentationSnapshot(at: 0.5)?.state.replicator?.instanceAlphaOffset == -0.25)
    }

    @Test func keysOfAnotherKindLeaveALayerAsItIs() throws {
        // An animation of a shape's key on a gradient layer has nothing to change.
        let layer = drawn(GradientLayer()) { $0.colors = [Color.red] }
        let animation = BasicAnimation(keyPath: "strokeEnd")
        animation.fromValue = 0.0
        animation.toValue = 1.0
        animation.duration = 1
        attach(animation, to: layer)
        let state = try #require(layer.presentationSnapshot(at: 0.5)?.state)
        #expect(state.shape == nil && state.gradient?.colors == [.red])
    }

    @Test func instanceColoursAddTheOffsetsClamped() {
        var style = ReplicatorStyle()
        style.instanceColor = Color(red: 1, green: 0.5, blue: 0, alpha: 1)
        style.instanceRedOffset = -0.4
        style.instanceBlueOffset = 0.3
        #expect(style.color(ofInstance: 0) == style.instanceColor)
        let second = style.color(ofInstance: 2)
        #expect(abs(second.red - 0.2) < 1e-6 && abs(second.blue - 0.6) < 1e-6 && second.green == 0.5)
        let far = style.color(ofInstance: 10)
        #expect(far.red == 0 && far.blue == 1)
    }
}

/// TextLayer.preferredFrameSize(): the size the text needs, as Core Animation's.
@Suite struct TextLayerPreferredSizeTests {
    func label(_ string: String, wrapped: Bool = false, width: CGFloat = 400) -> TextLayer {
        let text = TextLayer()
        text.bounds = CGRect(x: 0, y: 0, width: width, height: 20)
        text.font = "DejaVu Sans"
        text.fontSize = 20
        text.string = string
        text.isWrapped = wrapped
        return text
    }

    @Test func itGrowsWithTheTextAndItsLines() {
        let one = label("Lamina").preferredFrameSize()
        let longer = label("Lamina draws text").preferredFrameSize()
        let two = label("Lamina\ndraws").preferredFrameSize()
        #expect(one.width > 40 && one.width < 100 && one.height >= 20 && one.height < 30, "\(one)")
        #expect(longer.width > one.width * 2 && longer.height == one.height, "\(longer)")
        #expect(two.height > one.height * 1.8 && two.width < longer.width, "\(two)")
        #expect(label("").preferredFrameSize().width == 0)
    }

    @Test func wrappedTextWrapsAtTheBoundsWidth() {
        let text = "a sentence long enough to need several lines at this width"
        let unwrapped = label(text, wrapped: false, width: 120).preferredFrameSize()
        let wrapped = label(text, wrapped: true, width: 120).preferredFrameSize()
        #expect(unwrapped.width > 300 && unwrapped.height < 30, "\(unwrapped)")
        #expect(wrapped.width <= 120 && wrapped.height > 60, "\(wrapped)")
    }

    @Test func aPlainLayerPrefersItsBoundsSize() {
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 40)
        #expect(layer.preferredFrameSize() == CGSize(width: 30, height: 40))
    }
}
