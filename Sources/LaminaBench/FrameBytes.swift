import Foundation
import LaminaCore

/// The bytes a frame of a plan must at least move: what the memcpy floor of `lamina bench` copies
/// (docs/benchmarks.md, "Baselines").
///
/// Counted per quad, as a perfect compositor that draws every quad once would move them (quads drawn over one
/// another each write their pixels again, as blending translucent layers must):
/// - written: the target pixels the quad covers (the area of its visible polygon, after its clip and the target's
///   edges), x 4 bytes;
/// - read: the texels it samples, x 4 bytes: its covered pixels times the texels per pixel of its source mapping,
///   but at most one texel per covered pixel (a minified image is read from a prefiltered level, as a mipmapped
///   GPU or a compositor that caches a scaled copy reads it) and at most its clamp rectangle. Solid quads read
///   nothing.
///
/// Rounded corners (a quad's `shape`) count as covered: the compositor still visits their antialiased pixels.
/// Reading the destination to blend with is not counted: it is the same memory as the writes, in cache.
public struct FrameBytes: Equatable, Sendable {
    public var read: Int
    public var written: Int

    public init(read: Int, written: Int) {
        (self.read, self.written) = (read, written)
    }

    /// The bytes of one frame of `plan`.
    public init(plan: RenderPlan) {
        var pixels = 0.0, texels = 0.0
        let unit = [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1), CGPoint(x: 0, y: 1)]
        for quad in plan.quads {
            guard let visible = quad.coverage(width: plan.width, height: plan.height) else { continue }
            let covered = Self.area(visible.vertices)
            pixels += covered
            guard case .texture(let texture) = quad.paint else { continue }
            let whole = Self.area(quad.corners.map(\.projected))
            guard whole > 1e-9 else { continue }
            let source = Self.area(unit.map { texture.unitToTexel.apply($0).projected })
            let clamp = Double(texture.clamp.width * texture.clamp.height)
            texels += min(covered * min(source / whole, 1), clamp)
        }
        self.init(read: Int(texels.rounded()) * 4, written: Int(pixels.rounded()) * 4)
    }

    /// Shoelace area of a polygon (either winding).
    static func area(_ points: [CGPoint]) -> Double {
        var sum: CGFloat = 0
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            sum += a.x * b.y - b.x * a.y
        }
        return abs(Double(sum)) / 2
    }
}
