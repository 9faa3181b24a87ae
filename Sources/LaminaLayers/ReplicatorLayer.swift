import Foundation
import LaminaCore
import LaminaDrawing

/// A layer that draws its sublayers `instanceCount` times (CAReplicatorLayer; docs/semantics.md, "Replicator
/// layers"): instance i is transformed by `instanceTransform` applied i times about the anchor point, tinted by
/// `instanceColor` plus i times the offsets, and sees time shifted by i x `instanceDelay`. The sublayers are planned
/// once per instance; nothing is copied.
open class ReplicatorLayer: Layer, @unchecked Sendable {
    override class var styleKeys: [String: StyleKey] { ReplicatorLayer.ownStyleKeys }

    public override init() {
        super.init()
        becomeSpecial(.replicator(ReplicatorStyle()))
    }

    /// A copy of `layer` (a presentation copy, as Core Animation makes them): its properties and, when it is of the
    /// same kind, its style; another kind of layer gives this kind's default style.
    public override init(layer: Any) {
        super.init(layer: layer)
        if model.replicator == nil { becomeSpecial(.replicator(ReplicatorStyle())) } else { committed.special = model.special }
    }

    /// NSCoding's initialiser (Lamina does not archive layers): a layer with the defaults.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeSpecial(.replicator(ReplicatorStyle()))
    }

    /// All of the layer's replicator properties at once.
    public var replicatorStyle: ReplicatorStyle {
        get { read { $0.replicator ?? ReplicatorStyle() } }
        set { writeStyle(key: nil) { $0.replicator = newValue } }
    }
    /// 1 by default; 0 draws no sublayers. Negative counts draw none.
    public var instanceCount: Int {
        get { read { $0.replicator?.instanceCount ?? 1 } }
        set { writeStyle(key: nil) { $0.replicator?.instanceCount = newValue } }
    }
    /// The identity by default.
    public var instanceTransform: Transform3D {
        get { read { $0.replicator?.instanceTransform ?? .identity } }
        set { writeStyle(key: "instanceTransform") { $0.replicator?.instanceTransform = newValue } }
    }
    /// Opaque white by default (no tint).
    public var instanceColor: Color? {
        get { read { $0.replicator?.instanceColor ?? .white } }
        set { writeStyle(key: "instanceColor") { $0.replicator?.instanceColor = newValue ?? .white } }
    }
    public var instanceRedOffset: Float {
        get { read { $0.replicator?.instanceRedOffset ?? 0 } }
        set { writeStyle(key: "instanceRedOffset") { $0.replicator?.instanceRedOffset = newValue } }
    }
    public var instanceGreenOffset: Float {
        get { read { $0.replicator?.instanceGreenOffset ?? 0 } }
        set { writeStyle(key: "instanceGreenOffset") { $0.replicator?.instanceGreenOffset = newValue } }
    }
    public var instanceBlueOffset: Float {
        get { read { $0.replicator?.instanceBlueOffset ?? 0 } }
        set { writeStyle(key: "instanceBlueOffset") { $0.replicator?.instanceBlueOffset = newValue } }
    }
    public var instanceAlphaOffset: Float {
        get { read { $0.replicator?.instanceAlphaOffset ?? 0 } }
        set { writeStyle(key: "instanceAlphaOffset") { $0.replicator?.instanceAlphaOffset = newValue } }
    }
    /// Seconds; 0 by default.
    public var instanceDelay: Double {
        get { read { $0.replicator?.instanceDelay ?? 0 } }
        set { writeStyle(key: "instanceDelay") { $0.replicator?.instanceDelay = newValue } }
    }
}

extension ReplicatorLayer {
    /// The keys of this class that the animatable key paths do not cover (or give another type), for key-value
    /// coding (Layer+KeyValueCoding.swift).
    nonisolated(unsafe) static let ownStyleKeys: [String: StyleKey] = [
        "instanceCount": StyleKey(\ReplicatorLayer.instanceCount),
        "instanceRedOffset": StyleKey(\ReplicatorLayer.instanceRedOffset),
        "instanceGreenOffset": StyleKey(\ReplicatorLayer.instanceGreenOffset),
        "instanceBlueOffset": StyleKey(\ReplicatorLayer.instanceBlueOffset),
        "instanceAlphaOffset": StyleKey(\ReplicatorLayer.instanceAlphaOffset),
        "instanceDelay": StyleKey(\ReplicatorLayer.instanceDelay),
    ]
}
