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

/// How the ends of stroked lines look: Lamina's `LineCap` (String raw values, not Core Graphics' Int32 ones).
public typealias CGLineCap = LaminaDrawing.LineCap
/// How stroked lines join: Lamina's `LineJoin`.
public typealias CGLineJoin = LaminaDrawing.LineJoin
/// Non-zero winding or even-odd: Lamina's `FillRule`.
public typealias CGPathFillRule = LaminaDrawing.FillRule
/// What `drawPath(using:)` paints, with Core Graphics' raw values.
public typealias CGPathDrawingMode = LaminaDrawing.PathDrawingMode
/// How drawn pixels combine with those there, with Core Graphics' raw values.
public typealias CGBlendMode = LaminaDrawing.BlendMode
/// How scaled images are sampled, with Core Graphics' raw values.
public typealias CGInterpolationQuality = LaminaDrawing.InterpolationQuality
/// Whether a gradient paints beyond its ends (Int raw values where Apple has UInt32).
public typealias CGGradientDrawingOptions = LaminaDrawing.GradientDrawingOptions
/// A gradient: Lamina's `Gradient` value (a struct where Apple has a class; its Apple initializers are in
/// CGGradient+Apple.swift).
public typealias CGGradient = LaminaDrawing.Gradient

// Core Foundation's types as ported code names them (`data as CFData`, `url as CFURL`, `"public.png" as CFString`,
// `[key: value] as CFDictionary`): Foundation on Linux has no Core Foundation bridging, so they are the Swift
// Foundation types that play the same part.
/// Bytes (`Data`).
public typealias CFData = Data
/// Growable bytes that a callee appends to (`NSMutableData`, a reference as in Core Foundation).
public typealias CFMutableData = NSMutableData
/// A string (`String`): constants such as `kCGImagePropertyPixelWidth` and type identifiers are CFStrings.
public typealias CFString = String
/// A URL (`URL`).
public typealias CFURL = URL
/// A dictionary (`NSDictionary`; `[key: value] as CFDictionary` and `as? [CFString: Any]` work).
public typealias CFDictionary = NSDictionary
/// An array (`NSArray`; `[colorA, colorB] as CFArray` works).
public typealias CFArray = NSArray
/// Core Foundation's index type.
public typealias CFIndex = Int
/// Core Foundation's type identifier (kept for signatures that mention it).
public typealias CFTypeID = UInt
/// Core Foundation's time interval (seconds), which Core Animation's timing API uses.
public typealias CFTimeInterval = Double
/// Core Foundation's object reference (`CATextLayer.font` takes one).
public typealias CFTypeRef = AnyObject
