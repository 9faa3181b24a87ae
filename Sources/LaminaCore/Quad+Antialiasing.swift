import Foundation

/// A pixel partly covered by an antialiased edge: its coverage in 1/255 steps.
public struct PartialPixel: Hashable, Sendable {
    public var x: Int32
    public var y: Int32
    /// The fraction of the pixel's area inside the quad, rounded to n / 255 (1...254).
    public var coverage: UInt8

    public init(x: Int32, y: Int32, coverage: UInt8) {
        self.x = x
        self.y = y
        self.coverage = coverage
    }

    /// The mask value both renderers use for a pixel of `coverage` in a quad of `opacity`.
    @inlinable
    public static func alpha(_ coverage: UInt8, opacity: Float) -> UInt8 {
        PremultipliedColor.byte(Float(coverage) / 255 * opacity)
    }
}

/// The pixels of a quad with antialiased edges: boxes it covers fully, and pixels its edges cross, each with the
/// exact area of the pixel inside (docs/semantics.md, "Edges": analytic coverage). Both renderers draw
/// exactly these, so their edges agree.
public struct AntialiasedCoverage: Equatable, Sendable {
    public var full: [PixelBox] = []
    public var partial: [PartialPixel] = []

    public init(full: [PixelBox] = [], partial: [PartialPixel] = []) {
        self.full = full
        self.partial = partial
    }

    public var isEmpty: Bool { full.isEmpty && partial.isEmpty }
}

/// a x + b y + c >= 0.
struct HalfPlane {
    var a: CGFloat, b: CGFloat, c: CGFloat

    func value(_ x: CGFloat, _ y: CGFloat) -> CGFloat { a * x + b * y + c }
}

extension Quad {
    /// The coverage of a quad with `antialiasedEdges`: the antialiased edges contribute the exact area of each
    /// pixel inside them; the other edges, the clip, the target and the eye plane keep the pixel-centre rule.
    public func antialiasedCoverage(width: Int, height: Int) -> AntialiasedCoverage {
        var result = AntialiasedCoverage()
        guard let toUnit = unitToTarget.inverted else { return result }
        // In target space, with p = (x, y, 1): (u', v', w') = p x toUnit, and inside the quad means w' > 0 and
        // 0 <= u'/w' <= 1, 0 <= v'/w' <= 1: linear half-planes.
        let m = toUnit
        let u = HalfPlane(a: m.m11, b: m.m21, c: m.m31), v = HalfPlane(a: m.m12, b: m.m22, c: m.m32)
        let w = HalfPlane(a: m.m13, b: m.m23, c: m.m33)
        let sides: [(QuadEdges, HalfPlane)] = [
            (.top, v), (.right, HalfPlane(a: w.a - u.a, b: w.b - u.b, c: w.c - u.c)),
            (.bottom, HalfPlane(a: w.a - v.a, b: w.b - v.b, c: w.c - v.c)), (.left, u),
        ]
        let smooth = sides.filter { antialiasedEdges.contains($0.0) }.map(\.1)
        // The region the sharp constraints allow, as a polygon (whose spans decide pixels by their centres).
        let target = CGRect(x: 0, y: 0, width: width, height: height)
        var sharp = ConvexPolygon(rect: target)
        for (edge, plane) in sides where !antialiasedEdges.contains(edge) {
            sharp = sharp.clipped(a: plane.a, b: plane.b, c: plane.c)
        }
        // In front of the eye (w' > 0; a tiny margin keeps the projection finite).
        sharp = sharp.clipped(a: w.a, b: w.b, c: w.c - 1e-6)
        if let clip { sharp = sharp.intersection(clip) }
        // Only where the smooth edges leave something: within the bounding box of the whole quad, one pixel wider.
        guard let outline = coverage(width: width, height: height) else { return result }
        let box = outline.bounds.insetBy(dx: -1, dy: -1)
        sharp = sharp.intersection(ConvexPolygon(rect: box))
        guard !sharp.isEmpty else { return result }

        for span in sharp.spans() {
            let y0 = CGFloat(span.y), y1 = y0 + 1
            // Per smooth edge: the pixels of this row it contains whole (lower...upper), and those it touches.
            var fullLo = CGFloat(span.x0), fullHi = CGFloat(span.x1)
            var touchLo = CGFloat(span.x0), touchHi = CGFloat(span.x1)
            for plane in smooth {
                if plane.a == 0 {
                    let low = min(plane.value(0, y0), plane.value(0, y1)), high = max(plane.value(0, y0), plane.value(0, y1))
                    if high <= 0 { touchHi = touchLo }
                    if low < 0 { fullHi = fullLo }
                    continue
                }
                // x where the edge's line crosses the row's top and bottom.
                let xa = -(plane.b * y0 + plane.c) / plane.a, xb = -(plane.b * y1 + plane.c) / plane.a
                if plane.a > 0 {  // inside is to the right
                    fullLo = max(fullLo, ceil(max(xa, xb)))
                    touchLo = max(touchLo, floor(min(xa, xb)))
                } else {  // inside is to the left
                    fullHi = min(fullHi, floor(min(xa, xb)))
                    touchHi = min(touchHi, ceil(max(xa, xb)))
                }
            }
            guard touchHi > touchLo else { continue }
            let (t0, t1) = (Int(touchLo), Int(touchHi))
            let (f0, f1) = fullHi > fullLo ? (Int(fullLo), Int(fullHi)) : (t1, t1)
            if f1 > f0 {
                if let last = result.full.last, last.x0 == f0, last.x1 == f1, last.y1 == span.y {
                    result.full[result.full.count - 1].y1 += 1
                } else {
                    result.full.append(PixelBox(x0: f0, y0: span.y, x1: f1, y1: span.y + 1))
                }
            }
            for x in t0..<t1 where x < f0 || x >= f1 {
                let area = Self.area(ofPixel: x, span.y, inside: smooth)
                let coverage = UInt8(saturatingRounded: area * 255)
                if coverage == 255 {
                    result.partial.append(PartialPixel(x: Int32(x), y: Int32(span.y), coverage: 255))
                } else if coverage > 0 {
                    result.partial.append(PartialPixel(x: Int32(x), y: Int32(span.y), coverage: coverage))
                }
            }
        }
        return result
    }

    /// The area of the unit pixel at (x, y) inside every half-plane.
    static func area(ofPixel x: Int, _ y: Int, inside planes: [HalfPlane]) -> CGFloat {
        let (x0, y0) = (CGFloat(x), CGFloat(y))
        var polygon = [CGPoint(x: x0, y: y0), CGPoint(x: x0 + 1, y: y0), CGPoint(x: x0 + 1, y: y0 + 1),
                       CGPoint(x: x0, y: y0 + 1)]
        for plane in planes {
            var output: [CGPoint] = []
            for j in polygon.indices {
                let p = polygon[j], q = polygon[(j + 1) % polygon.count]
                let sp = plane.value(p.x, p.y), sq = plane.value(q.x, q.y)
                if sp >= 0 { output.append(p) }
                if (sp >= 0) != (sq >= 0) {
                    let t = sp / (sp - sq)
                    output.append(CGPoint(x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y)))
                }
            }
            polygon = output
            if polygon.count < 3 { return 0 }
        }
        var sum: CGFloat = 0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            sum += a.x * b.y - b.x * a.y
        }
        return abs(sum) / 2
    }
}

extension PremultipliedColor {
    /// The 8-bit colour times an 8-bit mask value, rounded as pixman's MUL_UN8 rounds (exactly a x b / 255):
    /// what a solid colour through a coverage mask composites as.
    public func quantized(times mask: UInt8) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        func mul(_ c: UInt8) -> UInt8 {
            let t = UInt32(c) * UInt32(mask) + 0x80
            return UInt8((t + (t >> 8)) >> 8)
        }
        let q = quantized
        return (mul(q.red), mul(q.green), mul(q.blue), mul(q.alpha))
    }
}

extension AntialiasedCoverage {
    /// Boxes holding every partial pixel, close around them: strips of `strip` rows, split where a strip's partial
    /// pixels are more than `gap` apart (the two sides of an outline), in target pixels, top to bottom. Renderers
    /// draw an outline's edge pixels a piece at a time rather than over its whole bounding box.
    public func pieces(strip: Int = 8, gap: Int = 16) -> [PixelBox] {
        guard let first = partial.first else { return [] }
        var y0 = Int(first.y), y1 = Int(first.y) + 1
        for pixel in partial {
            y0 = min(y0, Int(pixel.y)); y1 = max(y1, Int(pixel.y) + 1)
        }
        var columns: [[Int]] = Array(repeating: [], count: (y1 - y0 + strip - 1) / strip)
        for pixel in partial { columns[(Int(pixel.y) - y0) / strip].append(Int(pixel.x)) }
        var pieces: [PixelBox] = []
        for (index, xs) in columns.enumerated() where !xs.isEmpty {
            let sorted = xs.sorted()
            let top = y0 + index * strip, bottom = min(top + strip, y1)
            var start = sorted[0], last = sorted[0]
            for x in sorted.dropFirst() {
                if x - last > gap {
                    pieces.append(PixelBox(x0: start, y0: top, x1: last + 1, y1: bottom))
                    start = x
                }
                last = x
            }
            pieces.append(PixelBox(x0: start, y0: top, x1: last + 1, y1: bottom))
        }
        return pieces
    }
}
