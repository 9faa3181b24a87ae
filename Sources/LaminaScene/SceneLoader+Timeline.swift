import Foundation
import LaminaCore
import LaminaLayers

/// The top-level `timeline`, `duration` and `fps` (docs/scene-format.md, "Timeline").
extension SceneLoader {
    static let timelineEntryKeys = ["at", "layer", "set", "animationDuration", "timingFunction", "disableActions",
                                    "transition"]
    /// Layer keys a timeline may not set: structure, names and custom drawing are fixed when the scene loads.
    static let fixedLayerKeys = ["type", "name", "sublayers", "mask", "draw", "animations", "needsDisplayOnBoundsChange"]

    func loadTimeline(_ value: JSONValue) -> [SceneTimeline.Entry] {
        guard case .array(let items) = value.kind else {
            typeMismatch(value, "timeline", expected: "an array of timeline entries")
            return []
        }
        var entries: [SceneTimeline.Entry] = []
        for (index, item) in items.enumerated() {
            if let entry = timelineEntry(item, ScenePath.index("timeline", index)) { entries.append(entry) }
        }
        return entries
    }

    /// `control`: a control line (SceneLoader+Control.swift), which applies at once and so has no "at".
    func timelineEntry(_ value: JSONValue, _ path: String, control: Bool = false) -> SceneTimeline.Entry? {
        guard let members = members(value, path, expected: "a timeline entry (an object with \"at\" and \"layer\")")
        else { return nil }
        let problemCount = problems.count
        let keys = knownMembers(members, path, known: SceneLoader.timelineEntryKeys) { key in
            SceneLoader.allLayerKeys.contains(key) ? "unknown key (layer properties go inside \"set\")" : nil
        }
        func key(_ name: String) -> (JSONValue, String)? { keys[name].map { ($0.value, ScenePath.key(path, name)) } }
        var at: Double?
        if control {
            if let (value, path) = key("at") {
                report(path, at: value.position, "a control line applies at once: it has no \"at\"")
            }
        } else if let (value, path) = key("at") { at = nonNegativeNumber(value, path) } else {
            report(path, at: value.position, "required key \"at\" is missing (the time in seconds)")
        }
        var layer: Layer?
        if let (value, path) = key("layer") { layer = namedLayer(value, path) } else {
            report(path, at: value.position, "required key \"layer\" is missing (a layer's \"name\")")
        }
        var entry = SceneTimeline.Entry(at: at ?? 0, layer: layer ?? Layer())
        if let (value, path) = key("animationDuration") { entry.animationDuration = nonNegativeNumber(value, path) }
        if let (value, path) = key("timingFunction") { entry.timingFunction = timingFunction(value, path) }
        if let (value, path) = key("disableActions") { entry.disableActions = bool(value, path) }
        // Without a layer the values are still checked, against a layer of their own (the entry is dropped).
        let target = layer ?? Layer()
        if let (value, setPath) = key("set") { (entry.source, entry.keys) = setter(value, setPath, target: target) }
        if let (value, transitionPath) = key("transition"),
            let transition = animation(value, transitionPath, layer: target, defaultType: "transition")
        {
            if transition.animation is Transition {
                entry.transition = transition
            } else {
                report(ScenePath.key(transitionPath, "type"), at: value.position,
                       "a timeline's \"transition\" must have \"type\": \"transition\"")
            }
        }
        if keys["set"] == nil, keys["transition"] == nil {
            report(path, at: value.position, "needs \"set\" or \"transition\" (what changes)")
        }
        return problems.count == problemCount ? entry : nil
    }

    /// The one layer named `name`: unknown and shared names are errors.
    private func namedLayer(_ value: JSONValue, _ path: String) -> Layer? {
        guard let name = string(value, path) else { return nil }
        guard let layers = layersByName[name] else {
            var message = "no layer is named \(ScenePath.quoted(name))"
            if let suggestion = Suggestion.closest(to: name, in: layersByName.keys.sorted()) {
                message += " (did you mean \"\(suggestion)\"?)"
            }
            report(path, at: value.position, message)
            return nil
        }
        guard layers.count == 1, let layer = layers.first else {
            report(path, at: value.position, "\(layers.count) layers are named \(ScenePath.quoted(name)) "
                   + "(a layer the timeline names must have a name of its own)")
            return nil
        }
        return layer
    }

    /// Reads `set` as a layer's keys, into a layer of its own that starts with the target's anchorPoint and bounds
    /// (what `frame` and a path's "bounds" are read against): every value is checked now, and applying copies the
    /// keys given from that layer to the target. Gives that layer and the keys.
    private func setter(_ value: JSONValue, _ path: String, target: Layer) -> (Layer?, [String]) {
        guard let members = members(value, path, expected: "an object of layer properties") else { return (nil, []) }
        var settable: [JSONMember] = []
        for member in members {
            if SceneLoader.fixedLayerKeys.contains(member.key) {
                report(ScenePath.key(path, member.key), at: member.keyPosition,
                       "cannot be changed by the timeline (only properties of an existing layer)")
            } else {
                settable.append(member)
            }
        }
        // Of the target's type, so that its type's keys are read and others rejected as in the layer's object.
        let source = SceneLoader.makeLayer(SceneLoader.layerType(of: target))
        source.anchorPoint = target.anchorPoint
        source.bounds = target.bounds
        _ = configure(source, members: settable, path: path)
        var keys: [String] = []
        for member in settable where SceneLoader.allLayerKeys.contains(member.key) && !keys.contains(member.key) {
            keys.append(member.key)
        }
        return (source, keys)
    }

    /// Copies the properties layer key `key` sets from `source` to `target`.
    static func copy(_ key: String, from source: Layer, to target: Layer) {
        switch key {
        case "frame":
            target.bounds = source.bounds
            target.position = source.position
        case "bounds": target.bounds = source.bounds
        case "position": target.position = source.position
        case "anchorPoint": target.anchorPoint = source.anchorPoint
        case "affineTransform": target.transform = source.transform
        case "contents":
            target.contents = source.contents
            target.contentsScale = source.contentsScale
            // A sprite frame sets the rectangle (and rotation) too; a plain image leaves them.
            if source.contentsRect != CGRect(x: 0, y: 0, width: 1, height: 1) || source.contentsAreRotated {
                target.contentsRect = source.contentsRect
            }
            target.contentsAreRotated = source.contentsAreRotated
        case "contentsRect": target.contentsRect = source.contentsRect
        case "contentsGravity": target.contentsGravity = source.contentsGravity
        case "minificationFilter": target.minificationFilter = source.minificationFilter
        case "magnificationFilter": target.magnificationFilter = source.magnificationFilter
        case "maskedCorners": target.maskedCorners = source.maskedCorners
        case "shadowPath": target.shadowPath = source.shadowPath
        case "beginTime": target.beginTime = source.beginTime
        case "speed": target.speed = source.speed
        case "timeOffset": target.timeOffset = source.timeOffset
        default:
            // The plain keys, through the property table; then the specialised layers' keys.
            if !copyPlain(key, from: source, to: target) { copySpecial(key, from: source, to: target) }
        }
    }

    // MARK: Duration

    /// The default `duration`: the latest end of a finite animation on a layer (beginTime + active duration /
    /// speed, taken through the layer and its ancestors' timing to the scene's time) or of a timeline entry (its
    /// time plus its implicit animations' duration, or its transition's), else 0.
    func defaultDuration(timeline: [SceneTimeline.Entry]) -> Double {
        var end = 0.0
        for (layer, animations) in layerAnimations {
            for animation in animations {
                guard let local = SceneLoader.end(of: animation.timing), let time = sceneTime(local, of: layer) else {
                    continue
                }
                end = max(end, time)
            }
        }
        for entry in timeline {
            var entryEnd = entry.at
            if entry.disableActions != true, entry.animationDuration != 0 {
                entryEnd += entry.animationDuration ?? 0.25
            }
            if let transition = entry.transition, let length = SceneLoader.end(of: transition.animation.timing) {
                entryEnd = max(entryEnd, entry.at + length)
            }
            end = max(end, entryEnd)
        }
        return end
    }

    /// When an animation with `timing` stops in its parent's time; nil when it never does (an infinite repeat, a
    /// speed of 0 or below).
    static func end(of timing: MediaTiming) -> Double? {
        let active = timing.activeDuration
        guard active.isFinite, timing.speed > 0 else { return nil }
        let end = timing.beginTime + active / Double(timing.speed)
        return end.isFinite ? end : nil
    }

    /// `time` on `layer`'s local timeline as the scene's time: through the inverse of the layer's and each
    /// ancestor's timing; nil when a layer is frozen or runs backwards.
    private func sceneTime(_ time: Double, of layer: Layer) -> Double? {
        var time = time
        var node: Layer? = layer
        while let current = node {
            guard current.speed > 0 else { return nil }
            time = (time - current.timeOffset) / Double(current.speed) + current.beginTime
            node = current.superlayer
        }
        return time.isFinite ? time : nil
    }
}
