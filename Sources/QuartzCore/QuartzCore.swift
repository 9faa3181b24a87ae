// `import QuartzCore` on Linux: Core Animation's names for Lamina's own layers, animations and transactions
// (one model, docs/porting.md). As on Apple platforms, it brings CoreGraphics and Foundation with it.
@_exported import CoreGraphics
@_exported import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

// MARK: Layers

/// Core Animation's layer: Lamina's `Layer`.
public typealias CALayer = LaminaLayers.Layer
/// A layer that paints a colour gradient: Lamina's `GradientLayer`.
public typealias CAGradientLayer = LaminaLayers.GradientLayer
/// A layer that paints a path: Lamina's `ShapeLayer`.
public typealias CAShapeLayer = LaminaLayers.ShapeLayer
/// A layer that paints text: Lamina's `TextLayer`.
public typealias CATextLayer = LaminaLayers.TextLayer
/// A layer that repeats its sublayers: Lamina's `ReplicatorLayer`.
public typealias CAReplicatorLayer = LaminaLayers.ReplicatorLayer
/// A layer drawn in tiles on background threads, at levels of detail: Lamina's `TiledLayer`.
public typealias CATiledLayer = LaminaLayers.TiledLayer
/// Core Animation's particle emitter layer and its cells (docs/semantics.md, "Emitter layers").
public typealias CAEmitterLayer = LaminaLayers.EmitterLayer
public typealias CAEmitterCell = LaminaLayers.EmitterCell
/// A layer whose sublayers share its superlayer's 3D space: Lamina's `TransformLayer`.
public typealias CATransformLayer = LaminaLayers.TransformLayer
/// A layer that scrolls its sublayers by its bounds' origin: Lamina's `ScrollLayer`.
public typealias CAScrollLayer = LaminaLayers.ScrollLayer
/// A layer's delegate: Lamina's `LayerDelegate`.
public typealias CALayerDelegate = LaminaLayers.LayerDelegate
/// What a layer runs when a property changes: Lamina's `Action`.
public typealias CAAction = LaminaLayers.Action

// MARK: Animations and transactions

public typealias CAAnimation = LaminaLayers.Animation
public typealias CAPropertyAnimation = LaminaLayers.PropertyAnimation
public typealias CABasicAnimation = LaminaLayers.BasicAnimation
public typealias CAKeyframeAnimation = LaminaLayers.KeyframeAnimation
public typealias CASpringAnimation = LaminaLayers.SpringAnimation
public typealias CAAnimationGroup = LaminaLayers.AnimationGroup
public typealias CATransition = LaminaLayers.Transition
public typealias CAAnimationDelegate = LaminaLayers.AnimationDelegate
/// Turns interpolated numbers into a transform: Lamina's `ValueFunction`.
public typealias CAValueFunction = LaminaLayers.ValueFunction
public typealias CAValueFunctionName = LaminaLayers.ValueFunction.Name
/// Core Animation's transactions: Lamina's `Transaction` (its class methods are static functions).
public typealias CATransaction = LaminaLayers.Transaction
public typealias CAMediaTimingFunction = LaminaCore.MediaTimingFunction

// MARK: Values and constants

/// Core Animation's 4x4 transform (row vectors, m11...m44): Lamina's `Transform3D`.
public typealias CATransform3D = LaminaCore.Transform3D
public typealias CAMediaTimingFillMode = LaminaCore.FillMode
public typealias CAMediaTimingFunctionName = LaminaCore.MediaTimingFunction.Name
public typealias CALayerContentsGravity = LaminaLayers.ContentsGravity
public typealias CALayerContentsFilter = LaminaCore.Filter
public typealias CALayerContentsFormat = LaminaLayers.ContentsFormat
public typealias CALayerCornerCurve = LaminaLayers.CornerCurve
public typealias CACornerMask = LaminaLayers.CornerMask
public typealias CAEdgeAntialiasingMask = LaminaLayers.EdgeAntialiasingMask
public typealias CAAnimationCalculationMode = LaminaLayers.KeyframeAnimation.CalculationMode
public typealias CAAnimationRotationMode = LaminaLayers.KeyframeAnimation.RotationMode
public typealias CATransitionType = LaminaLayers.Transition.Kind
public typealias CATransitionSubtype = LaminaLayers.Transition.Subtype
public typealias CAGradientLayerType = LaminaDrawing.GradientLayerType
public typealias CAShapeLayerFillRule = LaminaDrawing.ShapeLayerFillRule
public typealias CAShapeLayerLineCap = LaminaDrawing.ShapeLayerLineCap
public typealias CAShapeLayerLineJoin = LaminaDrawing.ShapeLayerLineJoin
public typealias CATextLayerAlignmentMode = LaminaDrawing.TextLayerAlignmentMode
public typealias CATextLayerTruncationMode = LaminaDrawing.TextLayerTruncationMode
public typealias CAEmitterLayerEmitterShape = LaminaDrawing.EmitterShape
public typealias CAEmitterLayerEmitterMode = LaminaDrawing.EmitterMode
public typealias CAEmitterLayerRenderMode = LaminaDrawing.EmitterRenderMode
public typealias CAScrollLayerScrollMode = LaminaLayers.ScrollLayerScrollMode

/// The keys of CATransaction's settings, with Core Animation's names (for `value(forKey:)`/`setValue(_:forKey:)`).
public let kCATransactionAnimationDuration = Transaction.Key.animationDuration
public let kCATransactionDisableActions = Transaction.Key.disableActions
public let kCATransactionAnimationTimingFunction = Transaction.Key.animationTimingFunction
public let kCATransactionCompletionBlock = "completionBlock"
/// The key Core Animation gives the action of a sublayer added to a layer, and of one removed.
public let kCAOnOrderIn = "onOrderIn"
public let kCAOnOrderOut = "onOrderOut"
/// The key of the action a transition runs.
public let kCATransition = "transition"

/// The current media time: the clock every layer's and animation's timing is measured on (seconds, monotonic).
public func CACurrentMediaTime() -> CFTimeInterval { currentMediaTime() }

// MARK: Model layers

extension Layer {
    /// Core Animation's model layer: for a presentation copy (`presentation()`), the layer it was copied from; for
    /// any other layer, the layer itself.
    public func model() -> Self {
        (presentationSource as? Self) ?? self
    }
}

extension ContentsFormat {
    /// Core Animation's spellings of the formats.
    public static var RGBA8Uint: ContentsFormat { .rgba8Uint }
    public static var RGBA16Float: ContentsFormat { .rgba16Float }
}
