import Foundation

/// The motion of CASpringAnimation's damped spring in closed form: x(t) solving m x'' + c x' + k x = 0 with
/// x(0) = 1 and x'(0) = -initialVelocity. A spring animation shows from + (to - from) x (1 - x(t)), so x is
/// the fraction of the way still to go and a positive initial velocity moves towards `to`.
///
/// Written as x(t) = e^(-a t) (cos(wd t) + b sin(wd t) / wd) with a = c / 2m, b = a + x'(0), where wd is the
/// damped frequency: real for an underdamped spring, imaginary (cos and sin becoming cosh and sinh) for an
/// overdamped one, and 0 for a critically damped one, where the bracket is 1 + b t. Dividing by wd inside
/// sin(wd t) / wd keeps the solution continuous and exact near the critical case.
///
/// Any numbers give a spring that neither hangs nor traps: a NaN parameter takes its default (mass 1, stiffness
/// 100, damping 10, velocity 0); mass and stiffness are clamped to 1e-6...1e9, damping to 0...1e9 and the
/// initial velocity to -1e9...1e9. Core Animation requires mass and stiffness > 0 and damping >= 0; the upper
/// limits only keep the derived rates finite.
public struct SpringSolution: Hashable, Sendable {
    public enum Regime: Hashable, Sendable {
        case underdamped, criticallyDamped, overdamped
    }

    /// The clamped parameters.
    public let mass: Double
    public let stiffness: Double
    public let damping: Double
    public let initialVelocity: Double
    public let regime: Regime

    /// The decay rate c / 2m.
    let a: Double
    /// x'(0) + a: the sin term's coefficient times wd.
    let b: Double
    /// The damped angular frequency (underdamped), the hyperbolic rate sqrt(a^2 - k/m) (overdamped), or 0.
    let omega: Double

    /// The amplitude below which the spring counts as settled: sqrt(x^2 + x'^2 m / k) < 7.0425e-4, fitted to
    /// Core Animation's settlingDuration (SpringSolution+Settling.swift).
    public static let settledAmplitude = 7.0425e-4

    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
        func clamp(_ v: Double, _ lower: Double, _ upper: Double, _ fallback: Double) -> Double {
            v.isNaN ? fallback : min(max(v, lower), upper)
        }
        let m = clamp(mass, 1e-6, 1e9, 1)
        let k = clamp(stiffness, 1e-6, 1e9, 100)
        let c = clamp(damping, 0, 1e9, 10)
        let v = clamp(initialVelocity, -1e9, 1e9, 0)
        (self.mass, self.stiffness, self.damping, self.initialVelocity) = (m, k, c, v)
        a = c / (2 * m)
        b = a - v
        // The discriminant c^2 - 4 m k, called 0 within rounding of its two terms.
        let discriminant = c * c - 4 * m * k
        if abs(discriminant) <= 1e-12 * max(c * c, 4 * m * k) {
            regime = .criticallyDamped
            omega = 0
        } else if discriminant < 0 {
            regime = .underdamped
            omega = (-discriminant).squareRoot() / (2 * m)
        } else {
            regime = .overdamped
            omega = discriminant.squareRoot() / (2 * m)
        }
    }

    /// x(t): 1 at t = 0, approaching 0. Times before 0 (and NaN) give 1, the spring at rest before it starts;
    /// an infinite time gives 0.
    public func displacement(at t: Double) -> Double {
        guard t > 0 else { return 1 }
        guard t.isFinite else { return 0 }
        switch regime {
        case .criticallyDamped:
            return exp(-a * t) * (1 + b * t)
        case .underdamped:
            let phase = omega * t
            return exp(-a * t) * (cos(phase) + b * sin(phase) / omega)
        case .overdamped:
            let phase = omega * t
            if phase <= 1 {
                // Near critical, sinh(phase) / omega stays accurate where the two exponentials below would
                // cancel.
                return exp(-a * t) * (cosh(phase) + b * sinh(phase) / omega)
            }
            // (cosh + b sinh / omega) e^(-a t) as two exponentials, so neither overflows: the slow rate
            // omega - a = -(k/m) / (a + omega) without cancellation, the fast one -(a + omega).
            let slow = -(stiffness / mass) / (a + omega), fast = -(a + omega)
            let ratio = b / omega
            return 0.5 * (1 + ratio) * exp(slow * t) + 0.5 * (1 - ratio) * exp(fast * t)
        }
    }

    /// x'(t), the rate at which the displacement changes: -initialVelocity at t = 0 (and for t <= 0 or NaN,
    /// the instant the spring is let go), 0 at an infinite time.
    public func velocity(at t: Double) -> Double {
        let t = t > 0 ? t : 0
        guard t.isFinite else { return 0 }
        // x = e^(-a t) g(t), so x' = -a x + e^(-a t) g'(t).
        let e = exp(-a * t), phase = omega * t
        switch regime {
        case .criticallyDamped:
            return -a * displacement(at: t) + e * b
        case .underdamped:
            return -a * displacement(at: t) + e * (-omega * sin(phase) + b * cos(phase))
        case .overdamped:
            if phase <= 1 { return -a * displacement(at: t) + e * (omega * sinh(phase) + b * cosh(phase)) }
            let slow = -(stiffness / mass) / (a + omega), fast = -(a + omega)
            let ratio = b / omega
            return 0.5 * (1 + ratio) * slow * exp(slow * t) + 0.5 * (1 - ratio) * fast * exp(fast * t)
        }
    }
}
