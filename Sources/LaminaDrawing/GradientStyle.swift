import Foundation
import LaminaCore

/// The kind of gradient a gradient layer paints (CAGradientLayerType).
public enum GradientLayerType: String, Sendable, CaseIterable {
    /// Along the line from startPoint to endPoint.
    case axial
    /// An ellipse centred at startPoint through endPoint.
    case radial
    /// Around startPoint, from the direction of endPoint, clockwise on screen.
    case conic
}

/// Everything a gradient layer paints with (docs/semantics.md, "Gradient layers"): CAGradientLayer's properties.
public struct GradientStyle: Equatable, Sendable {
    /// The colours; empty paints nothing, one colour fills the bounds.
    public var colors: [Color] = []
    /// Where each colour sits, 0...1, non-decreasing, as many as colours; nil spreads them evenly from 0 to 1.
    public var locations: [Double]? = nil
    /// Unit coordinates of the bounds, y down: (0.5, 0) is the middle of the top edge.
    public var startPoint = CGPoint(x: 0.5, y: 0)
    public var endPoint = CGPoint(x: 0.5, y: 1)
    public var type: GradientLayerType = .axial

    public init() {}
}
