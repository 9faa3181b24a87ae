import Foundation
import LaminaCore
import LaminaDrawing

// A snapshot's properties, by the layer's names: what the frame the snapshot was taken for draws.

extension LayerSnapshot {
    @inlinable public var name: String? { state.name }
    @inlinable public var bounds: CGRect { state.bounds }
    @inlinable public var position: CGPoint { state.position }
    @inlinable public var anchorPoint: CGPoint { state.anchorPoint }
    @inlinable public var zPosition: CGFloat { state.zPosition }
    @inlinable public var transform: Transform3D { state.transform }
    @inlinable public var sublayerTransform: Transform3D { state.sublayerTransform }
    @inlinable public var isHidden: Bool { state.isHidden }
    @inlinable public var opacity: Float { state.opacity }
    @inlinable public var allowsGroupOpacity: Bool { state.allowsGroupOpacity }
    @inlinable public var backgroundColor: Color? { state.backgroundColor }
    @inlinable public var borderWidth: CGFloat { state.borderWidth }
    @inlinable public var borderColor: Color? { state.borderColor }
    @inlinable public var cornerRadius: CGFloat { state.cornerRadius }
    @inlinable public var maskedCorners: CornerMask { state.maskedCorners }
    @inlinable public var shadowColor: Color? { state.shadowColor }
    @inlinable public var shadowOpacity: Float { state.shadowOpacity }
    @inlinable public var shadowOffset: CGSize { state.shadowOffset }
    @inlinable public var shadowRadius: CGFloat { state.shadowRadius }
    @inlinable public var shadowPath: Path? { state.shadowPath }
    @inlinable public var masksToBounds: Bool { state.masksToBounds }
    @inlinable public var isDoubleSided: Bool { state.isDoubleSided }
    @inlinable public var allowsEdgeAntialiasing: Bool { state.allowsEdgeAntialiasing }
    @inlinable public var contents: Image? { state.contents }
    @inlinable public var contentsRect: CGRect { state.contentsRect }
    @inlinable public var contentsCenter: CGRect { state.contentsCenter }
    @inlinable public var contentsGravity: ContentsGravity { state.contentsGravity }
    @inlinable public var contentsScale: CGFloat { state.contentsScale }
    @inlinable public var contentsAreRotated: Bool { state.contentsAreRotated }
    @inlinable public var minificationFilter: Filter { state.minificationFilter }
    @inlinable public var magnificationFilter: Filter { state.magnificationFilter }
    @inlinable public var minificationFilterBias: Float { state.minificationFilterBias }
    @inlinable public var sourceDescription: String? { state.sourceDescription }
    @inlinable public var beginTime: Double { state.timing.beginTime }
    @inlinable public var speed: Float { state.timing.speed }
    @inlinable public var timeOffset: Double { state.timing.timeOffset }
}
