import Foundation
import LaminaCore

/// Core Animation's CAValueFunction: turns the numbers a property animation interpolates into the transform it
/// shows, so `rotateZ` from 0 to 4π turns twice (interpolating the matrices could not). Set it as a property
/// animation's `valueFunction` on a transform key path (`transform`, `sublayerTransform`, `instanceTransform`); the
/// animation's values are then numbers (`rotate…`, `scaleX`…, `translateX`…: one number; `scale` and `translate`:
/// an array of three numbers, or one number for all three).
public final class ValueFunction: Equatable, @unchecked Sendable {
    /// The functions, with Core Animation's raw values (CAValueFunctionName).
    public enum Name: String, CaseIterable, Hashable, Sendable {
        case rotateX, rotateY, rotateZ, scale, scaleX, scaleY, scaleZ, translate, translateX, translateY, translateZ
    }

    public let name: Name

    /// The function `name` (always made: every name is known; failable as Core Animation's initialiser is).
    public init?(name: Name) {
        self.name = name
    }

    public static func == (lhs: ValueFunction, rhs: ValueFunction) -> Bool { lhs.name == rhs.name }

    /// How many numbers the function reads.
    var inputCount: Int { name == .scale || name == .translate ? 3 : 1 }

    /// The input that gives the identity (0 for rotations and translations, 1 for scales).
    var identityInput: AnimatedValue {
        switch name {
        case .scale: .vector(SIMD4(1, 1, 1, 0), count: 3)
        case .translate: .vector(.zero, count: 3)
        case .scaleX, .scaleY, .scaleZ: .number(1)
        default: .number(0)
        }
    }

    /// An animation value as this function's input: a number, or three numbers (one number means all three).
    func input(_ value: Any) -> AnimatedValue? {
        if inputCount == 1 { return AnimatedValueKind.double(value).map(AnimatedValue.number) }
        if let x = AnimatedValueKind.double(value) { return .vector(SIMD4(x, x, x, 0), count: 3) }
        guard let list = value as? [Any], list.count == 3 else { return nil }
        let numbers = list.compactMap(AnimatedValueKind.double)
        guard numbers.count == 3 else { return nil }
        return .vector(SIMD4(numbers[0], numbers[1], numbers[2], 0), count: 3)
    }

    /// The transform of an input value.
    func transform(_ value: AnimatedValue) -> Transform3D {
        let v = value.components
        switch name {
        case .rotateX: return Transform3D(rotationAngle: CGFloat(v[0]), x: 1, y: 0, z: 0)
        case .rotateY: return Transform3D(rotationAngle: CGFloat(v[0]), x: 0, y: 1, z: 0)
        case .rotateZ: return Transform3D(rotationAngle: CGFloat(v[0]), x: 0, y: 0, z: 1)
        case .scale: return Transform3D(scaleX: CGFloat(v[0]), y: CGFloat(v[1]), z: CGFloat(v[2]))
        case .scaleX: return Transform3D(scaleX: CGFloat(v[0]), y: 1, z: 1)
        case .scaleY: return Transform3D(scaleX: 1, y: CGFloat(v[0]), z: 1)
        case .scaleZ: return Transform3D(scaleX: 1, y: 1, z: CGFloat(v[0]))
        case .translate: return Transform3D(translationX: CGFloat(v[0]), y: CGFloat(v[1]), z: CGFloat(v[2]))
        case .translateX: return Transform3D(translationX: CGFloat(v[0]), y: 0, z: 0)
        case .translateY: return Transform3D(translationX: 0, y: CGFloat(v[0]), z: 0)
        case .translateZ: return Transform3D(translationX: 0, y: 0, z: CGFloat(v[0]))
        }
    }
}
