import Foundation
import LaminaCore

/// Where an emitter layer's particles are born (CAEmitterLayerEmitterShape; docs/semantics.md, "Emitter layers").
public enum EmitterShape: String, Sendable, CaseIterable {
    /// At emitterPosition.
    case point
    /// A line along x through emitterPosition, emitterSize.width long.
    case line
    /// A rectangle of emitterSize centred on emitterPosition.
    case rectangle
    /// A box of emitterSize and emitterDepth centred on (emitterPosition, emitterZPosition).
    case cuboid
    /// A circle of diameter emitterSize.width centred on emitterPosition.
    case circle
    /// A sphere of diameter emitterSize.width centred on (emitterPosition, emitterZPosition).
    case sphere
}

/// Which part of the emitter shape particles are born on (CAEmitterLayerEmitterMode).
public enum EmitterMode: String, Sendable, CaseIterable {
    /// The shape's vertices (a line's ends, a rectangle's or cuboid's corners; the centre of a circle or sphere).
    case points
    /// Its outline (a rectangle's or circle's edge, a cuboid's edges, a sphere's surface).
    case outline
    /// Its surface (inside a rectangle or circle, on a cuboid's faces, on a sphere).
    case surface
    /// Its volume (inside any shape).
    case volume
}

/// The order particles are drawn in and how they are composited (CAEmitterLayerRenderMode).
public enum EmitterRenderMode: String, Sendable, CaseIterable {
    /// Cell by cell (each oldest first), source-over.
    case unordered
    /// All cells together, the oldest drawn first (the newest on top).
    case oldestFirst
    /// All cells together, the newest drawn first (the oldest on top).
    case oldestLast
    /// By z, farthest (lowest z) first.
    case backToFront
    /// Cell by cell, each particle added to what is below (premultiplied, clamped to 1): brightens where they
    /// overlap.
    case additive
}

/// One emitter cell's properties (CAEmitterCell's; docs/semantics.md, "Emitter layers"): what its particles look
/// like and how they move. A value: `EmitterLayer` keeps the cells it was given as these.
public struct EmitterCellStyle: Sendable, Equatable {
    /// For key paths and messages; nil by default.
    public var name: String? = nil
    /// false: the cell makes no particles (its sub-cells none either).
    public var isEnabled = true
    /// Particles per second (times the layer's birthRate); 0 by default.
    public var birthRate: Float = 0
    /// Seconds a particle lives (times the layer's lifetime), plus or minus up to lifetimeRange; 0 by default.
    public var lifetime: Float = 0
    public var lifetimeRange: Float = 0
    /// Radians: the direction particles leave in. Longitude 0 points along +x, positive longitudes turn towards +y
    /// (clockwise on screen); latitude turns out of the layer's plane towards +z.
    public var emissionLatitude: CGFloat = 0
    public var emissionLongitude: CGFloat = 0
    /// Radians: the longitude varies by up to this much either way.
    public var emissionRange: CGFloat = 0
    /// Points per second (times the layer's velocity), plus or minus up to velocityRange.
    public var velocity: CGFloat = 0
    public var velocityRange: CGFloat = 0
    /// Points per second squared, in the layer's space (y down).
    public var xAcceleration: CGFloat = 0
    public var yAcceleration: CGFloat = 0
    public var zAcceleration: CGFloat = 0
    /// The particle's size as a multiple of its contents' size in points (times the layer's scale), plus or minus up
    /// to scaleRange at birth, changing by scaleSpeed per second.
    public var scale: CGFloat = 1
    public var scaleRange: CGFloat = 0
    public var scaleSpeed: CGFloat = 0
    /// Radians per second the particle turns (times the layer's spin), plus or minus up to spinRange.
    public var spin: CGFloat = 0
    public var spinRange: CGFloat = 0
    /// Multiplies the contents (straight components); opaque white by default.
    public var color: Color = .white
    /// Each component varies by up to its range either way at birth, and changes by its speed per second (clamped
    /// to 0...1).
    public var redRange: Float = 0
    public var greenRange: Float = 0
    public var blueRange: Float = 0
    public var alphaRange: Float = 0
    public var redSpeed: Float = 0
    public var greenSpeed: Float = 0
    public var blueSpeed: Float = 0
    public var alphaSpeed: Float = 0
    /// The particle's picture; nil draws nothing (the cell's particles still move and emit their sub-cells).
    public var contents: Image? = nil
    /// The part of the image a particle shows, in unit coordinates of the image.
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Image pixels per point.
    public var contentsScale: CGFloat = 1
    public var minificationFilter: Filter = .linear
    public var magnificationFilter: Filter = .linear
    public var minificationFilterBias: Float = 0
    /// Cells whose particles each particle of this cell emits, from its place, their longitude turned by its
    /// direction of travel, their scale and colour multiplied by its own at their birth.
    public var emitterCells: [EmitterCellStyle] = []
    /// The cell's own timing (CAMediaTiming), on the emitter layer's local time (a sub-cell's: on its parent
    /// particle's age): births happen at cell time k / rate while the cell is active (duration 0: forever).
    public var timing = MediaTiming()

    public init() {}

    public static func == (a: EmitterCellStyle, b: EmitterCellStyle) -> Bool {
        a.name == b.name && a.isEnabled == b.isEnabled && a.birthRate == b.birthRate && a.lifetime == b.lifetime
            && a.lifetimeRange == b.lifetimeRange && a.emissionLatitude == b.emissionLatitude
            && a.emissionLongitude == b.emissionLongitude && a.emissionRange == b.emissionRange
            && a.velocity == b.velocity && a.velocityRange == b.velocityRange && a.xAcceleration == b.xAcceleration
            && a.yAcceleration == b.yAcceleration && a.zAcceleration == b.zAcceleration && a.scale == b.scale
            && a.scaleRange == b.scaleRange && a.scaleSpeed == b.scaleSpeed && a.spin == b.spin
            && a.spinRange == b.spinRange && a.color == b.color && a.redRange == b.redRange
            && a.greenRange == b.greenRange && a.blueRange == b.blueRange && a.alphaRange == b.alphaRange
            && a.redSpeed == b.redSpeed && a.greenSpeed == b.greenSpeed && a.blueSpeed == b.blueSpeed
            && a.alphaSpeed == b.alphaSpeed && a.contents === b.contents && a.contentsRect == b.contentsRect
            && a.contentsScale == b.contentsScale && a.minificationFilter == b.minificationFilter
            && a.magnificationFilter == b.magnificationFilter && a.minificationFilterBias == b.minificationFilterBias
            && a.emitterCells == b.emitterCells && a.timing == b.timing
    }
}

/// An emitter layer's properties (CAEmitterLayer's; docs/semantics.md, "Emitter layers"). The layer's birthRate,
/// lifetime, velocity, scale and spin multiply every cell's.
public struct EmitterStyle: Sendable, Equatable {
    public var emitterCells: [EmitterCellStyle] = []
    public var birthRate: Float = 1
    public var lifetime: Float = 1
    /// In the layer's space.
    public var emitterPosition: CGPoint = .zero
    public var emitterZPosition: CGFloat = 0
    public var emitterSize: CGSize = .zero
    public var emitterDepth: CGFloat = 0
    public var emitterShape: EmitterShape = .point
    public var emitterMode: EmitterMode = .volume
    public var renderMode: EmitterRenderMode = .unordered
    /// Stored; particles are flattened into the layer's plane as sublayers are (a documented difference).
    public var preservesDepth = false
    public var velocity: Float = 1
    public var scale: Float = 1
    public var spin: Float = 1
    /// Chooses the random draws of every range: the same seed draws the same particles.
    public var seed: UInt32 = 0

    public init() {}

    /// Whether the layer can make particles at all (some enabled cell, at any depth, with a birth rate): such an
    /// emitter changes with time, so frames keep coming.
    public var emits: Bool {
        guard birthRate > 0, lifetime > 0 else { return false }
        func any(_ cells: [EmitterCellStyle]) -> Bool {
            cells.contains { $0.isEnabled && $0.birthRate > 0 && $0.lifetime + abs($0.lifetimeRange) > 0 }
        }
        return any(emitterCells)
    }
}
