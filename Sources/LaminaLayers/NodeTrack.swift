import Foundation
import LaminaCore

/// An animation of an animated node (Planner+AnimatedNodes.swift), resolved when the node table is made, so that a
/// frame evaluates it from this value alone: no animation object, converted ends or prepared keyframes are read,
/// each of them an object of its own elsewhere in memory (a cache miss apiece, and most of a node's evaluation).
///
/// The common animations of a number or a point (a basic animation between given values or a given value and the
/// committed one, a spring, linear, paced or discrete keyframes; not additive, not cumulative, no value function or
/// path) are resolved against the node's committed values, which the table keeps until something is committed. The
/// frame then works out exactly what the animation's own evaluation works out (`PropertyAnimation.apply`, with the
/// same functions: `MediaTiming.phase`, `MediaTimingFunction.evaluate`, `AnimatedValue.mix`, `KeyframeMath.segment`,
/// `SpringSolution.displacement`), bit for bit: the table is checked against the last plan before it is used, and
/// tests compare its frames with fresh ones. Any other animation is `general` and applies itself.
struct NodeTrack {
    /// How the value follows the phase.
    enum Curve {
        /// From one value to another at the eased progress (BasicAnimation).
        case between(SIMD4<Double>, SIMD4<Double>, MediaTimingFunction?)
        /// From one value to another as the spring settles: at 1 - its displacement (SpringAnimation).
        case spring(SIMD4<Double>, SIMD4<Double>, SpringSolution)
        /// Keyframes (KeyframeAnimation) whose values, key times and timing functions lie in the table's lists.
        case keyframes(Keyframes)
        /// Anything else: the animation's own `apply(to:model:time:)`.
        case general
    }

    /// Keyframes resolved into the table's lists (`NodeTrackLists`).
    struct Keyframes {
        var values: Range<Int>
        var keyTimes: Range<Int>
        /// The timing function of each segment (linear and discrete modes with `timingFunctions`).
        var functions: Range<Int>?
        var discrete: Bool
        /// The animation's own timing function, over the whole cycle.
        var function: MediaTimingFunction?
    }

    let timing: MediaTiming
    /// Whether the active duration is finite (an animation that can finish).
    let finite: Bool
    let isRemovedOnCompletion: Bool
    /// The property written, and its number of components; the animation keeps it alive (properties are made once
    /// per key path and never freed). Unmanaged: reading an `unowned(unsafe)` reference into a local retained it,
    /// and every core's nodes share a few properties, so the cores fought over their reference counts.
    let property: Unmanaged<AnimatableProperty>?
    /// The field written directly, for the keys that name one (or a coordinate of one); else `property` writes it.
    let field: NodeField
    let count: Int
    let curve: Curve

    /// `animation` as a node with committed values `model` evaluates it; its keyframes, if any, added to `lists`.
    init(_ animation: Animation, model: NodePlacement, lists: inout NodeTrackLists) {
        timing = animation.timing
        finite = animation.timing.activeDuration.isFinite
        isRemovedOnCompletion = animation.isRemovedOnCompletion
        let resolved = (animation as? PropertyAnimation)?.nodeTrack(model: model, lists: &lists)
        property = resolved.map { Unmanaged.passUnretained($0.property) }
        field = resolved.map { NodeField($0.property.keyPath) } ?? .other
        count = resolved?.count ?? 0
        curve = resolved?.curve ?? .general
    }

    /// Applies the resolved value at `time` (the layer's local time) to `placement`, as the animation's
    /// `apply(to:model:time:)` does; only for curves other than `general`.
    func apply(to placement: inout NodePlacement, time: Double, lists: NodeTrackBuffers) {
        guard let property, let phase = timing.phase(parent: time) else { return }
        let value: SIMD4<Double>
        switch curve {
        case .between(let from, let to, let function):
            value = AnimatedValue.mix(from, to, function?.evaluate(phase.progress) ?? phase.progress)
        case .spring(let from, let to, let solution):
            value = AnimatedValue.mix(from, to, 1 - solution.displacement(at: phase.time))
        case .keyframes(let keyframes):
            let p = keyframes.function?.evaluate(phase.progress) ?? phase.progress
            value = keyframes.value(at: p, lists: lists)
        case .general:
            return
        }
        if !field.write(value, count: count, to: &placement) {
            property._withUnsafeGuaranteedRef { $0.set(&placement, .vector(value, count: count)) }
        }
    }
}

/// A node value a key path names directly (position, anchorPoint, their coordinates, anchorPointZ, opacity, a
/// part of the transform): a track writes it as the property's writer does (`AnimatableProperty.set`: the
/// coordinate replaced in the point, the number converted to the field's type, the transform's part replaced in its
/// decomposition and the matrix made again), without its closures, which retain their contexts on every call, and
/// without boxing the matrix in an `AnimatedValue` (an allocation per turned node and frame).
enum NodeField {
    case position, positionX, positionY, anchorPoint, anchorPointX, anchorPointY, anchorPointZ, opacity
    case transformPart(TransformComponents.Component)
    /// Any other: written by the property.
    case other

    init(_ keyPath: String) {
        switch keyPath {
        case "position": self = .position
        case "position.x": self = .positionX
        case "position.y": self = .positionY
        case "anchorPoint": self = .anchorPoint
        case "anchorPoint.x": self = .anchorPointX
        case "anchorPoint.y": self = .anchorPointY
        case "anchorPointZ": self = .anchorPointZ
        case "opacity": self = .opacity
        default:
            let prefix = "transform."
            guard keyPath.hasPrefix(prefix),
                let part = TransformComponents.Component(rawValue: String(keyPath.dropFirst(prefix.count)))
            else {
                self = .other
                return
            }
            self = .transformPart(part)
        }
    }

    /// Writes `v` (the value's components, `count` of them) into its field; false for `other`.
    func write(_ v: SIMD4<Double>, count: Int, to placement: inout NodePlacement) -> Bool {
        switch self {
        case .transformPart(let part):
            // `AnimatableProperty.set(part:of:to:)` on the node's transform.
            var parts = TransformComponents(placement.transform)
            parts.set(part, .vector(v, count: count))
            placement.transform = parts.matrix
        case .position: placement.position = CGPoint(x: v[0], y: v[1])
        case .positionX: placement.position.x = CGFloat(v[0])
        case .positionY: placement.position.y = CGFloat(v[0])
        case .anchorPoint: placement.anchorPoint = CGPoint(x: v[0], y: v[1])
        case .anchorPointX: placement.anchorPoint.x = CGFloat(v[0])
        case .anchorPointY: placement.anchorPoint.y = CGFloat(v[0])
        case .anchorPointZ: placement.anchorPointZ = CGFloat(v[0])
        case .opacity: placement.opacity = Float(v[0])
        case .other: return false
        }
        return true
    }
}

extension NodeTrack.Keyframes {
    /// The value at eased progress `p`: KeyframeAnimation's interpolation of vector values, read from the lists.
    func value(at p: Double, lists: NodeTrackBuffers) -> SIMD4<Double> {
        let values = UnsafeBufferPointer(rebasing: lists.values[values])
        let times = UnsafeBufferPointer(rebasing: lists.keyTimes[keyTimes])
        guard values.count > 1 else { return values[0] }
        if discrete {
            // Value k from keyTimes[k]; the last from its key time to the end (and at p = 1).
            var k = 0
            while k + 1 < values.count, k + 1 < times.count, times[k + 1] <= p { k += 1 }
            return values[k]
        }
        let (index, raw) = KeyframeMath.segment(for: min(max(p, 0), 1), keyTimes: times)
        let k = min(max(index, 0), values.count - 2)
        var local = min(max(raw, 0), 1)
        if let functions, k < functions.count { local = lists.functions[functions.lowerBound + k].evaluate(local) }
        return AnimatedValue.mix(values[k], values[k + 1], local)
    }
}

/// What an animation resolves to for a node: the property, its number of components and the curve.
typealias ResolvedNodeTrack = (property: AnimatableProperty, count: Int, curve: NodeTrack.Curve)

/// The keyframe values, key times and segment timing functions of a node table's tracks, one list each.
struct NodeTrackLists {
    var values: [SIMD4<Double>] = []
    var keyTimes: [Double] = []
    var functions: [MediaTimingFunction] = []

    /// Adds one animation's keyframes; nil when a value is not a vector of `count` components.
    mutating func add(values given: [AnimatedValue], keyTimes times: [Double],
                      functions segmentFunctions: [MediaTimingFunction]?, count: Int)
        -> (values: Range<Int>, keyTimes: Range<Int>, functions: Range<Int>?)?
    {
        var vectors: [SIMD4<Double>] = []
        vectors.reserveCapacity(given.count)
        for value in given {
            guard case .vector(let vector, let n) = value, n == count else { return nil }
            vectors.append(vector)
        }
        guard !vectors.isEmpty else { return nil }
        let valueStart = values.count, timeStart = keyTimes.count, functionStart = functions.count
        values += vectors
        keyTimes += times
        functions += segmentFunctions ?? []
        return (valueStart..<values.count, timeStart..<keyTimes.count,
                segmentFunctions.map { _ in functionStart..<functions.count })
    }
}

/// A frame's view of `NodeTrackLists`: their buffers, read by every evaluating thread.
struct NodeTrackBuffers: @unchecked Sendable {
    let values: UnsafeBufferPointer<SIMD4<Double>>
    let keyTimes: UnsafeBufferPointer<Double>
    let functions: UnsafeBufferPointer<MediaTimingFunction>
}

extension NodeTrackLists {
    /// Calls `body` with the lists' buffers.
    func withBuffers<R>(_ body: (NodeTrackBuffers) throws -> R) rethrows -> R {
        try values.withUnsafeBufferPointer { values in
            try keyTimes.withUnsafeBufferPointer { keyTimes in
                try functions.withUnsafeBufferPointer { functions in
                    try body(NodeTrackBuffers(values: values, keyTimes: keyTimes, functions: functions))
                }
            }
        }
    }
}
