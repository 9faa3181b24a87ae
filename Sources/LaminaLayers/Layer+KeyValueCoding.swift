import Foundation
import LaminaCore
import LaminaDrawing

// Key-value coding of layers (docs/porting-layers.md): CALayer's `value(forKey:)` and `setValue(_:forKey:)` over
// the property table (LayerProperties.swift) and the animatable key paths (AnimatableProperty.swift), with no list
// of keys of its own, and the custom keys a layer stores in `LayerState.customValues`.

extension Layer {
    /// The state `value(forKey:)` reads: the model, or, while this thread's frame draws the layer with an animated
    /// custom-drawn key, the state that frame presents.
    private func keyValueState() -> LayerState {
        let thread = ThreadTransactions.current
        if !thread.presenting.isEmpty, let presented = thread.presenting[ObjectIdentifier(self)] { return presented }
        return read { $0 }
    }

    func keyValue(forKeyPath keyPath: String) -> Any? {
        // A specialised layer's key over its own property.
        if let styleKey = type(of: self).styleKeys[keyPath] { return styleKey.get(self) }
        let state = keyValueState()
        // A property of the table, by its key or Swift name (hidden, isHidden).
        if let property = LayerProperty.byKeyValueKey[keyPath] {
            return keyValueBox(property.value(in: state))
        }
        // An animatable key path (position.x, transform.rotation.z) or a specialised layer's key.
        if let property = AnimatableProperty.named(keyPath) {
            return property.get(state).boxed(kind: property.kind, like: nil)
        }
        if let timing = MediaTiming.keyValueKeys[keyPath] { return state.timing[keyPath: timing] }
        switch keyPath {
        case "frame": return frame
        case "sublayers": return sublayers
        case "superlayer": return superlayer
        case "mask": return mask
        case "delegate": return delegate
        case "actions": return actions
        case "style": return style
        default: break
        }
        if let stored = state.customValues[keyPath] { return stored }
        if let stored = type(of: self).defaultValue(forKey: keyPath) { return stored }
        // A key path into a custom value (a point's x, a rect's size.width) or through a related layer.
        guard let dot = keyPath.firstIndex(of: ".") else { return nil }
        let head = String(keyPath[..<dot]), rest = String(keyPath[keyPath.index(after: dot)...])
        let value = keyValue(forKeyPath: head)
        if let layer = value as? Layer { return layer.value(forKeyPath: rest) }
        guard let kind = AnimatedValueKind.inferred(from: value), let animated = kind.convert(value),
            let part = AnimatableProperty.subPath(rest, of: kind)
        else { return nil }
        return part.get(animated).boxed(kind: part.kind, like: nil)
    }

    func setKeyValue(_ value: Any?, forKeyPath keyPath: String) {
        let value = value is NSNull ? nil : value
        if let styleKey = type(of: self).styleKeys[keyPath] {
            styleKey.set(self, value)
            markForDisplayIfNeeded(key: keyPath)
            return
        }
        if let property = LayerProperty.byKeyValueKey[keyPath], let assign = property.declaration.assign {
            if property.field == .bounds {
                if let rect = coerceLayerValue(value, to: CGRect.self) { bounds = rect }
            } else {
                write(property.field) { _ = assign(&$0, value) }
            }
            markForDisplayIfNeeded(key: property.key)
            return
        }
        if let property = AnimatableProperty.named(keyPath) {
            guard let animated = property.kind.convert(value) else { return }
            let root = String(keyPath.prefix { $0 != "." })
            if let field = LayerProperty.byKeyValueKey[root]?.field {
                if field == .bounds {
                    var state = read { $0 }
                    property.set(&state, animated)
                    bounds = state.bounds
                } else {
                    write(field) { property.set(&$0, animated) }
                }
            } else {
                // A specialised layer's key: its style, with the action for the key.
                writeStyle(key: root) { property.set(&$0, animated) }
            }
            markForDisplayIfNeeded(key: root)
            return
        }
        if let timing = MediaTiming.keyValueKeys[keyPath] {
            write(.timing) { _ = $0.timing.assign(timing, value) }
            return
        }
        switch keyPath {
        case "frame":
            if let rect = coerceLayerValue(value, to: CGRect.self) { frame = rect }
            return
        case "sublayers":
            sublayers = value as? [Layer]
            return
        case "mask":
            mask = value as? Layer
            return
        case "delegate":
            delegate = value as? LayerDelegate
            return
        case "actions":
            actions = value as? [String: Action]
            return
        case "style":
            style = value as? [AnyHashable: Any]
            return
        default:
            break
        }
        // A key path into a custom point, size or rect, or through a related layer.
        if let dot = keyPath.firstIndex(of: "."), read({ $0.customValues[keyPath] }) == nil {
            let head = String(keyPath[..<dot]), rest = String(keyPath[keyPath.index(after: dot)...])
            let current = keyValue(forKeyPath: head)
            if let layer = current as? Layer {
                layer.setValue(value, forKeyPath: rest)
                return
            }
            if let kind = AnimatedValueKind.inferred(from: current), var whole = kind.convert(current),
                let part = AnimatableProperty.subPath(rest, of: kind), let given = part.kind.convert(value)
            {
                part.set(&whole, given)
                setCustomValue(whole.boxed(kind: kind, like: current), forKey: head)
                return
            }
        }
        setCustomValue(value, forKey: keyPath)
    }

    /// Stores a custom key's value (nil removes it) in the current transaction; asks for the key's action when the
    /// layer has been drawn, and marks the layer for drawing when its class says the key needs display.
    private func setCustomValue(_ value: Any?, forKey key: String) {
        let drawn = ModelLock.shared.withLock { () -> Bool in
            model.customValues[key] = value
            Transaction.recordLocked(self, fields: LayerState.Field.customValues.bit)
            return snapshotNode != nil
        }
        if drawn { runAction(forKey: key) }
        markForDisplayIfNeeded(key: key)
    }

    private func markForDisplayIfNeeded(key: String) {
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
    }

    /// `defaultValue(forKey:)` of `Layer`: the table's default for a property's key, nil for any other.
    static func standardDefaultValue(forKey key: String) -> Any? {
        if let property = LayerProperty.byKeyValueKey[key] { return keyValueBox(property.value(in: LayerState())) }
        if let timing = MediaTiming.keyValueKeys[key] { return MediaTiming()[keyPath: timing] }
        return nil
    }
}

/// A key of a specialised layer over one of its properties (`Layer.styleKeys`): read and set through the
/// property's getter and setter, converted as `coerceLayerValue` converts.
struct StyleKey {
    let get: (Layer) -> Any?
    let set: (Layer, Any?) -> Void

    init<L: Layer, Value>(_ keyPath: ReferenceWritableKeyPath<L, Value>) {
        get = { layer in (layer as? L).flatMap { keyValueBox($0[keyPath: keyPath]) } }
        set = { layer, value in
            guard let layer = layer as? L, let typed = coerceLayerValue(value, to: Value.self) else { return }
            layer[keyPath: keyPath] = typed
        }
    }
}

/// A property's value as key-value coding gives it: an optional unwrapped (nil for none), a path as `CGPath`.
func keyValueBox(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any AnyOptionalLayerValue {
        guard let wrapped = optional.wrappedLayerValue else { return nil }
        return keyValueBox(wrapped)
    }
    if let path = value as? Path { return CGPath(path) }
    return value
}

/// Optionals, seen through `Any`.
protocol AnyOptionalLayerValue {
    var wrappedLayerValue: Any? { get }
    static var noneLayerValue: Self { get }
}

extension Optional: AnyOptionalLayerValue {
    var wrappedLayerValue: Any? { self.map { $0 as Any } }
    static var noneLayerValue: Self { nil }
}

/// `value` as a `Value` for a property's setter: the value itself, nil for an optional, numbers of any Swift type
/// (and NSNumber) for numbers and flags, a string for a string-backed type, a `CGPath` for a path; nil when it is
/// none of these.
func coerceLayerValue<Value>(_ value: Any?, to type: Value.Type) -> Value? {
    guard let value, !(value is NSNull) else {
        return (type as? any AnyOptionalLayerValue.Type)?.noneLayerValue as? Value
    }
    if let typed = value as? Value { return typed }
    if let number = AnimatedValueKind.double(value) {
        switch type {
        case is CGFloat.Type, is CGFloat?.Type: return CGFloat(number) as? Value
        case is Double.Type, is Double?.Type: return number as? Value
        case is Float.Type, is Float?.Type: return Float(number) as? Value
        case is Int.Type, is Int?.Type: return Int(number) as? Value
        case is UInt.Type: return UInt(max(number, 0)) as? Value
        case is Bool.Type: return (number != 0) as? Value
        default: break
        }
    }
    if let flag = value as? Bool, type is Bool.Type { return flag as? Value }
    if let path = value as? CGPath { return path.path as? Value }
    if let string = value as? String, let raw = type as? any RawRepresentable<String>.Type {
        return raw.init(rawValue: string) as? Value
    }
    return nil
}

extension LayerProperty {
    /// The table's properties by the keys key-value coding takes: each one's key and its Swift name (hidden and
    /// isHidden), less the internal fields (the specialised layers' styles, timing, animations, custom values,
    /// the lists), whose keys are not Core Animation's.
    package static let byKeyValueKey: [String: LayerProperty] = {
        var keys: [String: LayerProperty] = [:]
        let internalFields: Set<LayerState.Field> = [
            .gradient, .shape, .text, .replicator, .tiled, .emitter, .drawing, .scroll, .timing, .animations, .customValues, .sublayers, .mask,
        ]
        for property in all where !internalFields.contains(property.field) && property.declaration.assign != nil {
            keys[property.key] = property
            keys[property.name] = property
        }
        return keys
    }()
}

extension MediaTiming {
    /// CAMediaTiming's keys on a layer.
    nonisolated(unsafe) static let keyValueKeys: [String: PartialKeyPath<MediaTiming>] = [
        "beginTime": \.beginTime, "speed": \.speed, "timeOffset": \.timeOffset, "duration": \.duration,
        "repeatCount": \.repeatCount, "repeatDuration": \.repeatDuration, "autoreverses": \.autoreverses,
        "fillMode": \.fillMode,
    ]

    /// Sets the field at `keyPath` (one of `keyValueKeys`) to `value`, converted; false when it is not of its type.
    mutating func assign(_ keyPath: PartialKeyPath<MediaTiming>, _ value: Any?) -> Bool {
        func set<Value>(_ path: WritableKeyPath<MediaTiming, Value>) -> Bool {
            guard let typed = coerceLayerValue(value, to: Value.self) else { return false }
            self[keyPath: path] = typed
            return true
        }
        switch keyPath {
        case let path as WritableKeyPath<MediaTiming, Double>: return set(path)
        case let path as WritableKeyPath<MediaTiming, Float>: return set(path)
        case let path as WritableKeyPath<MediaTiming, Bool>: return set(path)
        case let path as WritableKeyPath<MediaTiming, FillMode>: return set(path)
        default: return false
        }
    }
}

extension AnimatedValueKind {
    /// The kind of a custom key's value, for animating it: numbers, points, sizes, rects, colours and
    /// transforms; nil for anything else (flags, strings, ...).
    static func inferred(from value: Any?) -> AnimatedValueKind? {
        guard let value else { return nil }
        switch value {
        case is Bool: return nil
        case is CGPoint: return .point
        case is CGSize: return .size
        case is CGRect: return .rect
        case is Color: return .color
        case is Transform3D, is CGAffineTransform: return .transform
        default: return double(value) != nil ? .number : nil
        }
    }

    /// The value that stands for "none" of this kind (a custom key with no value and no default).
    var zero: AnimatedValue {
        switch self {
        case .number: return .number(0)
        case .point, .size: return .vector(.zero, count: 2)
        case .rect: return .vector(.zero, count: 4)
        case .color: return .color(nil)
        case .transform: return .transform(.identity)
        case .image: return .image(nil)
        case .flag: return .flag(false)
        case .colors: return .colors([])
        case .numbers: return .numbers(nil)
        case .path: return .path(nil)
        }
    }
}

extension AnimatedValue {
    /// The value as key-value coding gives it for a key path of `kind`: numbers as `CGFloat` (or the Swift type of
    /// `like`, the value it replaces: `Double`, `Float`, `Int` becomes `Double`, `NSNumber`), points, sizes and rects
    /// as themselves, colours as `Color` (nil for none), transforms as `Transform3D`, paths as `CGPath`.
    func boxed(kind: AnimatedValueKind, like: Any?) -> Any? {
        switch kind {
        case .number:
            let x = number
            switch like {
            case is Float: return Float(x)
            case is Double, is Int: return x
            case is CGFloat: return CGFloat(x)
            case is NSNumber: return NSNumber(value: x)
            default: return CGFloat(x)
            }
        case .point: return point
        case .size: return size
        case .rect: return rect
        case .color:
            if case .color(let color) = self { return color }
            return nil
        case .transform:
            if like is CGAffineTransform { return transformValue.affineTransform }
            return transformValue
        case .image:
            if case .image(let image) = self { return image }
            return nil
        case .flag:
            if case .flag(let flag) = self { return flag }
            return nil
        case .colors:
            if case .colors(let colors) = self { return colors }
            return nil
        case .numbers:
            if case .numbers(let numbers) = self { return numbers }
            return nil
        case .path:
            if case .path(let path) = self { return path.map(CGPath.init) }
            return nil
        }
    }
}
