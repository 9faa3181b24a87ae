import Foundation
import LaminaCore
import LaminaDrawing

// A snapshot's properties, by the layer's names: what the frame the snapshot was taken for draws. Every property of
// the table (LayerProperties.swift) reads through `state` by its key path, so a new property needs nothing here.

extension LayerSnapshot {
    /// The committed value of a property of `LayerState` (snapshot.cornerRadius is state.cornerRadius).
    @inlinable public subscript<Value>(dynamicMember keyPath: KeyPath<LayerState, Value>) -> Value {
        state[keyPath: keyPath]
    }
    // The properties the planner reads for every layer of every frame, as plain stored-property reads: a generic
    // key-path subscript costs a call per read in an unoptimised path (measured: fresh plans of 10,000 layers
    // slower, docs/benchmarks.md, "Core Animation compatibility"). Members win over dynamic member lookup, so these
    // only make the common reads direct; every other property still comes through the subscript above.
    @inlinable public var bounds: CGRect { state.bounds }
    @inlinable public var position: CGPoint { state.position }
    @inlinable public var anchorPoint: CGPoint { state.anchorPoint }
    @inlinable public var zPosition: CGFloat { state.zPosition }
    @inlinable public var transform: Transform3D { state.transform }
    @inlinable public var sublayerTransform: Transform3D { state.sublayerTransform }
    @inlinable public var isHidden: Bool { state.isHidden }
    @inlinable public var opacity: Float { state.opacity }
    @inlinable public var allowsGroupOpacity: Bool { state.allowsGroupOpacity }
    /// The blend mode; nil: none (normal).
    @inlinable public var blendMode: LayerBlendMode? { state.compositingFilter }
    @inlinable public var backgroundColor: Color? { state.backgroundColor }
    @inlinable public var borderWidth: CGFloat { state.borderWidth }
    @inlinable public var borderColor: Color? { state.borderColor }
    @inlinable public var cornerRadius: CGFloat { state.cornerRadius }
    @inlinable public var shadowOpacity: Float { state.shadowOpacity }
    @inlinable public var masksToBounds: Bool { state.masksToBounds }
    @inlinable public var isDoubleSided: Bool { state.isDoubleSided }
    @inlinable public var contents: Image? { state.contents }
    @inlinable public var contentsRect: CGRect { state.contentsRect }
    @inlinable public var contentsGravity: ContentsGravity { state.contentsGravity }
    @inlinable public var contentsScale: CGFloat { state.contentsScale }
    /// The layer's own beginTime (its `timing`).
    @inlinable public var beginTime: Double { state.timing.beginTime }
    /// The layer's own speed (its `timing`).
    @inlinable public var speed: Float { state.timing.speed }
    /// The layer's own timeOffset (its `timing`).
    @inlinable public var timeOffset: Double { state.timing.timeOffset }
}
