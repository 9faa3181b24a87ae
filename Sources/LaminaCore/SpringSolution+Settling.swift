import Foundation

extension SpringSolution {
    /// The first time after which |x(t)| stays below `settledDisplacement` (0.001): CASpringAnimation's
    /// settlingDuration. 0 never happens (x(0) = 1); `.infinity` when the spring never settles, which is when
    /// damping is 0 (or so small that the time overflows).
    ///
    /// Found without stepping through the motion, so it costs the same for any parameters: the motion splits
    /// into pieces on which |x| is monotonic, the piece holding the last crossing is found in closed form, and
    /// the crossing is refined by bisection (at most 200 steps, to 1e-13 relative).
    ///
    /// - Underdamped: the extrema of x fall every pi / wd after the first, and their sizes decay exactly as
    ///   e^(-a t), so the last extremum above 0.001 is computed directly; the crossing follows it within half
    ///   a period (after it, |x| falls to 0 and then rises only to the next, smaller extremum).
    /// - Critically damped and overdamped: x has at most one zero and one extremum, both in closed form; past
    ///   the later of them |x| falls monotonically to 0.
    public var settlingDuration: Double {
        let epsilon = Self.settledDisplacement
        guard a > 0 else { return .infinity }
        switch regime {
        case .underdamped:
            // x' = 0 where tan(wd t) = x'(0) wd / (a b + wd^2); the first such t >= 0.
            let halfPeriod = Double.pi / omega
            var first = atan2((b - a) * omega, a * b + omega * omega).truncatingRemainder(dividingBy: .pi)
            if first < 0 { first += .pi }
            let firstTime = first / omega
            // |x| at the extrema is size x e^(-a t).
            let size = abs(cos(first) + b * sin(first) / omega)
            let lastAbove = log(size / epsilon) / a
            guard lastAbove.isFinite else { return .infinity }
            if size <= epsilon || lastAbove < firstTime {
                // x is monotonic from 1 down to within 0.001 at the first extremum.
                return crossing(from: 0, to: firstTime)
            }
            let k = ((lastAbove - firstTime) / halfPeriod).rounded(.down)
            let extremum = firstTime + k * halfPeriod
            guard extremum.isFinite else { return .infinity }
            return crossing(from: extremum, to: extremum + halfPeriod)
        case .criticallyDamped, .overdamped:
            var breaks = [0.0]
            if let zero = hyperbolicRoot(1 / -b), zero > 0 { breaks.append(zero) }
            if let turn = hyperbolicRoot((a - b) / (omega * omega - a * b)), turn > 0 { breaks.append(turn) }
            breaks.sort()
            let last = breaks[breaks.count - 1]
            if abs(displacement(at: last)) >= epsilon {
                // The tail: |x| falls monotonically; double the reach until it is below 0.001.
                let slowRate = regime == .criticallyDamped ? a : (stiffness / mass) / (a + omega)
                var reach = 1 / slowRate
                var doublings = 0
                while doublings < 2100, (last + reach).isFinite, abs(displacement(at: last + reach)) >= epsilon {
                    reach *= 2
                    doublings += 1
                }
                guard (last + reach).isFinite else { return .infinity }
                return crossing(from: last, to: last + reach)
            }
            for i in stride(from: breaks.count - 2, through: 0, by: -1)
            where abs(displacement(at: breaks[i])) >= epsilon {
                return crossing(from: breaks[i], to: breaks[i + 1])
            }
            return 0  // Unreachable: x(0) = 1.
        }
    }

    /// The t > 0 where tanh(wd t) / wd = `value` (where value = t when wd = 0), or nil when there is none. The
    /// zero and the extremum of a non-oscillating spring both have this form.
    private func hyperbolicRoot(_ value: Double) -> Double? {
        guard value > 0, value.isFinite else { return nil }
        if omega == 0 { return value }
        let z = omega * value
        guard z < 1 else { return nil }
        return atanh(z) / omega
    }

    /// The time in lo...hi where |x| falls through 0.001, given |x(lo)| >= 0.001 > |x(hi)| and |x| above the
    /// threshold on a prefix of the interval only.
    private func crossing(from lo: Double, to hi: Double) -> Double {
        let epsilon = Self.settledDisplacement
        var (lo, hi) = (lo, hi)
        var steps = 0
        while steps < 200, hi - lo > 1e-13 * hi {
            let mid = lo + (hi - lo) / 2
            guard mid > lo, mid < hi else { break }
            if abs(displacement(at: mid)) >= epsilon { lo = mid } else { hi = mid }
            steps += 1
        }
        return hi
    }
}
