import Foundation

// Lamina's range for numbers (docs/semantics.md, "Numbers"): any finite input is accepted. Geometry is computed in
// doubles; target-pixel coordinates are clipped to a guard band of ±2^30 pixels around the origin before they
// become integers (exactly: the part of a shape on screen is unchanged), a layer whose map to the target is not
// finite is not drawn, and every conversion from a floating-point number to an integer saturates instead of
// trapping.

extension Int {
    /// `value` rounded toward zero, limited to ±2^52 (exact in a Double, far beyond any pixel count); NaN gives 0.
    /// Never traps, unlike `Int(_:)`.
    @inlinable
    public init(saturating value: Double) {
        let limit = 4_503_599_627_370_496.0  // 2^52
        self = value.isNaN ? 0 : Int(Swift.min(Swift.max(value, -limit), limit))
    }

    /// `value` rounded toward zero, limited to ±2^24 (exact in a Float); NaN gives 0.
    @inlinable
    public init(saturating value: Float) {
        let limit: Float = 16_777_216
        self = value.isNaN ? 0 : Int(Swift.min(Swift.max(value, -limit), limit))
    }
}

extension CGFloat {
    /// The guard band: target-pixel coordinates are clipped to ±this before rasterising (2^30 pixels).
    public static let guardBand: CGFloat = 1_073_741_824
}

extension UInt8 {
    /// `value` rounded to the nearest integer and limited to 0...255; NaN gives 0. Never traps.
    @inlinable
    public init(saturatingRounded value: Float) {
        self = value.isNaN ? 0 : UInt8(Swift.min(Swift.max(value.rounded(), 0), 255))
    }

    /// `value` rounded to the nearest integer and limited to 0...255; NaN gives 0. Never traps.
    @inlinable
    public init(saturatingRounded value: Double) {
        self = value.isNaN ? 0 : UInt8(Swift.min(Swift.max(value.rounded(), 0), 255))
    }
}
