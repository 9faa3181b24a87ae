import Foundation

extension SpringSolution {
    /// CASpringAnimation's settlingDuration: the time at which the spring's amplitude
    /// sqrt(x^2 + (x' / w0)^2) (w0 = sqrt(k / m), so the square is the spring's energy over k / 2) falls to
    /// `settledAmplitude`, 7.0425e-4; `.infinity` when the spring never settles (no damping, or so little that
    /// the time overflows).
    ///
    /// Core Animation does not document its rule. This one is fitted to the values it reports: for mass 1,
    /// stiffness 100, damping 10 and no initial velocity it gives 1.4735 s, as CASpringAnimation reports, and
    /// for damping 5 and 15 (the example in CASpringAnimation's documentation, "approximately 2.85 seconds" and
    /// "just over 1 second") 2.859 s and 1.036 s. The displacement alone (|x| < 0.001) gives 1.270 s, 2.688 s
    /// and 0.800 s, which does not fit.
    ///
    /// The energy m x'^2 / 2 + k x^2 / 2 never grows (its rate is -c x'^2), so "the first time after which the
    /// amplitude stays below the threshold" is the one time it crosses it, found by doubling a reach from the
    /// slowest decay time and bisecting (at most 200 steps, to 1e-13 relative), at the same cost for any
    /// parameters.
    public var settlingDuration: Double {
        let threshold = Self.settledAmplitude * Self.settledAmplitude
        guard a > 0 else { return .infinity }
        let slowRate: Double
        switch regime {
        case .underdamped, .criticallyDamped: slowRate = a
        case .overdamped: slowRate = (stiffness / mass) / (a + omega)
        }
        var reach = 1 / slowRate
        var doublings = 0
        while doublings < 2100, reach.isFinite, squaredAmplitude(at: reach) >= threshold {
            reach *= 2
            doublings += 1
        }
        guard reach.isFinite, doublings < 2100 else { return .infinity }
        var (lo, hi) = (0.0, reach)
        var steps = 0
        while steps < 200, hi - lo > 1e-13 * hi {
            let mid = lo + (hi - lo) / 2
            guard mid > lo, mid < hi else { break }
            if squaredAmplitude(at: mid) >= threshold { lo = mid } else { hi = mid }
            steps += 1
        }
        return hi
    }

    /// x(t)^2 + x'(t)^2 m / k: the spring's energy over k / 2, non-increasing in t.
    public func squaredAmplitude(at t: Double) -> Double {
        let x = displacement(at: t), v = velocity(at: t)
        return x * x + v * v * (mass / stiffness)
    }
}
