// `import CoreGraphics` on Linux: Apple's names for Lamina's own types (one model, docs/porting.md), and Apple's
// API on them in the other files of this module. CGFloat, CGPoint, CGSize and CGRect are Foundation's.
@_exported import Foundation
import LaminaCore
import LaminaDrawing

/// CoreGraphics' colour: Lamina's `Color` (sRGB components with straight alpha).
public typealias CGColor = LaminaCore.Color
/// CoreGraphics' bitmap image: Lamina's `Image` (8-bit premultiplied BGRA pixels, immutable once shared).
public typealias CGImage = LaminaCore.Image
/// CoreGraphics' drawing context: Lamina's `DrawingContext` (cairo).
public typealias CGContext = LaminaDrawing.DrawingContext
/// CoreGraphics' 2D affine transform (defined in LaminaCore with Apple's conventions).
public typealias CGAffineTransform = LaminaCore.CGAffineTransform
/// CoreGraphics' path objects.
public typealias CGPath = LaminaDrawing.CGPath
public typealias CGMutablePath = LaminaDrawing.CGMutablePath
