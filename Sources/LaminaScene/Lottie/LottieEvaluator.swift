import Foundation
import LaminaCore
import LaminaDrawing

/// Works out a Lottie document's values at any frame: properties (keyframes, then the expression), transforms,
/// shapes, masks and text. Stateless apart from the expression engine, which it guards, so frames on several
/// threads may ask at once.
final class LottieEvaluator: @unchecked Sendable {
    let document: LottieDocument
    /// Decoded images by asset id (replacements included).
    var images: [String: Image]
    /// Replacement text by layer name (the text provider).
    var texts: [String: String]
    /// Evaluates expressions; nil: expressions are ignored (the keyframed value shows).
    let expressions: LottieExpressionRunner?
    /// The precompositions by asset id.
    let comps: [String: LottieComp]

    init(document: LottieDocument, images: [String: Image], texts: [String: String],
         expressions: LottieExpressionRunner?) {
        self.document = document
        self.images = images
        self.texts = texts
        self.expressions = expressions
        comps = document.precomps.mapValues { LottieComp(id: $0.id, layers: $0.layers, width: 0, height: 0) }
    }

    // MARK: Values

    func numbers(_ p: LottieNumbers, _ f: Double) -> [Double] {
        var v = p.value(at: f) ?? []
        if let source = p.expression, let expressions {
            v = expressions.evaluate(source, property: p, value: v, frame: f, evaluator: self) ?? v
        }
        return v
    }

    func num(_ p: LottieNumbers, _ f: Double, _ fallback: Double) -> Double {
        guard let x = numbers(p, f).first, x.isFinite else { return fallback }
        return x
    }

    /// At least two finite numbers (points, sizes, scales).
    func num2(_ p: LottieNumbers, _ f: Double, _ fallback: Double = 0) -> [Double] {
        var v = numbers(p, f).map { $0.isFinite ? $0 : fallback }
        while v.count < 2 { v.append(v.first ?? fallback) }
        return v
    }

    func bezier(_ p: LottieProperty<LottieBezier>, _ f: Double) -> LottieBezier {
        p.value(at: f) ?? LottieBezier(closed: false, vertices: [], inTangents: [], outTangents: [])
    }

    // MARK: Transforms

    /// Anchor, scale, skew, rotation, position, in that order (lottie-web's), mapping the layer's or group's
    /// space to its parent's. `orient`: the position's direction of travel, added to the rotation (auto-orient).
    func matrix(_ t: LottieTransform, _ f: Double, autoOrient: Bool = false) -> CGAffineTransform {
        let a = num2(t.anchor, f)
        let p: [Double]
        if let x = t.positionX, let y = t.positionY {
            p = [num(x, f, 0), num(y, f, 0)]
        } else {
            p = num2(t.position, f)
        }
        let s = num2(t.scale, f, 100)
        var r = num(t.rotation, f, 0)
        if autoOrient { r += orientation(t, f) }
        var m = CGAffineTransform(translationX: -a[0], y: -a[1])
            .concatenating(CGAffineTransform(scaleX: s[0] / 100, y: s[1] / 100))
        let sk = num(t.skew, f, 0)
        if sk != 0 {
            let sa = num(t.skewAxis, f, 0) * .pi / 180
            let shear = CGAffineTransform(a: 1, b: 0, c: tan(max(min(-sk, 89.9), -89.9) * .pi / 180), d: 1, tx: 0, ty: 0)
            m = m.concatenating(CGAffineTransform(rotationAngle: sa)).concatenating(shear)
                .concatenating(CGAffineTransform(rotationAngle: -sa))
        }
        return m.concatenating(CGAffineTransform(rotationAngle: r * .pi / 180))
            .concatenating(CGAffineTransform(translationX: p[0], y: p[1]))
    }

    /// The angle (degrees) of the position's motion at `f`, for auto-orient.
    private func orientation(_ t: LottieTransform, _ f: Double) -> Double {
        func position(_ x: Double) -> [Double] {
            if let px = t.positionX, let py = t.positionY { return [num(px, x, 0), num(py, x, 0)] }
            return num2(t.position, x)
        }
        let a = position(f - 0.05), b = position(f + 0.05)
        let dx = b[0] - a[0], dy = b[1] - a[1]
        if dx == 0 && dy == 0 {
            // Standing still: the direction it last had (or will have), as After Effects keeps it.
            let c = position(f - 1), d = position(f + 1)
            guard d[0] != c[0] || d[1] != c[1] else { return 0 }
            return atan2(d[1] - c[1], d[0] - c[0]) * 180 / .pi
        }
        return atan2(dy, dx) * 180 / .pi
    }

    /// Copy `index` of a repeater: scale to the power of the index, rotation and position times it, about the
    /// anchor.
    func repeaterMatrix(_ t: LottieTransform, _ f: Double, index k: Double) -> CGAffineTransform {
        let a = num2(t.anchor, f), p = num2(t.position, f), s = num2(t.scale, f, 100)
        let r = num(t.rotation, f, 0)
        let sx = pow(max(s[0] / 100, 0), k), sy = pow(max(s[1] / 100, 0), k)
        return CGAffineTransform(translationX: -a[0], y: -a[1])
            .concatenating(CGAffineTransform(scaleX: sx.isFinite ? sx : 0, y: sy.isFinite ? sy : 0))
            .concatenating(CGAffineTransform(rotationAngle: r * k * .pi / 180))
            .concatenating(CGAffineTransform(translationX: a[0] + p[0] * k, y: a[1] + p[1] * k))
    }

    /// A layer's opacity at `f`, 0...1.
    func opacity(_ t: LottieTransform, _ f: Double) -> Double { clamp01(num(t.opacity, f, 100) / 100) }
}

/// Runs a property's expression; implemented with the expression engine (LottieExpressions.swift).
protocol LottieExpressionRunner: AnyObject, Sendable {
    /// The expression's value at `frame`, or nil to keep `value` (a failure, recorded by the runner).
    func evaluate(_ source: String, property: LottieNumbers, value: [Double], frame: Double,
                  evaluator: LottieEvaluator) -> [Double]?
    /// Why the expression fails at `frame` (a syntax error, an exception, a limit); nil when it gives a value.
    func failure(_ source: String, property: LottieNumbers, frame: Double, evaluator: LottieEvaluator) -> String?
}
