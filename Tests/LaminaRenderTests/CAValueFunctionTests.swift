import Lamina
import XCTest

final class CAValueFunctionTests: XCTestCase {
    /// A layer committed and shown, with `animation` added at media time `start`.
    private func presented(_ animation: CABasicAnimation, at offset: CFTimeInterval) throws -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        CATransaction.flush()
        let start = CACurrentMediaTime() + 1000
        animation.beginTime = start
        layer.add(animation, forKey: "spin")
        CATransaction.flush()
        let snapshot = try XCTUnwrap(layer.presentationSnapshot(at: start + offset))
        let copy = CALayer()
        copy.transform = snapshot.transform
        return copy
    }

    func testRotateZTurnsThroughTheInterpolatedAngle() throws {
        let spin = CABasicAnimation(keyPath: "transform")
        spin.valueFunction = CAValueFunction(name: .rotateZ)
        spin.fromValue = 0
        spin.toValue = 4 * Double.pi
        spin.duration = 4
        // At 3/8 of the way the angle is 1.5π: interpolating matrices of 0 and 4π would stay at the identity.
        let t = try presented(spin, at: 1.5).transform
        XCTAssertEqual(t.m11, cos(1.5 * .pi), accuracy: 1e-9)
        XCTAssertEqual(t.m12, sin(1.5 * .pi), accuracy: 1e-9)
    }

    func testScaleAndTranslateTakeThreeNumbers() throws {
        let grow = CABasicAnimation(keyPath: "transform")
        grow.valueFunction = CAValueFunction(name: .scale)
        grow.fromValue = [1, 1, 1]
        grow.toValue = [3, 5, 1]
        grow.duration = 2
        let scaled = try presented(grow, at: 1).transform
        XCTAssertEqual(scaled.m11, 2, accuracy: 1e-9)
        XCTAssertEqual(scaled.m22, 3, accuracy: 1e-9)
        let move = CABasicAnimation(keyPath: "transform")
        move.valueFunction = CAValueFunction(name: .translateX)
        move.toValue = 100
        move.duration = 1
        XCTAssertEqual(try presented(move, at: 0.25).transform.m41, 25, accuracy: 1e-9)
        XCTAssertEqual(CAValueFunctionName.translateX.rawValue, "translateX")
    }
}
