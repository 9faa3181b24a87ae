import CEGL
import Foundation
import LaminaCore

/// Turns a plan into instance data and draw batches: one instance per pixel box of a quad's coverage, and one
/// batch per run of consecutive quads that share a program, texture and filter (so 10,000 sprites from one
/// sheet are one draw call, and so are 1,000 small images packed into one atlas page).
struct GLESBatchEncoder {
    struct Batch {
        /// false: solid colours.
        var textured: Bool
        var texture: GLuint
        /// The filter the quads ask for.
        var requested: Filter
        /// What the batch is drawn with: nearest when asked, or when every quad maps texels 1:1 at whole-pixel
        /// offsets (where bilinear sampling returns the texel itself); bilinear otherwise.
        var filter: Filter
        /// The first instance and the number of instances.
        var first: Int
        var count: Int
        /// Some of its instances are drawn by coverage: drawn with the program that reads the span table
        /// (GLESPass+Spans.swift).
        var coverage = false
        /// Some of its instances are seen through a shape whose coverage the shader computes (GLESPass+Shapes.swift):
        /// nil none, else what their shapes need of the formula. Drawn with the shape program of those features.
        var shape: GLESProgram.ShapeFeatures?
        /// Every instance is a texture copied 1:1 at whole pixels (its map an integer translation): drawn with the
        /// nearest program's copy variant, which reads the texel at the pixel moved by the translation rather than
        /// evaluating the map at every pixel (texture.frag, COPY).
        var copies = false
        /// The quads are added to what is below (ONE, ONE) rather than composited source-over: an additive
        /// emitter's particles.
        var additive = false
        /// nil: quads. Otherwise a group boundary: `begin` switches drawing to the group's offscreen buffer; `end`
        /// switches back and composites the buffer with its one instance (texture: the buffer's, at draw time).
        var group: GroupMarker?

        /// Takes in instances seen through shapes of `features` (nil: none).
        mutating func addShape(_ features: GLESProgram.ShapeFeatures?) {
            guard let features else { return }
            shape = shape.map { $0.union(features) } ?? features
        }
    }

    enum GroupMarker {
        case begin(PlanGroup)
        /// The group's mask starts: drawing goes to a second buffer.
        case maskBegin(PlanGroup)
        /// With a mask, two instances: the mask onto the content (multiplying by its alpha), then the content.
        case end(PlanGroup)
    }

    /// Set by the encoding and by the join of a parallel encoding (GLESPass+Parallel.swift).
    var instances: [Float] = []
    /// The span table of quads drawn by coverage (GLESPass+Spans.swift): x0, x1 of each row's run.
    var spanRows: [Int32] = []
    /// The shape table of quads whose coverage the shader computes (GLESPass+Shapes.swift):
    /// `ShapeCoverage.tableFloats` floats a quad.
    var shapeTable: [Float] = []
    var batches: [Batch] = []
    var quadsDrawn = 0
    /// The quads before the last opaque one over the whole target, which are not encoded (RenderPlan+Occlusion.swift).
    var quadsHidden = 0
    /// false: every quad is encoded (tests compare the pictures with occlusion and without).
    var usesOcclusion = true
    /// Whether the last encoding met an image whose opacity is not known yet (`OpaqueImages.undecided`): encoded
    /// again next frame rather than reused, so that what the image hides is left out once it is known.
    var occlusionUndecided = false
    /// The B, G, R, A colour to clear the target to instead of drawing the first quads, when the plan starts
    /// with opaque solid quads that cover the whole target (a scene's background); nil: no such quad.
    var clearColor: (Float, Float, Float, Float)?
    /// The coverage of rounded and antialiased quads, kept while they come back unchanged (the renderer ends its
    /// frames).
    let coverages = FrameCache<CoverageKey, AntialiasedCoverage>()
    /// The edge pixels of solid rounded quads as small images, kept while they come back unchanged.
    let fringes = FrameCache<FringeKey, GLESFringe?>()
    /// Which images are opaque throughout, for occlusion (`RenderPlan.lastOpaqueQuads`): the quads under the last
    /// opaque one that covers the whole target are not encoded.
    let opaqueImages = OpaqueImages()
    /// The blurred shadows of this plan, made by the renderer before encoding.
    var shadowTiles: [ShadowSource: GLESTile] = [:]
    /// The textures of the plan's quads, by quad index, looked up before a parallel encoding (GLESPass+Parallel.swift)
    /// so that the chunks make no GL calls; nil: looked up as each quad is encoded.
    var prefetched: [PrefetchedTexture]?
    /// The tile lists `prefetched` points into: one per run of quads of one image, not a sampling per quad.
    var prefetchedTiles: [[GLESTile]] = []
    /// Whether an opaque quad over the whole target at the start may become the clear colour (false for every chunk
    /// of a parallel encoding but the first).
    var clearAllowed = true
    /// false: large plans too are encoded on one thread (tests compare the two).
    var allowsParallel = true
    /// Whether the quad being encoded is drawn additively (`TextureSource.additive`): its batches are apart.
    var encodingAdditive = false

    mutating func encode(_ plan: RenderPlan, textures: GLESTextureCache) throws {
        instances.removeAll(keepingCapacity: true)
        spanRows.removeAll(keepingCapacity: true)
        shapeTable.removeAll(keepingCapacity: true)
        batches.removeAll(keepingCapacity: true)
        quadsDrawn = 0
        clearColor = nil
        // What an opaque quad over the whole target hides is not drawn (RenderPlan+Occlusion.swift); when that quad
        // is a solid colour, it becomes the clear colour below.
        let undecided = opaqueImages.undecided
        let start = usesOcclusion ? plan.lastOpaqueQuads(
            covering: [PixelBox(x0: 0, y0: 0, x1: plan.width, y1: plan.height)], opaqueImages: opaqueImages)[0] ?? 0 : 0
        quadsHidden = start
        occlusionUndecided = opaqueImages.undecided != undecided
        if allowsParallel, Self.encodesInParallel(plan) {
            try encodeInParallel(plan, from: start, textures: textures)
            return
        }
        var depth = 0
        // Groups that end before `start`, with everything in them, are hidden too.
        try plan.forEachStep(from: start) { step in
            let index: Int
            switch step {
            case .begin(let group):
                depth += 1
                batches.append(Batch(textured: false, texture: 0, requested: .nearest, filter: .nearest,
                                     first: instances.count / GLESProgram.instanceFloats, count: 0, group: .begin(group)))
                return
            case .beginMask(let group):
                batches.append(Batch(textured: false, texture: 0, requested: .nearest, filter: .nearest,
                                     first: instances.count / GLESProgram.instanceFloats, count: 0,
                                     group: .maskBegin(group)))
                return
            case .end(let group):
                depth -= 1
                closeGroup(group)
                return
            case .quad(let i):
                index = i
            }
            try plan.quads.withUnsafeBufferPointer { quads in
                try encode(at: quads.baseAddress! + index, index: index, plan: plan, insideGroup: depth > 0,
                           textures: textures)
            }
        }
    }

    /// Adds the instances of the quad at `quad`, read where it lies (in the plan's array): copying each quad out
    /// of the plan, and binding its texture (which retains the image every sprite of a sheet shares, from every
    /// encoding thread at once), was a quarter of a sprite frame's encoding.
    mutating func encode(
        at quad: UnsafePointer<Quad>, index: Int, plan: RenderPlan, insideGroup: Bool, textures: GLESTextureCache
    ) throws {
        let opacity = min(max(quad.pointee.opacity, 0), 1)
        let traits = Quad.textureTraits(at: quad)
        encodingAdditive = traits.additive
        if Quad.hasAnalyticCoverage(at: quad) {
            let copy = quad.pointee
            if try encodeShaped(copy, index: index, opacity: opacity, plan: plan, textures: textures) { return }
            try encodeAntialiased(copy, opacity: opacity, plan: plan, textures: textures)
            return
        }
        if !traits.isTexture, case .solid(let color) = quad.pointee.paint {
            let c = color.scaled(by: opacity).quantized
            guard c.alpha > 0 else { return }
            // Stored B, G, R, A like every pixel of the framebuffer.
            let bgra = (Float(c.blue) / 255, Float(c.green) / 255, Float(c.red) / 255, Float(c.alpha) / 255)
            let coverage = Quad.pixelCoverage(at: quad, width: plan.width, height: plan.height)
            if clearAllowed, instances.isEmpty, !insideGroup, c.alpha == 255,
                case .rect(0, 0, plan.width, plan.height) = coverage
            {
                // Covers everything drawn so far: clearing to it gives the same pixels for far less work.
                clearColor = bgra
                quadsDrawn += 1
                return
            }
            let before = instances.count
            add(coverage, textured: false, texture: 0,
                requested: .nearest, filter: .nearest, map: .identity, clamp: TexelRect(x0: 0, y0: 0, x1: 0, y1: 0), color: bgra)
            if instances.count > before { quadsDrawn += 1 }
            return
        }
        // A texture or a shadow.
        let alpha = PremultipliedColor.byte(opacity)
        guard alpha > 0, let texture = try sampling(at: quad, index: index, textures: textures) else { return }
        // The pixels of a texture in one tile first (what the CPU renderer does too): a quad that covers no pixel
        // centre (a sprite smaller than a pixel, one beyond the target) needs no map to its texels.
        let coverage = texture.single == nil ? nil : Quad.pixelCoverage(at: quad, width: plan.width,
                                                                          height: plan.height)
        if case .none? = coverage { return }
        guard let targetToTexel = quad.pointee.unitToTarget.inverted?.concatenating(texture.unitToTexel)
            .snappedToAffine
        else { return }
        if traits.isTexture, let (mipTexture, mip) = try trilinear(at: quad, index: index, textures: textures) {
            let before = instances.count
            add(coverage ?? Quad.pixelCoverage(at: quad, width: plan.width, height: plan.height), textured: true,
                texture: mipTexture, requested: .trilinear, filter: .trilinear,
                map: MipSelection.map(targetToTexel, level: mip.level), clamp: texture.clamp,
                color: Self.trilinearColor(mip, alpha: alpha))
            if instances.count > before { quadsDrawn += 1 }
            return
        }
        let requested: Filter = texture.filter == .nearest ? .nearest : .linear
        let filter: Filter = requested == .nearest || targetToTexel.integerTranslation != nil
            ? .nearest : .linear
        let color = Self.textureColor(alpha: alpha, tint: traits.tint)
        let before = instances.count
        if let tile = texture.single, let coverage {
            add(coverage, textured: true,
                texture: tile.texture, requested: requested, filter: filter, map: targetToTexel,
                clamp: texture.clamp, color: color, tile: Self.placement(tile))
        } else if let polygon = quad.pointee.coverage(width: plan.width, height: plan.height) {
            for tile in texture.tiles {
                addTilePiece(polygon, tile: tile, map: targetToTexel, clamp: texture.clamp,
                             requested: requested, filter: filter, color: color)
            }
        }
        if instances.count > before { quadsDrawn += 1 }
    }

    /// The mip texture and levels of a trilinear quad; nil when it samples level 0 alone (drawn as linear), or
    /// when its image is larger than the largest texture (no mip texture: sampled as linear, a documented gap).
    static func trilinear(
        _ texture: TextureSource, textures: GLESTextureCache
    ) throws -> (GLuint, MipSelection)? {
        guard let mip = texture.mipSelection, let id = try textures.mipTexture(for: texture.image) else { return nil }
        return (id, mip)
    }

    /// A texture instance's colour attribute: the opacity `alpha` (0-255) in .a; with a tint (an emitter
    /// particle's colour), the tint's alpha multiplies it and .rgb holds 1 - each stored channel's share of the
    /// tint (texture.frag), as a tinted group's.
    static func textureColor(alpha: UInt8, of paint: Paint) -> (Float, Float, Float, Float) {
        guard case .texture(let source) = paint else { return (0, 0, 0, Float(alpha) / 255) }
        return textureColor(alpha: alpha, tint: source.tint)
    }

    /// `textureColor(alpha:of:)` of a texture with `tint` (nil: none).
    static func textureColor(alpha: UInt8, tint: Color?) -> (Float, Float, Float, Float) {
        guard let m = tint?.tintBytes else { return (0, 0, 0, Float(alpha) / 255) }
        let a = Float(m.alpha)
        func rest(_ x: UInt8) -> Float { a > 0 ? 1 - Float(x) / a : 1 }
        return (rest(m.blue), rest(m.green), rest(m.red), Float(alpha) / 255 * a / 255)
    }

    /// A trilinear instance's colour attribute: the finer level, the coarser level's weight (0-255) and the opacity.
    static func trilinearColor(_ mip: MipSelection, alpha: UInt8) -> (Float, Float, Float, Float) {
        (Float(mip.level), Float(mip.fraction), 0, Float(alpha) / 255)
    }

    /// Ends a group: one instance that draws its offscreen buffer (group pixels map 1:1 to its texels) with the
    /// group's opacity, nearest.
    private mutating func closeGroup(_ group: PlanGroup) {
        let b = group.bounds
        let first = instances.count / GLESProgram.instanceFloats
        let map = Matrix3.translation(-CGFloat(b.x0), -CGFloat(b.y0))
        var alpha = Float(PremultipliedColor.byte(min(max(group.opacity, 0), 1))) / 255
        // A tint multiplies alpha (with the opacity) and each colour channel by its share of it (texture.frag).
        var tint: (Float, Float, Float) = (0, 0, 0)
        if let m = group.tintBytes {
            let a = Float(m.alpha)
            alpha *= a / 255
            func rest(_ x: UInt8) -> Float { a > 0 ? 1 - Float(x) / a : 1 }
            tint = (rest(m.blue), rest(m.green), rest(m.red))
        }
        let box = PixelBox(x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1)
        let clamp = TexelRect(x0: 0, y0: 0, x1: b.x1 - b.x0, y1: b.y1 - b.y0)
        if group.maskStart != nil { appendInstance(box, map: map, clamp: clamp, color: (0, 0, 0, 1)) }
        appendInstance(box, map: map, clamp: clamp, color: (tint.0, tint.1, tint.2, alpha))
        batches.append(Batch(textured: true, texture: 0, requested: .nearest, filter: .nearest, first: first,
                             count: group.maskStart == nil ? 1 : 2, group: .end(group)))
    }

    /// A quad with antialiased edges: its fully covered boxes, then one 1 x 1 instance per edge pixel carrying the
    /// pixel's coverage times the opacity, the values the CPU renderer's mask holds. (Tiled images are drawn from
    /// the tile holding the quad's clamp rectangle's first texel when one tile holds it all; antialiased quads
    /// across tiles fall back to sharp edges.)
    private mutating func encodeAntialiased(
        _ quad: Quad, opacity: Float, plan: RenderPlan, textures: GLESTextureCache
    ) throws {
        let coverage = coverages.value(for: CoverageKey(quad, width: plan.width, height: plan.height)) {
            quad.analyticCoverage(width: plan.width, height: plan.height)
        }
        guard !coverage.isEmpty else { return }
        let opacityByte = PremultipliedColor.byte(opacity)
        let before = instances.count
        switch quad.paint {
        case .solid(let color):
            func bgra(_ mask: UInt8) -> (Float, Float, Float, Float) {
                let c = color.quantized(times: mask)
                return (Float(c.blue) / 255, Float(c.green) / 255, Float(c.red) / 255, Float(c.alpha) / 255)
            }
            let none = TexelRect(x0: 0, y0: 0, x1: 0, y1: 0)
            add(boxes: coverage.full, textured: false, texture: 0, requested: .nearest, filter: .nearest,
                map: .identity, clamp: none, color: bgra(opacityByte))
            // Many edge pixels (an outline): drawn from a small image of them, a piece at a time, rather than one
            // instance each.
            if coverage.partial.count >= 32,
                let fringe = try fringes.value(
                    for: FringeKey(coverage: CoverageKey(quad, width: plan.width, height: plan.height, opacity: opacity),
                                   color: color),
                    make: { try GLESFringe(coverage, color: color, opacity: opacity) }),
                case let tiles = try textures.tiles(for: fringe.image), tiles.count == 1
            {
                let tile = tiles[0]
                for placed in fringe.placements {
                    let p = placed.piece
                    add(box: p, textured: true, texture: tile.texture, requested: .nearest, filter: .nearest,
                        map: .translation(CGFloat(placed.x - p.x0), CGFloat(placed.y - p.y0)),
                        clamp: TexelRect(x0: placed.x, y0: placed.y, x1: placed.x + p.x1 - p.x0,
                                         y1: placed.y + p.y1 - p.y0),
                        color: (0, 0, 0, 1), tile: Self.placement(tile))
                }
                if instances.count > before { quadsDrawn += 1 }
                return
            }
            for pixel in coverage.partial {
                add(box: PixelBox(x0: Int(pixel.x), y0: Int(pixel.y), x1: Int(pixel.x) + 1, y1: Int(pixel.y) + 1),
                    textured: false, texture: 0, requested: .nearest, filter: .nearest, map: .identity, clamp: none,
                    color: bgra(PartialPixel.alpha(pixel.coverage, opacity: opacity)))
            }
        case .texture, .shadow:
            guard let texture = try sampling(quad.paint, textures: textures),
                let targetToTexel = quad.unitToTarget.inverted?.concatenating(texture.unitToTexel).snappedToAffine
            else { return }
            if case .texture(let source) = quad.paint, let (mipTexture, mip) = try Self.trilinear(source, textures: textures) {
                let map = MipSelection.map(targetToTexel, level: mip.level)
                add(boxes: coverage.full, textured: true, texture: mipTexture, requested: .trilinear,
                    filter: .trilinear, map: map, clamp: texture.clamp,
                    color: Self.trilinearColor(mip, alpha: opacityByte))
                for pixel in coverage.partial {
                    add(box: PixelBox(x0: Int(pixel.x), y0: Int(pixel.y), x1: Int(pixel.x) + 1, y1: Int(pixel.y) + 1),
                        textured: true, texture: mipTexture, requested: .trilinear, filter: .trilinear, map: map,
                        clamp: texture.clamp,
                        color: Self.trilinearColor(mip, alpha: PartialPixel.alpha(pixel.coverage, opacity: opacity)))
                }
                if instances.count > before { quadsDrawn += 1 }
                return
            }
            let c = texture.clamp
            guard let tile = texture.tile(holding: c) else { return }
            let requested: Filter = texture.filter == .nearest ? .nearest : .linear
            let filter: Filter = requested == .nearest || targetToTexel.integerTranslation != nil ? .nearest : .linear
            let origin = texture.single != nil ? Self.placement(tile) : tile
            add(boxes: coverage.full, textured: true, texture: tile.texture, requested: requested, filter: filter,
                map: targetToTexel, clamp: c, color: Self.textureColor(alpha: opacityByte, of: quad.paint), tile: origin)
            for pixel in coverage.partial {
                let alpha = PartialPixel.alpha(pixel.coverage, opacity: opacity)
                add(box: PixelBox(x0: Int(pixel.x), y0: Int(pixel.y), x1: Int(pixel.x) + 1, y1: Int(pixel.y) + 1),
                    textured: true, texture: tile.texture, requested: requested, filter: filter, map: targetToTexel,
                    clamp: c, color: Self.textureColor(alpha: alpha, of: quad.paint), tile: origin)
            }
        }
        if instances.count > before { quadsDrawn += 1 }
    }

    /// What a textured quad samples: an image's tiles, or a shadow's blurred picture.
    struct Sampling {
        /// The image's tile when it has one (a texture or an atlas slot of its own: nearly every image), held inline:
        /// a sampling is made and copied once per quad, and an array of tiles, shared by every sprite of a sheet,
        /// was retained and released each time, from every encoding thread at once.
        var single: GLESTile?
        /// The tiles of an image larger than the largest texture; nil with `single`.
        var several: [GLESTile]?
        var unitToTexel: Matrix3
        var clamp: TexelRect
        var filter: Filter

        init(tiles: [GLESTile], unitToTexel: Matrix3, clamp: TexelRect, filter: Filter) {
            if tiles.count == 1 { (single, several) = (tiles[0], nil) } else { (single, several) = (nil, tiles) }
            self.unitToTexel = unitToTexel
            self.clamp = clamp
            self.filter = filter
        }

        /// Every tile (one for most images).
        var tiles: [GLESTile] { single.map { [$0] } ?? several ?? [] }

        /// The first tile that stores all of `clamp`, without making an array of one.
        func tile(holding clamp: TexelRect) -> GLESTile? {
            func holds(_ tile: GLESTile) -> Bool {
                tile.stored.x0 <= clamp.x0 && tile.stored.y0 <= clamp.y0 && tile.stored.x1 >= clamp.x1
                    && tile.stored.y1 >= clamp.y1
            }
            if let single { return holds(single) ? single : nil }
            return several?.first(where: holds)
        }
    }

    /// The textures behind `paint`, uploading an image if needed; nil for a solid colour or a shadow that was not
    /// made (which the renderer does before encoding).
    func sampling(_ paint: Paint, index: Int, textures: GLESTextureCache) throws -> Sampling? {
        if let prefetched {
            guard case .texture(let source) = paint else { return nil }
            return prefetchedSampling(prefetched[index], unitToTexel: source.unitToTexel, clamp: source.clamp,
                                      filter: source.filter)
        }
        return try sampling(paint, textures: textures)
    }

    /// `sampling(_:index:textures:)` of the quad at `quad`: prefetched, or looked up from its paint.
    func sampling(at quad: UnsafePointer<Quad>, index: Int, textures: GLESTextureCache) throws -> Sampling? {
        if let prefetched {
            // The paint read in place, its image unretained (`Quad.textureCopyFacts(at:)`): a bound texture source
            // retains the image every encoding thread's sprites share.
            guard let source = Quad.textureCopyFacts(at: quad) else { return nil }
            return prefetchedSampling(prefetched[index], unitToTexel: source.unitToTexel, clamp: source.clamp,
                                      filter: source.filter)
        }
        // Looked up here (a frame too small to encode on every core), the image unretained as well: the sheet every
        // sprite shows has a side table (a weak reference to it), so a bound texture source's retain and release of
        // it took the runtime's slow path, twice per quad with the trilinear look-up, a fifth of `animated-1k`'s
        // encoding.
        guard let source = Quad.textureCopyFacts(at: quad) else { return try sampling(quad.pointee.paint,
                                                                                      textures: textures) }
        let tiles = try source.image._withUnsafeGuaranteedRef { try textures.tiles(for: $0) }
        return Sampling(tiles: tiles, unitToTexel: source.unitToTexel, clamp: source.clamp, filter: source.filter)
    }

    /// The sampling of a texture quad from its prefetched tiles: made here, on the encoding chunk's thread, rather
    /// than once per quad on the thread that looks the textures up.
    private func prefetchedSampling(_ prefetched: PrefetchedTexture, unitToTexel: Matrix3, clamp: TexelRect,
                                    filter: Filter) -> Sampling? {
        guard prefetched.tiles >= 0 else { return nil }
        return Sampling(tiles: prefetchedTiles[Int(prefetched.tiles)], unitToTexel: unitToTexel, clamp: clamp,
                        filter: filter)
    }

    /// `trilinear(_:index:textures:)` of the texture quad at `quad`: prefetched, or looked up from its paint.
    func trilinear(at quad: UnsafePointer<Quad>, index: Int, textures: GLESTextureCache) throws -> (GLuint, MipSelection)? {
        if let prefetched { return prefetched[index].mip }
        // The paint read in place, its image unretained (as `sampling(at:index:textures:)` reads it).
        guard let source = Quad.textureCopyFacts(at: quad), let mip = source.mipSelection,
            let id = try source.image._withUnsafeGuaranteedRef({ try textures.mipTexture(for: $0) })
        else { return nil }
        return (id, mip)
    }

    /// The mip texture and levels of a trilinear quad (see `trilinear(_:textures:)`), prefetched or looked up.
    func trilinear(
        _ texture: TextureSource, index: Int, textures: GLESTextureCache
    ) throws -> (GLuint, MipSelection)? {
        if let prefetched { return prefetched[index].mip }
        return try Self.trilinear(texture, textures: textures)
    }

    func sampling(_ paint: Paint, textures: GLESTextureCache) throws -> Sampling? {
        switch paint {
        case .solid:
            return nil
        case .texture(let texture):
            return Sampling(tiles: try textures.tiles(for: texture.image), unitToTexel: texture.unitToTexel,
                            clamp: texture.clamp, filter: texture.filter)
        case .shadow(let shadow):
            guard let tile = shadowTiles[shadow] else { return nil }
            return Sampling(tiles: [tile], unitToTexel: .scale(CGFloat(shadow.blurWidth), CGFloat(shadow.blurHeight)),
                            clamp: TexelRect(x0: 0, y0: 0, x1: shadow.blurWidth, y1: shadow.blurHeight), filter: .linear)
        }
    }

    /// The part of a quad whose (clamped) sample points fall in `tile`'s core: the coverage polygon cut by the
    /// half-planes, in target space, of the core's edges. Edges of the core that are also edges of the clamp
    /// rectangle are left open, since samples beyond them clamp into this tile.
    private mutating func addTilePiece(
        _ polygon: ConvexPolygon, tile: GLESTile, map m: Matrix3, clamp: TexelRect, requested: Filter,
        filter: Filter, color: (Float, Float, Float, Float)
    ) {
        let core = tile.core
        guard core.x1 > clamp.x0, core.x0 < clamp.x1, core.y1 > clamp.y0, core.y0 < clamp.y1 else { return }
        var piece = polygon
        // texel.x >= lo  <=>  (p M).x - lo (p M).w >= 0, linear in p = (x, y, 1) since w > 0 in front of the eye.
        if core.x0 > clamp.x0 {
            let lo = CGFloat(core.x0)
            piece = piece.clipped(a: m.m11 - lo * m.m13, b: m.m21 - lo * m.m23, c: m.m31 - lo * m.m33)
        }
        if core.x1 < clamp.x1 {
            let hi = CGFloat(core.x1)
            piece = piece.clipped(a: hi * m.m13 - m.m11, b: hi * m.m23 - m.m21, c: hi * m.m33 - m.m31)
        }
        if core.y0 > clamp.y0 {
            let lo = CGFloat(core.y0)
            piece = piece.clipped(a: m.m12 - lo * m.m13, b: m.m22 - lo * m.m23, c: m.m32 - lo * m.m33)
        }
        if core.y1 < clamp.y1 {
            let hi = CGFloat(core.y1)
            piece = piece.clipped(a: hi * m.m13 - m.m12, b: hi * m.m23 - m.m22, c: hi * m.m33 - m.m32)
        }
        guard !piece.isEmpty else { return }
        add(PixelCoverage(piece), textured: true, texture: tile.texture, requested: requested, filter: filter,
            map: m, clamp: clamp, color: color, tile: tile)
    }

    /// Appends one instance per box of `coverage`, extending the last batch when it matches.
    private mutating func add(
        _ coverage: PixelCoverage, textured: Bool, texture: GLuint, requested: Filter, filter: Filter,
        map: Matrix3,
        clamp: TexelRect, color: (Float, Float, Float, Float), tile: GLESTile? = nil
    ) {
        switch coverage {
        case .none: return
        case .rect(let x0, let y0, let x1, let y1):
            add(box: PixelBox(x0: x0, y0: y0, x1: x1, y1: y1), textured: textured, texture: texture,
                requested: requested, filter: filter, map: map, clamp: clamp, color: color, tile: tile)
        case .spans(let spans):
            if let (box, rows) = addSpanRows(spans) {
                add(box: box, textured: textured, texture: texture, requested: requested, filter: filter, map: map,
                    clamp: clamp, color: color, tile: tile, rows: rows)
                return
            }
            add(boxes: coverage.boxes, textured: textured, texture: texture, requested: requested, filter: filter,
                map: map, clamp: clamp, color: color, tile: tile)
        }
    }

    /// The tile to place a single-texture image's texels by: nil for a texture of its own (image texels are
    /// texture texels), the tile for an atlas slot away from the page's corner.
    static func placement(_ tile: GLESTile) -> GLESTile? {
        tile.offsetX == 0 && tile.offsetY == 0 ? nil : tile
    }

    /// Appends one instance per box, extending the last batch when it matches. With a tile, the clamp is limited
    /// to what the tile stores, and the tile's offset (where image texel (0, 0) lies in its texture: a tile of a
    /// large image, or a slot of an atlas page) goes to the shader apart from the map, which stays in image texels:
    /// the shader adds it to the texel indices after choosing them (texture.frag), so where an image is placed
    /// changes no texel chosen and no bilinear weight.
    mutating func add(
        boxes: [PixelBox], textured: Bool, texture: GLuint, requested: Filter, filter: Filter, map: Matrix3,
        clamp: TexelRect, color: (Float, Float, Float, Float), tile: GLESTile? = nil, rows: Int = -1,
        shape: GLESProgram.ShapeFeatures? = nil
    ) {
        guard !boxes.isEmpty else { return }
        let (m, c, offset) = batch(count: boxes.count, textured: textured, texture: texture, requested: requested,
                                   filter: filter, map: map, clamp: clamp, tile: tile, rows: rows, shape: shape)
        for box in boxes { appendInstance(box, map: m, clamp: c, color: color, rows: rows, offset: offset) }
    }

    /// `add(boxes:...)` of one box, without an array of it: most quads cover one box, and the array was allocated
    /// for each of them.
    mutating func add(
        box: PixelBox, textured: Bool, texture: GLuint, requested: Filter, filter: Filter, map: Matrix3,
        clamp: TexelRect, color: (Float, Float, Float, Float), tile: GLESTile? = nil, rows: Int = -1,
        shape: GLESProgram.ShapeFeatures? = nil
    ) {
        let (m, c, offset) = batch(count: 1, textured: textured, texture: texture, requested: requested,
                                   filter: filter, map: map, clamp: clamp, tile: tile, rows: rows, shape: shape)
        appendInstance(box, map: m, clamp: c, color: color, rows: rows, offset: offset)
    }

    /// Takes `count` instances of `add(boxes:...)` into the last batch when it matches, else into a new one, and
    /// gives the map, clamp and tile offset their instances carry.
    private mutating func batch(
        count: Int, textured: Bool, texture: GLuint, requested: Filter, filter: Filter, map: Matrix3,
        clamp: TexelRect, tile: GLESTile?, rows: Int, shape: GLESProgram.ShapeFeatures?
    ) -> (map: Matrix3, clamp: TexelRect, offset: (x: Int, y: Int)) {
        let copy = textured && filter == .nearest && map.integerTranslation != nil
        var m = map
        var c = clamp
        var offset = (x: 0, y: 0)
        if let tile {
            let s = tile.stored
            offset = (tile.offsetX, tile.offsetY)
            c = TexelRect(x0: max(clamp.x0, s.x0), y0: max(clamp.y0, s.y0), x1: min(clamp.x1, s.x1),
                          y1: min(clamp.y1, s.y1))
        }
        if textured, filter == .nearest, requested != .nearest {
            // A 1:1 quad at whole pixels samples texel centres. Drawn in a batch with the bilinear program (next to
            // scaled quads of the same texture or atlas page), a centre read a float step low would blend in
            // 127/128 of the texel before it; 1/256 texel further on, both programs read the texel itself whatever
            // the rounding of the interpolated coordinate (bilinear: weight floor(128 / 256) = 0). Quads that ask
            // for nearest need no such move: the nearest program evaluates the map at each pixel centre, as the
            // CPU renderer does (texture.frag).
            m = m.concatenating(.translation(1.0 / 256, 1.0 / 256))
        }
        if !m.isAffine {
            // Keep the w row near 1 for float precision, by a power of two so that no term rounds differently
            // from the CPU renderer's map.
            let largest = max(abs(m.m13), abs(m.m23), abs(m.m33))
            let k = largest.isNormal ? CGFloat(sign: .plus, exponent: -largest.exponent, significand: 1) : 1 / largest
            m = Matrix3(m11: m.m11 * k, m12: m.m12 * k, m13: m.m13 * k, m21: m.m21 * k, m22: m.m22 * k,
                        m23: m.m23 * k, m31: m.m31 * k, m32: m.m32 * k, m33: m.m33 * k)
        }
        if let last = batches.last, last.group == nil, last.textured == textured, last.texture == texture,
            last.requested == requested, last.additive == encodingAdditive
        {
            // Like the filter: a batch with any quad drawn by coverage is drawn with the program that reads the
            // span table (quads without rows, -1, pass its test untouched), so turned and upright quads still batch.
            if rows >= 0 { batches[batches.count - 1].coverage = true }
            batches[batches.count - 1].addShape(shape)
            batches[batches.count - 1].copies = batches[batches.count - 1].copies && copy
            batches[batches.count - 1].count += count
            if filter != .nearest { batches[batches.count - 1].filter = filter }
        } else {
            batches.append(Batch(textured: textured, texture: texture, requested: requested, filter: filter,
                                 first: instances.count / GLESProgram.instanceFloats, count: count,
                                 coverage: rows >= 0, shape: shape, copies: copy, additive: encodingAdditive))
        }
        return (m, c, offset)
    }

    /// One instance: a pixel box, its target-to-texel map, clamp rectangle and colour (or opacity), and where the
    /// image's texels start in the texture.
    private mutating func appendInstance(
        _ box: PixelBox, map m: Matrix3, clamp c: TexelRect, color: (Float, Float, Float, Float), rows: Int = -1,
        offset: (x: Int, y: Int) = (0, 0)
    ) {
        // Two vectors appended whole: 24 appends each checked the array's capacity and uniqueness.
        let head = SIMD16<Float>(
            Float(box.x0), Float(box.y0), Float(box.x1), Float(box.y1),
            Float(m.m11), Float(m.m21), Float(m.m31), Float(m.m12), Float(m.m22), Float(m.m32),
            Float(m.m13), Float(m.m23), Float(m.m33), Float(c.x0), Float(c.y0), Float(c.x1))
        let tail = SIMD8<Float>(Float(c.y1), color.0, color.1, color.2, color.3, Float(offset.x), Float(offset.y),
                                Float(rows))
        withUnsafeBytes(of: head) { instances.append(contentsOf: $0.bindMemory(to: Float.self)) }
        withUnsafeBytes(of: tail) { instances.append(contentsOf: $0.bindMemory(to: Float.self)) }
    }
}

/// What a solid quad's edge-pixel image depends on.
struct FringeKey: Hashable {
    var coverage: CoverageKey
    var color: PremultipliedColor
}

/// The edge pixels of a solid quad with analytic coverage, packed into a small image: each piece of the outline
/// (`AntialiasedCoverage.pieces`) placed on shelves, each pixel the colour times its coverage and opacity in exactly
/// the bytes the one-instance-per-pixel path and the CPU renderer composite. Drawn 1:1 with nearest sampling.
final class GLESFringe {
    let image: Image
    /// Each piece in target pixels and where its texels start in `image`.
    let placements: [(piece: PixelBox, x: Int, y: Int)]

    init?(_ coverage: AntialiasedCoverage, color: PremultipliedColor, opacity: Float) throws {
        let pieces = coverage.pieces()
        guard !pieces.isEmpty else { return nil }
        let shelf = max(256, pieces.map { $0.x1 - $0.x0 }.max() ?? 0)
        var placements: [(piece: PixelBox, x: Int, y: Int)] = []
        var (x, y, rowHeight, width) = (0, 0, 0, 0)
        for piece in pieces {
            let (w, h) = (piece.x1 - piece.x0, piece.y1 - piece.y0)
            if x + w > shelf {
                (x, y, rowHeight) = (0, y + rowHeight, 0)
            }
            placements.append((piece, x, y))
            x += w
            width = max(width, x)
            rowHeight = max(rowHeight, h)
        }
        image = try Image(width: width, height: y + rowHeight)
        self.placements = placements
        // Pieces by strip (their top row), to find each pixel's piece.
        var byStrip: [Int: [Int]] = [:]
        for (index, placed) in placements.enumerated() { byStrip[placed.piece.y0, default: []].append(index) }
        let strip = pieces.first.map { $0.y1 - $0.y0 } ?? 8
        let top = pieces[0].y0
        for pixel in coverage.partial {
            let (px, py) = (Int(pixel.x), Int(pixel.y))
            let stripTop = top + (py - top) / max(strip, 1) * max(strip, 1)
            guard let candidates = byStrip[stripTop],
                let index = candidates.first(where: { placements[$0].piece.x0 <= px && px < placements[$0].piece.x1 })
            else { continue }
            let placed = placements[index]
            let c = color.quantized(times: PartialPixel.alpha(pixel.coverage, opacity: opacity))
            let word = UInt32(c.alpha) << 24 | UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue)
            image.setWord(word, x: placed.x + px - placed.piece.x0, y: placed.y + py - placed.piece.y0)
        }
        image.markModified()
    }
}
