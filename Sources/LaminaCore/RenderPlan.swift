import Foundation

/// How a texture is sampled (docs/semantics.md, "Contents": magnificationFilter and minificationFilter).
public enum Filter: String, Hashable, Sendable, CaseIterable {
    /// Bilinear: the four nearest texel centres, weighted.
    case linear
    /// The texel whose area holds the sample point.
    case nearest
    /// Mipmapped bilinear (minification only): bilinear at two levels of the image's mip chain, mixed
    /// (`TextureSource.mipLevel`, `MipSelection`).
    case trilinear
}

/// A rectangle of whole texels: x0 ..< x1, y0 ..< y1.
public struct TexelRect: Hashable, Sendable, CustomStringConvertible {
    public var x0: Int, y0: Int, x1: Int, y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
    }

    public var width: Int { x1 - x0 }
    public var height: Int { y1 - y0 }
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    /// The texels that touch the continuous rectangle `rect` (texel i spans i ..< i + 1), limited to
    /// 0 ..< width, 0 ..< height. A rectangle thinner than a texel still touches the one it lies in.
    public static func touching(_ rect: CGRect, width: Int, height: Int) -> TexelRect {
        func range(_ lo: CGFloat, _ hi: CGFloat, _ size: Int) -> (Int, Int) {
            var a = Int(saturating: floor(lo + 1e-9))
            var b = Int(saturating: ceil(hi - 1e-9))
            if b <= a { b = a + 1 }
            a = min(max(a, 0), size - 1)
            b = min(max(b, a + 1), size)
            return (a, b)
        }
        let (x0, x1) = range(rect.minX, rect.maxX, width)
        let (y0, y1) = range(rect.minY, rect.maxY, height)
        return TexelRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    public var description: String { "[\(x0), \(y0)) - (\(x1), \(y1))" }
}

/// The texture side of a quad.
public struct TextureSource: Hashable, Sendable {
    /// The backing image (premultiplied BGRA); renderers key their caches by its identity and generation.
    public var image: Image
    /// Maps the quad's unit square to texel coordinates (texel i covers i ..< i + 1; its centre is i + 0.5).
    /// Affine; may reach outside the image, where the clamp applies.
    public var unitToTexel: Matrix3
    /// The only texels sampling may read; samples clamp to the centres of this rectangle's edge texels
    /// (the no-bleed clamp of docs/semantics.md, "Contents").
    public var clamp: TexelRect
    /// The filter for this quad, already chosen between magnification and minification by the planner.
    public var filter: Filter
    /// With `trilinear`: the level of detail, log2 of the texels per target pixel (by area, at the quad's centre)
    /// plus the layer's minificationFilterBias; renderers clamp it to the image's levels (`mipSelection`).
    /// Ignored by the other filters.
    public var mipLevel: Float
    /// nil: none. Otherwise a colour (straight components, 0...1) that multiplies every sampled texel's components,
    /// alpha included, before the opacity applies: an emitter particle's colour (docs/semantics.md, "Emitter
    /// layers"). Kept here, in the box, so that quads without one stay as small as before.
    public var tint: Color?
    /// true: the quad is added to what is below (premultiplied, clamped to 1: pixman's ADD, GL's ONE, ONE blend)
    /// instead of composited source-over: the particles of an emitter whose renderMode is additive.
    public var additive: Bool

    public init(image: Image, unitToTexel: Matrix3, clamp: TexelRect, filter: Filter, mipLevel: Float = 0,
                tint: Color? = nil, additive: Bool = false) {
        self.image = image
        self.unitToTexel = unitToTexel
        self.clamp = clamp
        self.filter = filter
        self.mipLevel = mipLevel
        self.tint = tint
        self.additive = additive
    }

    /// Whether it is sampled and composited as it is: no tint, source-over (what the renderers' fast paths draw).
    public var isPlain: Bool { tint == nil && !additive }

    /// The tint as what each premultiplied channel is multiplied by, x / 255 (blue, green, red: the straight
    /// component times alpha; alpha: alpha), as `PlanGroup.tintBytes`; nil without a tint.
    public var tintBytes: (blue: UInt8, green: UInt8, red: UInt8, alpha: UInt8)? { tint?.tintBytes }

    public static func == (a: TextureSource, b: TextureSource) -> Bool {
        a.image === b.image && a.unitToTexel == b.unitToTexel && a.clamp == b.clamp && a.filter == b.filter
            && a.mipLevel == b.mipLevel && a.tint == b.tint && a.additive == b.additive
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(image))
        hasher.combine(unitToTexel)
        hasher.combine(clamp)
        hasher.combine(filter)
        hasher.combine(mipLevel)
        hasher.combine(tint)
        hasher.combine(additive)
    }
}

/// What a quad paints.
public enum Paint: Hashable, Sendable {
    /// One premultiplied colour.
    case solid(PremultipliedColor)
    /// A texture, sampled per docs/semantics.md, "Contents". Boxed (`indirect`): inline it would make every quad
    /// half as large again, and plans copy quads by the thousand (a reused or moved subtree).
    indirect case texture(TextureSource)
    /// A layer's shadow: the renderer blurs and tints the source's silhouette, then samples the result like a
    /// texture whose texels (0, 0) ..< (width, height) span the quad's unit square (bilinear, no-bleed clamp to
    /// the whole buffer, whose edges are transparent).
    case shadow(ShadowSource)
}

/// Edges of a quad's unit square: top (v = 0), right (u = 1), bottom (v = 1), left (u = 0).
public struct QuadEdges: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let top = QuadEdges(rawValue: 1)
    public static let right = QuadEdges(rawValue: 2)
    public static let bottom = QuadEdges(rawValue: 4)
    public static let left = QuadEdges(rawValue: 8)
    public static let all: QuadEdges = [.top, .right, .bottom, .left]
}

/// One draw item of a render plan: a (possibly projected) rectangle, its paint, opacity and clip.
/// Everything is resolved; a renderer only rasterises it.
public struct Quad: Hashable, Sendable {
    /// Maps the unit square (0,0)-(1,1) to homogeneous target pixels; w != 1 only under perspective.
    public var unitToTarget: Matrix3
    /// What fills the quad.
    public var paint: Paint {
        didSet { paintIsFinite = Self.isFinite(paint) }
    }
    /// 1: as painted. Multiplies every premultiplied channel.
    public var opacity: Float
    /// nil: no clipping. Otherwise a convex polygon in target pixels outside which nothing is painted.
    public var clip: ConvexPolygon?
    /// The edges that get analytic coverage (allowsEdgeAntialiasing); empty: every edge uses the pixel-centre
    /// rule. The edges of cells inside a nine-slice stay sharp so that cells meet without seams.
    public var antialiasedEdges: QuadEdges
    /// nil, or a shape the paint is seen through (rounded corners, a rounded border): its edges are always
    /// antialiased. A solid quad with a shape that `fillsShape` paints the whole shape, whatever its own rectangle.
    public var shape: CoverageShape? {
        get { shapeStorage?.shape }
        set { shapeStorage = newValue.map(ShapeStorage.init) }
    }
    /// Whether the quad is seen through a shape (`shape != nil`, without copying the shape out of its box).
    public var hasShape: Bool { shapeStorage != nil }
    /// The shape lives in a box of its own: few quads have one, and kept inline it would double the size of every
    /// quad, which plans copy by the thousand (a moved subtree, a reused plan).
    fileprivate(set) var shapeStorage: ShapeStorage?
    /// The layer this quad came from, for debugging and error messages; nil when unnamed.
    public var layerName: String?
    /// The identity of the layer this quad came from (stable from frame to frame); nil for quads made by hand.
    public var layerID: LayerID?
    /// Whether the paint's numbers (a texture's map and level of detail) are finite, kept with the quad whenever
    /// its paint is set: a texture lives in a box of its own, and reading it for every quad's damage box was most
    /// of the plan of a moved subtree (a cache miss per quad; docs/benchmarks.md, "Damage boxes without the
    /// texture"). It fits in the quad's padding.
    private(set) var paintIsFinite: Bool

    public init(
        unitToTarget: Matrix3, paint: Paint, opacity: Float = 1, clip: ConvexPolygon? = nil,
        antialiasedEdges: QuadEdges = [], shape: CoverageShape? = nil, layerName: String? = nil,
        layerID: LayerID? = nil
    ) {
        self.unitToTarget = unitToTarget
        self.paint = paint
        paintIsFinite = Self.isFinite(paint)
        self.opacity = opacity
        self.clip = clip
        self.antialiasedEdges = antialiasedEdges
        self.shapeStorage = shape.map(ShapeStorage.init)
        self.layerName = layerName
        self.layerID = layerID
    }

    /// True when every number that places the quad, its texture and its shape is finite: what a renderer can draw.
    /// The planner leaves out quads that are not (a layer placed beyond the range of doubles).
    public var hasFiniteGeometry: Bool { withUnsafePointer(to: self) { Self.hasFiniteGeometry(at: $0) } }

    /// The four corners in homogeneous target pixels: top-left, top-right, bottom-right, bottom-left of
    /// the source rectangle.
    public var corners: [HomogeneousPoint] {
        Self.corners(of: unitToTarget)
    }

    /// `ConvexPolygon(projecting: corners(of: m))`, made without its working arrays where every corner is in front
    /// of the eye (all of them for an affine map): the four corners projected in order are what it keeps then.
    static func projection(of m: Matrix3) -> ConvexPolygon? {
        let epsilon = ConvexPolygon.frontW
        let a = m.apply(CGPoint(x: 0, y: 0)), b = m.apply(CGPoint(x: 1, y: 0))
        let c = m.apply(CGPoint(x: 1, y: 1)), d = m.apply(CGPoint(x: 0, y: 1))
        guard a.w > epsilon, b.w > epsilon, c.w > epsilon, d.w > epsilon else {
            return ConvexPolygon(projecting: [a, b, c, d])
        }
        let projected = [a.projected, b.projected, c.projected, d.projected]
        guard projected.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        return ConvexPolygon(vertices: projected)
    }

    /// The corners of the unit square under `m`, as `corners` gives a quad's.
    static func corners(of m: Matrix3) -> [HomogeneousPoint] {
        [m.apply(CGPoint(x: 0, y: 0)), m.apply(CGPoint(x: 1, y: 0)), m.apply(CGPoint(x: 1, y: 1)),
         m.apply(CGPoint(x: 0, y: 1))]
    }

    /// The polygon of target pixels this quad may touch: the quad cut at the eye plane (w > 0), projected,
    /// cut by the clip, and by the target (0, 0, width, height). Nil when nothing is left.
    public func coverage(width: Int, height: Int) -> ConvexPolygon? {
        Self.coverage(unitToTarget, clip: clip, width: width, height: height)
    }

    /// `coverage(width:height:)` of a quad with map `m` and `clip`.
    static func coverage(_ m: Matrix3, clip: ConvexPolygon?, width: Int, height: Int) -> ConvexPolygon? {
        guard var polygon = projection(of: m) else { return nil }
        // A turned polygon inside the target is its own intersection with it (every vertex on the inner side of
        // every edge of the target is kept, in order, and no edge is cut): most turned quads, spared the cut and its
        // allocations. (An axis-aligned rectangle is cut as a rectangle, which lists its corners in an order of its
        // own.)
        let box = polygon.bounds
        if !(width > 0 && height > 0 && box.minX >= 0 && box.minY >= 0 && box.maxX <= CGFloat(width)
            && box.maxY <= CGFloat(height) && polygon.axisAlignedRect == nil)
        {
            polygon = polygon.intersection(ConvexPolygon(rect: CGRect(x: 0, y: 0, width: width, height: height)))
        }
        if let clip { polygon = polygon.intersection(clip) }
        return polygon.isEmpty ? nil : polygon
    }
}

/// A run of quads drawn into an offscreen buffer of their own and composited as one (group opacity).
public struct PlanGroup: Hashable, Sendable {
    /// The quads of the group: indices into `RenderPlan.quads`.
    public var range: Range<Int>
    /// What the group's picture is multiplied by when it is composited (0...1).
    public var opacity: Float
    /// The target pixels the group's quads can touch; the offscreen buffer's size and place.
    public var bounds: PixelBox
    /// nil: no mask. Otherwise the quads from here to the end of `range` draw the mask (a layer's `mask`) into a
    /// buffer of its own, whose alpha then multiplies the group's picture before it is composited.
    public var maskStart: Int?
    /// How the picture, once masked and multiplied by `opacity`, is combined with the buffer below (the enclosing
    /// group's, or the target).
    public var composite: GroupComposite
    /// nil: none. Otherwise a colour (straight components, 0...1) that multiplies the picture's components before it
    /// is composited, alpha included: a replicator's instance colour (docs/semantics.md, "Replicator layers").
    public var tint: Color?

    public init(range: Range<Int>, opacity: Float, bounds: PixelBox, maskStart: Int? = nil,
                composite: GroupComposite = .sourceOver, tint: Color? = nil) {
        self.range = range
        self.opacity = opacity
        self.bounds = bounds
        self.maskStart = maskStart
        self.composite = composite
        self.tint = tint
    }

    /// The group moved by `offset` quads.
    public func shifted(by offset: Int) -> PlanGroup {
        PlanGroup(range: (range.lowerBound + offset)..<(range.upperBound + offset), opacity: opacity, bounds: bounds,
                  maskStart: maskStart.map { $0 + offset }, composite: composite, tint: tint)
    }

    /// The tint as what each premultiplied channel is multiplied by, x / 255 (blue, green, red: the straight
    /// component times alpha; alpha: alpha): what the CPU renderer applies to the group's buffer. nil without a tint.
    public var tintBytes: (blue: UInt8, green: UInt8, red: UInt8, alpha: UInt8)? { tint?.tintBytes }
}

/// The flat, ordered output of the planner: what to draw into a target of `width` x `height` pixels,
/// bottom to top. The target starts transparent.
public struct RenderPlan: Sendable {
    public var width: Int
    public var height: Int
    /// The quads, bottom to top.
    public var quads: [Quad]
    /// Each quad's `damageBounds`, when the planner worked them out (nil: not known): `restricted(to:)` reads them
    /// instead of working them out again, so redrawing a corner of a plan of 100,000 quads costs a comparison per
    /// quad. Package-internal: code outside Lamina that changes a plan's quads cannot leave them stale. (Not an
    /// observer on `quads`: that would copy the array on every append.)
    package var quadBounds: [PixelBox?]?
    /// Offscreen groups, outer before inner (ascending start, then descending length); their ranges nest.
    /// Empty: every quad is composited straight onto the target. Changing them forgets the worked-out `nesting`.
    public var groups: [PlanGroup] {
        // Not reading oldValue keeps `plan.groups.append(...)` in place (no copy of the array).
        didSet { nestingBox = PlanNestingBox() }
    }
    /// The nesting of `groups`, worked out on first use (PlanNesting.swift).
    private var nestingBox = PlanNestingBox()

    /// Which plan this is: a number unique in the process (`PlanIdentity`), given by the planner; 0 for a plan made
    /// by hand. Damage (`damage`) and retained frames name plans by it.
    public var identity: UInt64 = 0
    /// The pixels that may differ from an earlier plan (the planner's last plan of the same tree, for the same
    /// renderer); nil when unknown: every pixel may differ.
    public var damage: PlanDamage?

    /// The explicit nesting of the groups (begin, mask begin, end, in drawing order), worked out once for these
    /// groups and kept while they do not change; what validation and both renderers walk.
    public var nesting: PlanNesting { nestingBox.nesting { PlanNesting(groups: groups) } }

    public init(width: Int, height: Int, quads: [Quad] = [], groups: [PlanGroup] = []) {
        self.width = width
        self.height = height
        self.quads = quads
        self.groups = groups
    }

    /// Checks what every renderer relies on (finite numbers, sizes within limits, groups that nest, clamp
    /// rectangles inside their images), once, at the renderer's entry: each public way into a renderer validates
    /// the plan it is given before anything else, and nothing inside validates again (docs/architecture.md,
    /// "Validation at the front door").
    public func validate(limits: PixelLimits = .default) throws {
        RenderPlan.validationProbe?.count(self)
        if width <= 0 || height <= 0 { throw RenderError.invalidPlan("target size \(width)x\(height) is empty") }
        if let reason = limits.violation(width: width, height: height) {
            throw RenderError.invalidPlan("target \(reason)")
        }
        try validateGroups()
        // Quads are read where they lie: a copy of each would retain and release its references.
        try quads.withUnsafeBufferPointer { buffer in
            guard let first = buffer.baseAddress else { return }
            for index in buffer.indices {
                let quad = first + index
                guard Quad.hasFiniteGeometry(at: quad) else {
                    throw RenderError.invalidPlan("quad \(index): non-finite geometry or opacity")
                }
                switch quad.pointee.paint {
                case .solid: break
                case .shadow(let shadow): try shadow.silhouette.validate(limits: limits)
                case .texture(let texture):
                    let c = texture.clamp
                    guard !c.isEmpty, c.x0 >= 0, c.y0 >= 0, c.x1 <= texture.image.width,
                        c.y1 <= texture.image.height
                    else {
                        throw RenderError.invalidPlan("quad \(index): clamp \(c) outside its \(texture.image) image")
                    }
                }
            }
        }
    }
}

extension RenderPlan {
    /// Counts the plans validated on this task while a test binds it (`$validationProbe.withValue`): how a test
    /// sees that a renderer validates a plan exactly once per call. Nil (no cost but a task-local read) otherwise.
    @TaskLocal static var validationProbe: ValidationProbe?
}

/// The validations seen while a `RenderPlan.validationProbe` is bound: the quad counts of the plans checked.
final class ValidationProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var quadCounts: [Int] = []

    init() {}

    func count(_ plan: RenderPlan) {
        lock.lock()
        quadCounts.append(plan.quads.count)
        lock.unlock()
    }

    /// The quad counts of the plans validated, in order.
    var validated: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return quadCounts
    }
}

/// Errors a renderer reports.
public enum RenderError: Error, CustomStringConvertible, Equatable {
    case invalidPlan(String)
    case targetMismatch(String)
    case unavailable(String)
    case failed(String)

    public var description: String {
        switch self {
        case .invalidPlan(let why): return "invalid render plan: \(why)"
        case .targetMismatch(let why): return "render target does not fit the plan: \(why)"
        case .unavailable(let why): return "renderer unavailable: \(why)"
        case .failed(let why): return "rendering failed: \(why)"
        }
    }
}

/// A quad's shape, boxed (Quad.shape); compared and hashed by value.
final class ShapeStorage: Hashable, Sendable {
    let shape: CoverageShape

    init(_ shape: CoverageShape) {
        self.shape = shape
    }

    static func == (a: ShapeStorage, b: ShapeStorage) -> Bool { a === b || a.shape == b.shape }

    func hash(into hasher: inout Hasher) { hasher.combine(shape) }
}

extension Color {
    /// This colour as a tint: what each premultiplied channel is multiplied by, x / 255 (blue, green, red: the
    /// straight component times alpha; alpha: alpha), components clamped to 0...1 and NaN read as 0. One rule for
    /// every tint (`PlanGroup.tintBytes`, `TextureSource.tintBytes`), so both renderers multiply alike.
    public var tintBytes: (blue: UInt8, green: UInt8, red: UInt8, alpha: UInt8) {
        func unit(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }
        func byte(_ x: Double) -> UInt8 { UInt8((x * 255).rounded()) }
        let a = unit(alpha)
        return (byte(unit(blue) * a), byte(unit(green) * a), byte(unit(red) * a), byte(a))
    }
}
