import XCTest
import QuartzCore
final class SkeletonTests: XCTestCase { func testCGColorIsColor() { XCTAssertEqual(CGColor.black, CGColor.black) } }
