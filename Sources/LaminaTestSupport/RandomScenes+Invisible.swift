import Foundation

/// A second oracle beside parity: layers that paint nothing can be removed without changing the picture.
/// Parity cannot see a mistake both renderers make alike (issue 13: both drew a layer with an empty mask);
/// this can, since the scene without those layers is drawn by code paths that never saw them.
extension SceneJSON {
    /// The scene with every layer that paints nothing by SEMANTICS.md replaced by an empty layer (`{}`):
    /// `hidden`, `opacity` 0, or a
    /// `mask` that paints nothing (no content and no sublayers, opacity 0, or hidden: "a mask that paints
    /// nothing has alpha 0 everywhere, so it hides the layer and its subtree; so does a hidden mask").
    /// Replaced, not removed: a fading layer with sublayers is faded as one picture (group opacity), so
    /// taking its last sublayer away would rightly change how its own background and border combine.
    public func removingInvisibleLayers() -> SceneJSON {
        guard case .object(let members) = self else { return self }
        return .object(members.map { ($0.0, $0.0 == "layers" ? SceneJSON.pruned($0.1) : $0.1) })
    }

    private static func pruned(_ layers: SceneJSON) -> SceneJSON {
        guard case .array(let items) = layers else { return layers }
        return .array(items.map { $0.paintsNothing ? .object([]) : $0.prunedLayer })
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

    private var paintsNothing: Bool {
        if case .bool(true)? = member("hidden") { return true }
        if isZeroOpacity { return true }
        if let mask = member("mask"), mask.isEmptyMask { return true }
        return false
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
