import Foundation
import Lamina

/// Specialised layers (docs/scene-format.md, "Layer types"): a layer's `"type"` and its own keys, each set with
/// some probability, always valid (numbers stay in their keys' domains even in extreme scenes).
extension RandomSceneBuilder {
    /// Makes the layer a gradient, shape, text or replicator layer now and then: its type and keys.
    func special(into keys: inout [(String, SceneJSON)], size: CGSize) {
        guard random.chance(0.16) else { return }
        switch random.below(4) {
        case 0: gradient(into: &keys)
        case 1: shape(into: &keys, size: size)
        case 2: text(into: &keys)
        default: replicator(into: &keys)
        }
    }

    private func unitPoint() -> SceneJSON {
        .array([.number(number(-0.2, 1.2)), .number(number(-0.2, 1.2))])
    }

    private func gradient(into keys: inout [(String, SceneJSON)]) {
        keys.append(("type", .string("gradient")))
        let count = random.chance(0.1) ? random.below(2) : 2 + random.below(3)
        keys.append(("colors", .array((0..<count).map { _ in color() })))
        if count > 0, random.chance(0.5) {
            var stops = (0..<count).map { _ in number(0, 1, .unit) }
            stops.sort()
            keys.append(("locations", .array(stops.map { .number($0) })))
        }
        if random.chance(0.6) { keys.append(("startPoint", unitPoint())) }
        if random.chance(0.6) { keys.append(("endPoint", unitPoint())) }
        if random.chance(0.6) { keys.append(("gradientType", .string(random.pick(["axial", "radial", "conic"])))) }
    }

    private func shape(into keys: inout [(String, SceneJSON)], size: CGSize) {
        keys.append(("type", .string("shape")))
        if random.chance(0.9) {
            keys.append(("path", .array((0..<(1 + random.below(4))).map { _ in pathStep(in: size) })))
        }
        if random.chance(0.5) { keys.append(("fillColor", random.chance(0.2) ? .null : color())) }
        if random.chance(0.3) { keys.append(("fillRule", .string(random.pick(["nonZero", "evenOdd"])))) }
        if random.chance(0.6) {
            keys.append(("strokeColor", color()))
            keys.append(("lineWidth", .number(number(0, 12, .nonNegative))))
            if random.chance(0.4) { keys.append(("lineCap", .string(random.pick(["butt", "round", "square"])))) }
            if random.chance(0.4) { keys.append(("lineJoin", .string(random.pick(["miter", "round", "bevel"])))) }
            if random.chance(0.2) { keys.append(("miterLimit", .number(number(1, 20, .positive)))) }
            if random.chance(0.3) {
                keys.append(("lineDashPattern", .array((0..<(1 + random.below(4))).map { _ in
                    .number(number(0, 20, .nonNegative))
                })))
                if random.chance(0.5) { keys.append(("lineDashPhase", .number(number(-20, 20)))) }
            }
            if random.chance(0.4) {
                keys.append(("strokeStart", .number(number(0, 1, .unit))))
                keys.append(("strokeEnd", .number(number(0, 1, .unit))))
            }
        }
    }

    private func text(into keys: inout [(String, SceneJSON)]) {
        keys.append(("type", .string("text")))
        let strings = ["Lamina", "Gate 12 · Départ", "שלום עולם", "مرحبا", "日本語のテキスト", "नमस्ते दुनिया",
                       "a long label that will need wrapping or truncation", "two\nlines", ""]
        keys.append(("string", .string(random.pick(strings))))
        keys.append(("font", .string(random.pick(["DejaVu Sans", "DejaVu Serif", "sans-serif"]))))
        if random.chance(0.8) { keys.append(("fontSize", .number(number(4, 40, .positive)))) }
        if random.chance(0.7) { keys.append(("foregroundColor", color())) }
        if random.chance(0.4) {
            keys.append(("alignmentMode", .string(random.pick(["natural", "left", "right", "center", "justified"]))))
        }
        if random.chance(0.3) { keys.append(("isWrapped", .bool(random.chance(0.5)))) }
        if random.chance(0.3) {
            keys.append(("truncationMode", .string(random.pick(["none", "start", "middle", "end"]))))
        }
    }

    private func replicator(into keys: inout [(String, SceneJSON)]) {
        keys.append(("type", .string("replicator")))
        keys.append(("instanceCount", .number(Double(random.below(6)))))
        if random.chance(0.7) { keys.append(("instanceTransform", transformValue(perspective: false))) }
        if random.chance(0.5) { keys.append(("instanceColor", color())) }
        for key in ["instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset"]
            where random.chance(0.25) {
            keys.append((key, .number(number(-0.3, 0.3))))
        }
    }
}
