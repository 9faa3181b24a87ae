import Foundation
import LaminaCore

/// How a layer and its subtree, drawn as one group, are combined with what lies beneath them inside their nearest
/// enclosing group: Core Animation's `compositingFilter` names (docs/semantics.md, "Blend modes"). The raw value is
/// Core Animation's name; `init(rawValue:)` also takes Core Image's spelling where it has one
/// (`CIMultiplyBlendMode`, `CISourceAtopCompositing`, ...).
///
/// The blend modes follow W3C "Compositing and Blending Level 1" and composite source-over; the Porter-Duff
/// operations apply only where the group's picture has pixels (alpha above 0): elsewhere what is beneath is left as
/// it is.
public enum LayerBlendMode: CaseIterable, Hashable, Sendable, RawRepresentable {
    /// Source-over: what every layer does without a compositing filter.
    case normal
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight, difference,
        exclusion
    case hue, saturation, color, luminosity
    case sourceAtop, sourceIn, sourceOut, destinationOver, destinationIn, destinationOut, destinationAtop, xor
    /// min(1, s + d) per channel of premultiplied colour, alpha included.
    case plusLighter
    /// max(0, 1 - ((1 - s) + (1 - d))) per channel of premultiplied colour, alpha included.
    case plusDarker

    /// Core Animation's name: `multiplyBlendMode`, `sourceAtop`, `plusLighter`, ...
    public var rawValue: String {
        switch self {
        case .normal: "normalBlendMode"
        case .multiply: "multiplyBlendMode"
        case .screen: "screenBlendMode"
        case .overlay: "overlayBlendMode"
        case .darken: "darkenBlendMode"
        case .lighten: "lightenBlendMode"
        case .colorDodge: "colorDodgeBlendMode"
        case .colorBurn: "colorBurnBlendMode"
        case .softLight: "softLightBlendMode"
        case .hardLight: "hardLightBlendMode"
        case .difference: "differenceBlendMode"
        case .exclusion: "exclusionBlendMode"
        case .hue: "hueBlendMode"
        case .saturation: "saturationBlendMode"
        case .color: "colorBlendMode"
        case .luminosity: "luminosityBlendMode"
        case .sourceAtop: "sourceAtop"
        case .sourceIn: "sourceIn"
        case .sourceOut: "sourceOut"
        case .destinationOver: "destinationOver"
        case .destinationIn: "destinationIn"
        case .destinationOut: "destinationOut"
        case .destinationAtop: "destinationAtop"
        case .xor: "xor"
        case .plusLighter: "plusLighter"
        case .plusDarker: "plusDarker"
        }
    }

    /// Core Image's name for the same operation, where Core Image has one (nil: none).
    public var coreImageName: String? {
        switch self {
        case .normal: "CISourceOverCompositing"
        case .sourceAtop: "CISourceAtopCompositing"
        case .sourceIn: "CISourceInCompositing"
        case .sourceOut: "CISourceOutCompositing"
        case .plusLighter: "CIAdditionCompositing"
        case .destinationOver, .destinationIn, .destinationOut, .destinationAtop, .xor, .plusDarker: nil
        default: "CI" + rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        }
    }

    /// The mode named `rawValue`: Core Animation's name or Core Image's; nil for any other string.
    public init?(rawValue: String) {
        guard let mode = Self.byName[rawValue] else { return nil }
        self = mode
    }

    /// The mode a `compositingFilter` value names: a string naming a mode, or a `LayerBlendMode`; nil (normal) for nil
    /// and for anything else, as Core Animation ignores a filter it cannot apply.
    public init?(compositingFilter value: Any?) {
        if let mode = value as? LayerBlendMode {
            self = mode
        } else if let name = value as? String, let mode = LayerBlendMode(rawValue: name) {
            self = mode
        } else {
            return nil
        }
    }

    /// Every name a scene file or `compositingFilter` accepts: Core Animation's, then Core Image's.
    public static let names: [String] = allCases.map(\.rawValue) + allCases.compactMap(\.coreImageName)

    private static let byName: [String: LayerBlendMode] = {
        var names: [String: LayerBlendMode] = [:]
        for mode in allCases {
            names[mode.rawValue] = mode
            if let name = mode.coreImageName { names[name] = mode }
        }
        return names
    }()

    /// How the renderers combine the layer's group with what is beneath it; nil for `normal` (no group of its own).
    public var composite: GroupComposite? {
        switch self {
        case .normal: nil
        case .multiply: .multiply
        case .screen: .screen
        case .overlay: .overlay
        case .darken: .darken
        case .lighten: .lighten
        case .colorDodge: .colorDodge
        case .colorBurn: .colorBurn
        case .softLight: .softLight
        case .hardLight: .hardLight
        case .difference: .difference
        case .exclusion: .exclusion
        case .hue: .hue
        case .saturation: .saturation
        case .color: .color
        case .luminosity: .luminosity
        case .sourceAtop: .sourceAtop
        case .sourceIn: .sourceIn
        case .sourceOut: .sourceOut
        case .destinationOver: .destinationOver
        case .destinationIn: .destinationIn
        case .destinationOut: .destinationOut
        case .destinationAtop: .destinationAtop
        case .xor: .xor
        case .plusLighter: .plusLighter
        case .plusDarker: .plusDarker
        }
    }
}

extension LayerBlendMode: SceneChoiceValue {
    /// A scene file names a mode by Core Animation's or Core Image's name.
    package static var sceneForm: SceneForm { .choice(names) }
}

extension LayerProperty.Declaration {
    /// `compositingFilter`'s entry in the property table: key-value coding reads Core Animation's name of the mode
    /// and takes any value, as the property does (a string naming no mode, or anything else, is none).
    static var compositingFilter: Self {
        var declaration = stored(\.compositingFilter, scene: .standard, affects: .paint)
        declaration.value = { $0.compositingFilter?.rawValue as Any }
        declaration.assign = { state, value in
            state.compositingFilter = LayerBlendMode(compositingFilter: value)
            return true
        }
        return declaration
    }
}
