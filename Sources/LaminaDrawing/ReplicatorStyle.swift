import Foundation
import LaminaCore

/// How a replicator layer repeats its sublayers (docs/semantics.md, "Replicator layers"): CAReplicatorLayer's
/// properties.
public struct ReplicatorStyle: Equatable, Sendable {
    /// How many times the sublayers are drawn; 0 draws none.
    public var instanceCount: Int = 1
    /// Applied i times to instance i, about the layer's anchor point.
    public var instanceTransform: Transform3D = .identity
    /// Multiplies what instance 0 paints; instance i adds i times the offsets (each component clamped to 0...1).
    public var instanceColor: Color = .white
    public var instanceRedOffset: Float = 0
    public var instanceGreenOffset: Float = 0
    public var instanceBlueOffset: Float = 0
    public var instanceAlphaOffset: Float = 0
    /// Seconds: instance i sees time t - i x instanceDelay for its animations.
    public var instanceDelay: Double = 0

    public init() {}

    /// Instance `index`'s colour: instanceColor plus index times the offsets, each component clamped to 0...1.
    public func color(ofInstance index: Int) -> Color {
        let i = Double(index)
        func clamp(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }
        return Color(red: clamp(instanceColor.red + i * Double(instanceRedOffset)),
                     green: clamp(instanceColor.green + i * Double(instanceGreenOffset)),
                     blue: clamp(instanceColor.blue + i * Double(instanceBlueOffset)),
                     alpha: clamp(instanceColor.alpha + i * Double(instanceAlphaOffset)))
    }
}
