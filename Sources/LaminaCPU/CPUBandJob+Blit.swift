import CPixman
import LaminaCore

// Whole-pixel texture copies (sprites, nine-slice corners, rounded sprites), drawn from their fast forms
// (`CPUFastQuad`) with the very pixman calls the general path makes for them, so the pixels are the same.

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

    /// Copies the pixels of `box` in `rows` (over, through the quad's opacity).
    private func blit(
        _ fast: CPUFastQuad, _ box: PixelBox, rows: Range<Int>, into destination: OpaquePointer,
        origin: (x: Int, y: Int), views: CPUTextureViews
    ) throws {
        let y0 = max(box.y0, rows.lowerBound), y1 = min(box.y1, rows.upperBound)
        guard y1 > y0 else { return }
        let source = try view(fast, views)
        let opacity = fast.opacity < 255 ? views.opacityMask(fast.opacity) : nil
        pixman_image_composite32(
            PIXMAN_OP_OVER, source, opacity, destination, Int32(box.x0) + fast.offset.x, Int32(y0) + fast.offset.y,
            0, 0, Int32(box.x0 - origin.x), Int32(y0 - origin.y), Int32(box.x1 - box.x0), Int32(y1 - y0))
    }

    /// Copies the edge pixels of an analytic copy in `rows` through its coverage mask (which carries the opacity),
    /// a piece at a time.
    private func blitEdges(
        _ fast: CPUFastQuad, _ edges: CPUEdgeCoverage, rows: Range<Int>, into destination: OpaquePointer,
        origin: (x: Int, y: Int), views: CPUTextureViews
    ) throws {
        let bounds = edges.bounds
        let source = try view(fast, views)
        try edges.mask.withUnsafeBufferPointer { buffer in
            // pixman wants a mutable pointer but only reads a mask.
            let start = UnsafeMutableRawPointer(mutating: buffer.baseAddress!)
            guard let mask = pixman_image_create_bits_no_clear(
                PIXMAN_a8, Int32(bounds.x1 - bounds.x0), Int32(bounds.y1 - bounds.y0),
                start.assumingMemoryBound(to: UInt32.self), Int32(edges.stride))
            else { throw RenderError.failed("pixman could not make a coverage mask") }
            defer { pixman_image_unref(mask) }
            for piece in edges.pieces {
                let y0 = max(bounds.y0 + piece.y0, rows.lowerBound), y1 = min(bounds.y0 + piece.y1, rows.upperBound)
                guard y1 > y0 else { continue }
                let x0 = bounds.x0 + piece.x0, x1 = bounds.x0 + piece.x1
                pixman_image_composite32(
                    PIXMAN_OP_OVER, source, mask, destination, Int32(x0) + fast.offset.x, Int32(y0) + fast.offset.y,
                    Int32(piece.x0), Int32(y0 - bounds.y0), Int32(x0 - origin.x), Int32(y0 - origin.y),
                    Int32(x1 - x0), Int32(y1 - y0))
            }
        }
    }
}
