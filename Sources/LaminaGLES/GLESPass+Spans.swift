import Foundation
import LaminaCore

// Coverage drawn by the fragment shader. A rotated (or obliquely clipped) quad covers a different run of pixels on
// every row; drawn as one instance per row, a 64-pixel sprite turned 30 degrees is about 90 instances of two
// one-pixel-high triangles each, and a GPU (and llvmpipe even more) spends its time setting up triangles that
// cover nothing. Instead the quad is one instance over its bounding box, and its rows' runs go into a span table
// (an RG32I texture, 4096 rows a line) that the fragment shader reads to discard the pixels outside the run. The
// runs are the very ones `Quad.pixelCoverage` gives the CPU renderer, so the pixels drawn are the same.

extension GLESBatchEncoder {
    /// Quads with fewer rows than this keep an instance per run: the table and the discard cost more than a few
    /// triangles.
    static let spanTableMinimumRows = 4

    /// Adds the rows of `spans` (increasing y, one run per row, rows may be missing) to the span table; returns the
    /// bounding box to draw and the first row's index in the table, or nil when the quad is better drawn as boxes.
    mutating func addSpanRows(_ spans: [PixelSpan]) -> (PixelBox, Int)? {
        guard spans.count >= Self.spanTableMinimumRows, let first = spans.first, let last = spans.last else {
            return nil
        }
        var x0 = Int.max, x1 = Int.min
        var sameRun = true
        for span in spans {
            x0 = min(x0, span.x0)
            x1 = max(x1, span.x1)
            if span.x0 != first.x0 || span.x1 != first.x1 { sameRun = false }
        }
        // Equal runs on every row (an axis-aligned clip of an axis-aligned quad): one box already.
        if sameRun, last.y - first.y + 1 == spans.count { return nil }
        let start = spanRows.count / 2
        var y = first.y
        spanRows.reserveCapacity(spanRows.count + 2 * (last.y - first.y + 1))
        for span in spans {
            while y < span.y {
                // A row with no run: nothing drawn there.
                spanRows.append(0)
                spanRows.append(0)
                y += 1
            }
            spanRows.append(Int32(span.x0))
            spanRows.append(Int32(span.x1))
            y += 1
        }
        return (PixelBox(x0: x0, y0: first.y, x1: x1, y1: last.y + 1), start)
    }
}
