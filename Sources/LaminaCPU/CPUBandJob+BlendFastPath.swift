import CPixman
import Foundation
import LaminaCore

// A blended group whose picture is one solid quad (a leaf layer: no mask, no tint, no other group over the same
// quad) is drawn without its offscreen buffer: the picture's pixels are known without drawing them (the quad's
// colour, or that colour times its edge coverage, as pixman would leave them in a cleared buffer), so each is
// combined with the pixel beneath where it lies, by the same loop and formula as the group's buffer would be
// (CPUBandJob+Blend.swift). Where the picture has no pixel the backdrop is untouched, as with the buffer. The
// result is the group path's, byte for byte (BlendFastPathTests). `LAMINA_NO_BLEND_FAST_PATH=1` turns it off.

extension CPUBandJob {
    /// False with `LAMINA_NO_BLEND_FAST_PATH=1`: every blended group gets its buffer (to compare, and to measure).
    static let blendFastPathEnabled = ProcessInfo.processInfo.environment["LAMINA_NO_BLEND_FAST_PATH"] != "1"

    /// How many groups hold exactly quad i, for the plan's one-quad groups (a quad in two such groups takes the group
    /// path: its inner group's buffer is the outer's picture).
    static func singleQuadGroups(_ groups: [PlanGroup]) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for group in groups where group.range.count == 1 { counts[group.range.lowerBound, default: 0] += 1 }
        return counts
    }

    /// True when `group` is drawn by the fast path: one solid quad, no mask or tint, an operation of Lamina's loop.
    func drawsWithoutBuffer(_ group: PlanGroup) -> Bool {
        guard Self.blendFastPathEnabled, group.range.count == 1, group.maskStart == nil, group.tint == nil,
              CPUBlend.draws(group.composite), singleQuadGroupCounts[group.range.lowerBound] == 1 else { return false }
        let item = prepared[group.range.lowerBound]
        return item.solid != nil && item.blit == nil && item.mip == nil
    }

    /// Combines quad `index`'s picture (the group `group`'s, in target rows `rows`) with `into`, whose pixel (0, 0) is
    /// target pixel `origin`, as drawing it into the group's buffer and compositing that would.
    func drawBlended(quad index: Int, group: PlanGroup, rows: Range<Int>, into: OpaquePointer,
                     origin: (x: Int, y: Int)) {
        let item = prepared[index]
        guard let solid = item.solid, let data = pixman_image_get_data(into) else { return }
        let stride = Int(pixman_image_get_stride(into)) / 4
        // The pixels of the group's buffer that reach `into`.
        let x0 = max(group.bounds.x0, origin.x), x1 = min(group.bounds.x1, origin.x + Int(pixman_image_get_width(into)))
        let y0 = max(rows.lowerBound, origin.y),
            y1 = min(rows.upperBound, origin.y + Int(pixman_image_get_height(into)))
        guard x1 > x0, y1 > y0 else { return }
        let q = solid.quantized
        let color = UInt32(q.alpha) << 24 | UInt32(q.red) << 16 | UInt32(q.green) << 8 | UInt32(q.blue)
        let opacity = PremultipliedColor.byte(group.opacity)
        // Where no coverage mask applies: the colour, through the opacity mask for an analytic quad (whose `solid` is
        // unscaled), as `composite` draws it.
        let scaledSolid = !item.quad.hasAnalyticCoverage
        let plain = !scaledSolid && item.opacityMask < 255
            ? CPUBlend.scaled(color, by: UInt32(item.opacityMask)) : color
        func fill(_ box: PixelBox) {
            let a = max(box.x0, x0), b = min(box.x1, x1)
            guard b > a else { return }
            for y in max(box.y0, y0)..<max(max(box.y0, y0), min(box.y1, y1)) {
                _ = CPUBlend.dispatch(group.composite, CPUBlend.SpanBody(
                    pixel: plain, coverage: nil, opacity: opacity,
                    to: data + (y - origin.y) * stride + (a - origin.x), count: b - a))
            }
        }
        switch item.coverage {
        case .none:
            return
        case .box(let box):
            fill(box)
        case .boxes(let boxes, _):
            boxes.forEach(fill)
        case .analytic(let edges):
            if edges.fullBounds != nil { edges.full.forEach(fill) }
            let bounds = edges.bounds
            edges.mask.withUnsafeBufferPointer { mask in
                guard let base = mask.baseAddress else { return }
                for piece in edges.pieces {
                    let a = max(bounds.x0 + piece.x0, x0), b = min(bounds.x0 + piece.x1, x1)
                    guard b > a else { continue }
                    let top = max(bounds.y0 + piece.y0, y0), bottom = min(bounds.y0 + piece.y1, y1)
                    guard bottom > top else { continue }
                    for y in top..<bottom {
                        _ = CPUBlend.dispatch(group.composite, CPUBlend.SpanBody(
                            pixel: color, coverage: base + (y - bounds.y0) * edges.stride + (a - bounds.x0),
                            opacity: opacity, to: data + (y - origin.y) * stride + (a - origin.x), count: b - a))
                    }
                }
            }
        }
    }
}
