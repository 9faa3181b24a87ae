import Foundation
import LaminaCore
import LaminaDrawing

/// A layer that draws particles (CAEmitterLayer; docs/semantics.md, "Emitter layers"): each of its `emitterCells`
/// gives birth to particles at evenly spaced times, which move, turn, scale and change colour as the cell says. The
/// particles are a pure function of the layer's properties, its `seed` and its local time, so any frame can be drawn
/// at any time, in any order. They are drawn above the layer's background and contents and below its sublayers.
///
/// The layer emits from its local time 0 on: a layer added to a live tree shows the particles it would have
/// made since then (set `beginTime` to the current media time to start it empty, as Core Animation starts one).
open class EmitterLayer: Layer, @unchecked Sendable {
    override class var styleKeys: [String: StyleKey] { EmitterLayer.ownStyleKeys }

    public override init() {
        super.init()
        becomeSpecial(.emitter(EmitterStyle()))
    }

    /// A copy of `layer` (a presentation copy, as Core Animation makes them): its properties and, when it is of the
    /// same kind, its style; another kind of layer gives this kind's default style.
    public override init(layer: Any) {
        super.init(layer: layer)
        if model.emitter == nil { becomeSpecial(.emitter(EmitterStyle())) } else { committed.special = model.special }
    }

    /// NSCoding's initialiser (Lamina does not archive layers): a layer with the defaults.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        becomeSpecial(.emitter(EmitterStyle()))
    }

    /// All of the layer's emitter properties at once.
    public var emitterStyle: EmitterStyle {
        get { read { $0.emitter ?? EmitterStyle() } }
        set { writeStyle(key: nil) { $0.emitter = newValue } }
    }

    /// The cells that make particles; nil (the default) makes none. The layer keeps the cells' properties as they
    /// are when this is set: change a cell, then set the array again.
    public var emitterCells: [EmitterCell]? {
        get { read { $0.emitter.map { $0.emitterCells.isEmpty ? nil : $0.emitterCells.map(EmitterCell.init(style:)) } ?? nil } }
        set {
            let cells = (newValue ?? []).map { $0.cellStyle(depth: 0) }
            writeStyle(key: nil) { $0.emitter?.emitterCells = cells }
        }
    }
    /// Multiplies every cell's birth rate; 1 by default.
    public var birthRate: Float {
        get { read { $0.emitter?.birthRate ?? 1 } }
        set { writeStyle(key: "birthRate") { $0.emitter?.birthRate = newValue } }
    }
    /// Multiplies every cell's lifetime; 1 by default.
    public var lifetime: Float {
        get { read { $0.emitter?.lifetime ?? 1 } }
        set { writeStyle(key: "lifetime") { $0.emitter?.lifetime = newValue } }
    }
    /// The centre of the emitter shape, in the layer's space; (0, 0) by default.
    public var emitterPosition: CGPoint {
        get { read { $0.emitter?.emitterPosition ?? .zero } }
        set { writeStyle(key: "emitterPosition") { $0.emitter?.emitterPosition = newValue } }
    }
    public var emitterZPosition: CGFloat {
        get { read { $0.emitter?.emitterZPosition ?? 0 } }
        set { writeStyle(key: "emitterZPosition") { $0.emitter?.emitterZPosition = newValue } }
    }
    public var emitterSize: CGSize {
        get { read { $0.emitter?.emitterSize ?? .zero } }
        set { writeStyle(key: "emitterSize") { $0.emitter?.emitterSize = newValue } }
    }
    public var emitterDepth: CGFloat {
        get { read { $0.emitter?.emitterDepth ?? 0 } }
        set { writeStyle(key: "emitterDepth") { $0.emitter?.emitterDepth = newValue } }
    }
    /// `.point` by default.
    public var emitterShape: EmitterShape {
        get { read { $0.emitter?.emitterShape ?? .point } }
        set { writeStyle(key: nil) { $0.emitter?.emitterShape = newValue } }
    }
    /// `.volume` by default.
    public var emitterMode: EmitterMode {
        get { read { $0.emitter?.emitterMode ?? .volume } }
        set { writeStyle(key: nil) { $0.emitter?.emitterMode = newValue } }
    }
    /// `.unordered` by default.
    public var renderMode: EmitterRenderMode {
        get { read { $0.emitter?.renderMode ?? .unordered } }
        set { writeStyle(key: nil) { $0.emitter?.renderMode = newValue } }
    }
    /// Stored; particles are flattened into the layer's plane (docs/semantics.md, "Emitter layers").
    public var preservesDepth: Bool {
        get { read { $0.emitter?.preservesDepth ?? false } }
        set { writeStyle(key: nil) { $0.emitter?.preservesDepth = newValue } }
    }
    /// Multiplies every cell's velocity; 1 by default.
    public var velocity: Float {
        get { read { $0.emitter?.velocity ?? 1 } }
        set { writeStyle(key: "velocity") { $0.emitter?.velocity = newValue } }
    }
    /// Multiplies every particle's scale; 1 by default.
    public var scale: Float {
        get { read { $0.emitter?.scale ?? 1 } }
        set { writeStyle(key: "scale") { $0.emitter?.scale = newValue } }
    }
    /// Multiplies every cell's spin; 1 by default.
    public var spin: Float {
        get { read { $0.emitter?.spin ?? 1 } }
        set { writeStyle(key: "spin") { $0.emitter?.spin = newValue } }
    }
    /// Chooses every random draw of the ranges; 0 by default.
    public var seed: UInt32 {
        get { read { $0.emitter?.seed ?? 0 } }
        set { writeStyle(key: nil) { $0.emitter?.seed = newValue } }
    }

    /// The particles alive at the layer's local time `time`, in drawing order (what a frame whose layer time is
    /// `time` draws): Lamina's window on the particle function, for tests and tools.
    public func particles(atLocalTime time: Double) -> [EmitterParticle] {
        emitterStyle.particles(at: time)
    }
}

extension EmitterLayer {
    /// The keys of this class that the animatable key paths do not cover (or give another type), for key-value
    /// coding (Layer+KeyValueCoding.swift).
    nonisolated(unsafe) static let ownStyleKeys: [String: StyleKey] = [
        "birthRate": StyleKey(\EmitterLayer.birthRate),
        "lifetime": StyleKey(\EmitterLayer.lifetime),
        "emitterPosition": StyleKey(\EmitterLayer.emitterPosition),
        "emitterZPosition": StyleKey(\EmitterLayer.emitterZPosition),
        "emitterSize": StyleKey(\EmitterLayer.emitterSize),
        "emitterDepth": StyleKey(\EmitterLayer.emitterDepth),
        "emitterShape": StyleKey(\EmitterLayer.emitterShape),
        "emitterMode": StyleKey(\EmitterLayer.emitterMode),
        "renderMode": StyleKey(\EmitterLayer.renderMode),
        "preservesDepth": StyleKey(\EmitterLayer.preservesDepth),
        "velocity": StyleKey(\EmitterLayer.velocity),
        "scale": StyleKey(\EmitterLayer.scale),
        "spin": StyleKey(\EmitterLayer.spin),
        "seed": StyleKey(\EmitterLayer.seed),
    ]
}

/// One source of particles of an emitter layer (CAEmitterCell; docs/semantics.md, "Emitter layers"). Its
/// properties are Core Animation's, with its defaults; `EmitterCellStyle` documents them. A cell's particles can
/// emit particles of their own (`emitterCells`).
open class EmitterCell: @unchecked Sendable {
    /// Every property but the sub-cells.
    public var style = EmitterCellStyle()
    /// Cells whose particles each particle of this cell emits; nil by default.
    public var emitterCells: [EmitterCell]?
    /// Core Animation's style dictionary: kept, not read.
    public var styleDictionary: [AnyHashable: Any]?

    public required init() {}

    /// A cell with the properties (and sub-cells) of `style`.
    public init(style: EmitterCellStyle) {
        self.style = style
        self.style.emitterCells = []
        emitterCells = style.emitterCells.isEmpty ? nil : style.emitterCells.map(EmitterCell.init(style:))
    }

    /// Core Animation's class constructor.
    open class func emitterCell() -> Self { Self.init() }

    /// The cell's properties with its sub-cells', as the layer keeps them (cells nested deeper than
    /// `EmitterStyle.mostCellDepth`, which make no particles, are left out, so a cycle ends too).
    public func cellStyle(depth: Int = 0) -> EmitterCellStyle {
        var result = style
        result.emitterCells = depth + 1 < EmitterStyle.mostCellDepth
            ? (emitterCells ?? []).map { $0.cellStyle(depth: depth + 1) } : []
        return result
    }

    public var name: String? { get { style.name } set { style.name = newValue } }
    public var isEnabled: Bool { get { style.isEnabled } set { style.isEnabled = newValue } }
    public var birthRate: Float { get { style.birthRate } set { style.birthRate = newValue } }
    public var lifetime: Float { get { style.lifetime } set { style.lifetime = newValue } }
    public var lifetimeRange: Float { get { style.lifetimeRange } set { style.lifetimeRange = newValue } }
    public var emissionLatitude: CGFloat { get { style.emissionLatitude } set { style.emissionLatitude = newValue } }
    public var emissionLongitude: CGFloat {
        get { style.emissionLongitude }
        set { style.emissionLongitude = newValue }
    }
    public var emissionRange: CGFloat { get { style.emissionRange } set { style.emissionRange = newValue } }
    public var velocity: CGFloat { get { style.velocity } set { style.velocity = newValue } }
    public var velocityRange: CGFloat { get { style.velocityRange } set { style.velocityRange = newValue } }
    public var xAcceleration: CGFloat { get { style.xAcceleration } set { style.xAcceleration = newValue } }
    public var yAcceleration: CGFloat { get { style.yAcceleration } set { style.yAcceleration = newValue } }
    public var zAcceleration: CGFloat { get { style.zAcceleration } set { style.zAcceleration = newValue } }
    public var scale: CGFloat { get { style.scale } set { style.scale = newValue } }
    public var scaleRange: CGFloat { get { style.scaleRange } set { style.scaleRange = newValue } }
    public var scaleSpeed: CGFloat { get { style.scaleSpeed } set { style.scaleSpeed = newValue } }
    public var spin: CGFloat { get { style.spin } set { style.spin = newValue } }
    public var spinRange: CGFloat { get { style.spinRange } set { style.spinRange = newValue } }
    /// Opaque white by default; nil is white.
    public var color: Color? { get { style.color } set { style.color = newValue ?? .white } }
    public var redRange: Float { get { style.redRange } set { style.redRange = newValue } }
    public var greenRange: Float { get { style.greenRange } set { style.greenRange = newValue } }
    public var blueRange: Float { get { style.blueRange } set { style.blueRange = newValue } }
    public var alphaRange: Float { get { style.alphaRange } set { style.alphaRange = newValue } }
    public var redSpeed: Float { get { style.redSpeed } set { style.redSpeed = newValue } }
    public var greenSpeed: Float { get { style.greenSpeed } set { style.greenSpeed = newValue } }
    public var blueSpeed: Float { get { style.blueSpeed } set { style.blueSpeed = newValue } }
    public var alphaSpeed: Float { get { style.alphaSpeed } set { style.alphaSpeed = newValue } }
    /// An `Image` (CGImage); anything else draws nothing.
    public var contents: Any? { get { style.contents } set { style.contents = newValue as? Image } }
    public var contentsRect: CGRect { get { style.contentsRect } set { style.contentsRect = newValue } }
    public var contentsScale: CGFloat { get { style.contentsScale } set { style.contentsScale = newValue } }
    public var minificationFilter: Filter {
        get { style.minificationFilter }
        set { style.minificationFilter = newValue }
    }
    public var magnificationFilter: Filter {
        get { style.magnificationFilter }
        set { style.magnificationFilter = newValue }
    }
    public var minificationFilterBias: Float {
        get { style.minificationFilterBias }
        set { style.minificationFilterBias = newValue }
    }
    // CAMediaTiming: the cell's clock, on the emitter layer's local time (a sub-cell's: its parent particle's age).
    public var beginTime: Double { get { style.timing.beginTime } set { style.timing.beginTime = newValue } }
    public var duration: Double { get { style.timing.duration } set { style.timing.duration = newValue } }
    public var speed: Float { get { style.timing.speed } set { style.timing.speed = newValue } }
    public var timeOffset: Double { get { style.timing.timeOffset } set { style.timing.timeOffset = newValue } }
    public var repeatCount: Float { get { style.timing.repeatCount } set { style.timing.repeatCount = newValue } }
    public var repeatDuration: Double {
        get { style.timing.repeatDuration }
        set { style.timing.repeatDuration = newValue }
    }
    public var autoreverses: Bool { get { style.timing.autoreverses } set { style.timing.autoreverses = newValue } }
    public var fillMode: FillMode { get { style.timing.fillMode } set { style.timing.fillMode = newValue } }

    /// Whether a key's value should be archived (Core Animation's); Lamina does not archive cells.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }
    /// Core Animation's defaults by key (nil for keys it has none for).
    open class func defaultValue(forKey key: String) -> Any? {
        let cell = EmitterCellStyle()
        switch key {
        case "isEnabled", "enabled": return cell.isEnabled
        case "scale": return cell.scale
        case "color": return cell.color
        case "contentsRect": return cell.contentsRect
        case "contentsScale": return cell.contentsScale
        default: return nil
        }
    }
}
