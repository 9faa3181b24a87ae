// Written as an iOS developer writes layer code: only Apple's module names.
import CoreGraphics
import Foundation
import QuartzCore
import XCTest

final class CALayerPortingTests: XCTestCase {
    func testDefaultsAreCoreAnimations() {
        let layer = CALayer()
        XCTAssertEqual(layer.anchorPoint, CGPoint(x: 0.5, y: 0.5))
        XCTAssertEqual(layer.opacity, 1)
        XCTAssertEqual(layer.bounds, .zero)
        XCTAssertEqual(layer.position, .zero)
        XCTAssertEqual(layer.zPosition, 0)
        XCTAssertEqual(layer.anchorPointZ, 0)
        XCTAssertTrue(CATransform3DIsIdentity(layer.transform))
        XCTAssertTrue(CATransform3DIsIdentity(layer.sublayerTransform))
        XCTAssertNil(layer.backgroundColor)
        XCTAssertEqual(layer.borderColor, CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        XCTAssertEqual(layer.borderWidth, 0)
        XCTAssertEqual(layer.cornerRadius, 0)
        XCTAssertEqual(layer.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner,
                                             .layerMaxXMaxYCorner])
        XCTAssertEqual(layer.cornerCurve, .circular)
        XCTAssertEqual(layer.shadowOpacity, 0)
        XCTAssertEqual(layer.shadowOffset, CGSize(width: 0, height: -3))
        XCTAssertEqual(layer.shadowRadius, 3)
        XCTAssertNil(layer.shadowPath)
        XCTAssertNil(layer.contents)
        XCTAssertEqual(layer.contentsRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(layer.contentsCenter, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(layer.contentsGravity, .resize)
        XCTAssertEqual(layer.contentsScale, 1)
        XCTAssertEqual(layer.minificationFilter, .linear)
        XCTAssertEqual(layer.magnificationFilter, .linear)
        XCTAssertFalse(layer.masksToBounds)
        XCTAssertTrue(layer.isDoubleSided)
        XCTAssertFalse(layer.isHidden)
        XCTAssertFalse(layer.isOpaque)
        XCTAssertFalse(layer.isGeometryFlipped)
        XCTAssertFalse(layer.shouldRasterize)
        XCTAssertEqual(layer.rasterizationScale, 1)
        XCTAssertFalse(layer.needsDisplayOnBoundsChange)
        XCTAssertFalse(layer.drawsAsynchronously)
        XCTAssertEqual(layer.contentsFormat, .RGBA8Uint)
        XCTAssertNil(layer.sublayers)
        XCTAssertNil(layer.superlayer)
        XCTAssertNil(layer.mask)
        XCTAssertNil(layer.name)
        XCTAssertNil(layer.delegate)
        XCTAssertNil(layer.actions)
        XCTAssertNil(layer.animationKeys())
        XCTAssertEqual(layer.speed, 1)
        XCTAssertEqual(layer.beginTime, 0)
        XCTAssertEqual(layer.timeOffset, 0)
        XCTAssertEqual(layer.fillMode, .removed)
        XCTAssertEqual(layer.edgeAntialiasingMask, [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge])
    }

    func testFrameFollowsBoundsPositionAndAnchor() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        layer.position = CGPoint(x: 200, y: 100)
        XCTAssertEqual(layer.frame, CGRect(x: 150, y: 75, width: 100, height: 50))
        layer.anchorPoint = .zero
        XCTAssertEqual(layer.frame, CGRect(x: 200, y: 100, width: 100, height: 50))
        layer.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual(layer.position, CGPoint(x: 10, y: 20))
        XCTAssertEqual(layer.bounds.size, CGSize(width: 30, height: 40))
        let framed = CALayer(layer: layer)
        XCTAssertEqual(framed.frame, layer.frame)
    }

    func testSublayersAreNilUntilOneIsAdded() {
        let parent = CALayer()
        XCTAssertNil(parent.sublayers)
        let a = CALayer(), b = CALayer(), c = CALayer()
        parent.addSublayer(a)
        parent.insertSublayer(b, at: 0)
        parent.insertSublayer(c, above: b)
        XCTAssertEqual(parent.sublayers, [b, c, a])
        XCTAssertEqual(a.superlayer, parent)
        let index: UInt32 = 3
        parent.insertSublayer(CALayer(), at: index)
        XCTAssertEqual(parent.sublayers?.count, 4)
        a.removeFromSuperlayer()
        XCTAssertNil(a.superlayer)
        XCTAssertEqual(parent.sublayers?.count, 3)
        parent.sublayers = nil
        XCTAssertNil(parent.sublayers)
        XCTAssertNil(b.superlayer)
        parent.sublayers = []
        XCTAssertEqual(parent.sublayers, [])
    }

    func testTransformFunctions() {
        let t = CATransform3DMakeTranslation(10, 20, 30)
        XCTAssertEqual(t.m41, 10)
        XCTAssertEqual(t.m42, 20)
        XCTAssertEqual(t.m43, 30)
        let s = CATransform3DScale(t, 2, 3, 4)
        // Scale first, then the translation: (1, 1, 1) -> (2, 3, 4) -> (12, 23, 34).
        XCTAssertEqual(s.m11, 2)
        XCTAssertEqual(s.m41, 10)
        let r = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        XCTAssertEqual(r.m11, 0, accuracy: 1e-12)
        XCTAssertEqual(r.m12, 1, accuracy: 1e-12)
        XCTAssertEqual(r.m21, -1, accuracy: 1e-12)
        XCTAssertTrue(CATransform3DIsIdentity(CATransform3DMakeRotation(1, 0, 0, 0)))
        let both = CATransform3DConcat(CATransform3DMakeScale(2, 2, 1), CATransform3DMakeTranslation(5, 0, 0))
        XCTAssertEqual(both.m11, 2)
        XCTAssertEqual(both.m41, 5)
        let inverse = CATransform3DInvert(both)
        XCTAssertTrue(CATransform3DEqualToTransform(CATransform3DConcat(both, inverse), CATransform3DIdentity))
        let singular = CATransform3DMakeScale(0, 1, 1)
        XCTAssertEqual(CATransform3DInvert(singular), singular)
        let affine = CGAffineTransform(rotationAngle: .pi / 6).translatedBy(x: 4, y: 5)
        let lifted = CATransform3DMakeAffineTransform(affine)
        XCTAssertTrue(CATransform3DIsAffine(lifted))
        XCTAssertEqual(CATransform3DGetAffineTransform(lifted), affine)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        XCTAssertFalse(CATransform3DIsAffine(perspective))
        let zero = CATransform3D()
        XCTAssertEqual(zero.m11, 0)
        XCTAssertEqual(zero.m44, 0)
        let turned = CATransform3DRotate(CATransform3DIdentity, .pi, 0, 0, 1)
        XCTAssertEqual(turned.m11, -1, accuracy: 1e-12)
    }

    func testSetAffineTransformRoundTrips() {
        let layer = CALayer()
        let m = CGAffineTransform(scaleX: 2, y: 3).rotated(by: 0.5)
        layer.setAffineTransform(m)
        let back = layer.affineTransform()
        XCTAssertEqual(back.a, m.a, accuracy: 1e-12)
        XCTAssertEqual(back.b, m.b, accuracy: 1e-12)
        XCTAssertEqual(back.c, m.c, accuracy: 1e-12)
        XCTAssertEqual(back.d, m.d, accuracy: 1e-12)
    }

    func testTimingFunctionControlPoints() {
        let f = CAMediaTimingFunction(name: .easeInEaseOut)
        var values: [Float] = [0, 0]
        f.getControlPoint(at: 1, values: &values)
        XCTAssertEqual(values, [0.42, 0])
        f.getControlPoint(at: 2, values: &values)
        XCTAssertEqual(values, [0.58, 1])
        f.getControlPoint(at: 3, values: &values)
        XCTAssertEqual(values, [1, 1])
        let custom = CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)
        XCTAssertEqual(custom, CAMediaTimingFunction(name: .default))
        XCTAssertEqual(CAMediaTimingFunctionName.easeIn.rawValue, "easeIn")
        XCTAssertEqual(CAMediaTimingFillMode.forwards.rawValue, "forwards")
        XCTAssertEqual(CALayerContentsGravity.resizeAspectFill.rawValue, "resizeAspectFill")
        XCTAssertEqual(CAAnimationCalculationMode.cubicPaced.rawValue, "cubicPaced")
        XCTAssertEqual(CAAnimationRotationMode.rotateAuto.rawValue, "auto")
        XCTAssertEqual(CATransitionType.push.rawValue, "push")
        XCTAssertEqual(CATransitionSubtype.fromLeft.rawValue, "fromLeft")
        XCTAssertEqual(CALayerCornerCurve.continuous.rawValue, "continuous")
        XCTAssertEqual(CALayerContentsFilter.trilinear.rawValue, "trilinear")
    }

    func testAnimationDefaultsAndCopies() {
        let animation = CABasicAnimation(keyPath: "opacity")
        XCTAssertEqual(animation.keyPath, "opacity")
        XCTAssertEqual(animation.duration, 0)
        XCTAssertEqual(animation.speed, 1)
        XCTAssertEqual(animation.repeatCount, 0)
        XCTAssertFalse(animation.autoreverses)
        XCTAssertEqual(animation.fillMode, .removed)
        XCTAssertTrue(animation.isRemovedOnCompletion)
        XCTAssertNil(animation.timingFunction)
        XCTAssertNil(animation.fromValue)
        animation.fromValue = 0
        animation.toValue = NSNumber(value: 1)
        animation.duration = 2
        let copy = animation.copy() as! CABasicAnimation
        XCTAssertEqual(copy.keyPath, "opacity")
        XCTAssertEqual(copy.duration, 2)
        XCTAssertEqual(copy.toValue as? NSNumber, 1)
        let keyframes = CAKeyframeAnimation(keyPath: "position")
        keyframes.values = [CGPoint.zero, CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10)]
        keyframes.keyTimes = [0, 0.25, 1]
        keyframes.calculationMode = .linear
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        keyframes.path = path
        XCTAssertEqual(keyframes.keyTimes, [0, 0.25, 1])
        XCTAssertEqual(keyframes.path?.boundingBox, CGRect(x: 0, y: 0, width: 10, height: 10))
        let group = CAAnimationGroup()
        group.animations = [animation, keyframes]
        XCTAssertEqual(group.animations?.count, 2)
        let transition = CATransition()
        transition.type = .moveIn
        transition.subtype = .fromTop
        XCTAssertEqual(transition.type, .moveIn)
    }

    func testSpringFromPerceptualDurationAndBounce() {
        let spring = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.2)
        XCTAssertEqual(spring.mass, 1)
        XCTAssertEqual(spring.stiffness, pow(2 * .pi / 0.5, 2), accuracy: 1e-9)
        XCTAssertEqual(spring.damping, 4 * .pi * 0.8 / 0.5, accuracy: 1e-9)
        XCTAssertEqual(spring.perceptualDuration, 0.5, accuracy: 1e-9)
        XCTAssertEqual(spring.bounce, 0.2, accuracy: 1e-9)
        XCTAssertEqual(spring.duration, spring.settlingDuration)
        let overdamped = CASpringAnimation(perceptualDuration: 1, bounce: -0.5)
        XCTAssertEqual(overdamped.damping, 4 * .pi / 0.5, accuracy: 1e-9)
        XCTAssertEqual(overdamped.bounce, -0.5, accuracy: 1e-9)
    }

    func testTransactionSettings() {
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        XCTAssertFalse(CATransaction.disableActions())
        CATransaction.setAnimationDuration(1.5)
        CATransaction.setDisableActions(true)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeOut))
        XCTAssertEqual(CATransaction.animationDuration(), 1.5)
        XCTAssertEqual(CATransaction.value(forKey: kCATransactionAnimationDuration) as? Double, 1.5)
        XCTAssertTrue(CATransaction.disableActions())
        XCTAssertEqual(CATransaction.animationTimingFunction(), CAMediaTimingFunction(name: .easeOut))
        var ran = false
        CATransaction.setCompletionBlock { ran = true }
        XCTAssertNotNil(CATransaction.completionBlock())
        CATransaction.setValue("custom", forKey: "myKey")
        XCTAssertEqual(CATransaction.value(forKey: "myKey") as? String, "custom")
        CATransaction.lock()
        CATransaction.unlock()
        CATransaction.commit()
        // The block runs when the transaction is committed and its (absent) animations are done, on the main run
        // loop at the latest.
        let deadline = Date().addingTimeInterval(2)
        while !ran && Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
        XCTAssertTrue(ran)
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
    }

    func testNSNullStopsTheActionSearch() {
        final class Delegate: NSObject, CALayerDelegate {
            func action(for layer: CALayer, forKey event: String) -> CAAction? {
                event == "opacity" ? NSNull() : nil
            }
        }
        let layer = CALayer()
        XCTAssertNotNil(layer.action(forKey: "position"))
        XCTAssertTrue(layer.action(forKey: "position") is CABasicAnimation)
        layer.actions = ["position": NSNull()]
        XCTAssertNil(layer.action(forKey: "position"))
        let delegate = Delegate()
        layer.delegate = delegate
        XCTAssertNil(layer.action(forKey: "opacity"))
        XCTAssertNotNil(layer.action(forKey: "bounds"))
        XCTAssertNil(layer.action(forKey: "notAProperty"))
        XCTAssertNil(CALayer.defaultAction(forKey: "notAProperty"))
    }

    func testPresentationIsNilUntilCommittedThenACopyOfTheSameClass() {
        let shape = CAShapeLayer()
        XCTAssertNil(shape.presentation())
        shape.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        shape.position = CGPoint(x: 20, y: 10)
        CATransaction.flush()
        let shown = shape.presentation()
        XCTAssertNotNil(shown)
        XCTAssertFalse(shown === shape)
        XCTAssertEqual(shown?.bounds, shape.bounds)
        XCTAssertEqual(shown?.position, shape.position)
        XCTAssertTrue(shown?.model() === shape)
        XCTAssertTrue(shape.model() === shape)
        XCTAssertTrue(type(of: shown!) == CAShapeLayer.self)
    }

    func testContentsAreFlippedFollowsTheFlippedSuperlayers() {
        let root = CALayer(), middle = CALayer(), leaf = CALayer()
        root.addSublayer(middle)
        middle.addSublayer(leaf)
        XCTAssertFalse(leaf.contentsAreFlipped())
        root.isGeometryFlipped = true
        XCTAssertTrue(leaf.contentsAreFlipped())
        XCTAssertTrue(middle.contentsAreFlipped())
        XCTAssertFalse(root.contentsAreFlipped())
        middle.isGeometryFlipped = true
        XCTAssertFalse(leaf.contentsAreFlipped())
    }

    func testPreferredFrameRateRanges() {
        let animation = CABasicAnimation(keyPath: "opacity")
        XCTAssertEqual(animation.preferredFrameRateRange, CAFrameRateRange.default)
        animation.preferredFrameRateRange = CAFrameRateRange(minimum: 30, maximum: 120, preferred: 60)
        let copy = animation.copy() as! CABasicAnimation
        XCTAssertEqual(copy.preferredFrameRateRange.preferred, 60)
        XCTAssertTrue(copy.preferredFrameRateRange.isEqual(to: CAFrameRateRange(minimum: 30, maximum: 120, preferred: 60)))
        var ticks: [CFTimeInterval] = []
        let link = CADisplayLink { link in ticks.append(link.timestamp) }
        link.preferredFrameRateRange = CAFrameRateRange(minimum: 50, maximum: 100, preferred: 100)
        XCTAssertEqual(link.duration, 0.01, accuracy: 1e-12)
        link.add(to: .main, forMode: .default)
        let deadline = Date().addingTimeInterval(5)
        while ticks.count < 3 && Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.02)) }
        link.invalidate()
        XCTAssertGreaterThanOrEqual(ticks.count, 3)
        XCTAssertEqual(ticks, ticks.sorted())
        XCTAssertEqual(link.targetTimestamp, link.timestamp + link.duration, accuracy: 1e-9)
        let count = ticks.count
        RunLoop.main.run(until: Date().addingTimeInterval(0.05))
        XCTAssertEqual(ticks.count, count, "an invalidated link is not called again")
    }

    func testLayersAreEqualOnlyToThemselves() {
        let a = CALayer(), b = CALayer()
        XCTAssertEqual(a, a)
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(Set([a, b, a]).count, 2)
    }

    func testCoderInitialiserGivesDefaults() throws {
        final class Custom: CALayer {
            var extra = 3
            override init() { super.init() }
            override init(layer: Any) {
                super.init(layer: layer)
                if let other = layer as? Custom { extra = other.extra }
            }
            required init?(coder: NSCoder) { super.init(coder: coder) }
        }
        let original = Custom()
        original.extra = 7
        original.opacity = 0.5
        let copy = Custom(layer: original)
        XCTAssertEqual(copy.extra, 7)
        XCTAssertEqual(copy.opacity, 0.5)
        XCTAssertNil(copy.superlayer)
    }
}

final class ReadmeExampleTests: XCTestCase {
    /// README.md's "Code written for iOS and macOS" example, as written there.
    func testTheReadmeCardExample() throws {
        let card = CAShapeLayer()
        card.frame = CGRect(x: 20, y: 20, width: 200, height: 120)
        card.path = CGPath(roundedRect: card.bounds, cornerWidth: 16, cornerHeight: 16, transform: nil)
        card.fillColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
        let grow = CABasicAnimation(keyPath: "transform.scale")
        grow.fromValue = 0.5
        grow.toValue = 1
        grow.duration = 0.3
        card.add(grow, forKey: "grow")
        XCTAssertEqual(card.path?.boundingBox, CGRect(x: 0, y: 0, width: 200, height: 120))
        XCTAssertEqual(card.animationKeys(), ["grow"])
        XCTAssertEqual((card.animation(forKey: "grow") as? CABasicAnimation)?.toValue as? Int, 1)
        // Drawn with render(in:) into a bitmap context flipped upright: the fill inside, nothing outside.
        let ctx = try XCTUnwrap(CGContext(data: nil, width: 240, height: 160, bitsPerComponent: 8, bytesPerRow: 0,
                                          space: CGColorSpaceCreateDeviceRGB(),
                                          bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        ctx.translateBy(x: 0, y: 160)
        ctx.scaleBy(x: 1, y: -1)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 240, height: 160)
        root.addSublayer(card)
        card.removeAllAnimations()
        root.render(in: ctx)
        let bytes = try XCTUnwrap(ctx.data).assumingMemoryBound(to: UInt8.self)
        let inside = 80 * ctx.bytesPerRow + 120 * 4
        XCTAssertEqual([bytes[inside], bytes[inside + 1], bytes[inside + 2], bytes[inside + 3]], [51, 102, 230, 255])
        let corner = 21 * ctx.bytesPerRow + 21 * 4
        XCTAssertEqual(bytes[corner + 3], 0, "the rounded corner leaves the context clear")
    }
}
