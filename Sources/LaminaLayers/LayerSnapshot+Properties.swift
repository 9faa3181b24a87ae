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
    /// The layer's own beginTime (its `timing`).
    @inlinable public var beginTime: Double { state.timing.beginTime }
    /// The layer's own speed (its `timing`).
    @inlinable public var speed: Float { state.timing.speed }
    /// The layer's own timeOffset (its `timing`).
    @inlinable public var timeOffset: Double { state.timing.timeOffset }
}
