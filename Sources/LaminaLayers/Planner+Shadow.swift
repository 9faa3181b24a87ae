import Foundation
import LaminaCore
import LaminaDrawing

/// A layer's shadow as last planned, and the conditions it was planned under: while the layer's subtree and its
/// place on screen stay the same, the silhouette is not planned again (and, being the same ShadowSource,
/// renderers do not blur it again either).
struct PlannedShadow {
    var version: UInt64
    var layerToTarget: Matrix3
    var width: Int
    var height: Int
    var blur: ShadowBlur
    /// shadowOffset in target pixels: it decides which part of the shadow can be seen.
    var offset: CGPoint
    /// nil: the layer paints nothing to cast a shadow.
    var source: ShadowSource?
    /// Where the shadow's pixels go in the target, before shadowOffset.
    var origin: (x: Int, y: Int)
}

/// shadowPath filled into an image at one scale.
struct ShadowPathImage {
    var path: Path
    var scale: CGFloat
    var image: Image
    /// The image's rectangle in the layer's space.
    var rect: CGRect
}

extension Planner {
    /// The quad that paints `layer`'s shadow (docs/semantics.md, "What a layer paints": first, under the background),
    /// or nil when there is none. The blur's sigma is shadowRadius in points, so shadowRadius x the layer's scale on
    /// screen in pixels (docs/semantics.md says why); shadowOffset is in the layer's space.
    func shadowQuad(
        _ layer: LayerSnapshot, visit: Visit, opacity: Float, width: Int, height: Int, run: PlanRun
    ) throws -> Quad? {
        guard let color = layer.shadowColor else { return nil }
        let strength = min(max(layer.shadowOpacity, 0), 1)
        guard strength > 0, color.alpha > 0, opacity > 0 else { return nil }
        let m = visit.layerToTarget
        guard let j = Self.jacobian(m, at: CGPoint(x: layer.bounds.midX, y: layer.bounds.midY)) else { return nil }
        let localScale = abs(j.a * j.d - j.b * j.c).squareRoot()
        let radius = layer.shadowRadius.isFinite ? max(layer.shadowRadius, 0) : 0
        let blur = ShadowBlur(sigma: Float(radius * localScale))
        let dx = layer.shadowOffset.width.isFinite ? layer.shadowOffset.width : 0
        let dy = layer.shadowOffset.height.isFinite ? layer.shadowOffset.height : 0
        let offset = CGPoint(x: j.a * dx + j.c * dy, y: j.b * dx + j.d * dy)
        // Beyond this a shadow is out of sight of any output (quads this far out are not drawn either).
        guard abs(offset.x) < Self.farthestShadowOffset, abs(offset.y) < Self.farthestShadowOffset else { return nil }

        let planned: PlannedShadow
        run.fixedDecisions += 1
        if let cached = run.lastShadow(layer.id), cached.version == layer.contentVersion, cached.layerToTarget == m,
            cached.width == width, cached.height == height, cached.blur == blur, cached.offset == offset
        {
            planned = cached
        } else {
            var shadowColor = color
            shadowColor.alpha *= Double(strength)
            planned = try planShadow(layer, layerToTarget: m, localScale: localScale, blur: blur, offset: offset,
                                     color: shadowColor.premultiplied, width: width, height: height, run: run)
        }
        run.keepShadow(planned, for: layer.id)
        guard let source = planned.source else { return nil }
        let rect = CGRect(x: CGFloat(planned.origin.x) + offset.x, y: CGFloat(planned.origin.y) + offset.y,
                          width: CGFloat(source.width), height: CGFloat(source.height))
        // masksToBounds clips the shadow too, as in Core Animation (where it hides it under an opaque background);
        // rounded corners come from the group the planner puts around the layer's own quads then.
        var clip = visit.clip
        if layer.masksToBounds {
            guard let own = ConvexPolygon(projecting: unitCorners.map(Matrix3.unitSquare(to: layer.bounds)
                .concatenating(m).apply))
            else { return nil }
            clip = clip.map { $0.intersection(own) } ?? own
        }
        return Quad(unitToTarget: .unitSquare(to: rect), paint: .shadow(source), opacity: opacity, clip: clip,
                    layerName: layer.name, layerID: layer.id)
    }

    /// The largest shadowOffset, in target pixels, a shadow is drawn with.
    static let farthestShadowOffset: CGFloat = 1e9

    /// The silhouette: shadowPath filled, or the layer's subtree planned without its own shadow and opacity, in a
    /// "wide" target: the part of the target the shadow can be seen in, moved back by the offset and widened by
    /// the blur's spread (what lies further out cannot reach the screen). It is then cut to its pixels plus a
    /// transparent border as wide as the spread, and, where that reaches well beyond what can be seen, to what can
    /// be seen plus the silhouette that still reaches it (`shadowBuffer`: a huge blur costs a buffer of about the
    /// target's size plus twice the spread, however large the layer), in whole blocks of the blur's factor.
    private func planShadow(
        _ layer: LayerSnapshot, layerToTarget m: Matrix3, localScale: CGFloat, blur: ShadowBlur, offset: CGPoint,
        color: PremultipliedColor, width: Int, height: Int, run: PlanRun
    ) throws -> PlannedShadow {
        var result = PlannedShadow(version: layer.contentVersion, layerToTarget: m, width: width, height: height,
                                   blur: blur, offset: offset, source: nil, origin: (0, 0))
        // Wide pixel (0, 0) is target pixel (left, top): shadow pixel X shows at target X + left + offset.x, so the
        // pixels that can be seen are X in [margin - 1, margin + width + 1) (the offset's fraction either way).
        let spread = blur.spread
        let apron = blur.factor + 1  // bilinear magnification reads a texel beyond what it draws
        let margin = spread + apron + 2
        let (left, top) = (Int(saturating: (-offset.x).rounded(.down)) - margin,
                           Int(saturating: (-offset.y).rounded(.down)) - margin)
        // Only planned, never allocated: the buffer below is what costs memory.
        let (wideWidth, wideHeight) = (width + 2 * margin, height + 2 * margin)
        let toWide = m.concatenating(.translation(CGFloat(-left), CGFloat(-top)))
        var wide: RenderPlan
        if let path = layer.shadowPath {
            guard let filled = try shadowPathImage(layer, path: path, scale: max(localScale, 1.0 / 64), run: run)
            else {
                return result
            }
            wide = RenderPlan(width: wideWidth, height: wideHeight, quads: [Quad(
                unitToTarget: Matrix3.unitSquare(to: filled.rect).concatenating(toWide),
                paint: .texture(TextureSource(
                    image: filled.image, unitToTexel: .scale(CGFloat(filled.image.width), CGFloat(filled.image.height)),
                    clamp: TexelRect(x0: 0, y0: 0, x1: filled.image.width, y1: filled.image.height), filter: .linear)),
                layerName: layer.name, layerID: layer.id)])
        } else {
            wide = try plan(layer, rootToTarget: toWide, width: wideWidth, height: wideHeight, silhouette: true,
                            run: PlanRun(cache: nil))
        }
        wide.groups = RenderPlan.ordered(wide.groups)
        guard !wide.quads.isEmpty,
            let box = Self.bounds(of: wide.quads[...], width: wideWidth, height: wideHeight),
            let buffer = Self.shadowBuffer(silhouette: box, spread: spread, factor: blur.factor,
                                           seen: PixelBox(x0: margin - 1 - apron, y0: margin - 1 - apron,
                                                          x1: margin + width + 1 + apron,
                                                          y1: margin + height + 1 + apron))
        else { return result }
        let (shadowWidth, shadowHeight) = (buffer.x1 - buffer.x0, buffer.y1 - buffer.y0)
        if let reason = limits.violation(width: shadowWidth, height: shadowHeight) {
            throw PlanError.effectTooLarge("the shadow of \(layer.debugName) is too large: \(reason)")
        }
        let silhouette = wide.translated(x: -buffer.x0, y: -buffer.y0, width: shadowWidth, height: shadowHeight)
        result.source = ShadowSource(silhouette: silhouette, blur: blur, color: color)
        result.origin = (buffer.x0 + left, buffer.y0 + top)
        return result
    }

    /// The shadow's buffer in wide pixels: the silhouette's box widened by the spread; along an axis where that is
    /// longer than `seen` (the pixels that can be seen, with room for bilinear sampling) by more than twice the
    /// spread or 128 pixels, whichever is less, cut to `seen` and widened again to the silhouette that can still
    /// reach the cut (so the blur there is exact); rounded up to whole blocks of `factor`. Either way a side is at
    /// most `seen`'s plus twice the spread (plus a block). A shadow not much larger than what can be seen is not
    /// cut, so it stays the same (and is reused) while its layer moves about near the edges. nil when none of
    /// the shadow can be seen.
    static func shadowBuffer(silhouette box: PixelBox, spread: Int, factor: Int, seen: PixelBox) -> PixelBox? {
        func axis(_ b0: Int, _ b1: Int, _ s0: Int, _ s1: Int) -> (Int, Int)? {
            let (p0, p1) = (b0 - spread, b1 + spread)
            guard p1 > s0, p0 < s1 else { return nil }
            if p1 - p0 <= s1 - s0 + 2 * min(spread, 64) { return (p0, (p1 - p0 + factor - 1) / factor * factor + p0) }
            let (d0, d1) = (max(p0, s0), min(p1, s1))
            let (r0, r1) = (min(d0, max(b0, d0 - spread)), max(d1, min(b1, d1 + spread)))
            return (r0, (r1 - r0 + factor - 1) / factor * factor + r0)
        }
        guard let x = axis(box.x0, box.x1, seen.x0, seen.x1), let y = axis(box.y0, box.y1, seen.y0, seen.y1) else {
            return nil
        }
        return PixelBox(x0: x.0, y0: y.0, x1: x.1, y1: y.1)
    }

    /// shadowPath filled (non-zero winding, antialiased) into an image of `scale` pixels per point, kept in the
    /// renderer's plan cache while the path and scale stay the same.
    private func shadowPathImage(
        _ layer: LayerSnapshot, path: Path, scale: CGFloat, run: PlanRun
    ) throws -> ShadowPathImage? {
        if let cached = run.lastShadowPath(layer.id), cached.path == path, cached.scale == scale {
            run.keepShadowPath(cached, for: layer.id)
            return cached
        }
        let box = path.boundingBox
        guard !box.isNull, box.width.isFinite, box.height.isFinite, box.width > 0 || box.height > 0 else { return nil }
        let pixelWidth = Int(saturating: (box.width * scale).rounded(.up)) + 2
        let pixelHeight = Int(saturating: (box.height * scale).rounded(.up)) + 2
        if let reason = limits.violation(width: pixelWidth, height: pixelHeight) {
            throw PlanError.effectTooLarge("the shadowPath of \(layer.debugName) is too large: \(reason)")
        }
        let image = try Image(width: pixelWidth, height: pixelHeight)
        let context = try DrawingContext(image: image, scale: scale)
        let origin = CGPoint(x: box.minX - 1 / scale, y: box.minY - 1 / scale)
        context.translateBy(x: -origin.x, y: -origin.y)
        context.setFillColor(.black)
        context.beginPath()
        context.addPath(path)
        context.fillPath()
        context.flush()
        let filled = ShadowPathImage(
            path: path, scale: scale, image: image,
            rect: CGRect(x: origin.x, y: origin.y, width: CGFloat(pixelWidth) / scale,
                         height: CGFloat(pixelHeight) / scale))
        run.keepShadowPath(filled, for: layer.id)
        return filled
    }

    /// The linear part of a projective map at `p`: d(target) / d(layer) as x' = a x + c y, y' = b x + d y.
    static func jacobian(_ h: Matrix3, at p: CGPoint) -> (a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat)? {
        let q = h.apply(p)
        guard q.w > 1e-9, q.x.isFinite, q.y.isFinite else { return nil }
        let w2 = q.w * q.w
        return ((h.m11 * q.w - q.x * h.m13) / w2, (h.m12 * q.w - q.y * h.m13) / w2,
                (h.m21 * q.w - q.x * h.m23) / w2, (h.m22 * q.w - q.y * h.m23) / w2)
    }
}
