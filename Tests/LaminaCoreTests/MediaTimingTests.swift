import Foundation
import LaminaCore
import Testing

/// Timing functions (cubic Beziers solved to 1e-6) and media clocks.
@Suite struct MediaTimingTests {
    /// Values from an independent solution (200 bisection steps in doubles) of each named curve.
    static let references: [(MediaTimingFunction.Name, [Double])] = [
        (.default, [0.094796306, 0.408510591, 0.802403388, 0.960458978, 0.994316477]),
        (.easeIn, [0.01702661, 0.093464651, 0.315356813, 0.621861869, 0.839427846]),
        (.easeOut, [0.160572154, 0.378138131, 0.684643187, 0.906535349, 0.98297339]),
        (.easeInEaseOut, [0.019722454, 0.129161931, 0.5, 0.870838069, 0.980277546]),
    ]

    @Test func namedFunctionsMatchAnIndependentSolution() {
        for (name, values) in Self.references {
            let function = MediaTimingFunction(name: name)
            for (p, expected) in zip([0.1, 0.25, 0.5, 0.75, 0.9], values) {
                #expect(abs(function.evaluate(p) - expected) < 1e-6, "\(name) at \(p): \(function.evaluate(p))")
            }
        }
    }

    @Test func namedControlPointsAreCoreAnimations() {
        let easeIn = MediaTimingFunction(name: .easeIn)
        #expect(easeIn.controlPoint(at: 1)! == (0.42, 0) && easeIn.controlPoint(at: 2)! == (1, 1))
        #expect(MediaTimingFunction(name: .default) == MediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1))
        #expect(easeIn.controlPoint(at: 0)! == (0, 0) && easeIn.controlPoint(at: 3)! == (1, 1))
        #expect(easeIn.controlPoint(at: 4) == nil && easeIn.controlPoint(at: -1) == nil)
    }

    @Test func linearIsTheIdentityAndEndsAreFixed() {
        let linear = MediaTimingFunction(name: .linear)
        for p in stride(from: 0.0, through: 1.0, by: 0.05) { #expect(abs(linear.evaluate(p) - p) < 1e-12) }
        for name in MediaTimingFunction.Name.allCases {
            let function = MediaTimingFunction(name: name)
            #expect(function.evaluate(0) == 0 && function.evaluate(1) == 1, "\(name)")
        }
    }

    @Test func everyCurveIsSolvedToAMillionth() {
        // Steep and flat curves, where Newton's method alone strays: compared with a bisection of the curve.
        let curves = [(0.0, 0.0, 0.0, 1.0), (1.0, 0.0, 0.0, 1.0), (0.9, -0.5, 0.1, 1.5), (0.0, 1.0, 1.0, 0.0),
                      (1.0, 1.0, 0.0, 0.0), (0.5, 2.0, 0.5, -1.0)]
        for (x1, y1, x2, y2) in curves {
            let function = MediaTimingFunction(controlPoints: Float(x1), Float(y1), Float(x2), Float(y2))
            let (a, b, c, d) = (Double(Float(x1)), Double(Float(y1)), Double(Float(x2)), Double(Float(y2)))
            func bezier(_ s: Double, _ p: Double, _ q: Double) -> Double {
                3 * (1 - s) * (1 - s) * s * p + 3 * (1 - s) * s * s * q + s * s * s
            }
            for p in stride(from: 0.0, through: 1.0, by: 1.0 / 64) {
                var (lo, hi) = (0.0, 1.0)
                for _ in 0..<200 {
                    let m = (lo + hi) / 2
                    if bezier(m, a, c) < p { lo = m } else { hi = m }
                }
                let expected = bezier((lo + hi) / 2, b, d)
                #expect(abs(function.evaluate(p) - expected) < 1e-6, "(\(x1), \(y1), \(x2), \(y2)) at \(p)")
            }
        }
    }

    @Test func anyNumbersGiveAFunction() {
        let wild = MediaTimingFunction(controlPoints: .nan, .infinity, 7, -.infinity)
        #expect(wild.controlPoint(at: 1)! == (0, 0) && wild.controlPoint(at: 2)! == (1, 0))
        let function = MediaTimingFunction(name: .easeInEaseOut)
        #expect(function.evaluate(-3) == 0 && function.evaluate(9) == 1 && function.evaluate(.nan) == 0)
        #expect(function.evaluate(.infinity) == 1)
    }

    @Test func aManualClockShowsTheTimeItIsGiven() {
        let clock = ManualClock(time: 2)
        #expect(clock.time == 2)
        clock.time = 5.5
        clock.advance(by: 0.25)
        clock.time = .nan
        #expect(clock.time == 5.75)
        let previous = MediaClock.current
        defer { MediaClock.current = previous }
        MediaClock.current = clock
        #expect(currentMediaTime() == 5.75)
    }

    @Test func theMonotonicClockNeverGoesBack() {
        var last = MediaClock.monotonic.time
        for _ in 0..<1000 {
            let now = MediaClock.monotonic.time
            #expect(now >= last)
            last = now
        }
        #expect(last > 0)
    }
}
