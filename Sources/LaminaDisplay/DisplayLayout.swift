import Foundation
import LaminaCore
import LaminaLayers

/// How a root of another size than the output is shown (`--fit`).
public enum DisplayFit: String, CaseIterable, Sendable {
    /// Scaled to fit with its aspect kept, centred; the rest filled with the root's backgroundColor (black if none).
    case contain
    /// Scaled to fill with its aspect kept, centred, cut off at the output's edges.
    case cover
    /// Scaled to fill, each axis on its own.
    case stretch
    /// The root at `Display.Options.scale` pixels per point, at the top-left.
    case none
}

/// How the picture is turned for a display mounted sideways (`--rotate`), clockwise.
public enum DisplayRotation: Int, CaseIterable, Sendable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270

    /// The transform that turns a layer clockwise by the rotation, exact (no sine rounding).
    var transform: Transform3D {
        switch self {
        case .none: return .identity
        case .quarter: return Transform3D(affine: 0, 1, -1, 0, 0, 0)
        case .half: return Transform3D(affine: -1, 0, 0, -1, 0, 0)
        case .threeQuarters: return Transform3D(affine: 0, -1, 1, 0, 0, 0)
        }
    }

    var swapsAxes: Bool { self == .quarter || self == .threeQuarters }
}

/// Where a root goes on an output: the plan's scale (pixels per point, so vectors and drawings are made at the
/// density they are shown at, not scaled bitmaps), the stage's size in points (the output at that scale), and the
/// root's position and transform on the stage. A pure function of the sizes, tested on its own.
public struct DisplayLayout: Equatable, Sendable {
    public var scale: CGFloat
    public var stageSize: CGSize
    public var rootPosition: CGPoint
    public var rootTransform: Transform3D

    public init(root: CGSize, output: PixelSize, fit: DisplayFit, rotation: DisplayRotation, noneScale: CGFloat = 1) {
        let turned = rotation.swapsAxes ? CGSize(width: root.height, height: root.width) : root
        let w = CGFloat(output.width), h = CGFloat(output.height)
        let sx = w / max(turned.width, 1e-9), sy = h / max(turned.height, 1e-9)
        var stretch = (x: CGFloat(1), y: CGFloat(1))
        switch fit {
        case .contain: scale = min(sx, sy)
        case .cover: scale = max(sx, sy)
        case .stretch:
            // Drawn at the larger density, the other axis scaled down by the transform.
            scale = max(sx, sy)
            stretch = (sx / scale, sy / scale)
        case .none: scale = noneScale
        }
        if !scale.isFinite || scale <= 0 { scale = 1 }
        stageSize = CGSize(width: w / scale, height: h / scale)
        rootPosition = fit == .none
            ? CGPoint(x: turned.width / 2, y: turned.height / 2)
            : CGPoint(x: stageSize.width / 2, y: stageSize.height / 2)
        var transform = rotation.transform
        if stretch != (1, 1) { transform = transform.concatenating(Transform3D(scaleX: stretch.x, y: stretch.y)) }
        rootTransform = transform
    }
}
