import Foundation
import LaminaCore

extension GradientStyle {
    /// What a gradient layer with these properties and `bounds` paints at `density` pixels per point, as Core
    /// Animation's CAGradientLayer does; nil when it paints nothing: no colours, or empty or not finite bounds.
    /// Throws `ImageError.tooLarge` when the bounds at this density would make an image beyond `limits`.
    ///
    /// Every pixel is evaluated at its centre, mapped back into layer space; the picture covers the bounds on the
    /// density's pixel grid, and a pixel the bounds cover only in part (the last column or row when
    /// bounds x density is fractional) holds only the covered fraction. Rounded corners are the caller's clip.
    ///
    /// - axial: t = ((q - S) . (E - S)) / |E - S|^2;
    /// - radial: t = sqrt(((q.x - S.x) / rx)^2 + ((q.y - S.y) / ry)^2) with rx = |E.x - S.x|, ry = |E.y - S.y|;
    /// - conic: the angle of q - S from the direction of E - S, clockwise on screen, over a full turn (0 <= t < 1).
    ///
    /// A degenerate gradient (S = E, a zero radius on either axis, or S or E not finite) paints the last colour.
    /// Locations are used only when there are as many as colours: Core Animation's documentation asks for equal
    /// counts, and Lamina then spreads the colours evenly, as with nil locations, rather than painting nothing.
    /// Locations are clamped to 0...1 and made non-decreasing (each at least the one before), so stops given out
    /// of order meet in hard edges instead of reversing; a location that is not a number counts as 0.
    /// `visible`: only this part of the layer's space is made (what can be seen of a layer far larger than the
    /// output); nil: all of the bounds.
    public func picture(bounds: CGRect, density: CGFloat, visible: CGRect? = nil, limits: PixelLimits = .default)
        throws -> VectorPicture?
    {
        guard !colors.isEmpty else { return nil }
        let area = bounds.standardized
        guard density > 0, density.isFinite, !area.isNull, area.width > 0, area.height > 0,
              area.minX.isFinite, area.minY.isFinite, area.maxX.isFinite, area.maxY.isFinite else { return nil }
        guard let covered = VectorPicture.area(area, within: visible) else { return nil }
        guard let grid = VectorPicture.grid(covering: covered, density: density, limits: limits) else {
            let w = Double(covered.width * density).rounded(.up), h = Double(covered.height * density).rounded(.up)
            let (iw, ih) = (w < 1e15 ? Int(w) : Int.max, h < 1e15 ? Int(h) : Int.max)
            throw ImageError.tooLarge(width: iw, height: ih, reason: limits.violation(width: iw, height: ih)
                ?? "\(iw)x\(ih) pixels exceeds the limit of \(limits.maxDimension) pixels per side")
        }
        let image = try Image(width: grid.width, height: grid.height, limits: limits)
        let ramp = GradientRamp(colors: colors, locations: locations,
                                size: GradientRamp.size(forPixels: max(grid.width, grid.height)))
        let field = GradientField(style: self, bounds: area, grid: grid.rect, density: Double(density))
        ramp.words.withUnsafeBufferPointer { table in
            let job = GradientJob(field: field, table: table.baseAddress!, tableSize: ramp.size,
                                  pixels: image.baseAddress.assumingMemoryBound(to: UInt32.self),
                                  width: grid.width, height: grid.height)
            job.run()
        }
        applyEdgeCoverage(image: image, bounds: area, grid: grid.rect, density: Double(density))
        image.markModified()
        return VectorPicture(image: image, rect: grid.rect, density: density)
    }

    /// Scales the pixels of the first and last columns and rows by the part of them the bounds cover.
    private func applyEdgeCoverage(image: Image, bounds: CGRect, grid: CGRect, density: Double) {
        let (w, h) = (image.width, image.height)
        func coverage(_ index: Int, origin: Double, low: Double, high: Double) -> Double {
            let p0 = origin + Double(index) / density, p1 = origin + Double(index + 1) / density
            return max(0, min(p1, high) - max(p0, low)) * density
        }
        let ox = Double(grid.minX), oy = Double(grid.minY)
        let (bx0, bx1, by0, by1) = (Double(bounds.minX), Double(bounds.maxX), Double(bounds.minY), Double(bounds.maxY))
        var columns: [(Int, Double)] = [], rows: [(Int, Double)] = []
        for i in Set([0, w - 1]) {
            let c = coverage(i, origin: ox, low: bx0, high: bx1)
            if c < 0.999 { columns.append((i, c)) }
        }
        for j in Set([0, h - 1]) {
            let c = coverage(j, origin: oy, low: by0, high: by1)
            if c < 0.999 { rows.append((j, c)) }
        }
        guard !columns.isEmpty || !rows.isEmpty else { return }
        let pixels = image.baseAddress.assumingMemoryBound(to: UInt32.self)
        func scale(_ x: Int, _ y: Int, _ c: Double) {
            let word = pixels[y * w + x]
            var out: UInt32 = 0
            for shift in stride(from: 0, through: 24, by: 8) {
                let channel = Double((word >> UInt32(shift)) & 0xFF)
                out |= UInt32((channel * c).rounded()) << UInt32(shift)
            }
            pixels[y * w + x] = out
        }
        for (i, c) in columns { for y in 0..<h { scale(i, y, c) } }
        for (j, c) in rows { for x in 0..<w { scale(x, j, c) } }
    }
}

/// The colour at every t of a gradient, premultiplied BGRA words: `words[0]` is the first colour (t below 0),
/// `words[k + 1]` the colour at t = k / size for k in 0...size, `words[size + 2]` the last colour (t above 1).
/// Each entry is computed exactly from the stops, so the only approximation is rounding t to the nearest
/// 1 / size, at most half a level per 255 levels of change across the whole gradient at the sizes used.
struct GradientRamp {
    let size: Int
    let words: [UInt32]

    /// More entries for larger pictures, so a step of the table stays below about half a pixel.
    static func size(forPixels pixels: Int) -> Int {
        var size = 1024
        while size < 2 * pixels && size < 4096 { size *= 2 }
        return size
    }

    init(colors: [Color], locations: [Double]?, size: Int) {
        self.size = size
        let count = colors.count
        var stops: [Double]
        if let locations, locations.count == count {
            stops = []
            var previous = 0.0
            for (k, raw) in locations.enumerated() {
                let clamped = raw.isNaN ? 0 : min(max(raw, 0), 1)
                let location = k == 0 ? clamped : max(clamped, previous)
                stops.append(location)
                previous = location
            }
        } else {
            stops = count == 1 ? [0] : (0..<count).map { Double($0) / Double(count - 1) }
        }
        // Straight components, clamped (Color's stored properties can be set past 0...1).
        let straight = colors.map { c -> SIMD4<Double> in
            SIMD4(c.red, c.green, c.blue, c.alpha).clamped(lowerBound: .zero, upperBound: .one)
        }
        func word(_ c: SIMD4<Double>) -> UInt32 {
            let a = c.w
            func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
            return byte(a) << 24 | byte(c.x * a) << 16 | byte(c.y * a) << 8 | byte(c.z * a)
        }
        var words = [UInt32](repeating: 0, count: size + 3)
        words[0] = word(straight[0])
        words[size + 2] = word(straight[count - 1])
        // The segment holding t: the last stop at or before t, walked forward as t grows.
        var segment = 0
        for k in 0...size {
            let t = Double(k) / Double(size)
            let colour: SIMD4<Double>
            if t < stops[0] {
                colour = straight[0]
            } else if t >= stops[count - 1] {
                colour = straight[count - 1]
            } else {
                while segment + 1 < count - 1 && stops[segment + 1] <= t { segment += 1 }
                let (l0, l1) = (stops[segment], stops[segment + 1])
                let f = l1 > l0 ? (t - l0) / (l1 - l0) : 1
                colour = straight[segment] + (straight[segment + 1] - straight[segment]) * f
            }
            words[k + 1] = word(colour)
        }
        self.words = words
    }
}
