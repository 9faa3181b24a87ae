import Foundation
import LaminaCore

/// How the ends of stroked lines look (CGLineCap).
public enum LineCap: String, Sendable, CaseIterable {
    case butt, round, square
}

/// How stroked lines join (CGLineJoin).
public enum LineJoin: String, Sendable, CaseIterable {
    case miter, round, bevel
}

/// Which points a path encloses (CGPathFillRule): non-zero winding or even-odd.
public enum FillRule: String, Sendable, CaseIterable {
    case winding, evenOdd
}

/// Whether a gradient paints beyond its ends (CGGradientDrawingOptions).
public struct GradientDrawingOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Extend the first colour before the start.
    public static let drawsBeforeStartLocation = GradientDrawingOptions(rawValue: 1)
    /// Extend the last colour after the end.
    public static let drawsAfterEndLocation = GradientDrawingOptions(rawValue: 2)
}

/// Colours at locations 0...1 along a gradient (CGGradient). Without locations the colours are spread evenly.
public struct Gradient: Sendable, Equatable {
    public var colors: [Color]
    public var locations: [CGFloat]

    /// Nil when there are no colours, or locations are given in a different number than colours.
    public init?(colors: [Color], locations: [CGFloat]? = nil) {
        guard !colors.isEmpty else { return nil }
        if let locations {
            guard locations.count == colors.count else { return nil }
            self.locations = locations
        } else {
            self.locations = colors.count == 1
                ? [0] : colors.indices.map { CGFloat($0) / CGFloat(colors.count - 1) }
        }
        self.colors = colors
    }
}
