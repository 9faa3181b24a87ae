import Foundation
@testable import LaminaScene
import LaminaCore
import LaminaDrawing
import Testing

/// The numbers under Lottie playback, worked out by hand: easing curves, keyframe segments (hold, old-style `e`
/// ends, per-dimension easing, spatial tangents), trim ranges and the primitives' start points and directions.
@Suite struct LottieMathTests {
    @Test func linearAndEasedProgress() {
        #expect(LottieEasing.linear.progress(0.25, dimension: 0) == 0.25)
        // ease-in-out (0.42, 0, 0.58, 1) is symmetric: 0.5 at 0.5, and below the diagonal early on.
        let easeInOut = LottieEasing(outX: [0.42], outY: [0], inX: [0.58], inY: [1])
        #expect(abs(easeInOut.progress(0.5, dimension: 0) - 0.5) < 1e-9)
        #expect(easeInOut.progress(0.25, dimension: 0) < 0.25)
        #expect(abs(easeInOut.progress(0.25, dimension: 0) + easeInOut.progress(0.75, dimension: 0) - 1) < 1e-9)
        // A hold-like curve (y stays 0 until x = 1).
        let late = LottieEasing(outX: [1], outY: [0], inX: [1], inY: [0])
        #expect(late.progress(0.5, dimension: 0) < 0.2)
    }

    @Test func perDimensionEasing() {
        // x linear, y ease-in (the last given value serves dimensions beyond).
        let easing = LottieEasing(outX: [0, 0.5], outY: [0, 0], inX: [1, 1], inY: [1, 1])
        let kf = LottieKeyframe<[Double]>(time: 0, start: [0, 0], end: nil, hold: false, easing: easing,
                                          spatialOut: nil, spatialIn: nil)
        let last = LottieKeyframe<[Double]>(time: 10, start: [100, 100], end: nil, hold: false, easing: .linear,
                                            spatialOut: nil, spatialIn: nil)
        let property = LottieProperty(keyframes: [kf, last], path: "p")
        let v = property.value(at: 5)!
        #expect(abs(v[0] - 50) < 1e-6)
        #expect(v[1] < 50)
    }

    @Test func keyframeSegmentsHoldAndEnds() {
        let a = LottieKeyframe<[Double]>(time: 0, start: [0], end: nil, hold: true, easing: .linear, spatialOut: nil,
                                         spatialIn: nil)
        let b = LottieKeyframe<[Double]>(time: 10, start: [10], end: [30], hold: false, easing: .linear,
                                         spatialOut: nil, spatialIn: nil)
        let c = LottieKeyframe<[Double]>(time: 20, start: nil, end: nil, hold: false, easing: .linear,
                                         spatialOut: nil, spatialIn: nil)
        let property = LottieProperty(keyframes: [a, b, c], path: "o")
        #expect(property.value(at: -5) == [0])       // before the first: its value
        #expect(property.value(at: 9.99) == [0])     // hold
        #expect(property.value(at: 15) == [20])      // old-style "e": 10 -> 30
        #expect(property.value(at: 25) == [30])      // past the last (no "s"): the previous end
    }

    @Test func spatialBezierByArcLength() {
        // A quarter-circle-like path from (0, 0) to (100, 100) bulging through (100, 0): halfway along it the
        // point is near the arc's middle, not on the straight line.
        let kf = LottieKeyframe<[Double]>(time: 0, start: [0, 0], end: nil, hold: false, easing: .linear,
                                          spatialOut: [55, 0], spatialIn: [0, -55])
        let last = LottieKeyframe<[Double]>(time: 10, start: [100, 100], end: nil, hold: false, easing: .linear,
                                            spatialOut: nil, spatialIn: nil)
        let v = LottieProperty(keyframes: [kf, last], path: "p").value(at: 5)!
        #expect(abs(v[0] - 70.7) < 1.5 && abs(v[1] - 29.3) < 1.5, "got \(v)")
    }

    @Test func trimRanges() {
        #expect(LottieGeometry.trimRanges(start: 0, end: 100, offset: 0).map { [$0.0, $0.1] } == [[0, 1]])
        #expect(LottieGeometry.trimRanges(start: 50, end: 50, offset: 0).isEmpty)
        #expect(LottieGeometry.trimRanges(start: 75, end: 25, offset: 0).map { [$0.0, $0.1] } == [[0.25, 0.75]])
        // Offset 180 degrees moves 0...50 % to 50...100 %; 90 degrees wraps 80...100 % round the start.
        #expect(LottieGeometry.trimRanges(start: 0, end: 50, offset: 180).map { [$0.0, $0.1] } == [[0.5, 1]])
        let wrapped = LottieGeometry.trimRanges(start: 80, end: 100, offset: 36)
        #expect(wrapped.count == 2)
        #expect(abs(wrapped[0].0 - 0.9) < 1e-9 && wrapped[0].1 == 1 && wrapped[1].0 == 0 && abs(wrapped[1].1 - 0.1) < 1e-9)
    }

    @Test func primitivesStartWhereLottieWebStarts() {
        let rect = LottieGeometry.rectangle(center: CGPoint(x: 50, y: 50), size: CGSize(width: 40, height: 20),
                                            roundness: 0, reversed: false)
        #expect(rect.vertices.first == CGPoint(x: 70, y: 40))   // top right
        #expect(rect.vertices[1] == CGPoint(x: 70, y: 60))      // then down: clockwise on screen
        let reversed = LottieGeometry.rectangle(center: CGPoint(x: 50, y: 50), size: CGSize(width: 40, height: 20),
                                                roundness: 0, reversed: true)
        #expect(reversed.vertices[1] == CGPoint(x: 30, y: 40))
        let ellipse = LottieGeometry.ellipse(center: .zero, size: CGSize(width: 20, height: 10), reversed: false)
        #expect(ellipse.vertices.first == CGPoint(x: 0, y: -5))
        #expect(ellipse.vertices[1] == CGPoint(x: 10, y: 0))
        let star = LottieGeometry.star(center: .zero, points: 5, outerRadius: 10, innerRadius: 4, outerRoundness: 0,
                                       innerRoundness: 0, rotation: 0, reversed: false)
        #expect(star.vertices.count == 10)
        #expect(abs(star.vertices[0].x) < 1e-9 && abs(star.vertices[0].y + 10) < 1e-9)  // the top point
        let pentagon = LottieGeometry.star(center: .zero, points: 5, outerRadius: 10, innerRadius: nil,
                                           outerRoundness: 0, innerRoundness: 0, rotation: 36, reversed: false)
        #expect(pentagon.vertices.count == 5)
        #expect(abs(pentagon.vertices[0].x - 10 * sin(36 * .pi / 180)) < 1e-9)
    }

    @Test func roundedCornersStayInsideTheEdges() {
        let square = LottieGeometry.rectangle(center: .zero, size: CGSize(width: 20, height: 20), roundness: 0,
                                              reversed: false)
        let rounded = LottieGeometry.roundCorners(square, radius: 50)  // capped at half an edge
        #expect(rounded.vertices.count == 8)
        #expect(rounded.vertices.allSatisfy { abs($0.x) <= 10 + 1e-9 && abs($0.y) <= 10 + 1e-9 })
        #expect(!rounded.path.contains(CGPoint(x: 9.5, y: 9.5), evenOdd: false))
        #expect(rounded.path.contains(CGPoint(x: 0, y: 0), evenOdd: false))
    }
}
