import Foundation
import LaminaCore
import LaminaDrawing

/// A value of an animatable property, in the form animations interpolate (docs/animation.md, "Values"):
/// numbers, points, sizes and rects as up to four components; colours on straight components; transforms as
/// matrices (interpolated by decomposition); images (cross-dissolved); flags (discrete).
enum AnimatedValue {
    case vector(SIMD4<Double>, count: Int)
    case color(Color?)
    /// Boxed: a matrix is 128 bytes, and every value would be that large (and copied as such) otherwise.
    indirect case transform(Transform3D)
    case image(Image?)
    case flag(Bool)
    /// Contents part of the way from one image to another: the planner cross-dissolves the two pictures.
    case dissolve(from: Image?, to: Image?, progress: Double)
    /// A gradient's colours: interpolated one by one when both lists are as long, else switched at halfway.
    case colors([Color])
    /// A list of numbers (gradient locations, a dash pattern); nil is a value of its own (evenly spaced, solid).
    case numbers([Double]?)
    /// A shape's path: interpolated point by point between paths of the same elements, else switched at halfway.
    indirect case path(Path?)

    static func number(_ x: Double) -> AnimatedValue { .vector(SIMD4(x, 0, 0, 0), count: 1) }
    static func point(_ p: CGPoint) -> AnimatedValue { .vector(SIMD4(Double(p.x), Double(p.y), 0, 0), count: 2) }
    static func size(_ s: CGSize) -> AnimatedValue { .vector(SIMD4(Double(s.width), Double(s.height), 0, 0), count: 2) }
    static func rect(_ r: CGRect) -> AnimatedValue {
        .vector(SIMD4(Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height)), count: 4)
    }

    var components: SIMD4<Double> {
        if case .vector(let v, _) = self { return v }
        return .zero
    }
    var number: Double { components[0] }
    var point: CGPoint { CGPoint(x: components[0], y: components[1]) }
    var size: CGSize { CGSize(width: components[0], height: components[1]) }
    var rect: CGRect { CGRect(x: components[0], y: components[1], width: components[2], height: components[3]) }

    /// The value `p` of the way from `a` to `b` (p may leave 0...1: springs and cubic keyframes overshoot).
    static func interpolate(_ a: AnimatedValue, _ b: AnimatedValue, _ p: Double) -> AnimatedValue {
        switch (a, b) {
        case (.vector(let x, let n), .vector(let y, _)):
            return .vector(mix(x, y, p), count: n)
        case (.color(let x), .color(let y)):
            return .color(Self.mix(x, y, p))
        case (.transform(let x), .transform(let y)):
            return .transform(DecomposedTransform3D.interpolate(x, y, p))
        case (.image(let x), .image(let y)) where x !== y && p > 0 && p < 1:
            return .dissolve(from: x, to: y, progress: p)
        case (.colors(let x), .colors(let y)) where x.count == y.count:
            return .colors(zip(x, y).map { Self.mix($0, $1, p) ?? .clear })
        case (.numbers(let x?), .numbers(let y?)) where x.count == y.count:
            return .numbers(zip(x, y).map { $0 + ($1 - $0) * p })
        case (.path(let x?), .path(let y?)):
            if let between = x.interpolated(to: y, progress: p) { return .path(between) }
            return p < 0.5 ? a : b
        default:
            // Images cross-dissolve in the planner (PresentedState.dissolve); flags and mismatched values switch
            // at halfway, as CSS's discrete animation does.
            return p < 0.5 ? a : b
        }
    }

    /// Components part of the way from `x` to `y`: the interpolation of numbers and points (node tracks use it too,
    /// NodeTrack.swift, so that both give the same bits).
    static func mix(_ x: SIMD4<Double>, _ y: SIMD4<Double>, _ p: Double) -> SIMD4<Double> { x + (y - x) * p }

    /// `a` + `b`: what an additive animation adds, a cumulative one accumulates and `byValue` offsets by.
    static func add(_ a: AnimatedValue, _ b: AnimatedValue) -> AnimatedValue {
        switch (a, b) {
        case (.vector(let x, let n), .vector(let y, _)):
            return .vector(x + y, count: n)
        case (.color(let x), .color(let y)):
            let (u, v) = (x ?? .clear, y ?? .clear)
            return .color(Color(red: u.red + v.red, green: u.green + v.green, blue: u.blue + v.blue,
                                alpha: u.alpha + v.alpha))
        case (.transform(let x), .transform(let y)):
            // The added transform applies first, in the layer's space, then the one it is added to.
            return .transform(y.concatenating(x))
        case (.colors(let x), .colors(let y)) where x.count == y.count:
            return .colors(zip(x, y).map { u, v in
                Color(red: u.red + v.red, green: u.green + v.green, blue: u.blue + v.blue, alpha: u.alpha + v.alpha)
            })
        case (.numbers(let x?), .numbers(let y?)) where x.count == y.count:
            return .numbers(zip(x, y).map(+))
        default:
            return b
        }
    }

    /// `b` - `a`: the step from `a` to `b` (cumulative animations add it once per finished iteration; `byValue`
    /// with only `toValue` starts from `to - by`).
    static func subtract(_ b: AnimatedValue, _ a: AnimatedValue) -> AnimatedValue {
        switch (a, b) {
        case (.vector(let x, let n), .vector(let y, _)):
            return .vector(y - x, count: n)
        case (.color(let x), .color(let y)):
            let (u, v) = (x ?? .clear, y ?? .clear)
            return .color(Color(red: v.red - u.red, green: v.green - u.green, blue: v.blue - u.blue,
                                alpha: v.alpha - u.alpha))
        case (.transform(let x), .transform(let y)):
            // The transform that, applied after x, gives y.
            return .transform((x.inverted ?? .identity).concatenating(y))
        case (.colors(let x), .colors(let y)) where x.count == y.count:
            return .colors(zip(x, y).map { u, v in
                Color(red: v.red - u.red, green: v.green - u.green, blue: v.blue - u.blue, alpha: v.alpha - u.alpha)
            })
        case (.numbers(let x?), .numbers(let y?)) where x.count == y.count:
            return .numbers(zip(y, x).map(-))
        default:
            return b
        }
    }

    /// `step` added `times` times to `value`.
    static func add(_ value: AnimatedValue, _ step: AnimatedValue, times: Double) -> AnimatedValue {
        guard times != 0, times.isFinite else { return value }
        switch step {
        case .vector(let y, let n): return add(value, .vector(y * times, count: n))
        case .color(let c):
            let c = c ?? .clear
            return add(value, .color(Color(red: c.red * times, green: c.green * times, blue: c.blue * times,
                                           alpha: c.alpha * times)))
        case .colors(let list):
            return add(value, .colors(list.map { c in
                Color(red: c.red * times, green: c.green * times, blue: c.blue * times, alpha: c.alpha * times)
            }))
        case .numbers(let list?):
            return add(value, .numbers(list.map { $0 * times }))
        case .transform(let t):
            var result = value
            var count = Int(min(max(times, 0), 1000))
            while count > 0 {
                result = add(result, .transform(t))
                count -= 1
            }
            return result
        default:
            return value
        }
    }

    /// The distance between two values (paced keyframes): Euclidean over the components; colours over straight
    /// components and alpha; transforms over their translations; anything else 1 when they differ.
    static func distance(_ a: AnimatedValue, _ b: AnimatedValue) -> Double {
        switch (a, b) {
        case (.vector(let x, _), .vector(let y, _)):
            let d = y - x
            return (d * d).sum().squareRoot()
        case (.color(let x), .color(let y)):
            let (u, v) = (x ?? .clear, y ?? .clear)
            let d = SIMD4(v.red - u.red, v.green - u.green, v.blue - u.blue, v.alpha - u.alpha)
            return (d * d).sum().squareRoot()
        case (.transform(let x), .transform(let y)):
            let d = SIMD4(Double(y.m41 - x.m41), Double(y.m42 - x.m42), Double(y.m43 - x.m43), 0)
            return (d * d).sum().squareRoot()
        case (.colors(let x), .colors(let y)) where x.count == y.count:
            return zip(x, y).reduce(0) { sum, pair in
                let (u, v) = pair
                let d = SIMD4(v.red - u.red, v.green - u.green, v.blue - u.blue, v.alpha - u.alpha)
                return sum + (d * d).sum()
            }.squareRoot()
        case (.numbers(let x?), .numbers(let y?)) where x.count == y.count:
            return zip(x, y).reduce(0) { $0 + ($1.1 - $1.0) * ($1.1 - $1.0) }.squareRoot()
        default:
            return 1
        }
    }

    /// Straight-alpha colour mix; a missing colour (nil: no background) is the other one at alpha 0, so fading
    /// in from nothing does not pass through grey or black.
    private static func mix(_ x: Color?, _ y: Color?, _ p: Double) -> Color? {
        guard x != nil || y != nil else { return nil }
        let u = x ?? y!.withAlphaComponent(0)
        let v = y ?? x!.withAlphaComponent(0)
        return Color(red: u.red + (v.red - u.red) * p, green: u.green + (v.green - u.green) * p,
                     blue: u.blue + (v.blue - u.blue) * p, alpha: u.alpha + (v.alpha - u.alpha) * p)
    }
}

/// The kind of value a key path takes; converts what a program passes (`Any`, as in Core Animation) to an
/// `AnimatedValue`.
enum AnimatedValueKind {
    case number, point, size, rect, color, transform, image, flag, colors, numbers, path

    /// `value` as this kind, or nil when it is not one (a wrong type is ignored, as Core Animation ignores it).
    func convert(_ value: Any?) -> AnimatedValue? {
        guard let value else {
            switch self {
            case .color: return .color(nil)
            case .image: return .image(nil)
            case .numbers: return .numbers(nil)
            case .path: return .path(nil)
            default: return nil
            }
        }
        switch self {
        case .number:
            return Self.double(value).map(AnimatedValue.number)
        case .point:
            if let p = value as? CGPoint { return .point(p) }
            return Self.doubles(value, count: 2).map { .vector(SIMD4($0[0], $0[1], 0, 0), count: 2) }
        case .size:
            if let s = value as? CGSize { return .size(s) }
            return Self.doubles(value, count: 2).map { .vector(SIMD4($0[0], $0[1], 0, 0), count: 2) }
        case .rect:
            if let r = value as? CGRect { return .rect(r) }
            return Self.doubles(value, count: 4).map { .vector(SIMD4($0[0], $0[1], $0[2], $0[3]), count: 4) }
        case .color:
            return (value as? Color).map { .color($0) }
        case .transform:
            if let t = value as? Transform3D { return .transform(t) }
            if let t = value as? CGAffineTransform { return .transform(Transform3D(t)) }
            return nil
        case .image:
            return (value as? Image).map { .image($0) }
        case .flag:
            if let b = value as? Bool { return .flag(b) }
            return Self.double(value).map { .flag($0 != 0) }
        case .colors:
            return (value as? [Color]).map { .colors($0) }
        case .numbers:
            guard let array = value as? [Any] else { return nil }
            let numbers = array.compactMap(Self.double)
            return numbers.count == array.count ? .numbers(numbers) : nil
        case .path:
            if let path = value as? CGPath { return .path(path.path) }
            return (value as? Path).map { .path($0) }
        }
    }

    static func double(_ value: Any) -> Double? {
        switch value {
        case let x as Double: return x
        case let x as Float: return Double(x)
        case let x as CGFloat: return Double(x)
        case let x as Int: return Double(x)
        case let x as NSNumber: return x.doubleValue
        default: return nil
        }
    }

    private static func doubles(_ value: Any, count: Int) -> [Double]? {
        guard let array = value as? [Any], array.count == count else { return nil }
        let numbers = array.compactMap(double)
        return numbers.count == count ? numbers : nil
    }
}
