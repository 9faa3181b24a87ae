import CPixman
import LaminaCore

// Whole-pixel texture copies (sprites, nine-slice corners, rounded sprites), drawn from their fast forms
// (`CPUFastQuad`) with the very pixman calls the general path makes for them (or Lamina's loops, which make
// pixman's bytes), so the pixels are the same.

extension CPUBandJob {
    /// Draws quad `index`'s part in `rows` into `destination`, whose pixel (0, 0) is target pixel `origin`: a copy
    /// from its fast form, anything else through the general path.
    func draw(
        quad index: Int, rows: Range<Int>, into destination: OpaquePointer, origin: (x: Int, y: Int),
        views: CPUTextureViews
    ) throws {
        let fast = prepared.fast(index)
        switch fast.kind {
        case .empty:
            return
        case .general:
            try draw(prepared[index], rows: rows, into: destination, origin: origin, views: views)
        case .blitBox:
            try blit(fast, fast.box, rows: rows, into: destination, origin: origin, views: views)
        case .scaledBox:
            try drawScaled(fast, rows: rows, into: destination, origin: origin, views: views)
        case .blitEdges:
            try fast.edges!._withUnsafeGuaranteedRef { edges in
                if let bounds = edges.fullBounds, bounds.y1 > rows.lowerBound, bounds.y0 < rows.upperBound {
                    for box in edges.full {
                        try blit(fast, box, rows: rows, into: destination, origin: origin, views: views)
                    }
                }
                guard !edges.pieces.isEmpty, edges.bounds.y1 > rows.lowerBound, edges.bounds.y0 < rows.upperBound
                else { return }
                try blitEdges(fast, edges, rows: rows, into: destination, origin: origin, views: views)
            }
        }
    }

    /// The band's view of the copy's slot.
    private func view(_ fast: CPUFastQuad, _ views: CPUTextureViews) throws -> OpaquePointer {
        guard let view = views.view(slot: Int(fast.slot), of: prepared) else {
            throw RenderError.failed("pixman could not wrap blit slot \(fast.slot)")
        }
        return view
    }

    /// Samples a scaled copy over the pixels of its box in `rows` (over, through the quad's opacity).
    private func drawScaled(
        _ fast: CPUFastQuad, rows: Range<Int>, into destination: OpaquePointer, origin: (x: Int, y: Int),
        views: CPUTextureViews
    ) throws {
        let box = fast.box
        let y0 = max(box.y0, rows.lowerBound), y1 = min(box.y1, rows.upperBound)
        guard y1 > y0 else { return }
        guard let source = views.scaledView(slot: Int(fast.slot), of: prepared) else {
            throw RenderError.failed("pixman could not wrap scaled slot \(fast.slot)")
        }
        // A scale along the axes (every nine-slice cell, a stretched image): the bilinear loop, pixman's bytes.
        if loops.bilinearOver(source, transform: fast.transform, x: box.x0, y: y0, opacity: fast.opacity,
                              onto: destination, dx: box.x0 - origin.x, dy: y0 - origin.y, width: box.x1 - box.x0,
                              height: y1 - y0) {
            return
        }
        var transform = fast.transform
        pixman_image_set_transform(source, &transform)
        let opacity = fast.opacity < 255 ? views.opacityMask(fast.opacity) : nil
        pixman_image_composite32(
            PIXMAN_OP_OVER, source, opacity, destination, Int32(box.x0), Int32(y0), 0, 0, Int32(box.x0 - origin.x),
            Int32(y0 - origin.y), Int32(box.x1 - box.x0), Int32(y1 - y0))
    }

    /// Copies the pixels of `box` in `rows` (over, through the quad's opacity).
    private func blit(
        _ fast: CPUFastQuad, _ box: PixelBox, rows: Range<Int>, into destination: OpaquePointer,
        origin: (x: Int, y: Int), views: CPUTextureViews
    ) throws {
        var x0 = box.x0, x1 = box.x1
        var y0 = max(box.y0, rows.lowerBound), y1 = min(box.y1, rows.upperBound)
        guard y1 > y0 else { return }
        if let texels = fast.texels {
            // Only the part of the box whose source texels are not all transparent.
            let (dx, dy) = (Int(fast.offset.x), Int(fast.offset.y))
            guard let t = texels._withUnsafeGuaranteedRef({
                $0.trimmed(x0: x0 + dx, y0: y0 + dy, x1: x1 + dx, y1: y1 + dy)
            }) else { return }
            (x0, y0, x1, y1) = (t.x0 - dx, t.y0 - dy, t.x1 - dx, t.y1 - dy)
        }
        let source = try view(fast, views)
        if loops.over(source, sx: x0 + Int(fast.offset.x), sy: y0 + Int(fast.offset.y), opacity: fast.opacity,
                      onto: destination, dx: x0 - origin.x, dy: y0 - origin.y, width: x1 - x0, height: y1 - y0) {
            return
        }
        let opacity = fast.opacity < 255 ? views.opacityMask(fast.opacity) : nil
        pixman_image_composite32(
            PIXMAN_OP_OVER, source, opacity, destination, Int32(x0) + fast.offset.x, Int32(y0) + fast.offset.y,
            0, 0, Int32(x0 - origin.x), Int32(y0 - origin.y), Int32(x1 - x0), Int32(y1 - y0))
    }

    /// Copies the edge pixels of an analytic copy in `rows` through its coverage mask (which carries the opacity),
    /// a piece at a time.
    private func blitEdges(
        _ fast: CPUFastQuad, _ edges: CPUEdgeCoverage, rows: Range<Int>, into destination: OpaquePointer,
        origin: (x: Int, y: Int), views: CPUTextureViews
    ) throws {
        let bounds = edges.bounds
        var source: OpaquePointer?
        var mask: OpaquePointer?
        defer { if let mask { pixman_image_unref(mask) } }
        for piece in edges.pieces {
            var y0 = max(bounds.y0 + piece.y0, rows.lowerBound), y1 = min(bounds.y0 + piece.y1, rows.upperBound)
            guard y1 > y0 else { continue }
            var x0 = bounds.x0 + piece.x0, x1 = bounds.x0 + piece.x1
            if let texels = fast.texels {
                // Only where the source has texels that are not transparent: the corners a rounded sprite cuts are
                // often clear already.
                let (dx, dy) = (Int(fast.offset.x), Int(fast.offset.y))
                guard let t = texels._withUnsafeGuaranteedRef({
                    $0.trimmed(x0: x0 + dx, y0: y0 + dy, x1: x1 + dx, y1: y1 + dy)
                }) else { continue }
                (x0, y0, x1, y1) = (t.x0 - dx, t.y0 - dy, t.x1 - dx, t.y1 - dy)
            }
            if mask == nil {
                source = try view(fast, views)
                // pixman wants a mutable pointer but only reads a mask; the coverage keeps the bytes for the frame.
                let start = edges.mask.withUnsafeBufferPointer { UnsafeMutableRawPointer(mutating: $0.baseAddress!) }
                mask = pixman_image_create_bits_no_clear(
                    PIXMAN_a8, Int32(bounds.x1 - bounds.x0), Int32(bounds.y1 - bounds.y0),
                    start.assumingMemoryBound(to: UInt32.self), Int32(edges.stride))
                guard mask != nil else { throw RenderError.failed("pixman could not make a coverage mask") }
            }
            pixman_image_composite32(
                PIXMAN_OP_OVER, source, mask, destination, Int32(x0) + fast.offset.x, Int32(y0) + fast.offset.y,
                Int32(x0 - bounds.x0), Int32(y0 - bounds.y0), Int32(x0 - origin.x), Int32(y0 - origin.y),
                Int32(x1 - x0), Int32(y1 - y0))
        }
    }
}
