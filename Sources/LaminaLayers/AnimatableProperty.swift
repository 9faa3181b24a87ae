import Foundation
import LaminaCore
import LaminaDrawing

/// An animatable key path of a layer: the kind of its values and how to read and write them in a `LayerState`
/// (docs/animation.md, "Key paths"). Sub-paths of `transform` and `sublayerTransform` (`transform.rotation.z`,
/// `transform.scale`, ...) read and write one component of the matrix's decomposition, so their numbers
/// interpolate as numbers: 0 to 4π turns twice.
///
/// A class, made once per key path and never changed once the table holds it: an animation reads its property on
/// every frame, and a copy of a struct of closures retained and released each of them.
package final class AnimatableProperty: @unchecked Sendable {
    let keyPath: String
    let kind: AnimatedValueKind
    /// Only places the layer in its superlayer (position, anchorPoint, zPosition, transform): animating it changes
    /// the superlayer's picture, not the layer's own subtree's, so the subtree's plan can be moved.
    let isPlacement: Bool
    /// Only fades the layer (`opacity`): the picture it paints stays, as its plan can (Planner+NodeUpdate.swift).
    var fadesOnly: Bool { keyPath == "opacity" }
    /// How the property the key path starts with is read and written (from the property table, or a specialised
    /// layer's entry below), and which part of it the key path names. Resolved once.
    private let read: (LayerState) -> AnimatedValue
    private let write: (inout LayerState, AnimatedValue) -> Void
    private let part: Part
    /// How a node's values (`NodePlacement`) hold the property, for the keys that move, turn and fade a layer
    /// (position, anchorPoint, anchorPointZ, transform, opacity and their parts); nil for the others.
    private var readPlacement: ((NodePlacement) -> AnimatedValue)?
    private var writePlacement: ((inout NodePlacement, AnimatedValue) -> Void)?

    private init(keyPath: String, kind: AnimatedValueKind, isPlacement: Bool,
                 read: @escaping (LayerState) -> AnimatedValue,
                 write: @escaping (inout LayerState, AnimatedValue) -> Void, part: Part) {
        self.keyPath = keyPath
        self.kind = kind
        self.isPlacement = isPlacement
        self.read = read
        self.write = write
        self.part = part
    }

    fileprivate enum Part {
        case whole
        /// `count` components from `start` of the field's vector (position.x: 0, 1; bounds.size: 2, 2).
        case components(start: Int, count: Int)
        case transform(TransformComponents.Component)
    }

    /// The property for `keyPath`, or nil when the key path is not animatable.
    static func named(_ keyPath: String) -> AnimatableProperty? { table[keyPath] }

    /// Every animatable key path and the kind of value it takes: what a scene file's reader checks animations
    /// against, so that the two cannot drift apart.
    package enum ValueKind: Sendable {
        case number, angle, point, size, rect, color, transform, image, flag, colors, numbers, path
    }

    package static let valueKinds: [String: ValueKind] = table.mapValues { property in
        switch property.kind {
        case .number:
            // The rotation sub-paths of transforms take angles (radians here; degrees in scene files).
            if case .transform(let component) = property.part, component.rawValue.hasPrefix("rotation") { return .angle }
            return .number
        case .point: return .point
        case .size: return .size
        case .rect: return .rect
        case .color: return .color
        case .transform: return .transform
        case .image: return .image
        case .flag: return .flag
        case .colors: return .colors
        case .numbers: return .numbers
        case .path: return .path
        }
    }

    func get(_ state: borrowing LayerState) -> AnimatedValue {
        Self.value(of: part, in: read(state))
    }

    func set(_ state: inout LayerState, _ value: AnimatedValue) {
        set(&state, value, read: read, write: write)
    }

    /// Writes `value` to the part of the whole value `read` and `write` reach in `target` (a state, or a node's
    /// values).
    private func set<Target>(_ target: inout Target, _ value: AnimatedValue, read: (Target) -> AnimatedValue,
                             write: (inout Target, AnimatedValue) -> Void) {
        if case .whole = part {
            write(&target, value)
            return
        }
        var whole = read(target)
        Self.set(part, of: &whole, to: value)
        write(&target, whole)
    }

    /// Whether node values hold the property (`get(_:)` and `set(_:_:)` of a `NodePlacement`).
    var isNodeValue: Bool { readPlacement != nil }

    /// The property's value in a node's values; nil for a property they do not hold.
    func get(_ placement: NodePlacement) -> AnimatedValue? {
        readPlacement.map { Self.value(of: part, in: $0(placement)) }
    }

    /// Writes the property's value into a node's values (nothing for a property they do not hold), as `set` writes
    /// it into a state.
    func set(_ placement: inout NodePlacement, _ value: AnimatedValue) {
        guard let readPlacement, let writePlacement else { return }
        set(&placement, value, read: readPlacement, write: writePlacement)
    }

    /// The part `part` of the whole value `whole`.
    fileprivate static func value(of part: Part, in whole: AnimatedValue) -> AnimatedValue {
        switch part {
        case .whole:
            return whole
        case .components(let start, let count):
            let v = whole.components
            var out = SIMD4<Double>.zero
            for i in 0..<count { out[i] = v[start + i] }
            return .vector(out, count: count)
        case .transform(let component):
            return TransformComponents(whole.transformValue).value(component)
        }
    }

    /// Sets the part `part` of `whole` to `value`.
    fileprivate static func set(_ part: Part, of whole: inout AnimatedValue, to value: AnimatedValue) {
        switch part {
        case .whole:
            whole = value
        case .components(let start, let count):
            guard case .vector(var v, let n) = whole else { return }
            let given = value.components
            for i in 0..<count { v[start + i] = given[i] }
            whole = .vector(v, count: n)
        case .transform(let component):
            var parts = TransformComponents(whole.transformValue)
            parts.set(component, value)
            whole = .transform(parts.matrix)
        }
    }

    /// A part of a value of `kind` by its key path (`"x"`, `"size.width"`, `"rotation.z"`): what key-value coding
    /// reads through a custom point, size, rect or transform. nil when the kind has no such part.
    static func subPath(_ path: String, of kind: AnimatedValueKind) -> ValuePart? {
        guard let (_, partKind, part) = subPaths(of: kind).first(where: { $0.0 == "." + path }) else { return nil }
        return ValuePart(kind: partKind, part: part)
    }

    /// A custom key's property (`Layer.setValue(_:forKey:)` of a key that is not a layer property), animated as
    /// `kind`: it reads the layer's `customValues[key]` (else `fallback`, its class's default, else the kind's
    /// zero) and writes values of the Swift type of the one it replaces (so a `CGFloat` stays a `CGFloat`).
    static func custom(_ key: String, kind: AnimatedValueKind, fallback: Any?) -> AnimatableProperty {
        let standIn = kind.convert(fallback) ?? kind.zero
        return AnimatableProperty(
            keyPath: key, kind: kind, isPlacement: false,
            read: { kind.convert($0.customValues[key]) ?? standIn },
            write: { state, value in
                state.customValues[key] = value.boxed(kind: kind, like: state.customValues[key] ?? fallback)
            },
            part: .whole)
    }

    private typealias Reader = (LayerState) -> AnimatedValue
    private typealias Writer = (inout LayerState, AnimatedValue) -> Void

    private static let table: [String: AnimatableProperty] = {
        var table: [String: AnimatableProperty] = [:]
        func add(_ key: String, _ kind: AnimatedValueKind, _ read: @escaping Reader, _ write: @escaping Writer,
                 _ part: Part = .whole, placement: Bool = false) {
            table[key] = AnimatableProperty(keyPath: key, kind: kind, isPlacement: placement, read: read, write: write,
                                            part: part)
        }
        // The layer's own properties: each animatable entry of the property table, with the sub-paths of its kind,
        // under its key and, where they differ (isHidden), its Swift name.
        for property in LayerProperty.all {
            guard let animation = property.declaration.animation else { continue }
            let (read, write) = (animation.read, animation.write)
            let placement = property.effects == .placement
            for key in Set([property.key, property.name]) {
                add(key, animation.kind, read, write, placement: placement)
                for (suffix, kind, part) in subPaths(of: animation.kind) {
                    add(key + suffix, kind, read, write, part, placement: placement)
                }
            }
        }
        // The keys that move, turn and fade layers, which most animations run on, read and write their fields
        // directly: the table's generic entries go through a key path each time (a runtime projection and generic
        // metadata per call), which was most of an animation's cost per frame (docs/benchmarks.md, "Animated node
        // values (2026-11-27)"). Same values, same kinds; `AnimatablePropertyTests` compares the two.
        // Those that place and fade a layer are also node values (`NodePlacement`), read and written the same way.
        func direct<Value: AnimatableLayerValue>(_ key: String, read: @escaping (LayerState) -> Value,
                                                 write: @escaping (inout LayerState, Value) -> Void,
                                                 node: (read: (NodePlacement) -> Value,
                                                        write: (inout NodePlacement, Value) -> Void)? = nil) {
            guard let generic = table[key] else { return }
            let fast: Reader = { read($0).animated }
            let store: Writer = { state, value in if let value = Value(animated: value) { write(&state, value) } }
            var nodeRead: ((NodePlacement) -> AnimatedValue)?
            var nodeWrite: ((inout NodePlacement, AnimatedValue) -> Void)?
            if let node {
                nodeRead = { node.read($0).animated }
                nodeWrite = { placement, value in
                    if let value = Value(animated: value) { node.write(&placement, value) }
                }
            }
            for (suffix, kind, part) in [("", generic.kind, Part.whole)] + subPaths(of: generic.kind) {
                let property = AnimatableProperty(keyPath: key + suffix, kind: kind, isPlacement: generic.isPlacement,
                                                  read: fast, write: store, part: part)
                property.readPlacement = nodeRead
                property.writePlacement = nodeWrite
                table[key + suffix] = property
            }
        }
        direct("position", read: { $0.position }, write: { $0.position = $1 },
               node: ({ $0.position }, { $0.position = $1 }))
        direct("anchorPoint", read: { $0.anchorPoint }, write: { $0.anchorPoint = $1 },
               node: ({ $0.anchorPoint }, { $0.anchorPoint = $1 }))
        direct("anchorPointZ", read: { $0.anchorPointZ }, write: { $0.anchorPointZ = $1 },
               node: ({ $0.anchorPointZ }, { $0.anchorPointZ = $1 }))
        direct("transform", read: { $0.transform }, write: { $0.transform = $1 },
               node: ({ $0.transform }, { $0.transform = $1 }))
        direct("opacity", read: { $0.opacity }, write: { $0.opacity = $1 },
               node: ({ $0.opacity }, { $0.opacity = $1 }))
        direct("bounds", read: { $0.bounds }, write: { $0.bounds = $1 })
        direct("zPosition", read: { $0.zPosition }, write: { $0.zPosition = $1 })
        // Specialised layers: the key paths Core Animation animates on its subclasses. On a layer of another kind
        // they read as their defaults and writing them does nothing.
        func special(_ key: String, _ kind: AnimatedValueKind, _ read: @escaping Reader, _ write: @escaping Writer) {
            add(key, kind, read, write)
            for (suffix, kind, part) in subPaths(of: kind) { add(key + suffix, kind, read, write, part) }
        }
        func number(_ value: AnimatedValue) -> Double? {
            if case .vector = value { return value.number }
            return nil
        }
        special("colors", .colors, { .colors($0.gradient?.colors ?? []) }) {
            if case .colors(let list) = $1 { $0.gradient?.colors = list }
        }
        special("locations", .numbers, { .numbers($0.gradient?.locations) }) {
            if case .numbers(let list) = $1 { $0.gradient?.locations = list }
        }
        special("startPoint", .point, { .point($0.gradient?.startPoint ?? CGPoint(x: 0.5, y: 0)) }) {
            if case .vector = $1 { $0.gradient?.startPoint = $1.point }
        }
        special("endPoint", .point, { .point($0.gradient?.endPoint ?? CGPoint(x: 0.5, y: 1)) }) {
            if case .vector = $1 { $0.gradient?.endPoint = $1.point }
        }
        special("path", .path, { .path($0.shape?.path) }) { if case .path(let path) = $1 { $0.shape?.path = path } }
        special("fillColor", .color, { .color($0.shape?.fillColor) }) {
            if case .color(let c) = $1 { $0.shape?.fillColor = c }
        }
        special("strokeColor", .color, { .color($0.shape?.strokeColor) }) {
            if case .color(let c) = $1 { $0.shape?.strokeColor = c }
        }
        special("lineWidth", .number, { .number(Double($0.shape?.lineWidth ?? 1)) }) {
            if let x = number($1) { $0.shape?.lineWidth = CGFloat(x) }
        }
        special("miterLimit", .number, { .number(Double($0.shape?.miterLimit ?? 10)) }) {
            if let x = number($1) { $0.shape?.miterLimit = CGFloat(x) }
        }
        special("lineDashPattern", .numbers, { .numbers($0.shape?.lineDashPattern) }) {
            if case .numbers(let list) = $1 { $0.shape?.lineDashPattern = list }
        }
        special("lineDashPhase", .number, { .number(Double($0.shape?.lineDashPhase ?? 0)) }) {
            if let x = number($1) { $0.shape?.lineDashPhase = CGFloat(x) }
        }
        special("strokeStart", .number, { .number(Double($0.shape?.strokeStart ?? 0)) }) {
            if let x = number($1) { $0.shape?.strokeStart = CGFloat(x) }
        }
        special("strokeEnd", .number, { .number(Double($0.shape?.strokeEnd ?? 1)) }) {
            if let x = number($1) { $0.shape?.strokeEnd = CGFloat(x) }
        }
        special("fontSize", .number, { .number(Double($0.text?.fontSize ?? 36)) }) {
            if let x = number($1) { $0.text?.fontSize = CGFloat(x) }
        }
        special("foregroundColor", .color, { .color($0.text?.foregroundColor ?? .white) }) {
            if case .color(let c) = $1 { $0.text?.foregroundColor = c ?? .clear }
        }
        special("instanceTransform", .transform, { .transform($0.replicator?.instanceTransform ?? .identity) }) {
            if case .transform(let t) = $1 { $0.replicator?.instanceTransform = t }
        }
        special("instanceColor", .color, { .color($0.replicator?.instanceColor ?? .white) }) {
            if case .color(let c) = $1 { $0.replicator?.instanceColor = c ?? .clear }
        }
        special("instanceRedOffset", .number, { .number(Double($0.replicator?.instanceRedOffset ?? 0)) }) {
            if let x = number($1) { $0.replicator?.instanceRedOffset = Float(x) }
        }
        special("instanceGreenOffset", .number, { .number(Double($0.replicator?.instanceGreenOffset ?? 0)) }) {
            if let x = number($1) { $0.replicator?.instanceGreenOffset = Float(x) }
        }
        special("instanceBlueOffset", .number, { .number(Double($0.replicator?.instanceBlueOffset ?? 0)) }) {
            if let x = number($1) { $0.replicator?.instanceBlueOffset = Float(x) }
        }
        special("instanceAlphaOffset", .number, { .number(Double($0.replicator?.instanceAlphaOffset ?? 0)) }) {
            if let x = number($1) { $0.replicator?.instanceAlphaOffset = Float(x) }
        }
        special("instanceDelay", .number, { .number($0.replicator?.instanceDelay ?? 0) }) {
            if let x = number($1) { $0.replicator?.instanceDelay = x }
        }
        return table
    }()

    /// The sub-paths a value of `kind` has (position.x, bounds.size.width, transform.rotation.z), with their kinds.
    private static func subPaths(of kind: AnimatedValueKind) -> [(String, AnimatedValueKind, Part)] {
        switch kind {
        case .point:
            return [(".x", .number, .components(start: 0, count: 1)), (".y", .number, .components(start: 1, count: 1))]
        case .size:
            return [(".width", .number, .components(start: 0, count: 1)),
                    (".height", .number, .components(start: 1, count: 1))]
        case .rect:
            return [(".origin", .point, .components(start: 0, count: 2)),
                    (".origin.x", .number, .components(start: 0, count: 1)),
                    (".origin.y", .number, .components(start: 1, count: 1)),
                    (".size", .size, .components(start: 2, count: 2)),
                    (".size.width", .number, .components(start: 2, count: 1)),
                    (".size.height", .number, .components(start: 3, count: 1))]
        case .transform:
            return TransformComponents.Component.allCases.map { component in
                ("." + component.rawValue, component == .translation ? .size : .number, .transform(component))
            }
        default:
            return []
        }
    }
}

/// A part of an animated value (`AnimatableProperty.subPath`).
struct ValuePart {
    let kind: AnimatedValueKind
    fileprivate let part: AnimatableProperty.Part

    func get(_ whole: AnimatedValue) -> AnimatedValue { AnimatableProperty.value(of: part, in: whole) }
    func set(_ whole: inout AnimatedValue, _ value: AnimatedValue) { AnimatableProperty.set(part, of: &whole, to: value) }
}

/// A transform as translation, Euler rotation and scale (what the `transform.rotation.z` style key paths read and
/// write), with the rest of the matrix (perspective) kept. For a matrix of a translation, rotations and a scale the
/// parts give it back exactly; a skew is lost, as in Core Animation's key-value coding of these paths.
struct TransformComponents {
    enum Component: String, CaseIterable {
        case rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z", rotation
        case scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z", scale
        case translationX = "translation.x", translationY = "translation.y", translationZ = "translation.z"
        case translation
    }

    var translation: SIMD3<Double>
    var rotation: SIMD3<Double>
    var scale: SIMD3<Double>
    var perspective: SIMD4<Double>

    init(_ m: Transform3D) {
        translation = SIMD3(Double(m.m41), Double(m.m42), Double(m.m43))
        perspective = SIMD4(Double(m.m14), Double(m.m24), Double(m.m34), Double(m.m44))
        var r1 = SIMD3(Double(m.m11), Double(m.m12), Double(m.m13))
        var r2 = SIMD3(Double(m.m21), Double(m.m22), Double(m.m23))
        var r3 = SIMD3(Double(m.m31), Double(m.m32), Double(m.m33))
        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        scale = SIMD3(length(r1), length(r2), length(r3))
        // A mirror shows as a negative x scale.
        let cross = SIMD3(r1.y * r2.z - r1.z * r2.y, r1.z * r2.x - r1.x * r2.z, r1.x * r2.y - r1.y * r2.x)
        if (cross * r3).sum() < 0 { scale.x = -scale.x }
        if scale.x != 0 { r1 /= scale.x }
        if scale.y != 0 { r2 /= scale.y }
        if scale.z != 0 { r3 /= scale.z }
        // The rotation is Rx · Ry · Rz (row vectors: x first); row 1 = (cb·cc, cb·sc, -sb), R23 = sa·cb,
        // R33 = ca·cb.
        let sb = min(max(-r1.z, -1), 1)
        let b = asin(sb)
        if abs(cos(b)) > 1e-9 {
            rotation = SIMD3(atan2(r2.z, r3.z), b, atan2(r1.y, r1.x))
        } else {
            // Gimbal lock: the z turn folds into x.
            rotation = SIMD3(atan2(-r3.y, r2.y), b, 0)
        }
    }

    var matrix: Transform3D {
        let rx = Transform3D(rotationAngle: CGFloat(rotation.x), x: 1, y: 0, z: 0)
        let ry = Transform3D(rotationAngle: CGFloat(rotation.y), x: 0, y: 1, z: 0)
        let rz = Transform3D(rotationAngle: CGFloat(rotation.z), x: 0, y: 0, z: 1)
        var m = Transform3D(scaleX: CGFloat(scale.x), y: CGFloat(scale.y), z: CGFloat(scale.z))
            .concatenating(rx).concatenating(ry).concatenating(rz)
        (m.m41, m.m42, m.m43) = (CGFloat(translation.x), CGFloat(translation.y), CGFloat(translation.z))
        (m.m14, m.m24, m.m34, m.m44) = (CGFloat(perspective.x), CGFloat(perspective.y), CGFloat(perspective.z),
                                        CGFloat(perspective.w))
        return m
    }

    func value(_ component: Component) -> AnimatedValue {
        switch component {
        case .rotationX: return .number(rotation.x)
        case .rotationY: return .number(rotation.y)
        case .rotationZ, .rotation: return .number(rotation.z)
        case .scaleX: return .number(scale.x)
        case .scaleY: return .number(scale.y)
        case .scaleZ: return .number(scale.z)
        case .scale: return .number((scale.x + scale.y + scale.z) / 3)
        case .translationX: return .number(translation.x)
        case .translationY: return .number(translation.y)
        case .translationZ: return .number(translation.z)
        case .translation: return .vector(SIMD4(translation.x, translation.y, 0, 0), count: 2)
        }
    }

    mutating func set(_ component: Component, _ value: AnimatedValue) {
        let x = value.number
        switch component {
        case .rotationX: rotation.x = x
        case .rotationY: rotation.y = x
        case .rotationZ, .rotation: rotation.z = x
        case .scaleX: scale.x = x
        case .scaleY: scale.y = x
        case .scaleZ: scale.z = x
        case .scale: scale = SIMD3(repeating: x)
        case .translationX: translation.x = x
        case .translationY: translation.y = x
        case .translationZ: translation.z = x
        case .translation: (translation.x, translation.y) = (value.components[0], value.components[1])
        }
    }
}

extension AnimatedValue {
    /// The matrix of a transform value; the identity for any other.
    var transformValue: Transform3D {
        if case .transform(let t) = self { return t }
        return .identity
    }
}
