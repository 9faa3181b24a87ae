import Foundation
import LaminaCore
import LaminaLayers

/// An animation read from a scene file, with the key it is attached for (`name`).
struct SceneAnimation {
    var animation: Animation
    var name: String?
}

/// `animations` on layers and the ANIMATION objects of docs/scene-format.md, "Animations": the keys shared by
/// every type, basic and spring animations, groups and transitions (keyframes: `+Keyframes`).
extension SceneLoader {
    static let animationTypes = ["basic", "keyframe", "spring", "group", "transition"]
    static let timingKeys = [
        "duration", "beginTime", "speed", "timeOffset", "repeatCount", "repeatDuration", "autoreverses",
        "fillMode", "removedOnCompletion", "timingFunction",
    ]
    private static let propertyKeys = ["keyPath", "additive", "cumulative", "valueFunction"]
    private static let basicKeys = propertyKeys + ["fromValue", "toValue", "byValue"]
    /// The keys each type takes besides `type`, `name` and the timing keys.
    static let keysByType: [String: [String]] = [
        "basic": basicKeys,
        "spring": basicKeys + ["mass", "stiffness", "damping", "initialVelocity"],
        "keyframe": propertyKeys + [
            "values", "keyTimes", "timingFunctions", "calculationMode", "path", "rotationMode",
        ] + splineParameterKeys,
        "group": ["animations"],
        "transition": ["transitionType", "subtype", "startProgress", "endProgress"],
    ]
    static let animationKeys: [String] = {
        var keys = ["type", "name"] + timingKeys
        for type in animationTypes { keys += keysByType[type]!.filter { !keys.contains($0) } }
        return keys
    }()

    /// A layer's `animations`: each is attached to `layer` (in file order, so later ones apply over earlier
    /// ones), with its beginTime as written. Returns the animations for the scene's default duration.
    func readAnimations(_ value: JSONValue, _ path: String, layer: Layer) -> [Animation] {
        guard case .array(let items) = value.kind else {
            typeMismatch(value, path, expected: "an array of animations")
            return []
        }
        var attached: [Animation] = []
        for (index, item) in items.enumerated() {
            let itemPath = ScenePath.index(path, index)
            guard let read = animation(item, itemPath, layer: layer, defaultType: nil) else { continue }
            if read.animation is Transition {
                report(ScenePath.key(itemPath, "type"), at: item.position,
                       "a transition animates a change: give it as a timeline entry's \"transition\"")
                continue
            }
            layer.attach(read.animation, forKey: read.name, keepingBeginTime: true)
            attached.append(read.animation)
        }
        return attached
    }

    /// One ANIMATION object; nil after reporting its problems. `defaultType` is the type when `type` is missing
    /// (a timeline's `transition`); nil: `type` is required.
    func animation(_ value: JSONValue, _ path: String, layer: Layer, defaultType: String?) -> SceneAnimation? {
        guard let members = members(value, path, expected: "an animation (an object with a \"type\")") else {
            return nil
        }
        let problemCount = problems.count
        let keys = knownMembers(members, path, known: SceneLoader.animationKeys)
        var type = defaultType
        if let member = keys["type"] {
            type = choice(member.value, ScenePath.key(path, "type"), what: "animation type",
                          options: SceneLoader.animationTypes.map { ($0, $0) })
            if type == nil { return nil }
        } else if type == nil {
            type = SceneLoader.impliedType(keys)
            if type == nil {
                report(path, at: value.position, "required key \"type\" is missing (one of "
                       + SceneLoader.listing(SceneLoader.animationTypes.map { "\"\($0)\"" }) + ")")
                return nil
            }
        }
        guard let type else { return nil }
        let allowed = Set(["type", "name"] + SceneLoader.timingKeys + SceneLoader.keysByType[type]!)
        for member in members where keys[member.key] != nil && !allowed.contains(member.key) {
            let owners = SceneLoader.animationTypes.filter { SceneLoader.keysByType[$0]!.contains(member.key) }
            report(ScenePath.key(path, member.key), at: member.keyPosition,
                   "not a key of a \(type) animation (it belongs to "
                   + SceneLoader.listing(owners.map { "\"\($0)\"" }, conjunction: "or") + " animations)")
        }
        let name = keys["name"].flatMap { string($0.value, ScenePath.key(path, "name")) }

        let animation: Animation?
        switch type {
        case "basic", "spring": animation = basicAnimation(keys, path, at: value, layer: layer, spring: type == "spring")
        case "keyframe": animation = keyframeAnimation(keys, path, at: value, layer: layer)
        case "group": animation = group(keys, path, at: value, layer: layer)
        default: animation = transition(keys, path)
        }
        // The timing keys are checked even when the rest was wrong, so that one run shows every problem.
        readTiming(animation ?? Animation(), keys, path)
        guard let animation, problems.count == problemCount else { return nil }
        return SceneAnimation(animation: animation, name: name)
    }

    /// The type an animation without `type` has when its keys say it without doubt: the keys only one type takes
    /// (`values` is a keyframe animation's, `mass` a spring's, ...), else basic when it has a `keyPath`; nil when
    /// keys of several types are mixed, or nothing tells.
    static func impliedType(_ keys: [String: JSONMember]) -> String? {
        let shared = ["keyPath", "additive", "cumulative", "valueFunction"]
        let own: [(String, [String])] = [
            ("spring", ["mass", "stiffness", "damping", "initialVelocity"]),
            ("keyframe", keysByType["keyframe"]!.filter { !shared.contains($0) }),
            ("group", keysByType["group"]!), ("transition", keysByType["transition"]!),
        ]
        let types = own.filter { _, names in names.contains { keys[$0] != nil } }.map(\.0)
        if types.count == 1 { return types[0] }
        return types.isEmpty && keys["keyPath"] != nil ? "basic" : nil
    }

    // MARK: Timing

    /// The CAMediaTiming keys, the timing function and removedOnCompletion.
    private func readTiming(_ animation: Animation, _ keys: [String: JSONMember], _ path: String) {
        func key(_ name: String) -> (JSONValue, String)? {
            keys[name].map { ($0.value, ScenePath.key(path, name)) }
        }
        if let (value, path) = key("duration"), let duration = nonNegativeNumber(value, path) {
            animation.duration = duration
        }
        if let (value, path) = key("beginTime"), let begin = number(value, path) { animation.beginTime = begin }
        if let (value, path) = key("speed"), let speed = floatNumber(value, path) { animation.speed = speed }
        if let (value, path) = key("timeOffset"), let offset = number(value, path) { animation.timeOffset = offset }
        if let (value, path) = key("repeatCount") {
            if case .string("infinity") = value.kind {
                animation.repeatCount = .infinity
            } else if case .number(let count) = value.kind {
                if count < 0 {
                    report(path, at: value.position, "must not be negative")
                } else if let float = floatNumber(value, path) {
                    animation.repeatCount = float
                }
            } else if case .string(let text) = value.kind {
                report(path, at: value.position, "expected a number of repeats or \"infinity\", got \(ScenePath.quoted(text))")
            } else {
                typeMismatch(value, path, expected: "a number of repeats or \"infinity\"")
            }
        }
        if let (value, path) = key("repeatDuration"), let duration = nonNegativeNumber(value, path) {
            animation.repeatDuration = duration
        }
        if let (value, path) = key("autoreverses"), let flag = bool(value, path) { animation.autoreverses = flag }
        if let (value, path) = key("fillMode"),
            let mode = choice(value, path, what: "fill mode", options: FillMode.allCases.map { ($0.rawValue, $0) })
        {
            animation.fillMode = mode
        }
        if let (value, path) = key("removedOnCompletion"), let flag = bool(value, path) {
            animation.isRemovedOnCompletion = flag
        }
        if let (value, path) = key("timingFunction"), let function = timingFunction(value, path) {
            animation.timingFunction = function
        }
    }

    /// A name (linear, easeIn, easeOut, easeInEaseOut, default) or [c1x, c1y, c2x, c2y] with both x in 0...1.
    func timingFunction(_ value: JSONValue, _ path: String) -> MediaTimingFunction? {
        if case .array = value.kind {
            guard let c = numbers(value, path, counts: [4], shape: "[c1x, c1y, c2x, c2y]") else { return nil }
            guard (0...1).contains(c[0]), (0...1).contains(c[2]) else {
                report(path, at: value.position, "the control points' x (c1x and c2x) must be between 0 and 1")
                return nil
            }
            return MediaTimingFunction(controlPoints: Float(c[0]), Float(c[1]), Float(c[2]), Float(c[3]))
        }
        guard case .string = value.kind else {
            typeMismatch(value, path, expected: "a timing function name or [c1x, c1y, c2x, c2y]")
            return nil
        }
        return choice(value, path, what: "timing function",
                      options: MediaTimingFunction.Name.allCases.map { ($0.rawValue, $0) })
            .map { MediaTimingFunction(name: $0) }
    }

    // MARK: Types

    private func basicAnimation(
        _ keys: [String: JSONMember], _ path: String, at value: JSONValue, layer: Layer, spring: Bool
    ) -> Animation? {
        guard let (keyPath, form) = requiredKeyPath(keys, path, at: value, layer: layer) else { return nil }
        let animation: BasicAnimation
        if spring {
            let springAnimation = SpringAnimation(keyPath: keyPath)
            readSpring(springAnimation, keys, path)
            animation = springAnimation
        } else {
            animation = BasicAnimation(keyPath: keyPath)
        }
        readPropertyFlags(animation, keys, path)
        let function = valueFunction(keys, path, keyPath: keyPath, form: form)
        if case .some(nil) = function { return nil }
        animation.valueFunction = function ?? nil
        let given = ["fromValue", "toValue", "byValue"].compactMap { name in keys[name].map { (name, $0) } }
        if given.isEmpty {
            report(path, at: value.position, "needs \"fromValue\", \"toValue\" or \"byValue\"")
            return nil
        }
        if form == .contents || form == .flag, let by = keys["byValue"] {
            report(ScenePath.key(path, "byValue"), at: by.keyPosition,
                   "\(keyPath) values cannot be added: give \"fromValue\" and \"toValue\"")
            return nil
        }
        var read: [(String, Any, JSONValue, String)] = []
        for (name, member) in given {
            let valuePath = ScenePath.key(path, name)
            if let v = animationValue(member.value, valuePath, form: form, function: animation.valueFunction) {
                read.append((name, v, member.value, valuePath))
            }
        }
        guard read.count == given.count else { return nil }
        var values = read.map(\.1)
        if form == .contents {
            guard let placed = placeContents(read.map { ($0.1, $0.2, $0.3) }, layer: layer) else { return nil }
            animation.keyPath = placed.keyPath
            values = placed.values
        }
        for ((name, _, _, _), v) in zip(read, values) {
            switch name {
            case "fromValue": animation.fromValue = v
            case "toValue": animation.toValue = v
            default: animation.byValue = v
            }
        }
        return animation
    }

    private func readSpring(_ spring: SpringAnimation, _ keys: [String: JSONMember], _ path: String) {
        if let member = keys["mass"], let mass = positiveNumber(member.value, ScenePath.key(path, "mass")) {
            spring.mass = mass
        }
        if let member = keys["stiffness"],
            let stiffness = positiveNumber(member.value, ScenePath.key(path, "stiffness"))
        {
            spring.stiffness = stiffness
        }
        if let member = keys["damping"], let damping = nonNegativeNumber(member.value, ScenePath.key(path, "damping")) {
            spring.damping = damping
        }
        if let member = keys["initialVelocity"],
            let velocity = number(member.value, ScenePath.key(path, "initialVelocity"))
        {
            spring.initialVelocity = velocity
        }
    }

    /// `keyPath` (required) and its form.
    func requiredKeyPath(
        _ keys: [String: JSONMember], _ path: String, at value: JSONValue, layer: Layer
    ) -> (String, AnimatedValueForm)? {
        guard let member = keys["keyPath"] else {
            report(path, at: value.position, "required key \"keyPath\" is missing (the property to animate)")
            return nil
        }
        let keyPathPath = ScenePath.key(path, "keyPath")
        guard let (keyPath, form) = keyPathForm(member.value, keyPathPath) else { return nil }
        // A specialised layer's key path animates nothing on a layer of another type: an error, not a silent no-op.
        if let owner = SceneLoader.layerType(ofKeyPath: keyPath), owner != SceneLoader.layerType(of: layer) {
            report(keyPathPath, at: member.value.position,
                   "\(ScenePath.quoted(keyPath)) animates only \(owner.rawValue) layers")
            return nil
        }
        return (keyPath, form)
    }

    /// `additive` and `cumulative`.
    func readPropertyFlags(_ animation: PropertyAnimation, _ keys: [String: JSONMember], _ path: String) {
        if let member = keys["additive"], let flag = bool(member.value, ScenePath.key(path, "additive")) {
            animation.isAdditive = flag
        }
        if let member = keys["cumulative"], let flag = bool(member.value, ScenePath.key(path, "cumulative")) {
            animation.isCumulative = flag
        }
    }

    private func group(_ keys: [String: JSONMember], _ path: String, at value: JSONValue, layer: Layer) -> Animation? {
        let group = AnimationGroup()
        guard let member = keys["animations"] else {
            report(path, at: value.position, "required key \"animations\" is missing (the grouped animations)")
            return nil
        }
        let listPath = ScenePath.key(path, "animations")
        guard case .array(let items) = member.value.kind else {
            typeMismatch(member.value, listPath, expected: "an array of animations")
            return nil
        }
        var animations: [Animation] = []
        for (index, item) in items.enumerated() {
            let itemPath = ScenePath.index(listPath, index)
            guard let read = animation(item, itemPath, layer: layer, defaultType: nil) else { continue }
            if read.animation is Transition {
                report(ScenePath.key(itemPath, "type"), at: item.position, "a group cannot hold a transition")
                continue
            }
            animations.append(read.animation)
        }
        group.animations = animations
        return group
    }

    private func transition(_ keys: [String: JSONMember], _ path: String) -> Animation? {
        let transition = Transition()
        if let member = keys["transitionType"],
            let kind = choice(member.value, ScenePath.key(path, "transitionType"), what: "transition type",
                              options: Transition.Kind.allCases.map { ($0.rawValue, $0) })
        {
            transition.type = kind
        }
        if let member = keys["subtype"],
            let subtype = choice(member.value, ScenePath.key(path, "subtype"), what: "transition subtype",
                                 options: Transition.Subtype.allCases.map { ($0.rawValue, $0) })
        {
            transition.subtype = subtype
        }
        for name in ["startProgress", "endProgress"] {
            guard let member = keys[name], let progress = number(member.value, ScenePath.key(path, name)) else {
                continue
            }
            guard (0...1).contains(progress) else {
                report(ScenePath.key(path, name), at: member.value.position, "must be between 0 and 1")
                continue
            }
            if name == "startProgress" { transition.startProgress = Float(progress) } else {
                transition.endProgress = Float(progress)
            }
        }
        return transition
    }

    // MARK: Helpers

    /// A number that fits a Float (speeds and repeat counts are Floats, as in Core Animation).
    func floatNumber(_ value: JSONValue, _ path: String) -> Float? {
        guard let number = number(value, path) else { return nil }
        guard Float(number).isFinite else {
            report(path, at: value.position, "must fit a 32-bit float (magnitude below 3.4e38)")
            return nil
        }
        return Float(number)
    }

    /// One of `options` by name; unknown names are reported with the closest one or the whole list.
    func choice<T>(_ value: JSONValue, _ path: String, what: String, options: [(String, T)]) -> T? {
        guard let name = string(value, path) else { return nil }
        if let match = options.first(where: { $0.0 == name }) { return match.1 }
        let names = options.map(\.0)
        if let suggestion = Suggestion.closest(to: name, in: names) {
            report(path, at: value.position,
                   "unknown \(what) \(ScenePath.quoted(name)) (did you mean \"\(suggestion)\"?)")
        } else {
            report(path, at: value.position, "unknown \(what) \(ScenePath.quoted(name)) (expected one of "
                   + SceneLoader.listing(names.map { "\"\($0)\"" }) + ")")
        }
        return nil
    }
}
