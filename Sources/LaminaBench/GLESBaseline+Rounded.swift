import CEGL
import Foundation
import LaminaCore

// The baseline's rounded sprites: the same instanced loop, each instance also carrying its rounded rectangle, whose
// coverage the fragment shader works out as Lamina's CoverageShape does (docs/semantics.md): the signed distance
// from the pixel centre to the outline gives coverage clamp(0.5 - distance, 0, 1), which scales the texel. The
// shaders are Shaders/baseline-rounded.vert and .frag.

extension GLESBaseline {
    /// A rounded rectangle in target pixels with one radius at every corner.
    public struct RoundedRect: Sendable {
        public var rect: CGRect
        public var radius: CGFloat

        public init(rect: CGRect, radius: CGFloat) {
            (self.rect, self.radius) = (rect, radius)
        }
    }
}
