import Foundation
import Testing

@testable import LaminaCore

/// SpringSolution's closed forms against numerical integration, and settlingDuration against a brute-force scan.
@Suite struct SpringSolutionTests {
    /// The largest difference between x(t) in closed form and an RK4 integration of m x'' + c x' + k x = 0 with
    /// step `dt`, over 0...duration.
    func largestErrorAgainstRK4(_ spring: SpringSolution, duration: Double, dt: Double = 1e-4) -> Double {
        let (m, c, k) = (spring.mass, spring.damping, spring.stiffness)
        func acceleration(_ x: Double, _ v: Double) -> Double { -(c * v + k * x) / m }
        var (x, v, t) = (1.0, -spring.initialVelocity, 0.0)
        var largest = 0.0
        while t < duration {
            let k1x = v, k1v = acceleration(x, v)
            let k2x = v + dt / 2 * k1v, k2v = acceleration(x + dt / 2 * k1x, v + dt / 2 * k1v)
            let k3x = v + dt / 2 * k2v, k3v = acceleration(x + dt / 2 * k2x, v + dt / 2 * k2v)
            let k4x = v + dt * k3v, k4v = acceleration(x + dt * k3x, v + dt * k3v)
            x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t += dt
            largest = max(largest, abs(spring.displacement(at: t) - x), abs(spring.velocity(at: t) - v) / 100)
        }
        return largest
    }

    /// The last sampled time at which the amplitude sqrt(x^2 + x'^2 m / k) >= 7.0425e-4, scanning 0...duration in
    /// steps of `dt`.
    func lastTimeAbove(_ spring: SpringSolution, duration: Double, dt: Double) -> Double {
        var last = 0.0
        var t = 0.0
        let threshold = SpringSolution.settledAmplitude * SpringSolution.settledAmplitude
        while t <= duration {
            if spring.squaredAmplitude(at: t) >= threshold { last = t }
            t += dt
        }
        return last
    }

    static let springs: [(name: String, spring: SpringSolution, regime: SpringSolution.Regime)] = [
        ("default", SpringSolution(), .underdamped),
        ("light", SpringSolution(mass: 2, stiffness: 300, damping: 3, initialVelocity: -4), .underdamped),
        ("critical", SpringSolution(mass: 1, stiffness: 100, damping: 20), .criticallyDamped),
        ("critical, thrown past", SpringSolution(mass: 1, stiffness: 100, damping: 20, initialVelocity: 40),
         .criticallyDamped),
        ("overdamped", SpringSolution(mass: 1, stiffness: 100, damping: 30), .overdamped),
        ("overdamped, thrown past", SpringSolution(mass: 0.5, stiffness: 50, damping: 40, initialVelocity: 90),
         .overdamped),
        ("overdamped, thrown back", SpringSolution(mass: 1, stiffness: 100, damping: 25, initialVelocity: -30),
         .overdamped),
        ("just under critical", SpringSolution(mass: 1, stiffness: 100, damping: 20 - 1e-7, initialVelocity: 5),
         .underdamped),
        ("just over critical", SpringSolution(mass: 1, stiffness: 100, damping: 20 + 1e-7, initialVelocity: 5),
         .overdamped),
    ]

    @Test(arguments: 0..<springs.count) func closedFormMatchesIntegration(_ index: Int) {
        let (name, spring, regime) = Self.springs[index]
        #expect(spring.regime == regime, "\(name)")
        #expect(spring.displacement(at: 0) == 1)
        #expect(spring.velocity(at: 0) == -spring.initialVelocity)
        let error = largestErrorAgainstRK4(spring, duration: 3)
        #expect(error < 1e-9, "\(name): \(error)")
    }

    @Test(arguments: 0..<springs.count) func settlingDurationIsTheLastCrossing(_ index: Int) {
        let (name, spring, _) = Self.springs[index]
        let settling = spring.settlingDuration
        let scanned = lastTimeAbove(spring, duration: 2 * settling + 1, dt: 1e-4)
        #expect(settling > scanned && settling - scanned <= 1e-4, "\(name): \(settling) against \(scanned)")
        // The crossing itself, to far finer than the scan.
        let threshold = SpringSolution.settledAmplitude * SpringSolution.settledAmplitude
        #expect(spring.squaredAmplitude(at: settling) < threshold, "\(name)")
        #expect(spring.squaredAmplitude(at: settling * (1 - 1e-9)) >= threshold, "\(name)")
    }

    @Test func settlingDurationIsCoreAnimations() {
        // CASpringAnimation reports 1.4735 s for its defaults (mass 1, stiffness 100, damping 10); its
        // documentation's example says "approximately 2.85 seconds" for damping 5 and "just over 1 second" for 15.
        let spring = SpringSolution()
        #expect(abs(spring.settlingDuration - 1.4735) < 5e-5, "\(spring.settlingDuration)")
        let scanned = lastTimeAbove(spring, duration: 5, dt: 1e-6)
        #expect(abs(spring.settlingDuration - scanned) <= 1e-6, "\(spring.settlingDuration) against \(scanned)")
        let five = SpringSolution(damping: 5).settlingDuration, fifteen = SpringSolution(damping: 15).settlingDuration
        #expect(abs(five - 2.8594) < 5e-4, "\(five)")
        #expect(abs(fifteen - 1.0357) < 5e-4, "\(fifteen)")
    }

    @Test func settlingDurationHoldsForRandomSprings() {
        // Log-uniform parameters over six decades and velocities either way, every regime: after the settling
        // time the amplitude stays below the threshold (sampled to three times it) and just before it, it is not.
        var state: UInt64 = 15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let threshold = SpringSolution.settledAmplitude * SpringSolution.settledAmplitude
        var regimes: Set<SpringSolution.Regime> = []
        for _ in 0..<400 {
            let spring = SpringSolution(mass: pow(10, 6 * next() - 3), stiffness: pow(10, 6 * next() - 3),
                                        damping: pow(10, 6 * next() - 3), initialVelocity: 200 * next() - 100)
            regimes.insert(spring.regime)
            let settling = spring.settlingDuration
            guard settling.isFinite, settling > 0 else {
                Issue.record("\(spring): \(settling)")
                continue
            }
            #expect(spring.squaredAmplitude(at: settling * (1 - 1e-7)) >= threshold, "\(spring)")
            let after = (0...2000).map { spring.squaredAmplitude(at: settling * (1 + Double($0) / 1000)) }
            #expect(after.allSatisfy { $0 < threshold }, "\(spring)")
        }
        #expect(regimes == [.underdamped, .overdamped])
    }

    @Test func criticalIsChosenNearAZeroDiscriminant() {
        // c^2 - 4 m k is 0 only up to rounding for these.
        let spring = SpringSolution(mass: 0.1, stiffness: 0.3, damping: (4 * 0.1 * 0.3).squareRoot())
        #expect(spring.regime == .criticallyDamped)
        #expect(largestErrorAgainstRK4(spring, duration: 3, dt: 1e-3) < 1e-9)
    }

    @Test func unusableParametersAreClamped() {
        let zero = SpringSolution(mass: 0, stiffness: -5, damping: -1, initialVelocity: .nan)
        #expect(zero.mass == 1e-6 && zero.stiffness == 1e-6 && zero.damping == 0 && zero.initialVelocity == 0)
        #expect(zero.settlingDuration == .infinity)
        let nan = SpringSolution(mass: .nan, stiffness: .nan, damping: .nan)
        #expect(nan.mass == 1 && nan.stiffness == 100 && nan.damping == 10)
        let huge = SpringSolution(mass: .infinity, stiffness: .infinity, damping: .infinity,
                                  initialVelocity: -.infinity)
        #expect(huge.mass == 1e9 && huge.stiffness == 1e9 && huge.damping == 1e9 && huge.initialVelocity == -1e9)
        for spring in [huge, SpringSolution(mass: 1e-6, stiffness: 1e9, damping: 1e-300),
                       SpringSolution(mass: 1e9, stiffness: 1e-6, damping: 1e9, initialVelocity: 1e9),
                       SpringSolution(mass: 1e-6, stiffness: 1e-6, damping: 1e9, initialVelocity: -1e9)] {
            let settling = spring.settlingDuration
            #expect(settling > 0 && !settling.isNaN, "\(spring)")
            for t in [0, 1e-9, 1, 1e6, 1e300, .infinity] { #expect(spring.displacement(at: t).isFinite, "\(spring) \(t)") }
        }
        #expect(SpringSolution().displacement(at: -1) == 1 && SpringSolution().displacement(at: .nan) == 1)
        #expect(SpringSolution().displacement(at: .infinity) == 0)
    }

    @Test func undampedSpringNeverSettlesButStaysBounded() {
        let spring = SpringSolution(damping: 0)
        #expect(spring.settlingDuration == .infinity)
        #expect(abs(spring.displacement(at: 0.1 * .pi) - cos(10 * 0.1 * .pi)) < 1e-12)
    }
}
