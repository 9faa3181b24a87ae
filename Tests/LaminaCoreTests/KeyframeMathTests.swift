import Foundation
import Testing

@testable import LaminaCore

/// KeyframeMath with hand-computed numbers.
@Suite struct KeyframeMathTests {
    func close(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ tolerance: Double = 1e-12) -> Bool {
        ((a - b) * (a - b)).sum().squareRoot() <= tolerance
    }

    func close(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-12) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test func catmullRomPassesThroughItsPointsWithHalfChordTangents() {
        let (p0, p1, p2, p3) = (SIMD4<Double>(0, 0, 0, 0), SIMD4<Double>(1, 2, 0, 0), SIMD4<Double>(3, 2, 0, 0),
                                SIMD4<Double>(4, 0, 0, 0))
        #expect(close(KeyframeMath.catmullRom(p0, p1, p2, p3, 0), p1))
        #expect(close(KeyframeMath.catmullRom(p0, p1, p2, p3, 1), p2))
        // The midpoint of a Catmull-Rom segment: (-p0 + 9 p1 + 9 p2 - p3) / 16.
        #expect(close(KeyframeMath.catmullRom(p0, p1, p2, p3, 0.5), SIMD4(2, 2.25, 0, 0)))
        // The tangent at t = 0 is (p2 - p0) / 2 = (1.5, 1): a small step moves that way.
        let h = 1e-6
        let step = KeyframeMath.catmullRom(p0, p1, p2, p3, h)
        #expect(abs((step[0] - 1) / h - 1.5) < 1e-5 && abs((step[1] - 2) / h - 1) < 1e-5)
        // Evenly spaced points on a line stay on the line at even speed.
        #expect(close(KeyframeMath.catmullRom(SIMD4(0, 0, 0, 0), SIMD4(1, 0, 0, 0), SIMD4(2, 0, 0, 0),
                                              SIMD4(3, 0, 0, 0), 0.25), SIMD4(1.25, 0, 0, 0)))
    }

    @Test func catmullRomWithTheEndsDoubled() {
        // Values 0, 10, 0, 10: the first segment has p0 = p1 = 0, p2 = 10, p3 = 0: (-0 + 0 + 90 - 0) / 16.
        let (zero, ten) = (SIMD4<Double>(0, 0, 0, 0), SIMD4<Double>(10, 0, 0, 0))
        #expect(close(KeyframeMath.catmullRom(zero, zero, ten, zero, 0.5), SIMD4(90.0 / 16, 0, 0, 0)))
        // The last: p0 = 10, p1 = 0, p2 = p3 = 10: (-10 + 0 + 90 - 10) / 16.
        #expect(close(KeyframeMath.catmullRom(ten, zero, ten, ten, 0.5), SIMD4(70.0 / 16, 0, 0, 0)))
    }

    @Test func kochanekBartelsWithZeroParametersIsCatmullRom() {
        let (p0, p1, p2, p3) = (SIMD4<Double>(0, 0, 0, 0), SIMD4<Double>(1, 2, 0, 0), SIMD4<Double>(3, 2, 0, 0),
                                SIMD4<Double>(4, 0, 0, 0))
        for s in [0, 0.25, 0.5, 0.8, 1] {
            #expect(close(KeyframeMath.kochanekBartels(p0, p1, p2, p3, s), KeyframeMath.catmullRom(p0, p1, p2, p3, s)))
            let w = KeyframeMath.hermiteWeights(s, start: KeyframeMath.TCB(tension: 0.3, continuity: -0.2, bias: 0.7),
                                                end: KeyframeMath.TCB(tension: -0.5, continuity: 0.4, bias: -1))
            #expect(abs(w.sum() - 1) < 1e-12)  // an affine combination: any value that adds and scales
        }
    }

    @Test func kochanekBartelsHandWorked() {
        func kb(_ values: [Double], _ s: Double, _ start: KeyframeMath.TCB, _ end: KeyframeMath.TCB) -> Double {
            KeyframeMath.kochanekBartels(SIMD4(values[0], 0, 0, 0), SIMD4(values[1], 0, 0, 0), SIMD4(values[2], 0, 0, 0),
                                         SIMD4(values[3], 0, 0, 0), s, start: start, end: end)[0]
        }
        // Tension 1: no tangents, the value is p1 h00 + p2 h01; h01(0.25) = 3/16 - 2/64 = 10/64.
        let tight = KeyframeMath.TCB(tension: 1)
        #expect(abs(kb([50, 0, 10, -40], 0.25, tight, tight) - 1.5625) < 1e-12)
        // Continuity -1: both tangents are the chord, so the segment is straight.
        let corner = KeyframeMath.TCB(continuity: -1)
        #expect(abs(kb([50, 0, 10, -40], 0.25, corner, corner) - 2.5) < 1e-12)
        // Bias 1 at p1: the tangent leaving it is p1 - p0 = 4; the one arriving at p2 (0) is 2/2 + 0/2 = 1.
        // Hermite at 0.5: 0.5 x 4 + 0.125 x 4 + 0.5 x 6 - 0.125 x 1 = 5.375.
        #expect(abs(kb([0, 4, 6, 6], 0.5, KeyframeMath.TCB(bias: 1), .zero) - 5.375) < 1e-12)
        // Continuity 1 at p2 with p3 = p2 + 10: the arriving tangent is all (p3 - p2) = 10, the leaving one at
        // p1 (0) is (0 - 0)/2 + (2 - 0)/2 = 1: 0.5 x 0 + 0.125 x 1 + 0.5 x 2 - 0.125 x 10 = -0.125.
        #expect(abs(kb([0, 0, 2, 12], 0.5, .zero, KeyframeMath.TCB(continuity: 1)) + 0.125) < 1e-12)
    }

    @Test func pacedKeyTimesFollowTheLegs() {
        // Legs of 5, 0 and 15.
        #expect(close(KeyframeMath.pacedKeyTimes(legs: [5, 0, 15]), [0, 0.25, 0.25, 1]))
        #expect(KeyframeMath.pacedKeyTimes(legs: [0, 0]) == [0, 0.5, 1])
        #expect(KeyframeMath.pacedKeyTimes(legs: [.infinity, 1]) == [0, 0.5, 1])
        #expect(KeyframeMath.pacedKeyTimes(legs: [.nan, 1]) == [0, 0.5, 1])
        #expect(KeyframeMath.pacedKeyTimes(legs: []) == [0])
    }

    @Test func segmentsOfProgress() {
        let keyTimes = [0, 0.25, 0.5, 1]
        #expect(KeyframeMath.segment(for: 0, keyTimes: keyTimes) == (0, 0))
        #expect(KeyframeMath.segment(for: 0.125, keyTimes: keyTimes) == (0, 0.5))
        #expect(KeyframeMath.segment(for: 0.25, keyTimes: keyTimes) == (1, 0))
        #expect(KeyframeMath.segment(for: 0.75, keyTimes: keyTimes) == (2, 0.5))
        #expect(KeyframeMath.segment(for: 1, keyTimes: keyTimes) == (2, 1))
        // Outside 0...1 the end segments carry on.
        #expect(KeyframeMath.segment(for: 1.25, keyTimes: keyTimes) == (2, 1.5))
        #expect(KeyframeMath.segment(for: -0.125, keyTimes: keyTimes) == (0, -0.5))
        #expect(KeyframeMath.segment(for: .infinity, keyTimes: keyTimes) == (2, 1))
        #expect(KeyframeMath.segment(for: -.infinity, keyTimes: keyTimes) == (0, 0))
        #expect(KeyframeMath.segment(for: .nan, keyTimes: keyTimes) == (0, 0))
    }

    @Test func tiedKeyTimesJumpToTheLaterValue() {
        let keyTimes = [0, 0.5, 0.5, 1]
        #expect(KeyframeMath.segment(for: 0.4, keyTimes: keyTimes) == (0, 0.8))
        #expect(KeyframeMath.segment(for: 0.5, keyTimes: keyTimes) == (2, 0))
        #expect(KeyframeMath.segment(for: 0.75, keyTimes: keyTimes) == (2, 0.5))
        // A zero-length segment at either end.
        let ends = [0, 0, 0.5, 1, 1]
        #expect(KeyframeMath.segment(for: 0, keyTimes: ends) == (1, 0))
        #expect(KeyframeMath.segment(for: -0.1, keyTimes: ends) == (0, 0))
        #expect(KeyframeMath.segment(for: 1, keyTimes: ends) == (3, 1))
        let late = KeyframeMath.segment(for: 0.99, keyTimes: ends)
        #expect(late.index == 2 && abs(late.local - 0.98) < 1e-12)
        #expect(KeyframeMath.segment(for: 0.5, keyTimes: [1, 1]) == (0, 0))
        #expect(KeyframeMath.segment(for: 0.5, keyTimes: [0]) == (0, 0))
    }

    @Test func discreteModeReadsTheValueIndex() {
        // Three values, four key times: value k from keyTimes[k].
        let keyTimes = [0, 0.2, 0.7, 1]
        let shown = [0, 0.1, 0.2, 0.69, 0.7, 0.99, 1].map { KeyframeMath.segment(for: $0, keyTimes: keyTimes).index }
        #expect(shown == [0, 0, 1, 1, 2, 2, 2])
    }

    @Test func aSegmentSearchMatchesALinearScan() {
        var keyTimes = [0.0]
        for i in 1..<50 { keyTimes.append(keyTimes[i - 1] + (i % 7 == 0 ? 0 : Double(i % 5 + 1))) }
        let total = keyTimes.last!
        keyTimes = keyTimes.map { $0 / total }
        for step in 0...1000 {
            let p = Double(step) / 1000
            let found = KeyframeMath.segment(for: p, keyTimes: keyTimes)
            let expected = min((0..<keyTimes.count - 1).last { keyTimes[$0] <= p }!, keyTimes.count - 2)
            #expect(found.index == expected, "p \(p)")
            let (start, end) = (keyTimes[found.index], keyTimes[found.index + 1])
            #expect(abs(start + found.local * (end - start) - p) < 1e-12)
        }
    }
}
