import Foundation

/// How drawn pixels combine with those already there (CGBlendMode, with Core Graphics' raw values). cairo has an
/// operator for each but `plusDarker`, which is drawn as `normal`.
public enum BlendMode: Int32, Sendable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight, difference,
        exclusion, hue, saturation, color, luminosity, clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver,
        destinationIn, destinationOut, destinationAtop, xor, plusDarker, plusLighter
}

/// What `drawPath(using:)` paints (CGPathDrawingMode, with Core Graphics' raw values).
public enum PathDrawingMode: Int32, Sendable, CaseIterable {
    case fill, eoFill, stroke, fillStroke, eoFillStroke
}

/// How images are sampled when drawn scaled (CGInterpolationQuality, with Core Graphics' raw values): `none` is
/// nearest-neighbour, `low` cairo's fast filter, `default` and `medium` bilinear, `high` cairo's best.
public enum InterpolationQuality: Int32, Sendable, CaseIterable {
    case `default`, none, low, high, medium
}
