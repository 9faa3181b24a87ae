import Foundation
import LaminaCore
import LaminaLayers

/// Core Animation's timing protocol, which layers and animations adopt: each maps its parent's time to its own
/// (docs/animation.md, "Timing").
public protocol CAMediaTiming: AnyObject {
    var beginTime: CFTimeInterval { get set }
    var duration: CFTimeInterval { get set }
    var speed: Float { get set }
    var timeOffset: CFTimeInterval { get set }
    var repeatCount: Float { get set }
    var repeatDuration: CFTimeInterval { get set }
    var autoreverses: Bool { get set }
    var fillMode: CAMediaTimingFillMode { get set }
}

extension Layer: CAMediaTiming {}
extension Animation: CAMediaTiming {}
extension EmitterCell: CAMediaTiming {}

extension MediaTimingFunction {
    /// Writes control point `index` (0...3: (0, 0), the two control points, (1, 1)) into `values[0]` and
    /// `values[1]`, as CAMediaTimingFunction's `getControlPoint(at:values:)`; an index out of range writes nothing.
    public func getControlPoint(at index: Int, values ptr: UnsafeMutablePointer<Float>) {
        guard let point = controlPoint(at: index) else { return }
        ptr[0] = point.x
        ptr[1] = point.y
    }
}

extension SpringAnimation {
    /// A spring of mass 1 that takes about `perceptualDuration` seconds to look settled, with `bounce` from -1 (very
    /// overdamped) through 0 (critically damped) to 1 (no damping), as Core Animation's (and SwiftUI's)
    /// `init(perceptualDuration:bounce:)`: stiffness (2π / duration)², damping 4π (1 - bounce) / duration for a bounce
    /// of 0 or more, 4π / (duration (1 + bounce)) below. The animation's `duration` is its `settlingDuration`.
    public convenience init(perceptualDuration: TimeInterval, bounce: CGFloat) {
        self.init()
        let duration = perceptualDuration.isFinite && perceptualDuration > 0 ? perceptualDuration : 0.5
        let b = Double(min(max(bounce.isFinite ? bounce : 0, -1), 1))
        mass = 1
        stiffness = pow(2 * Double.pi / duration, 2)
        damping = b >= 0 ? 4 * Double.pi * (1 - b) / duration : 4 * Double.pi / (duration * max(1 + b, 1e-6))
        self.duration = settlingDuration.isFinite ? settlingDuration : duration
    }

    /// The perceptual duration of the spring: 2π / √(stiffness / mass) (the period of the undamped spring).
    public var perceptualDuration: TimeInterval {
        guard stiffness > 0, mass > 0 else { return 0 }
        return 2 * Double.pi / (stiffness / mass).squareRoot()
    }

    /// How much the spring bounces: 1 - damping / (4π √(mass · stiffness) / (2π)) for an underdamped spring, the
    /// inverse of `init(perceptualDuration:bounce:)`'s mapping.
    public var bounce: CGFloat {
        guard stiffness > 0, mass > 0 else { return 0 }
        let critical = 2 * (mass * stiffness).squareRoot()
        let ratio = damping / critical
        return ratio <= 1 ? CGFloat(1 - ratio) : CGFloat(1 / ratio - 1)
    }
}
