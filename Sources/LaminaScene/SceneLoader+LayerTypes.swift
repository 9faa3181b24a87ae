import Foundation
import LaminaCore
import LaminaLayers

/// A layer object's `type` (docs/scene-format.md, "Layer types"): which Layer subclass it builds.
enum SceneLayerType: String, CaseIterable {
    case gradient, shape, text, replicator, tiled, emitter, transform, scroll
}

/// Layer types: `type`, the keys only one type takes, and which layer a specialised key path belongs to.
extension SceneLoader {
    /// The keys each specialised type takes besides the plain layer's (docs/scene-format.md, "Layer types").
    static let keysByLayerType: [SceneLayerType: [String]] = [
        .gradient: ["colors", "locations", "startPoint", "endPoint", "gradientType"],
        .shape: [
            "path", "fillColor", "fillRule", "strokeColor", "lineWidth", "lineCap", "lineJoin", "miterLimit",
            "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd",
        ],
        .text: ["string", "font", "fontSize", "foregroundColor", "alignmentMode", "isWrapped", "truncationMode"],
        .replicator: [
            "instanceCount", "instanceTransform", "instanceColor", "instanceRedOffset", "instanceGreenOffset",
            "instanceBlueOffset", "instanceAlphaOffset", "instanceDelay",
        ],
        .tiled: ["tileSize", "levelsOfDetail", "levelsOfDetailBias", "fadeDuration"],
        .emitter: SceneLoader.emitterLayerKeys,
        .transform: [],
        .scroll: ["scrollMode"],
    ]

    /// Every key a layer object may have, of any type: what unknown keys are checked (and suggested) against.
    static let allLayerKeys: [String] = layerKeys + ["type"]
        + SceneLayerType.allCases.flatMap { keysByLayerType[$0]! }

    /// The type whose key `key` is; nil for a plain layer's key.
    static func layerType(ofKey key: String) -> SceneLayerType? {
        SceneLayerType.allCases.first { keysByLayerType[$0]!.contains(key) }
    }

    /// The type an animatable key path belongs to (by its first component: `startPoint.x` is a gradient's,
    /// `instanceTransform.rotation.z` a replicator's); nil for a plain layer's key path.
    static func layerType(ofKeyPath keyPath: String) -> SceneLayerType? {
        let property = keyPath.split(separator: ".", maxSplits: 1).first.map(String.init) ?? keyPath
        return layerType(ofKey: property)
    }

    /// The type of `layer`; nil for a plain layer.
    static func layerType(of layer: Layer) -> SceneLayerType? {
        switch layer {
        case is GradientLayer: .gradient
        case is ShapeLayer: .shape
        case is TextLayer: .text
        case is ReplicatorLayer: .replicator
        case is TiledLayer: .tiled
        case is EmitterLayer: .emitter
        case is TransformLayer: .transform
        case is ScrollLayer: .scroll
        default: nil
        }
    }

    /// A new layer of `type` (nil: a plain layer).
    static func makeLayer(_ type: SceneLayerType?) -> Layer {
        switch type {
        case .gradient: GradientLayer()
        case .shape: ShapeLayer()
        case .text: TextLayer()
        case .replicator: ReplicatorLayer()
        case .tiled: TiledLayer()
        case .emitter: EmitterLayer()
        case .transform: TransformLayer()
        case .scroll: ScrollLayer()
        case nil: Layer()
        }
    }

    /// The layer a layer object builds: its `type`, read before anything else (the keys it allows depend on it). An
    /// unknown type is reported and builds a plain layer, whose other keys are still checked.
    func makeLayer(members: [JSONMember], path: String) -> Layer {
        guard let member = members.first(where: { $0.key == "type" }) else { return Layer() }
        let type = choice(member.value, ScenePath.key(path, "type"), what: "layer type",
                          options: SceneLayerType.allCases.map { ($0.rawValue, $0) })
        return SceneLoader.makeLayer(type)
    }

    /// Reports each key in `keys` that belongs to a specialised type other than `layer`'s, and removes it (so that
    /// nothing reads it).
    func rejectOtherTypesKeys(_ keys: inout [String: JSONMember], layer: Layer, path: String) {
        let own = SceneLoader.layerType(of: layer)
        for (key, member) in keys.sorted(by: { $0.key < $1.key }) {
            guard let owner = SceneLoader.layerType(ofKey: key), owner != own else { continue }
            report(ScenePath.key(path, key), at: member.keyPosition, "only \(owner.article) layer has this key")
            keys[key] = nil
        }
    }
}

extension SceneLayerType {
    /// "a shape", "an emitter": for messages (`only a shape layer has this key`).
    var article: String { (rawValue.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + rawValue }
}

extension SceneLoader {
    /// Copies the property of a specialised type's key `key` from `source` to `target` (a timeline's `set`; both
    /// are of the same type, which the reader checked).
    static func copySpecial(_ key: String, from source: Layer, to target: Layer) {
        switch (source, target) {
        case (let source as GradientLayer, let target as GradientLayer):
            switch key {
            case "colors": target.colors = source.colors
            case "locations": target.locations = source.locations
            case "startPoint": target.startPoint = source.startPoint
            case "endPoint": target.endPoint = source.endPoint
            case "gradientType": target.type = source.type
            default: break
            }
        case (let source as ShapeLayer, let target as ShapeLayer):
            switch key {
            case "path": target.path = source.path
            case "fillColor": target.fillColor = source.fillColor
            case "fillRule": target.fillRule = source.fillRule
            case "strokeColor": target.strokeColor = source.strokeColor
            case "lineWidth": target.lineWidth = source.lineWidth
            case "lineCap": target.lineCap = source.lineCap
            case "lineJoin": target.lineJoin = source.lineJoin
            case "miterLimit": target.miterLimit = source.miterLimit
            case "lineDashPattern": target.lineDashPattern = source.lineDashPattern
            case "lineDashPhase": target.lineDashPhase = source.lineDashPhase
            case "strokeStart": target.strokeStart = source.strokeStart
            case "strokeEnd": target.strokeEnd = source.strokeEnd
            default: break
            }
        case (let source as TextLayer, let target as TextLayer):
            switch key {
            case "string": target.string = source.string
            case "font": target.font = source.font
            case "fontSize": target.fontSize = source.fontSize
            case "foregroundColor": target.foregroundColor = source.foregroundColor
            case "alignmentMode": target.alignmentMode = source.alignmentMode
            case "isWrapped": target.isWrapped = source.isWrapped
            case "truncationMode": target.truncationMode = source.truncationMode
            default: break
            }
        case (let source as ReplicatorLayer, let target as ReplicatorLayer):
            switch key {
            case "instanceCount": target.instanceCount = source.instanceCount
            case "instanceTransform": target.instanceTransform = source.instanceTransform
            case "instanceColor": target.instanceColor = source.instanceColor
            case "instanceRedOffset": target.instanceRedOffset = source.instanceRedOffset
            case "instanceGreenOffset": target.instanceGreenOffset = source.instanceGreenOffset
            case "instanceBlueOffset": target.instanceBlueOffset = source.instanceBlueOffset
            case "instanceAlphaOffset": target.instanceAlphaOffset = source.instanceAlphaOffset
            case "instanceDelay": target.instanceDelay = source.instanceDelay
            default: break
            }
        case (let source as TiledLayer, let target as TiledLayer):
            copyTiled(key, from: source, to: target)
        case (let source as EmitterLayer, let target as EmitterLayer):
            // A timeline's `set` of any emitter key copies the whole emitter style (the keys are read together).
            if SceneLoader.emitterLayerKeys.contains(key) { target.emitterStyle = source.emitterStyle }
        case (let source as ScrollLayer, let target as ScrollLayer):
            if key == "scrollMode" { target.scrollMode = source.scrollMode }
        default:
            break
        }
    }
}
