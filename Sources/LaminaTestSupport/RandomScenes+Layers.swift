import Foundation
import Lamina

/// Layers: every key of docs/scene-format.md's "A layer", each set with some probability.
extension RandomSceneBuilder {
    /// A layer (with its subtree and mask) placed inside `area`, the parent's bounds size.
    func layer(depth: Int, in area: CGSize, isMask: Bool = false) -> SceneJSON {
        layersLeft -= 1
        var keys: [(String, SceneJSON)] = []
        if random.chance(0.3) { keys.append(("name", .string("L\(layersLeft)"))) }
        let size = geometry(into: &keys, in: area)
        if random.chance(0.08) { keys.append(("zPosition", .number(number(-20, 20)))) }
        if random.chance(0.3) { keys.append(transform(key: random.chance(0.15) ? "affineTransform" : "transform")) }
        if random.chance(0.12) { keys.append(("sublayerTransform", transformValue(perspective: random.chance(0.6)))) }
        if random.chance(0.06) { keys.append(("hidden", .bool(true))) }
        if random.chance(0.3) { keys.append(("opacity", .number(random.chance(0.15) ? 0 : number(0, 1, .unit)))) }
        if random.chance(0.15) { keys.append(("allowsGroupOpacity", .bool(random.chance(0.5)))) }
        if random.chance(0.75) { keys.append(("backgroundColor", color(opaque: random.chance(0.5)))) }
        if random.chance(0.2) {
            keys.append(("borderWidth", .number(number(0, 6, .nonNegative))))
            if random.chance(0.7) { keys.append(("borderColor", color())) }
        }
        if random.chance(0.3) {
            keys.append(("cornerRadius", .number(number(0, Double(min(size.width, size.height)) * 0.7 + 1, .nonNegative))))
            if random.chance(0.4) { keys.append(("maskedCorners", maskedCorners())) }
        }
        if random.chance(0.25) { keys.append(("masksToBounds", .bool(true))) }
        if random.chance(0.08) { keys.append(("doubleSided", .bool(false))) }
        if random.chance(0.12) { keys.append(("allowsEdgeAntialiasing", .bool(true))) }
        if random.chance(0.05) { keys.append(("needsDisplayOnBoundsChange", .bool(true))) }
        if random.chance(0.2) { shadow(into: &keys, size: size) }
        special(into: &keys, size: size)
        if random.chance(0.25) {
            contents(into: &keys, size: size)
        } else if random.chance(0.12) {
            keys.append(("draw", drawing(in: size)))
        }
        if !isMask, depth < 12, random.chance(0.12) { keys.append(("mask", mask(depth: depth, in: size))) }
        if layersLeft > 0, depth < 14 {
            if random.chance(0.04) {
                keys.append(("sublayers", .array([chain(depth: depth + 1, in: size)])))
            } else if random.chance(isMask ? 0.2 : 0.45) {
                var children: [SceneJSON] = []
                repeat { children.append(layer(depth: depth + 1, in: size)) } while layersLeft > 0 && random.chance(0.55)
                keys.append(("sublayers", .array(children)))
            }
        }
        return .object(keys)
    }

    /// frame, or bounds + position (+ anchorPoint); returns the bounds size used for the children.
    private func geometry(into keys: inout [(String, SceneJSON)], in area: CGSize) -> CGSize {
        if random.chance(0.2) {
            keys.append(("anchorPoint", .array([.number(anchor()), .number(anchor())])))
        }
        if random.chance(0.5) {
            let frame = rect(in: area)
            keys.append(("frame", frame))
            return size(of: frame)
        }
        let w = number(0, Double(area.width) * 0.9 + 1, .nonNegative), h = number(0, Double(area.height) * 0.9 + 1, .nonNegative)
        let origin = random.chance(0.2) ? (number(-20, 20), number(-20, 20)) : (0, 0)
        keys.append(("bounds", .array([.number(origin.0), .number(origin.1), .number(w), .number(h)])))
        keys.append(("position", numbers(2, -10, Double(max(area.width, area.height)) + 10)))
        return CGSize(width: min(abs(w), 160), height: min(abs(h), 160))
    }

    private func anchor() -> Double { random.chance(0.15) ? number(-0.5, 1.5) : number(0, 1, .unit) }

    private func size(of rect: SceneJSON) -> CGSize {
        guard case .array(let items) = rect, items.count == 4, case .number(let w) = items[2],
            case .number(let h) = items[3]
        else { return CGSize(width: 16, height: 16) }
        return CGSize(width: min(abs(w), 160), height: min(abs(h), 160))
    }

    private func maskedCorners() -> SceneJSON {
        let names = [
            random.chance(0.5) ? "topLeft" : "layerMinXMinYCorner", "topRight", "bottomLeft",
            random.chance(0.5) ? "bottomRight" : "layerMaxXMaxYCorner",
        ]
        return .array(names.filter { _ in random.chance(0.5) }.map { .string($0) })
    }

    /// A chain of single-child layers, 8 to 40 deep with small offsets, some fading; near the root, one
    /// time in eight, 100 to 230 deep, every link a rounded, clipping, translucent group (issue 13: such
    /// chains crashed GLES). The JSON parser's 512 levels allow about 250 layers of nesting.
    private func chain(depth: Int, in area: CGSize) -> SceneJSON {
        let deep = depth <= 3 && random.chance(0.125)
        let length = deep ? 100 + random.below(131) : 8 + random.below(33)
        var inner: SceneJSON = .object([
            ("frame", .array([.number(2), .number(2), .number(Double(max(area.width, 8)) * 0.5), .number(16)])),
            ("backgroundColor", color()),
        ])
        for _ in 0..<length {
            var keys: [(String, SceneJSON)] = [("frame", deep ? .array([.number(0.5), .number(0.25), .number(Double(area.width)), .number(Double(area.height))]) : rect(in: area, minSide: 4))]
            if deep || random.chance(0.2) { keys.append(("opacity", .number(number(deep ? 0.99 : 0.5, 1, .unit)))) }
            if deep || random.chance(0.1) { keys.append(("masksToBounds", .bool(true))) }
            if deep { keys.append(("cornerRadius", .number(number(0, 6, .nonNegative)))) }
            if !deep && random.chance(0.1) { keys.append(transform(key: "transform")) }
            keys.append(("sublayers", .array([inner])))
            inner = .object(keys)
        }
        layersLeft -= deep ? 8 : 2
        return inner
    }

    /// A mask layer: with content, of zero size, painting nothing, at opacity 0, or hidden.
    private func mask(depth: Int, in area: CGSize) -> SceneJSON {
        switch random.below(6) {
        case 0: return .object([("bounds", .array([.number(0), .number(0), .number(0), .number(0)]))])
        case 1: return .object([("frame", rect(in: area))])
        case 2: return .object([("frame", rect(in: area)), ("backgroundColor", color(opaque: true)), ("opacity", .number(0))])
        case 3: return .object([("frame", rect(in: area)), ("backgroundColor", color(opaque: true)), ("hidden", .bool(true))])
        default: return layer(depth: depth + 1, in: area, isMask: true)
        }
    }

    private func shadow(into keys: inout [(String, SceneJSON)], size: CGSize) {
        keys.append(("shadowOpacity", .number(number(0.1, 1, .unit))))
        if random.chance(0.7) { keys.append(("shadowColor", color())) }
        if random.chance(0.7) { keys.append(("shadowOffset", numbers(2, -8, 8))) }
        if random.chance(0.7) {
            let radius = !extreme ? number(0, 10, .nonNegative)
                : random.chance(0.3) ? random.pick(RandomSceneBuilder.blurRadii) : (random.between(0, 10) * 100).rounded() / 100
            keys.append(("shadowRadius", .number(radius)))
        }
        if random.chance(0.3) { keys.append(("shadowPath", .array((0..<(1 + random.below(4))).map { _ in pathStep(in: size) }))) }
    }

    // MARK: Transforms

    func transform(key: String) -> (String, SceneJSON) {
        if key == "affineTransform" {
            let angle = number(-180, 180) * .pi / 180, sx = number(0.3, 1.6), sy = number(0.3, 1.6)
            let values = [cos(angle) * sx, sin(angle) * sx, -sin(angle) * sy, cos(angle) * sy, number(-20, 20), number(-20, 20)]
            return (key, .array(values.map { .number(($0 * 1000).rounded() / 1000) }))
        }
        return (key, transformValue(perspective: random.chance(0.25)))
    }

    /// A list of steps, or (one time in five) the 16 numbers of a matrix with some perspective.
    func transformValue(perspective: Bool) -> SceneJSON {
        if random.chance(0.2) {
            var m = [1.0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
            let angle = number(-60, 60) * .pi / 180
            m[0] = cos(angle); m[1] = sin(angle); m[4] = -sin(angle); m[5] = cos(angle)
            m[12] = number(-20, 20); m[13] = number(-20, 20)
            if perspective { m[11] = -1 / number(100, 800, .positive) }
            if random.chance(0.2) { m[2] = number(-0.5, 0.5); m[14] = number(-20, 20) }
            return .array(m.map { .number(($0 * 10000).rounded() / 10000) })
        }
        var steps: [SceneJSON] = []
        if perspective { steps.append(.object([("perspective", .number(number(80, 800, .positive)))])) }
        for _ in 0..<(1 + random.below(3)) {
            switch random.below(6) {
            case 0: steps.append(.object([("translate", numbers(random.chance(0.3) ? 3 : 2, -20, 20))]))
            case 1: steps.append(.object([("scale", random.chance(0.05) ? .array([.number(0), .number(1)]) : numbers(2, 0.3, 1.6))]))
            case 2, 3: steps.append(.object([("rotate", .number(number(-180, 180)))]))
            default:
                steps.append(.object([("rotate", .number(number(-70, 70))), ("axis", .array([
                    .number(number(-1, 1)), .number(number(-1, 1)), .number(random.chance(0.5) ? 0 : number(-1, 1)),
                ]))]))
            }
        }
        return .array(steps)
    }
}
