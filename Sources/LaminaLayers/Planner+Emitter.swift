import Foundation
import LaminaCore
import LaminaDrawing

// Emitter layers in the planner (docs/semantics.md, "Emitter layers"): the particles alive at the layer's local time
// (EmitterParticles.swift), each a texture quad of its cell's contents, turned, scaled and placed in the layer's
// space, tinted by its colour and, in the additive render mode, added to what is below. They go where the layer's
// contents go: above its background and contents, below its sublayers.

extension Planner {
    /// Appends the quads of the particles `layer` (an emitter with `style`) shows at its time.
    func emitParticles(
        _ layer: LayerSnapshot, _ style: EmitterStyle, layerToTarget: Matrix3, opacity: Float, clip: ConvexPolygon?,
        shaped: Bool, into quads: inout [Quad]
    ) {
        guard opacity > 0 else { return }
        let particles = style.particles(at: layer.effects?.emitterTime ?? 0)
        guard !particles.isEmpty else { return }
        guard let particleClip = Self.contentsClip(layer, layerToTarget: layerToTarget, clip: clip) else { return }
        let rounded = shaped && layer.masksToBounds
            ? layer.roundedBounds.map { CoverageShape(toTarget: layerToTarget, outer: $0) } : nil
        let additive = style.renderMode == .additive
        let cells = style.flattenedCells.map { ParticleSprite($0, additive: additive) }
        quads.reserveCapacity(quads.count + particles.count)
        for particle in particles {
            guard particle.cell < cells.count, let sprite = cells[particle.cell] else { continue }
            let w = sprite.size.width * particle.scale, h = sprite.size.height * particle.scale
            let (sine, cosine) = (sin(particle.angle), cos(particle.angle))
            // The unit square onto the particle's rectangle centred on its place, turned by its angle (clockwise on
            // screen, y down).
            let a = w * cosine, b = w * sine, c = -h * sine, d = h * cosine
            let p = particle.position
            let unitToLayer = Matrix3.affine(a: a, b: b, c: c, d: d, tx: p.x - (a + c) / 2, ty: p.y - (b + d) / 2)
            var unitToTarget = unitToLayer.concatenating(layerToTarget)
            // An unturned particle shown at its contents' pixel size goes to the nearest whole pixel: its texels are
            // copied, not resampled (the cost of a sprite; docs/semantics.md, "Emitter layers").
            if unitToTarget.isAffine, unitToTarget.m12 == 0, unitToTarget.m21 == 0,
                abs(unitToTarget.m11 - sprite.texels.width) < 1e-9, abs(unitToTarget.m22 - sprite.texels.height) < 1e-9
            {
                unitToTarget.m31 = unitToTarget.m31.rounded()
                unitToTarget.m32 = unitToTarget.m32.rounded()
            }
            // Minification when a target pixel shows more than one texel (by area).
            let targetArea = abs(unitToTarget.m11 * unitToTarget.m22 - unitToTarget.m12 * unitToTarget.m21)
            let minified = sprite.texelArea > targetArea * (1 + 1e-9)
            let white = particle.color == .white
            let paint: Paint
            if white {
                paint = minified ? sprite.minified : sprite.magnified
            } else {
                var source = sprite.source
                source.filter = minified ? sprite.minificationFilter : sprite.magnificationFilter
                source.tint = particle.color
                paint = .texture(source)
            }
            quads.appendDrawable(Quad(
                unitToTarget: unitToTarget, paint: paint, opacity: opacity, clip: particleClip, shape: rounded,
                layerName: layer.name, layerID: layer.id))
        }
    }
}

/// What every particle of one cell shares: its contents' size in points and texture source (with the paints of
/// untinted particles made once, so that they share one box).
private struct ParticleSprite {
    var size: CGSize
    /// The contents' size in texels.
    var texels: CGSize
    var source: TextureSource
    var texelArea: CGFloat
    var minificationFilter: Filter
    var magnificationFilter: Filter
    var minified: Paint
    var magnified: Paint

    init?(_ cell: EmitterCellStyle, additive: Bool) {
        guard let image = cell.contents, image.width > 0, image.height > 0 else { return nil }
        let r = cell.contentsRect
        let (iw, ih) = (CGFloat(image.width), CGFloat(image.height))
        let region = CGRect(x: r.minX * iw, y: r.minY * ih, width: r.width * iw, height: r.height * ih)
        guard region.width > 0, region.height > 0, region.minX.isFinite, region.minY.isFinite,
            region.width.isFinite, region.height.isFinite
        else { return nil }
        let scale = cell.contentsScale.isFinite && cell.contentsScale > 0 ? cell.contentsScale : 1
        size = CGSize(width: region.width / scale, height: region.height / scale)
        texels = region.size
        let clamp = TexelRect.touching(region, width: image.width, height: image.height)
        // Trilinear minification is drawn as bilinear (docs/semantics.md, "Emitter layers").
        func plain(_ filter: Filter) -> Filter { filter == .trilinear ? .linear : filter }
        minificationFilter = plain(cell.minificationFilter)
        magnificationFilter = plain(cell.magnificationFilter)
        source = TextureSource(image: image, unitToTexel: .unitSquare(to: region), clamp: clamp,
                               filter: magnificationFilter, additive: additive)
        texelArea = region.width * region.height
        var minifiedSource = source
        minifiedSource.filter = minificationFilter
        minified = .texture(minifiedSource)
        magnified = .texture(source)
    }
}
