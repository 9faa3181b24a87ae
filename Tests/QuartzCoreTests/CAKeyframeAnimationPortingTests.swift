// Written as an iOS developer writes keyframe animations: only Apple's module names.
import CoreGraphics
import Foundation
import QuartzCore
import XCTest

final class CAKeyframeAnimationPortingTests: XCTestCase {
    func testCubicModeParametersAndValueFunctionsAsOnApplePlatforms() throws {
        let spin = CAKeyframeAnimation(keyPath: "transform")
        spin.valueFunction = CAValueFunction(name: .rotateZ)
        spin.values = [0, CGFloat.pi, 2 * CGFloat.pi]
        spin.calculationMode = .cubicPaced
        spin.tensionValues = [0, 0.5, 0]
        spin.continuityValues = [0, -1]
        spin.biasValues = [1]
        XCTAssertEqual(spin.valueFunction?.name, .rotateZ)
        XCTAssertEqual(spin.tensionValues, [0, 0.5, 0])
        let copy = try XCTUnwrap(spin.copy() as? CAKeyframeAnimation)
        XCTAssertEqual(copy.tensionValues, [0, 0.5, 0])
        XCTAssertEqual(copy.continuityValues, [0, -1])
        XCTAssertEqual(copy.biasValues, [1])
        XCTAssertEqual(copy.valueFunction?.name, .rotateZ)
        XCTAssertEqual(copy.calculationMode, .cubicPaced)
        XCTAssertEqual(CAAnimationCalculationMode.cubicPaced.rawValue, "cubicPaced")
        XCTAssertEqual(CAAnimationRotationMode.rotateAutoReverse.rawValue, "autoReverse")
        XCTAssertEqual(CAValueFunctionName.translateZ.rawValue, "translateZ")

        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 300))
        let move = CAKeyframeAnimation(keyPath: "position")
        move.path = path
        move.calculationMode = .paced
        move.rotationMode = .rotateAuto
        move.duration = 1
        let layer = CALayer()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        CATransaction.commit()
        _ = layer.presentationSnapshot(at: 0)
        CATransaction.begin()
        layer.add(move, forKey: "move")
        CATransaction.commit()
        // Paced: 400 points in 1 s; wherever it was added, half a second later it is 200 along, heading down.
        let begin = try XCTUnwrap(layer.animation(forKey: "move")?.beginTime)
        let shown = try XCTUnwrap(layer.presentationSnapshot(at: begin + 0.5))
        XCTAssertEqual(shown.position.x, 100, accuracy: 1e-6)
        XCTAssertEqual(shown.position.y, 100, accuracy: 1e-6)
        XCTAssertEqual(shown.transform.m12, 1, accuracy: 1e-6)
    }
}
