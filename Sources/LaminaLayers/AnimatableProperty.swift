import Foundation
import LaminaCore

/// An animatable key path of a layer: the kind of its values and how to read and write them in a `LayerState`
/// (docs/animation.md, "Key paths"). Sub-paths of `transform` and `sublayerTransform` (`transform.rotation.z`,
/// `transform.scale`, ...) read and write one component of the matrix's decomposition, so their numbers
/// interpolate as numbers: 0 to 4π turns twice.
struct AnimatableProperty: @unchecked Sendable {
    let keyPath: String
    let kind: AnimatedValueKind
    let get: (LayerState) -> AnimatedValue
    let set: (inout LayerState, AnimatedValue) -> Void

    /// The property for `keyPath`, or nil when the key path is not animatable.
    static func named(_ keyPath: String) -> AnimatableProperty? { table[keyPath] }

    /// Every animatable key path.
    static var keyPaths: [String] { table.keys.sorted() }

    private static let table: [String: AnimatableProperty] = {
        var table: [String: AnimatableProperty] = [:]
        func add(_ key: String, _ kind: AnimatedValueKind, _ get: @escaping (LayerState) -> AnimatedValue,
                 _ set: @escaping (inout LayerState, AnimatedValue) -> Void) {
            table[key] = AnimatableProperty(keyPath: key, kind: kind, get: get, set: set)
        }
        func number(_ key: String, _ path: WritableKeyPath<LayerState, CGFloat>) {
            add(key, .number, { .number(Double($0[keyPath: path])) }, { $0[keyPath: path] = CGFloat($1.number) })
        }
        func float(_ key: String, _ path: WritableKeyPath<LayerState, Float>) {
            add(key, .number, { .number(Double($0[keyPath: path])) }, { $0[keyPath: path] = Float($1.number) })
        }
        func point(_ key: String, _ path: WritableKeyPath<LayerState, CGPoint>) {
            add(key, .point, { .point($0[keyPath: path]) }, { $0[keyPath: path] = $1.point })
            number(key + ".x", path.appending(path: \CGPoint.x))
            number(key + ".y", path.appending(path: \CGPoint.y))
        }
        func size(_ key: String, _ path: WritableKeyPath<LayerState, CGSize>) {
            add(key, .size, { .size($0[keyPath: path]) }, { $0[keyPath: path] = $1.size })
            number(key + ".width", path.appending(path: \CGSize.width))
            number(key + ".height", path.appending(path: \CGSize.height))
        }
        func rect(_ key: String, _ path: WritableKeyPath<LayerState, CGRect>) {
            add(key, .rect, { .rect($0[keyPath: path]) }, { $0[keyPath: path] = $1.rect })
            point(key + ".origin", path.appending(path: \CGRect.origin))
            size(key + ".size", path.appending(path: \CGRect.size))
        }
        func transform(_ key: String, _ path: WritableKeyPath<LayerState, Transform3D>) {
            add(key, .transform, { .transform($0[keyPath: path]) }, {
                if case .transform(let t) = $1 { $0[keyPath: path] = t }
            })
            for component in TransformComponents.Component.allCases {
                let kind: AnimatedValueKind = component == .translation ? .size : .number
                add(key + "." + component.rawValue, kind, {
                    TransformComponents($0[keyPath: path]).value(component)
                }, { state, value in
                    var parts = TransformComponents(state[keyPath: path])
                    parts.set(component, value)
                    state[keyPath: path] = parts.matrix
                })
            }
        }
        func color(_ key: String, _ path: WritableKeyPath<LayerState, Color?>) {
            add(key, .color, { .color($0[keyPath: path]) }, {
                if case .color(let c) = $1 { $0[keyPath: path] = c }
            })
        }
        point("position", \.position)
        rect("bounds", \.bounds)
        point("anchorPoint", \.anchorPoint)
        number("zPosition", \.zPosition)
        float("opacity", \.opacity)
        color("backgroundColor", \.backgroundColor)
        add("borderColor", .color, { .color($0.borderColor) }, {
            if case .color(let c) = $1 { $0.borderColor = c ?? .clear }
        })
        number("borderWidth", \.borderWidth)
        number("cornerRadius", \.cornerRadius)
        color("shadowColor", \.shadowColor)
        float("shadowOpacity", \.shadowOpacity)
        size("shadowOffset", \.shadowOffset)
        number("shadowRadius", \.shadowRadius)
        rect("contentsRect", \.contentsRect)
        rect("contentsCenter", \.contentsCenter)
        transform("transform", \.transform)
        transform("sublayerTransform", \.sublayerTransform)
        add("contents", .image, { .image($0.contents) }, {
            if case .image(let image) = $1 { $0.contents = image }
        })
        let hidden: (LayerState) -> AnimatedValue = { .flag($0.isHidden) }
        let setHidden: (inout LayerState, AnimatedValue) -> Void = {
            if case .flag(let flag) = $1 { $0.isHidden = flag }
        }
        add("hidden", .flag, hidden, setHidden)
        add("isHidden", .flag, hidden, setHidden)
        add("masksToBounds", .flag, { .flag($0.masksToBounds) }, {
            if case .flag(let flag) = $1 { $0.masksToBounds = flag }
        })
        add("isDoubleSided", .flag, { .flag($0.isDoubleSided) }, {
            if case .flag(let flag) = $1 { $0.isDoubleSided = flag }
        })
        add("doubleSided", .flag, { .flag($0.isDoubleSided) }, {
            if case .flag(let flag) = $1 { $0.isDoubleSided = flag }
        })
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
