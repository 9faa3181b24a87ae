import Foundation
import LaminaCore

// Core Animation's types of the hint and stored-only layer properties (docs/semantics.md, "Hints").

/// Which edges of a layer get antialiased (CAEdgeAntialiasingMask) when `allowsEdgeAntialiasing` is true. Stored
/// and snapshotted; Lamina antialiases every edge of such a layer whatever the mask says.
public struct EdgeAntialiasingMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The left edge (minimum x).
    public static let layerLeftEdge = EdgeAntialiasingMask(rawValue: 1)
    /// The right edge (maximum x).
    public static let layerRightEdge = EdgeAntialiasingMask(rawValue: 2)
    /// The bottom edge.
    public static let layerBottomEdge = EdgeAntialiasingMask(rawValue: 4)
    /// The top edge.
    public static let layerTopEdge = EdgeAntialiasingMask(rawValue: 8)
    /// All four edges: the default.
    public static let all: EdgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge]
}

extension EdgeAntialiasingMask: SceneOptionSetValue {
    package static let optionNames = ["layerLeftEdge", "layerRightEdge", "layerBottomEdge", "layerTopEdge"]
}

/// The pixel format Core Animation would give a layer's backing store (CALayer's contentsFormat). A hint: Lamina's
/// backing images are always 8-bit RGBA.
public enum ContentsFormat: String, CaseIterable, Sendable, SceneChoiceValue {
    /// 8 bits per channel, RGBA: the default.
    case rgba8Uint = "RGBA8Uint"
    /// 16-bit float channels, RGBA.
    case rgba16Float = "RGBA16Float"
    /// One 8-bit grey channel.
    case gray8Uint = "Gray8Uint"
}

/// The curve of rounded corners (CALayerCornerCurve). Stored; Lamina draws circular corners for both.
public enum CornerCurve: String, CaseIterable, Sendable, SceneChoiceValue {
    /// Quarter circles: the default.
    case circular
    /// Apple's continuous ("squircle") corners.
    case continuous
}
