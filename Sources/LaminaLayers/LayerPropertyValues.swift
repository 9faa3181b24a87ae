import Foundation
import LaminaCore
import LaminaDrawing

// The types of layer properties, as the property table (LayerProperties.swift) sees them: how a value animates
// (`AnimatableLayerValue`) and how a scene file writes it (`SceneLayerValue`).

/// A type whose values animations interpolate, as one kind of `AnimatedValue`.
protocol AnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { get }
    var animated: AnimatedValue { get }
    /// The value of an animated value of this kind; nil for another kind (ignored, as Core Animation ignores it).
    init?(animated: AnimatedValue)
}

extension CGFloat: AnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { .number }
    var animated: AnimatedValue { .number(Double(self)) }
    init?(animated: AnimatedValue) {
        guard case .vector = animated else { return nil }
        self = CGFloat(animated.number)
    }
}

extension Float: AnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { .number }
    var animated: AnimatedValue { .number(Double(self)) }
    init?(animated: AnimatedValue) {
        guard case .vector = animated else { return nil }
        self = Float(animated.number)
    }
}

extension CGPoint: AnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { .point }
    var animated: AnimatedValue { .point(self) }
    init?(animated: AnimatedValue) {
        guard case .vector = animated else { return nil }
        self = animated.point
    }
}

extension CGSize: AnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { .size }
    var animated: AnimatedValue { .size(self) }
    init?(animated: AnimatedValue) {
        guard case .vector = animated else { return nil }
        self = animated.size
    }
}

extension CGRect: AnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { .rect }
    var animated: AnimatedValue { .rect(self) }
    init?(animated: AnimatedValue) {
        guard case .vector = animated else { return nil }
        self = animated.rect
    }
}

extension Bool: AnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { .flag }
    var animated: AnimatedValue { .flag(self) }
    init?(animated: AnimatedValue) {
        guard case .flag(let flag) = animated else { return nil }
        self = flag
    }
}

extension Transform3D: AnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { .transform }
    var animated: AnimatedValue { .transform(self) }
    init?(animated: AnimatedValue) {
        guard case .transform(let matrix) = animated else { return nil }
        self = matrix
    }
}

/// A colour that is never nil (borderColor): an animation to nil gives clear.
extension Color: AnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { .color }
    var animated: AnimatedValue { .color(self) }
    init?(animated: AnimatedValue) {
        guard case .color(let color) = animated else { return nil }
        self = color ?? .clear
    }
}

/// The wrapped types of optional animatable properties (a colour, an image): nil is a value of its own.
protocol OptionalAnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { get }
    static func animated(_ value: Self?) -> AnimatedValue
    /// `.some(value)` for an animated value of this kind (the inner nil: the property's nil); nil for another kind.
    static func value(_ animated: AnimatedValue) -> Self??
}

extension Optional: AnimatableLayerValue where Wrapped: OptionalAnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { Wrapped.animatedKind }
    var animated: AnimatedValue { Wrapped.animated(self) }
    init?(animated: AnimatedValue) {
        guard let value = Wrapped.value(animated) else { return nil }
        self = value
    }
}

extension Color: OptionalAnimatableLayerValue {
    static func animated(_ value: Color?) -> AnimatedValue { .color(value) }
    static func value(_ animated: AnimatedValue) -> Color?? {
        guard case .color(let color) = animated else { return nil }
        return .some(color)
    }
}

extension Image: OptionalAnimatableLayerValue {
    static var animatedKind: AnimatedValueKind { .image }
    static func animated(_ value: Image?) -> AnimatedValue { .image(value) }
    static func value(_ animated: AnimatedValue) -> Image?? {
        guard case .image(let image) = animated else { return nil }
        return .some(image)
    }
}

/// A type a scene file writes in one of the table's standard forms (`SceneForm`).
package protocol SceneLayerValue {
    static var sceneForm: SceneForm { get }
    /// The value a scene value gives; nil when it is of another form.
    init?(scene: SceneValue)
}

extension CGFloat: SceneLayerValue {
    package static var sceneForm: SceneForm { .number }
    package init?(scene: SceneValue) {
        guard case .number(let number) = scene else { return nil }
        self = CGFloat(number)
    }
}

extension Float: SceneLayerValue {
    package static var sceneForm: SceneForm { .floatNumber }
    package init?(scene: SceneValue) {
        guard case .number(let number) = scene else { return nil }
        self = Float(number)
    }
}

extension Bool: SceneLayerValue {
    package static var sceneForm: SceneForm { .flag }
    package init?(scene: SceneValue) {
        guard case .flag(let flag) = scene else { return nil }
        self = flag
    }
}

extension CGPoint: SceneLayerValue {
    package static var sceneForm: SceneForm { .point }
    package init?(scene: SceneValue) {
        guard case .point(let point) = scene else { return nil }
        self = point
    }
}

extension CGSize: SceneLayerValue {
    package static var sceneForm: SceneForm { .size }
    package init?(scene: SceneValue) {
        guard case .size(let size) = scene else { return nil }
        self = size
    }
}

extension CGRect: SceneLayerValue {
    package static var sceneForm: SceneForm { .rect }
    package init?(scene: SceneValue) {
        guard case .rect(let rect) = scene else { return nil }
        self = rect
    }
}

extension Transform3D: SceneLayerValue {
    package static var sceneForm: SceneForm { .transform }
    package init?(scene: SceneValue) {
        guard case .transform(let matrix) = scene else { return nil }
        self = matrix
    }
}

extension Color: SceneLayerValue {
    package static var sceneForm: SceneForm { .color }
    package init?(scene: SceneValue) {
        guard case .color(let color) = scene else { return nil }
        self = color
    }
}

extension String: SceneLayerValue {
    package static var sceneForm: SceneForm { .string }
    package init?(scene: SceneValue) {
        guard case .string(let string) = scene else { return nil }
        self = string
    }
}

/// An optional colour or name: a scene file gives a value (never null).
extension Optional: SceneLayerValue where Wrapped: SceneLayerValue {
    package static var sceneForm: SceneForm { Wrapped.sceneForm }
    package init?(scene: SceneValue) {
        guard let value = Wrapped(scene: scene) else { return nil }
        self = value
    }
}

/// An enumeration a scene file names by its raw value.
package protocol SceneChoiceValue: SceneLayerValue, CaseIterable, RawRepresentable where RawValue == String {}

extension SceneChoiceValue {
    package static var sceneForm: SceneForm { .choice(allCases.map(\.rawValue)) }
    package init?(scene: SceneValue) {
        guard case .string(let name) = scene, let value = Self(rawValue: name) else { return nil }
        self = value
    }
}

/// An option set a scene file writes as a list of names (`SceneForm.options`): `optionNames[i]` is bit i.
package protocol SceneOptionSetValue: SceneLayerValue, OptionSet where RawValue == UInt {
    static var optionNames: [String] { get }
}

extension SceneOptionSetValue {
    package static var sceneForm: SceneForm { .options(optionNames) }
    package init?(scene: SceneValue) {
        guard case .options(let bits) = scene else { return nil }
        self.init(rawValue: bits)
    }
}
