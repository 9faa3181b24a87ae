// CATransformLayer and CAScrollLayer by Core Animation's names, as code written for iOS uses them.
import QuartzCore
import XCTest

final class TransformScrollLayerTests: XCTestCase {
    func testScrollLayerByItsCoreAnimationNames() {
        let scrollLayer = CAScrollLayer()
        XCTAssertEqual(scrollLayer.scrollMode, CAScrollLayerScrollMode.both)
        XCTAssertTrue(scrollLayer.masksToBounds)
        scrollLayer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        scrollLayer.scrollMode = .horizontally
        scrollLayer.scroll(to: CGPoint(x: 30, y: 40))
        XCTAssertEqual(scrollLayer.bounds.origin, CGPoint(x: 30, y: 0))
        scrollLayer.scrollMode = .both
        scrollLayer.scroll(to: CGRect(x: 150, y: 120, width: 10, height: 10))
        XCTAssertEqual(scrollLayer.bounds.origin, CGPoint(x: 60, y: 30))
        let sublayer = CALayer()
        sublayer.frame = CGRect(x: 200, y: 200, width: 50, height: 50)
        scrollLayer.addSublayer(sublayer)
        sublayer.scroll(CGPoint(x: 10, y: 10))
        XCTAssertEqual(scrollLayer.bounds.origin, CGPoint(x: 210, y: 210))
        XCTAssertEqual(sublayer.visibleRect, CGRect(x: 10, y: 10, width: 40, height: 40))
        sublayer.scrollRectToVisible(CGRect(x: 0, y: 0, width: 5, height: 5))
        XCTAssertEqual(scrollLayer.bounds.origin, CGPoint(x: 200, y: 200))
        XCTAssertEqual([CAScrollLayerScrollMode.none, .horizontally, .vertically, .both].map(\.rawValue),
                       ["none", "horizontally", "vertically", "both"])
    }

    func testTransformLayerKeepsItsSublayersInOneSpace() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        root.sublayerTransform = perspective
        let cube: CATransformLayer = CATransformLayer()
        cube.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        root.addSublayer(cube)
        let near = CALayer(), far = CALayer()
        for (layer, z) in [(near, CGFloat(30)), (far, -30)] {
            layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            layer.transform = CATransform3DMakeTranslation(0, 0, z)
            cube.addSublayer(layer)
        }
        // The nearer plane is hit though it comes first in sublayers.
        XCTAssertTrue(root.hitTest(CGPoint(x: 100, y: 100)) === near)
    }
}
