import Foundation

/// A second oracle beside parity: layers that paint nothing can be removed without changing the picture.
/// Parity cannot see a mistake both renderers make alike (issue 13: both drew a layer with an empty mask);
/// this can, since the scene without those layers is drawn by code paths that never saw them.
extension SceneJSON {
    /// The scene without the layers that paint nothing by docs/semantics.md, "What a layer paints": a `hidden` layer or
    /// one at `opacity` 0 is removed ("skipped with its subtree"); a layer whose `mask` paints nothing (no content and
    /// no sublayers, opacity 0, or hidden: "so does a hidden mask") is replaced by an empty layer (`{}`), since it
    /// is still a visible sublayer, and a fading layer with visible sublayers is faded as one picture.
    public func removingInvisibleLayers() -> SceneJSON {
        guard case .object(let members) = self else { return self }
        return .object(members.map { ($0.0, $0.0 == "layers" ? SceneJSON.pruned($0.1) : $0.1) })
    }

    private static func pruned(_ layers: SceneJSON) -> SceneJSON {
        guard case .array(let items) = layers else { return layers }
        return .array(items.compactMap { item in
            if item.isSkipped { return nil }
            if let mask = item.member("mask"), mask.isEmptyMask { return .object([]) }
            return item.prunedLayer
        })
    }

    private var prunedLayer: SceneJSON {
        guard case .object(let members) = self else { return self }
        return .object(members.map { key, value in
            switch key {
            case "sublayers": return (key, SceneJSON.pruned(value))
            case "mask": return (key, value.prunedLayer)
            default: return (key, value)
            }
        })
    }

    private func member(_ key: String) -> SceneJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    private var isZeroOpacity: Bool {
        if case .number(let opacity)? = member("opacity") { return opacity == 0 }
        return false
    }

    /// Hidden or at opacity 0: skipped with its subtree, not a visible sublayer.
    private var isSkipped: Bool {
        if case .bool(true)? = member("hidden") { return true }
        return isZeroOpacity
    }

    /// Keys that place a layer or change how it paints, but paint nothing by themselves.
    private static let nonPaintingKeys: Set<String> = [
        "name", "frame", "bounds", "position", "anchorPoint", "zPosition", "transform", "affineTransform",
        "sublayerTransform", "opacity", "allowsGroupOpacity", "masksToBounds", "cornerRadius", "maskedCorners",
        "doubleSided", "allowsEdgeAntialiasing", "needsDisplayOnBoundsChange", "borderColor",
        "contentsRect", "contentsCenter", "contentsGravity", "contentsScale", "minificationFilter",
        "magnificationFilter", "minificationFilterBias", "shadowColor", "shadowOffset", "shadowRadius",
    ]

    /// A mask whose alpha is 0 everywhere: hidden, opacity 0, or only keys that paint nothing.
    private var isEmptyMask: Bool {
        guard case .object(let members) = self else { return false }
        if case .bool(true)? = member("hidden") { return true }
        if isZeroOpacity { return true }
        if case .number(let width)? = member("borderWidth"), width > 0 { return false }
        return members.allSatisfy { SceneJSON.nonPaintingKeys.contains($0.0) || $0.0 == "borderWidth" }
    }
}
