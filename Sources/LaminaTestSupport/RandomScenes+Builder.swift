import Foundation
import Lamina

/// Builds one random scene. Numbers come from `number(_:_:_:)`, which in extreme mode often returns a value
/// from `RandomSceneBuilder.extremes` instead, so the same tree shapes serve both test modes.
final class RandomSceneBuilder {
    /// What a key accepts, so that an extreme value usually stays loadable (an error is fine, but a run that
    /// only ever produces scene errors would never reach the planner or the renderers).
    enum Domain { case any, nonNegative, unit, positive }

    var random: TreeRandom
    let seed: UInt64
    let extreme: Bool
    /// Layers still to be made; keeps a scene small (SCENE sizes up to 160x160, about 40 layers).
    var layersLeft: Int
    /// Image file names (for `contents` and `image` steps) and sprite frames ("sheet/frame").
    var imageNames: [String] = []
    var frameNames: [String] = []
    var images: [String: Image] = [:]
    var texts: [String: String] = [:]

    init(seed: UInt64, extreme: Bool) {
        self.seed = seed
        self.extreme = extreme
        // Mixed once so that neighbouring seeds (base + i) do not start from neighbouring states.
        var mixer = TreeRandom(seed: seed ^ (extreme ? 0xE7_7E3E : 0))
        random = TreeRandom(seed: mixer.next())
        layersLeft = 6 + random.below(35)
    }

    func scene() -> RandomScene {
        var top: [(String, SceneJSON)] = []
        // The output size: extreme one time in ten only, as most extreme sizes are (rightly) a scene error.
        let sizeIsExtreme = random.chance(0.1)
        func side() -> Double { sizeIsExtreme ? number(64, 160, .positive, whole: true) : random.between(64, 160).rounded() }
        let width = side(), height = side()
        top.append(("size", .array([.number(width), .number(height)])))
        if random.chance(0.2) { top.append(("scale", .number(number(1, 2, .positive, whole: true)))) }
        if random.chance(0.7) { top.append(("backgroundColor", color(opaque: random.chance(0.7)))) }
        makeImages(into: &top)
        makeSpriteSheet(into: &top)
        let size = CGSize(width: min(abs(width), 160), height: min(abs(height), 160))
        var layers: [SceneJSON] = []
        while layersLeft > 0 && (layers.isEmpty || random.chance(0.75)) {
            layers.append(layer(depth: 0, in: size))
        }
        top.append(("layers", .array(layers)))
        return RandomScene(seed: seed, extreme: extreme, json: .object(top), images: images, texts: texts)
    }

    // MARK: Numbers

    /// A number in lo..<hi (rounded to hundredths, or whole), or in extreme mode sometimes an extreme value
    /// kept inside `domain` most of the time.
    func number(_ lo: Double, _ hi: Double, _ domain: Domain = .any, whole: Bool = false) -> Double {
        if extreme && random.chance(0.22) { return extremeNumber(domain) }
        let value = random.between(lo, hi)
        return whole ? value.rounded() : (value * 100).rounded() / 100
    }

    func numbers(_ count: Int, _ lo: Double, _ hi: Double, _ domain: Domain = .any) -> SceneJSON {
        .array((0..<count).map { _ in .number(number(lo, hi, domain)) })
    }

    /// `[x, y, w, h]` inside roughly `area`, with a non-negative size.
    func rect(in area: CGSize, minSide: Double = 0) -> SceneJSON {
        let w = number(minSide, Double(area.width) * 0.9 + 1, .nonNegative)
        let h = number(minSide, Double(area.height) * 0.9 + 1, .nonNegative)
        let x = number(-Double(area.width) * 0.2, Double(area.width) * 0.8)
        let y = number(-Double(area.height) * 0.2, Double(area.height) * 0.8)
        return .array([.number(x), .number(y), .number(w), .number(h)])
    }

    func color(opaque: Bool = false) -> SceneJSON {
        if random.chance(0.5) || extreme {
            let alpha = opaque ? 1 : random.pick([1, 0.5, 0.25, 0.8, 0, random.unit()])
            return .array([
                .number(number(0, 1, .unit)), .number(number(0, 1, .unit)), .number(number(0, 1, .unit)),
                .number(opaque ? 1 : number(alpha, alpha, .unit)),
            ])
        }
        let digits = (0..<(opaque ? 3 : 4)).map { _ in String(format: "%02X", random.below(256)) }.joined()
        return .string("#" + digits)
    }
}
