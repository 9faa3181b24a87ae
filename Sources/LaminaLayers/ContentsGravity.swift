import Foundation
import LaminaCore

/// How a layer's contents are placed in its bounds (CALayer.contentsGravity). docs/semantics.md, "Contents".
///
/// Lamina names what you see on its y-down screen: `top` is the visual top. (Core Animation on iOS
/// swaps `top` and `bottom` for these constants because its layer geometry is flipped; Lamina does
/// not. See docs/semantics.md.)
public enum ContentsGravity: String, CaseIterable, Hashable, Sendable {
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    /// Stretch to fill the bounds (the default).
    case resize
    /// Scale uniformly to fit inside the bounds, centred.
    case resizeAspect
    /// Scale uniformly to cover the bounds, centred; the overflow shows unless masksToBounds.
    case resizeAspectFill

    /// True for the gravities that scale the contents (and so apply contentsCenter).
    public var scales: Bool {
        switch self {
        case .resize, .resizeAspect, .resizeAspectFill: return true
        default: return false
        }
    }

    /// The destination rectangle, in layer space, for contents of point size `size` in `bounds`.
    public func destination(for size: CGSize, in bounds: CGRect) -> CGRect {
        switch self {
        case .resize:
            return bounds
        case .resizeAspect, .resizeAspectFill:
            guard size.width > 0, size.height > 0 else { return .zero }
            let sx = bounds.width / size.width, sy = bounds.height / size.height
            let k = self == .resizeAspect ? min(sx, sy) : max(sx, sy)
            let w = size.width * k, h = size.height * k
            return CGRect(x: bounds.midX - w / 2, y: bounds.midY - h / 2, width: w, height: h)
        default:
            let w = size.width, h = size.height
            let x: CGFloat
            switch self {
            case .left, .topLeft, .bottomLeft: x = bounds.minX
            case .right, .topRight, .bottomRight: x = bounds.maxX - w
            default: x = bounds.midX - w / 2
            }
            let y: CGFloat
            switch self {
            case .top, .topLeft, .topRight: y = bounds.minY
            case .bottom, .bottomLeft, .bottomRight: y = bounds.maxY - h
            default: y = bounds.midY - h / 2
            }
            return CGRect(x: x, y: y, width: w, height: h)
        }
    }
}
