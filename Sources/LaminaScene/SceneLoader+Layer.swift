import Foundation
import LaminaCore
import LaminaLayers

/// Layers: the keys of docs/scene-format.md, "A layer".
extension SceneLoader {
    /// The layer keys this version reads: those of the property table (SceneLoader+Properties.swift reads the plain
    /// ones), then the keys that are not one property's.
    static let layerKeys: [String] = LayerProperty.all.compactMap(\.sceneKey) + [
        "frame", "affineTransform", "draw", "mask", "sublayers", "animations", "beginTime", "speed", "timeOffset",
    ]

    /// Builds the layers of `value` (an array of layer objects) as sublayers of `parent`, with all their
    /// descendants.
    ///
    /// A worklist instead of recursion: the parser caps nesting, but a recursive build would still put one
    /// stack frame per level on whatever thread loads the scene. Layers are taken depth first in file order,
    /// so siblings are added in array order.
    func buildLayers(_ value: JSONValue, path: String, parent: Layer) {
        // `isMask`: the value is `parent`'s mask layer, not a sublayer.
        var pending: [(value: JSONValue, path: String, parent: Layer, isMask: Bool)] = []
        func enqueue(_ value: JSONValue, _ path: String, _ parent: Layer) {
            guard case .array(let items) = value.kind else {
                typeMismatch(value, path, expected: "an array of layers")
                return
            }
            for (index, item) in items.enumerated().reversed() {
                pending.append((item, ScenePath.index(path, index), parent, false))
            }
        }
        enqueue(value, path, parent)
        while let (value, path, parent, isMask) = pending.popLast() {
            guard let members = members(value, path, expected: "a layer (an object)") else { continue }
            // The type first: it picks the subclass, and the keys the layer takes.
            let layer = makeLayer(members: members, path: path)
            // Planning errors (a layer's drawing, an effect too large) then name the place in the file.
            layer.sourceDescription = "\(path) (\(fileName):\(value.position.line):\(value.position.column))"
            if isMask { parent.mask = layer } else { parent.addSublayer(layer) }
            let (sublayers, mask) = configure(layer, members: members, path: path)
            if let name = layer.name { layersByName[name, default: []].append(layer) }
            if let mask { pending.append((mask, ScenePath.key(path, "mask"), layer, true)) }
            if let sublayers { enqueue(sublayers, ScenePath.key(path, "sublayers"), layer) }
        }
    }

    /// Sets every property the members give; returns the `sublayers` and `mask` values for the caller to build.
    func configure(_ layer: Layer, members: [JSONMember], path: String) -> (JSONValue?, JSONValue?) {
        var keys = knownMembers(members, path, known: SceneLoader.allLayerKeys)
        // `type` was read when the layer was made (buildLayers).
        keys["type"] = nil
        rejectOtherTypesKeys(&keys, layer: layer, path: path)

        readGeometry(layer, keys: keys, path: path)
        // Before the plain keys: a sprite frame in contents sets contentsScale, which a contentsScale key overrides.
        readContents(layer, keys: keys, path: path)
        readPlainProperties(layer, keys: keys, path: path)
        readEffects(layer, keys: keys, path: path)
        readDrawing(layer, keys: keys, path: path)
        readLayerTiming(layer, keys: keys, path: path)
        // After the geometry: a shape's path steps are placed in the bounds.
        readSpecialKeys(layer, keys: keys, path: path)
        // After contents: an animation of sprite frames sets the layer's contents to their sheet.
        if let member = keys["animations"] {
            animatedPathBounds = layer.bounds
            let animations = readAnimations(member.value, ScenePath.key(path, "animations"), layer: layer)
            layerAnimations.append((layer, animations))
        }
        return (keys["sublayers"]?.value, keys["mask"]?.value)
    }

    /// beginTime, speed and timeOffset: the layer's own timing (CAMediaTiming).
    private func readLayerTiming(_ layer: Layer, keys: [String: JSONMember], path: String) {
        if let member = keys["beginTime"], let begin = number(member.value, ScenePath.key(path, "beginTime")) {
            layer.beginTime = begin
        }
        if let member = keys["speed"], let speed = floatNumber(member.value, ScenePath.key(path, "speed")) {
            layer.speed = speed
        }
        if let member = keys["timeOffset"], let offset = number(member.value, ScenePath.key(path, "timeOffset")) {
            layer.timeOffset = offset
        }
    }

    /// anchorPoint, bounds, position, frame and affineTransform (zPosition and the transforms are plain keys).
    private func readGeometry(_ layer: Layer, keys: [String: JSONMember], path: String) {
        // Order matters: frame depends on anchorPoint (position = origin + anchorPoint x size).
        if let member = keys["anchorPoint"], let anchor = point(member.value, ScenePath.key(path, "anchorPoint")) {
            layer.anchorPoint = anchor
        }
        if let member = keys["bounds"], let bounds = rect(member.value, ScenePath.key(path, "bounds")) {
            layer.bounds = bounds
        }
        if let member = keys["position"], let position = point(member.value, ScenePath.key(path, "position")) {
            layer.position = position
        }
        if let member = keys["frame"] {
            let conflicts = ["bounds", "position"].filter { keys[$0] != nil }.map { "\"\($0)\"" }
            if !conflicts.isEmpty {
                report(
                    ScenePath.key(path, "frame"), at: member.keyPosition,
                    "may not be combined with \(conflicts.joined(separator: " or ")) "
                        + "(frame is a shorthand for the bounds size and the position)")
            } else if let frame = rect(member.value, ScenePath.key(path, "frame")) {
                // Set before any transform: Layer.frame's setter ignores the transform anyway, but its getter
                // would not, and this keeps the two readings of the file the same.
                layer.frame = frame
            }
        }
        if let member = keys["affineTransform"] {
            let affinePath = ScenePath.key(path, "affineTransform")
            if keys["transform"] != nil {
                report(affinePath, at: member.keyPosition, "may not be combined with \"transform\"")
            } else if let t = numbers(member.value, affinePath, counts: [6], shape: "[a, b, c, d, tx, ty]") {
                layer.transform = Transform3D(affine: t[0], t[1], t[2], t[3], t[4], t[5])
            }
        }
    }

    /// contents and the properties that place it.
    private func readContents(_ layer: Layer, keys: [String: JSONMember], path: String) {
        var source: ContentsSource?
        if let member = keys["contents"] {
            source = contents(member.value, ScenePath.key(path, "contents"))
        }
        if let source {
            layer.contents = source.image
            layer.contentsScale = CGFloat(source.scale)
            if let frame = source.frame {
                layer.contentsRect = frame.unitRect
                layer.contentsAreRotated = frame.rotated
            }
        }
        if let member = keys["contentsRect"] {
            let rectPath = ScenePath.key(path, "contentsRect")
            if source?.frame != nil {
                report(
                    rectPath, at: member.keyPosition,
                    "may not be combined with a sprite frame in \"contents\" (the frame sets contentsRect)")
            } else if let rect = rect(member.value, rectPath) {
                layer.contentsRect = rect
            }
        }
        if let member = keys["contentsGravity"],
            let gravity = gravity(member.value, ScenePath.key(path, "contentsGravity"))
        {
            layer.contentsGravity = gravity
        }
        if let member = keys["minificationFilter"],
            let filter = filter(member.value, ScenePath.key(path, "minificationFilter"), allowsTrilinear: true)
        {
            layer.minificationFilter = filter
        }
        if let member = keys["magnificationFilter"],
            let filter = filter(member.value, ScenePath.key(path, "magnificationFilter"), allowsTrilinear: false)
        {
            layer.magnificationFilter = filter
        }
    }

    private func gravity(_ value: JSONValue, _ path: String) -> ContentsGravity? {
        guard let name = string(value, path) else { return nil }
        if let gravity = ContentsGravity(rawValue: name) { return gravity }
        let names = ContentsGravity.allCases.map(\.rawValue)
        if let suggestion = Suggestion.closest(to: name, in: names) {
            report(
                path, at: value.position, "unknown gravity \(ScenePath.quoted(name)) (did you mean \"\(suggestion)\"?)")
        } else {
            report(
                path, at: value.position,
                "unknown gravity \(ScenePath.quoted(name)) (expected one of \(names.joined(separator: ", ")))")
        }
        return nil
    }

    private func filter(_ value: JSONValue, _ path: String, allowsTrilinear: Bool) -> Filter? {
        guard let name = string(value, path) else { return nil }
        let expected = allowsTrilinear ? "\"linear\", \"nearest\" or \"trilinear\"" : "\"linear\" or \"nearest\""
        switch Filter(rawValue: name) {
        case .trilinear where !allowsTrilinear:
            report(path, at: value.position, "\"trilinear\" is for minificationFilter only (expected \(expected))")
            return nil
        case let filter?:
            return filter
        case nil:
            report(path, at: value.position, "unknown filter \(ScenePath.quoted(name)) (expected \(expected))")
            return nil
        }
    }
}
