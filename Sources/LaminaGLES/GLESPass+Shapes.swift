import CEGL
import Foundation
import LaminaCore

// Coverage of shapes in the fragment shader (docs/semantics.md, "Coverage in the shader"). A quad seen through a
// rounded rectangle or a rounded border (a sprite with cornerRadius and masksToBounds, a rounded background or
// border, a rounded clip handed down) is drawn as the boxes of its own pixels (one for an upright sprite), each
// instance pointing at the quad's entry of the shape table (a_rows = -2 - entry); the shader computes each pixel's
// coverage from the entry, and the CPU renderer computes the same formula in the same floats (LaminaCore's
// ShapeCoverage). Until this, the CPU worked out every edge pixel and the GPU drew it as an instance of its own (or
// from an image of the edge pixels): about 100 instances for a 64-point sprite with 16-point corners.
//
// A turned, sheared or perspective quad with four antialiased edges (`Quad.edgesAsShape`) is drawn the same way, its
// own outline as the shape, as one instance over the box of the pixels it touches where no clip or an upright one
// cuts it (the formula gives 0 on the box's other pixels, which then stay as they are; in perspective, the boxes of
// those pixels): no span table and no instance per edge pixel. Quads that have antialiased edges of their own as well as a shape keep the CPU's coverage
// (GLESPass.encodeAntialiased).

extension GLESBatchEncoder {
    /// Encodes `quad` through the shader's shape coverage when it has a shape and no antialiased edges; false
    /// when it must take the CPU coverage path.
    mutating func encodeShaped(
        _ original: Quad, index: Int, opacity: Float, plan: RenderPlan, textures: GLESTextureCache
    ) throws -> Bool {
        let quad = original.edgesAsShape
        guard let shape = quad.shape, quad.hasShapeCoverageOnly else { return false }
        let opacityByte = PremultipliedColor.byte(opacity)
        guard opacityByte > 0, let parameters = ShapeCoverage(shape),
            case var boxes = Self.withoutHole(quad.shapeBoxes(width: plan.width, height: plan.height) ?? [], shape),
            !boxes.isEmpty
        else { return true }
        // (Not in perspective: near the horizon the formula's first-order distance shrinks towards 0, so pixels of the
        // box far from the quad could be given coverage; the boxes of the pixels the quad touches keep it to those.)
        if shape.outlinesQuad, shape.toTarget.isAffine, boxes.count > 1,
            quad.clip == nil || quad.clip?.axisAlignedRect != nil
        {
            boxes = [Self.bounds(of: boxes)]
        }
        let entry = shapeTable.count / ShapeCoverage.tableFloats
        let rows = -2 - entry
        let features = GLESProgram.ShapeFeatures(parameters)
        let before = instances.count
        switch quad.paint {
        case .solid(let color):
            // The colour alone: the shader multiplies it by the mask value (coverage x opacity).
            let c = color.quantized
            guard c.alpha > 0 else { return true }
            parameters.write(into: &shapeTable, opacity: opacity, tintAlpha: -1)
            add(boxes: boxes, textured: false, texture: 0, requested: .nearest, filter: .nearest, map: .identity,
                clamp: TexelRect(x0: 0, y0: 0, x1: 0, y1: 0),
                color: (Float(c.blue) / 255, Float(c.green) / 255, Float(c.red) / 255, Float(c.alpha) / 255),
                rows: rows, shape: features)
        case .texture, .shadow:
            guard let texture = try sampling(quad.paint, index: index, textures: textures),
                let targetToTexel = quad.unitToTarget.inverted?.concatenating(texture.unitToTexel).snappedToAffine
            else { return true }
            if case .texture(let source) = quad.paint,
                let (mipTexture, mip) = try trilinear(source, index: index, textures: textures)
            {
                parameters.write(into: &shapeTable, opacity: opacity, tintAlpha: -1)
                add(boxes: boxes, textured: true, texture: mipTexture, requested: .trilinear, filter: .trilinear,
                    map: MipSelection.map(targetToTexel, level: mip.level), clamp: texture.clamp,
                    color: Self.trilinearColor(mip, alpha: opacityByte), rows: rows, shape: features)
                if instances.count > before { quadsDrawn += 1 }
                return true
            }
            let c = texture.clamp
            guard let tile = texture.tile(holding: c) else { return true }
            let requested: Filter = texture.filter == .nearest ? .nearest : .linear
            let filter: Filter = requested == .nearest || targetToTexel.integerTranslation != nil ? .nearest : .linear
            var tintAlpha: Float = -1
            if case .texture(let source) = quad.paint, let m = source.tintBytes { tintAlpha = Float(m.alpha) }
            parameters.write(into: &shapeTable, opacity: opacity, tintAlpha: tintAlpha)
            add(boxes: boxes, textured: true, texture: tile.texture, requested: requested, filter: filter,
                map: targetToTexel, clamp: c, color: Self.textureColor(alpha: opacityByte, of: quad.paint),
                tile: texture.single != nil ? Self.placement(tile) : tile, rows: rows, shape: features)
        }
        if instances.count > before { quadsDrawn += 1 }
        return true
    }
}

extension GLESBatchEncoder {
    /// The smallest box holding every one of `boxes` (not empty).
    static func bounds(of boxes: [PixelBox]) -> PixelBox {
        var result = boxes[0]
        for box in boxes.dropFirst() {
            result = PixelBox(x0: min(result.x0, box.x0), y0: min(result.y0, box.y0), x1: max(result.x1, box.x1),
                              y1: max(result.y1, box.y1))
        }
        return result
    }

    /// `boxes` less the pixels wholly inside a border's hole, when the shape is upright (an axis-aligned map): there
    /// the formula gives 0, and a card's border would otherwise cost the shader its whole inside. The hole's band
    /// across (its rectangle less the corners' reach above and below), half a pixel and 1/64 in from its edges, as
    /// `CoverageShape.Prepared` bands are.
    static func withoutHole(_ boxes: [PixelBox], _ shape: CoverageShape) -> [PixelBox] {
        let m = shape.toTarget
        guard let inner = shape.inner, m.isAffine, m.m12 == 0, m.m21 == 0, m.m11 > 0, m.m22 > 0 else { return boxes }
        let r = inner.extents, b = inner.rect
        let top = b.minY + max(r.topLeft, r.topRight), bottom = b.maxY - max(r.bottomLeft, r.bottomRight)
        let margin: CGFloat = 0.5 + 1.0 / 64
        let left = m.m11 * b.minX + m.m31 + margin, right = m.m11 * b.maxX + m.m31 - margin
        let upper = m.m22 * top + m.m32 + margin, lower = m.m22 * bottom + m.m32 - margin
        guard right - left > 8, lower - upper > 8, abs(left) < 1e7, abs(right) < 1e7, abs(upper) < 1e7,
            abs(lower) < 1e7
        else { return boxes }
        // Pixels whose centres lie in [left, right] x [upper, lower].
        let hole = PixelBox(x0: Int((left - 0.5).rounded(.up)), y0: Int((upper - 0.5).rounded(.up)),
                            x1: Int((right - 0.5).rounded(.down)) + 1, y1: Int((lower - 0.5).rounded(.down)) + 1)
        var result: [PixelBox] = []
        for box in boxes {
            let x0 = max(box.x0, hole.x0), x1 = min(box.x1, hole.x1)
            let y0 = max(box.y0, hole.y0), y1 = min(box.y1, hole.y1)
            guard x1 > x0, y1 > y0 else {
                result.append(box)
                continue
            }
            // Above, below, then left and right of the hole.
            if y0 > box.y0 { result.append(PixelBox(x0: box.x0, y0: box.y0, x1: box.x1, y1: y0)) }
            if box.y1 > y1 { result.append(PixelBox(x0: box.x0, y0: y1, x1: box.x1, y1: box.y1)) }
            if x0 > box.x0 { result.append(PixelBox(x0: box.x0, y0: y0, x1: x0, y1: y1)) }
            if box.x1 > x1 { result.append(PixelBox(x0: x1, y0: y0, x1: box.x1, y1: y1)) }
        }
        return result
    }
}
