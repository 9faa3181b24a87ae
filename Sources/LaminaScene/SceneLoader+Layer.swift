import Foundation
import LaminaCore
import LaminaLayers

/// Layers: the keys of docs/scene-format.md, "A layer".
extension SceneLoader {
    /// The layer keys this version reads.
    static let layerKeys = [
        "name", "frame", "bounds", "position", "anchorPoint", "zPosition", "transform", "affineTransform",
        "sublayerTransform", "hidden", "opacity", "backgroundColor", "contents", "contentsRect", "contentsCenter",
        "contentsGravity", "contentsScale", "masksToBounds", "minificationFilter", "minificationFilterBias",
        "magnificationFilter",
        "needsDisplayOnBoundsChange", "draw", "doubleSided", "allowsEdgeAntialiasing", "allowsGroupOpacity",
        "borderWidth", "borderColor", "mask", "cornerRadius", "maskedCorners", "shadowColor", "shadowOpacity",
        "shadowOffset", "shadowRadius", "shadowPath", "sublayers", "animations", "beginTime", "speed", "timeOffset",
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
        func read<T>(_ key: String, _ reader: (JSONValue, String) -> T?) -> T? {
            keys[key].flatMap { reader($0.value, ScenePath.key(path, key)) }
        }

        if let name = read("name", string) { layer.name = name }
        readGeometry(layer, keys: keys, path: path)

        if let hidden = read("hidden", bool) { layer.isHidden = hidden }
        if let member = keys["opacity"], let opacity = number(member.value, ScenePath.key(path, "opacity")) {
            if (0...1).contains(opacity) {
                layer.opacity = Float(opacity)
            } else {
                report(ScenePath.key(path, "opacity"), at: member.value.position, "must be between 0 and 1")
            }
        }
        if let background = read("backgroundColor", color) { layer.backgroundColor = background }
        if let masks = read("masksToBounds", bool) { layer.masksToBounds = masks }
        if let doubleSided = read("doubleSided", bool) { layer.isDoubleSided = doubleSided }
        if let grouped = read("allowsGroupOpacity", bool) { layer.allowsGroupOpacity = grouped }
        if let member = keys["borderWidth"], let width = number(member.value, ScenePath.key(path, "borderWidth")) {
            if width >= 0 {
                layer.borderWidth = CGFloat(width)
            } else {
                report(ScenePath.key(path, "borderWidth"), at: member.value.position, "must not be negative")
            }
        }
        if let border = read("borderColor", color) { layer.borderColor = border }
        if let smooth = read("allowsEdgeAntialiasing", bool) { layer.allowsEdgeAntialiasing = smooth }

        readEffects(layer, keys: keys, path: path)
        readContents(layer, keys: keys, path: path)
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

    /// anchorPoint, bounds, position, frame, zPosition and the transforms.
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
        if let member = keys["zPosition"], let z = number(member.value, ScenePath.key(path, "zPosition")) {
            layer.zPosition = CGFloat(z)
        }
        if let member = keys["transform"], let transform = transform(member.value, ScenePath.key(path, "transform")) {
            layer.transform = transform
        }
        if let member = keys["affineTransform"] {
            let affinePath = ScenePath.key(path, "affineTransform")
            if keys["transform"] != nil {
                report(affinePath, at: member.keyPosition, "may not be combined with \"transform\"")
            } else if let t = numbers(member.value, affinePath, counts: [6], shape: "[a, b, c, d, tx, ty]") {
                layer.transform = Transform3D(affine: t[0], t[1], t[2], t[3], t[4], t[5])
            }
        }
        if let member = keys["sublayerTransform"],
            let transform = transform(member.value, ScenePath.key(path, "sublayerTransform"))
        {
            layer.sublayerTransform = transform
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
        if let member = keys["contentsCenter"], let rect = rect(member.value, ScenePath.key(path, "contentsCenter")) {
            layer.contentsCenter = rect
        }
        if let member = keys["contentsGravity"],
            let gravity = gravity(member.value, ScenePath.key(path, "contentsGravity"))
        {
            layer.contentsGravity = gravity
        }
        if let member = keys["contentsScale"],
            let scale = positiveNumber(member.value, ScenePath.key(path, "contentsScale"))
        {
            layer.contentsScale = CGFloat(scale)
        }
        if let member = keys["minificationFilter"],
            let filter = filter(member.value, ScenePath.key(path, "minificationFilter"), allowsTrilinear: true)
        {
            layer.minificationFilter = filter
        }
        if let member = keys["minificationFilterBias"],
            let bias = number(member.value, ScenePath.key(path, "minificationFilterBias"))
        {
            if Float(bias).isFinite {
                layer.minificationFilterBias = Float(bias)
            } else {
                report(ScenePath.key(path, "minificationFilterBias"), at: member.value.position,
                       "must fit a 32-bit float (magnitude below 3.4e38)")
            }
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
