import Foundation

/// The target pixels a quad covers under the pixel-centre rule (docs/semantics.md, "Pixels").
public enum PixelCoverage: Equatable, Sendable {
    /// Nothing.
    case none
    /// Every pixel of x0 ..< x1, y0 ..< y1.
    case rect(x0: Int, y0: Int, x1: Int, y1: Int)
    /// One run per row, increasing y.
    case spans([PixelSpan])
}

/// A rectangle of whole pixels x0 ..< x1, y0 ..< y1.
public struct PixelBox: Hashable, Sendable {
    public var x0: Int, y0: Int, x1: Int, y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
    }
}

extension PixelCoverage {
    /// The covered pixels as boxes: one for a rectangle, else one per run of rows with the same extent, top to
    /// bottom. What both renderers draw (pixman clip boxes, GL instance rectangles).
    public var boxes: [PixelBox] {
        switch self {
        case .none:
            return []
        case .rect(let x0, let y0, let x1, let y1):
            return [PixelBox(x0: x0, y0: y0, x1: x1, y1: y1)]
        case .spans(let spans):
            var boxes: [PixelBox] = []
            for span in spans {
                if let last = boxes.last, last.x0 == span.x0, last.x1 == span.x1, last.y1 == span.y {
                    boxes[boxes.count - 1].y1 += 1
                } else {
                    boxes.append(PixelBox(x0: span.x0, y0: span.y, x1: span.x1, y1: span.y + 1))
                }
            }
            return boxes
        }
    }
}

extension Quad {
    /// The pixels this quad covers in a target of `width` x `height`. Axis-aligned quads with no clip or an
    /// axis-aligned clip (the common case: no rotation) take a path without allocation; everything else goes
    /// through `coverage(width:height:)` and `ConvexPolygon.spans()`. Both give the same pixels.
    public func pixelCoverage(width: Int, height: Int) -> PixelCoverage {
        Self.pixelCoverage(unitToTarget, clip: clip, width: width, height: height)
    }

    /// `pixelCoverage` of the quad at `quad`, read where it lies: an unclipped quad (a sprite, turned or not) reads
    /// its map alone; a clipped one its clip too, rather than a copy of the whole quad (a retain and a release for
    /// each of its references).
    public static func pixelCoverage(at quad: UnsafePointer<Quad>, width: Int, height: Int) -> PixelCoverage {
        if quad.pointee.clip == nil {
            return pixelCoverage(quad.pointee.unitToTarget, clip: nil, width: width, height: height)
        }
        return pixelCoverage(quad.pointee.unitToTarget, clip: quad.pointee.clip, width: width, height: height)
    }

    /// The pixels a quad with map `m` and `clip` covers.
    private static func pixelCoverage(_ m: Matrix3, clip: ConvexPolygon?, width: Int, height: Int) -> PixelCoverage {
        if let rect = rectangleCoverage(m, clip: clip, width: width, height: height) { return rect }
        if clip == nil, let turned = cornerCoverage(m, width: width, height: height) { return turned }
        guard let polygon = coverage(m, clip: clip, width: width, height: height) else { return .none }
        return PixelCoverage(polygon)
    }

    /// The pixels of an unclipped quad with map `m` worked out from its four corners on the stack, where the polygon
    /// path would not cut it: every corner in front of the eye, finite and inside the guard band, and once snapped
    /// inside the target and not an axis-aligned rectangle. Those are the polygon's vertices (snapped and ordered as
    /// `ConvexPolygon(vertices:)` does), so the spans are the same; without the polygon's arrays, which a turned sprite
    /// made every frame. Corners wholly beyond a side of the target cover nothing. nil for any other quad.
    private static func cornerCoverage(_ m: Matrix3, width: Int, height: Int) -> PixelCoverage? {
        let epsilon = ConvexPolygon.frontW
        let a = m.apply(CGPoint(x: 0, y: 0)), b = m.apply(CGPoint(x: 1, y: 0))
        let c = m.apply(CGPoint(x: 1, y: 1)), d = m.apply(CGPoint(x: 0, y: 1))
        guard width > 0, height > 0, a.w > epsilon, b.w > epsilon, c.w > epsilon, d.w > epsilon else { return nil }
        return withUnsafeTemporaryAllocation(of: CGPoint.self, capacity: 4) { corners -> PixelCoverage? in
            corners[0] = a.projected
            corners[1] = b.projected
            corners[2] = c.projected
            corners[3] = d.projected
            let band = CGFloat.guardBand, snap = ConvexPolygon.snap
            for index in 0..<4 {
                let p = corners[index]
                // Not finite, or beyond the band: the polygon path cuts (or drops) it.
                guard p.x.magnitude <= band, p.y.magnitude <= band else { return nil }
                corners[index] = CGPoint(x: (p.x / snap).rounded() * snap, y: (p.y / snap).rounded() * snap)
            }
            let points = UnsafeBufferPointer(corners)
            if ConvexPolygon.signedArea(points) < 0 { corners.swapAt(0, 3); corners.swapAt(1, 2) }
            let box = ConvexPolygon.bounds(points)
            let (w, h) = (CGFloat(width), CGFloat(height))
            // The cut by the target would leave no area.
            if box.maxX <= 0 || box.maxY <= 0 || box.minX >= w || box.minY >= h { return PixelCoverage.none }
            guard box.minX >= 0, box.minY >= 0, box.maxX <= w, box.maxY <= h,
                ConvexPolygon.axisAlignedRect(points) == nil
            else { return nil }
            let spans = ConvexPolygon.spans(points)
            return spans.isEmpty ? PixelCoverage.none : .spans(spans)
        }
    }

    /// The pixels of an axis-aligned quad with map `m` under no clip or an axis-aligned `clip`, without allocating;
    /// nil for any other quad.
    private static func rectangleCoverage(
        _ m: Matrix3, clip: ConvexPolygon?, width: Int, height: Int
    ) -> PixelCoverage? {
        if m.isAffine, m.m12 == 0, m.m21 == 0 {
            let snap = ConvexPolygon.snap
            // Clamping an axis-aligned rectangle's sides to the guard band is exact on screen.
            func snapped(_ v: CGFloat) -> CGFloat {
                (min(max(v, -CGFloat.guardBand), CGFloat.guardBand) / snap).rounded() * snap
            }
            let xa = snapped(m.m31), xb = snapped(m.m31 + m.m11)
            let ya = snapped(m.m32), yb = snapped(m.m32 + m.m22)
            var rect = CGRect(x: min(xa, xb), y: min(ya, yb), width: abs(xb - xa), height: abs(yb - ya))
            var simple = true
            if let clip {
                if let clipRect = clip.axisAlignedRect { rect = rect.intersection(clipRect) } else { simple = false }
            }
            if simple {
                guard !rect.isNull else { return .none }
                var (x0, x1) = ConvexPolygon.centreRange(rect.minX, rect.maxX)
                var (y0, y1) = ConvexPolygon.centreRange(rect.minY, rect.maxY)
                x0 = max(x0, 0); y0 = max(y0, 0)
                x1 = min(x1, width); y1 = min(y1, height)
                return x1 > x0 && y1 > y0 ? .rect(x0: x0, y0: y0, x1: x1, y1: y1) : .none
            }
        }
        return nil
    }
}

extension PixelCoverage {
    /// The pixels whose centres lie in `polygon` (top-left rule).
    public init(_ polygon: ConvexPolygon) {
        if let rect = polygon.axisAlignedRect {
            let (x0, x1) = ConvexPolygon.centreRange(rect.minX, rect.maxX)
            let (y0, y1) = ConvexPolygon.centreRange(rect.minY, rect.maxY)
            self = x1 > x0 && y1 > y0 ? .rect(x0: x0, y0: y0, x1: x1, y1: y1) : .none
            return
        }
        let spans = polygon.spans()
        self = spans.isEmpty ? .none : .spans(spans)
    }
}

extension Quad {
    /// The map from target pixel coordinates to texel coordinates of `texture` (the inverse of the quad's
    /// placement followed by its texture mapping): a pixel centre maps to its sample point, with a w row that
    /// rounding alone moved off (0, 0, 1) made affine again. Nil when the quad is degenerate.
    public func targetToTexel(_ texture: TextureSource) -> Matrix3? {
        unitToTarget.inverted?.concatenating(texture.unitToTexel).snappedToAffine
    }
}

extension Matrix3 {
    /// (dx, dy) when this is a translation by whole pixels (within 1e-6), else nil: such a texture mapping
    /// copies texels 1:1, and renderers skip filtering for it.
    public var integerTranslation: (x: Int, y: Int)? {
        let tolerance: CGFloat = 1e-6
        guard isAffine, abs(m11 - 1) < tolerance, abs(m22 - 1) < tolerance, abs(m12) < tolerance,
            abs(m21) < tolerance
        else { return nil }
        let tx = m31.rounded(), ty = m32.rounded()
        guard abs(m31 - tx) < tolerance, abs(m32 - ty) < tolerance, abs(tx) < 1e9, abs(ty) < 1e9 else { return nil }
        return (Int(tx), Int(ty))
    }
}

extension PremultipliedColor {
    /// The colour in 8-bit steps (each channel rounded to n / 255): what every renderer composites, so
    /// solid colours come out identical.
    public var quantized: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        (Self.byte(red), Self.byte(green), Self.byte(blue), Self.byte(alpha))
    }

    /// A 0...1 value in 8-bit steps, as renderers quantise opacity masks.
    @inlinable
    public static func byte(_ value: Float) -> UInt8 {
        UInt8(saturatingRounded: value * 255)
    }
}
