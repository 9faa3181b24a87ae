import Foundation
import LaminaCore
import LaminaDrawing

/// An animatable key path of a layer: the kind of its values and how to read and write them in a `LayerState`
/// (docs/animation.md, "Key paths"). Sub-paths of `transform` and `sublayerTransform` (`transform.rotation.z`,
/// `transform.scale`, ...) read and write one component of the matrix's decomposition, so their numbers
/// interpolate as numbers: 0 to 4π turns twice.
package struct AnimatableProperty: @unchecked Sendable {
    let keyPath: String
    let kind: AnimatedValueKind
    /// Only places the layer in its superlayer (position, anchorPoint, zPosition, transform): animating it changes
    /// the superlayer's picture, not the layer's own subtree's, so the subtree's plan can be moved.
    let isPlacement: Bool
    /// The layer property the key path starts with, and which part of it the key path names. Resolved once; a
    /// frame's reads and writes are plain switches (no key-path projection).
    private let field: Field
    private let part: Part

    private enum Field {
        case position, bounds, anchorPoint, zPosition, opacity, backgroundColor, borderColor, borderWidth
        case cornerRadius, shadowColor, shadowOpacity, shadowOffset, shadowRadius, contentsRect, contentsCenter
        case transform, sublayerTransform, contents, hidden, masksToBounds, doubleSided
        // Specialised layers (docs/semantics.md, "Specialised layers"): on a layer of another kind they read as
        // their defaults and writing them does nothing.
        case colors, locations, startPoint, endPoint
        case path, fillColor, strokeColor, lineWidth, miterLimit, lineDashPattern, lineDashPhase, strokeStart, strokeEnd
        case fontSize, foregroundColor
        case instanceTransform, instanceColor, instanceRedOffset, instanceGreenOffset, instanceBlueOffset
        case instanceAlphaOffset, instanceDelay
    }

    private enum Part {
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
        switch part {
        case .whole:
            return Self.read(field, state)
        case .components(let start, let count):
            let v = Self.read(field, state).components
            var out = SIMD4<Double>.zero
            for i in 0..<count { out[i] = v[start + i] }
            return .vector(out, count: count)
        case .transform(let component):
            return TransformComponents(Self.read(field, state).transformValue).value(component)
        }
    }

    func set(_ state: inout LayerState, _ value: AnimatedValue) {
        switch part {
        case .whole:
            Self.write(field, value, &state)
        case .components(let start, let count):
            guard case .vector(var v, let n) = Self.read(field, state) else { return }
            let given = value.components
            for i in 0..<count { v[start + i] = given[i] }
            Self.write(field, .vector(v, count: n), &state)
        case .transform(let component):
            var parts = TransformComponents(Self.read(field, state).transformValue)
            parts.set(component, value)
            Self.write(field, .transform(parts.matrix), &state)
        }
    }

    private static func read(_ field: Field, _ s: borrowing LayerState) -> AnimatedValue {
        switch field {
        case .position: .point(s.position)
        case .bounds: .rect(s.bounds)
        case .anchorPoint: .point(s.anchorPoint)
        case .zPosition: .number(Double(s.zPosition))
        case .opacity: .number(Double(s.opacity))
        case .backgroundColor: .color(s.backgroundColor)
        case .borderColor: .color(s.borderColor)
        case .borderWidth: .number(Double(s.borderWidth))
        case .cornerRadius: .number(Double(s.cornerRadius))
        case .shadowColor: .color(s.shadowColor)
        case .shadowOpacity: .number(Double(s.shadowOpacity))
        case .shadowOffset: .size(s.shadowOffset)
        case .shadowRadius: .number(Double(s.shadowRadius))
        case .contentsRect: .rect(s.contentsRect)
        case .contentsCenter: .rect(s.contentsCenter)
        case .transform: .transform(s.transform)
        case .sublayerTransform: .transform(s.sublayerTransform)
        case .contents: .image(s.contents)
        case .hidden: .flag(s.isHidden)
        case .masksToBounds: .flag(s.masksToBounds)
        case .doubleSided: .flag(s.isDoubleSided)
        case .colors: .colors(s.gradient?.colors ?? [])
        case .locations: .numbers(s.gradient?.locations)
        case .startPoint: .point(s.gradient?.startPoint ?? CGPoint(x: 0.5, y: 0))
        case .endPoint: .point(s.gradient?.endPoint ?? CGPoint(x: 0.5, y: 1))
        case .path: .path(s.shape?.path)
        case .fillColor: .color(s.shape?.fillColor)
        case .strokeColor: .color(s.shape?.strokeColor)
        case .lineWidth: .number(Double(s.shape?.lineWidth ?? 1))
        case .miterLimit: .number(Double(s.shape?.miterLimit ?? 10))
        case .lineDashPattern: .numbers(s.shape?.lineDashPattern)
        case .lineDashPhase: .number(Double(s.shape?.lineDashPhase ?? 0))
        case .strokeStart: .number(Double(s.shape?.strokeStart ?? 0))
        case .strokeEnd: .number(Double(s.shape?.strokeEnd ?? 1))
        case .fontSize: .number(Double(s.text?.fontSize ?? 36))
        case .foregroundColor: .color(s.text?.foregroundColor ?? .white)
        case .instanceTransform: .transform(s.replicator?.instanceTransform ?? .identity)
        case .instanceColor: .color(s.replicator?.instanceColor ?? .white)
        case .instanceRedOffset: .number(Double(s.replicator?.instanceRedOffset ?? 0))
        case .instanceGreenOffset: .number(Double(s.replicator?.instanceGreenOffset ?? 0))
        case .instanceBlueOffset: .number(Double(s.replicator?.instanceBlueOffset ?? 0))
        case .instanceAlphaOffset: .number(Double(s.replicator?.instanceAlphaOffset ?? 0))
        case .instanceDelay: .number(s.replicator?.instanceDelay ?? 0)
        }
    }

    private static func write(_ field: Field, _ value: AnimatedValue, _ s: inout LayerState) {
        switch (field, value) {
        case (.position, .vector): s.position = value.point
        case (.bounds, .vector): s.bounds = value.rect
        case (.anchorPoint, .vector): s.anchorPoint = value.point
        case (.zPosition, .vector): s.zPosition = CGFloat(value.number)
        case (.opacity, .vector): s.opacity = Float(value.number)
        case (.backgroundColor, .color(let c)): s.backgroundColor = c
        case (.borderColor, .color(let c)): s.borderColor = c
        case (.borderWidth, .vector): s.borderWidth = CGFloat(value.number)
        case (.cornerRadius, .vector): s.cornerRadius = CGFloat(value.number)
        case (.shadowColor, .color(let c)): s.shadowColor = c
        case (.shadowOpacity, .vector): s.shadowOpacity = Float(value.number)
        case (.shadowOffset, .vector): s.shadowOffset = value.size
        case (.shadowRadius, .vector): s.shadowRadius = CGFloat(value.number)
        case (.contentsRect, .vector): s.contentsRect = value.rect
        case (.contentsCenter, .vector): s.contentsCenter = value.rect
        case (.transform, .transform(let t)): s.transform = t
        case (.sublayerTransform, .transform(let t)): s.sublayerTransform = t
        case (.contents, .image(let image)): s.contents = image
        case (.hidden, .flag(let flag)): s.isHidden = flag
        case (.masksToBounds, .flag(let flag)): s.masksToBounds = flag
        case (.doubleSided, .flag(let flag)): s.isDoubleSided = flag
        case (.colors, .colors(let list)): s.gradient?.colors = list
        case (.locations, .numbers(let list)): s.gradient?.locations = list
        case (.startPoint, .vector): s.gradient?.startPoint = value.point
        case (.endPoint, .vector): s.gradient?.endPoint = value.point
        case (.path, .path(let path)): s.shape?.path = path
        case (.fillColor, .color(let c)): s.shape?.fillColor = c
        case (.strokeColor, .color(let c)): s.shape?.strokeColor = c
        case (.lineWidth, .vector): s.shape?.lineWidth = CGFloat(value.number)
        case (.miterLimit, .vector): s.shape?.miterLimit = CGFloat(value.number)
        case (.lineDashPattern, .numbers(let list)): s.shape?.lineDashPattern = list
        case (.lineDashPhase, .vector): s.shape?.lineDashPhase = CGFloat(value.number)
        case (.strokeStart, .vector): s.shape?.strokeStart = CGFloat(value.number)
        case (.strokeEnd, .vector): s.shape?.strokeEnd = CGFloat(value.number)
        case (.fontSize, .vector): s.text?.fontSize = CGFloat(value.number)
        case (.foregroundColor, .color(let c)): s.text?.foregroundColor = c ?? .clear
        case (.instanceTransform, .transform(let t)): s.replicator?.instanceTransform = t
        case (.instanceColor, .color(let c)): s.replicator?.instanceColor = c ?? .clear
        case (.instanceRedOffset, .vector): s.replicator?.instanceRedOffset = Float(value.number)
        case (.instanceGreenOffset, .vector): s.replicator?.instanceGreenOffset = Float(value.number)
        case (.instanceBlueOffset, .vector): s.replicator?.instanceBlueOffset = Float(value.number)
        case (.instanceAlphaOffset, .vector): s.replicator?.instanceAlphaOffset = Float(value.number)
        case (.instanceDelay, .vector): s.replicator?.instanceDelay = value.number
        default: break  // a value of another kind: ignored
        }
    }

    private static let table: [String: AnimatableProperty] = {
        var table: [String: AnimatableProperty] = [:]
        func add(_ key: String, _ kind: AnimatedValueKind, _ field: Field, _ part: Part = .whole) {
            let placement: Set<Field> = [.position, .anchorPoint, .zPosition, .transform]
            table[key] = AnimatableProperty(keyPath: key, kind: kind, isPlacement: placement.contains(field),
                                            field: field, part: part)
        }
        func point(_ key: String, _ field: Field) {
            add(key, .point, field)
            add(key + ".x", .number, field, .components(start: 0, count: 1))
            add(key + ".y", .number, field, .components(start: 1, count: 1))
        }
        func size(_ key: String, _ field: Field) {
            add(key, .size, field)
            add(key + ".width", .number, field, .components(start: 0, count: 1))
            add(key + ".height", .number, field, .components(start: 1, count: 1))
        }
        func rect(_ key: String, _ field: Field) {
            add(key, .rect, field)
            add(key + ".origin", .point, field, .components(start: 0, count: 2))
            add(key + ".origin.x", .number, field, .components(start: 0, count: 1))
            add(key + ".origin.y", .number, field, .components(start: 1, count: 1))
            add(key + ".size", .size, field, .components(start: 2, count: 2))
            add(key + ".size.width", .number, field, .components(start: 2, count: 1))
            add(key + ".size.height", .number, field, .components(start: 3, count: 1))
        }
        func transform(_ key: String, _ field: Field) {
            add(key, .transform, field)
            for component in TransformComponents.Component.allCases {
                add(key + "." + component.rawValue, component == .translation ? .size : .number, field,
                    .transform(component))
            }
        }
        point("position", .position)
        rect("bounds", .bounds)
        point("anchorPoint", .anchorPoint)
        add("zPosition", .number, .zPosition)
        add("opacity", .number, .opacity)
        add("backgroundColor", .color, .backgroundColor)
        add("borderColor", .color, .borderColor)
        add("borderWidth", .number, .borderWidth)
        add("cornerRadius", .number, .cornerRadius)
        add("shadowColor", .color, .shadowColor)
        add("shadowOpacity", .number, .shadowOpacity)
        size("shadowOffset", .shadowOffset)
        add("shadowRadius", .number, .shadowRadius)
        rect("contentsRect", .contentsRect)
        rect("contentsCenter", .contentsCenter)
        transform("transform", .transform)
        transform("sublayerTransform", .sublayerTransform)
        add("contents", .image, .contents)
        add("hidden", .flag, .hidden)
        add("isHidden", .flag, .hidden)
        add("masksToBounds", .flag, .masksToBounds)
        add("doubleSided", .flag, .doubleSided)
        add("isDoubleSided", .flag, .doubleSided)
        // Specialised layers: the key paths Core Animation animates on its subclasses.
        add("colors", .colors, .colors)
        add("locations", .numbers, .locations)
        point("startPoint", .startPoint)
        point("endPoint", .endPoint)
        add("path", .path, .path)
        add("fillColor", .color, .fillColor)
        add("strokeColor", .color, .strokeColor)
        add("lineWidth", .number, .lineWidth)
        add("miterLimit", .number, .miterLimit)
        add("lineDashPattern", .numbers, .lineDashPattern)
        add("lineDashPhase", .number, .lineDashPhase)
        add("strokeStart", .number, .strokeStart)
        add("strokeEnd", .number, .strokeEnd)
        add("fontSize", .number, .fontSize)
        add("foregroundColor", .color, .foregroundColor)
        transform("instanceTransform", .instanceTransform)
        add("instanceColor", .color, .instanceColor)
        add("instanceRedOffset", .number, .instanceRedOffset)
        add("instanceGreenOffset", .number, .instanceGreenOffset)
        add("instanceBlueOffset", .number, .instanceBlueOffset)
        add("instanceAlphaOffset", .number, .instanceAlphaOffset)
        add("instanceDelay", .number, .instanceDelay)
        return table
    }()
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
