import Foundation
import LaminaCore

/// The pixel work of vector drawings' groups and masks (docs/semantics.md, "Vector drawings"), on premultiplied
/// BGRA canvases: colour filters, Gaussian blur (three box blurs), drop shadows, alpha modes, masks and opacity.
enum VectorEffects {
    /// Rec. 709 luma weights.
    static let luma = (r: 0.2126, g: 0.7152, b: 0.0722)

    /// Alpha becomes the luminance of the premultiplied colour; the colour becomes white (premultiplied).
    static func luminanceToAlpha(_ canvas: VectorCanvas) {
        let p = canvas.pixels
        for i in 0..<canvas.count {
            let o = i * 4
            let l = luma.r * Double(p[o + 2]) + luma.g * Double(p[o + 1]) + luma.b * Double(p[o])
            let v = UInt8(min(max(l.rounded(), 0), 255))
            p[o] = v; p[o + 1] = v; p[o + 2] = v; p[o + 3] = v
        }
        canvas.touched()
    }

    /// Alpha becomes cover's alpha x (1 - alpha), white.
    static func invert(_ canvas: VectorCanvas, within cover: VectorCanvas) {
        let p = canvas.pixels, q = cover.pixels
        for i in 0..<canvas.count {
            let o = i * 4
            let v = UInt8((Int(q[o + 3]) * (255 - Int(p[o + 3])) + 127) / 255)
            p[o] = v; p[o + 1] = v; p[o + 2] = v; p[o + 3] = v
        }
        canvas.touched()
    }

    /// Every channel multiplied by `opacity`.
    static func fade(_ canvas: VectorCanvas, by opacity: Double) {
        let p = canvas.pixels
        let f = Int((opacity * 65536).rounded())
        for i in 0..<(canvas.count * 4) { p[i] = UInt8((Int(p[i]) * f + 32768) >> 16) }
        canvas.touched()
    }

    /// Replaces the colours by the filter's, keeping alpha, mixed with the originals by its amount.
    static func apply(_ filter: VectorDrawing.ColorFilter, to canvas: VectorCanvas) {
        let amount: Double
        switch filter {
        case .fill(_, let a), .tint(_, _, let a), .tritone(_, _, _, let a): amount = a.isFinite ? min(max(a, 0), 1) : 0
        }
        guard amount > 0 else { return }
        let p = canvas.pixels
        for i in 0..<canvas.count {
            let o = i * 4
            let a = Double(p[o + 3]) / 255
            guard a > 0 else { continue }
            let (r, g, b) = (Double(p[o + 2]) / 255 / a, Double(p[o + 1]) / 255 / a, Double(p[o]) / 255 / a)
            var (nr, ng, nb, na) = (r, g, b, a)
            switch filter {
            case .fill(let c, _):
                (nr, ng, nb, na) = (c.red, c.green, c.blue, a * c.alpha)
            case .tint(let black, let white, _):
                let l = min(max(luma.r * r + luma.g * g + luma.b * b, 0), 1)
                (nr, ng, nb) = mix(black, white, l)
            case .tritone(let bright, let mid, let dark, _):
                let l = min(max(luma.r * r + luma.g * g + luma.b * b, 0), 1)
                (nr, ng, nb) = l < 0.5 ? mix(dark, mid, l * 2) : mix(mid, bright, (l - 0.5) * 2)
            }
            // Premultiplied, mixed by amount.
            func mixed(_ new: Double, _ old: Double) -> UInt8 {
                UInt8(min(max(((old + (new - old) * amount) * 255).rounded(), 0), 255))
            }
            p[o] = mixed(nb * na, b * a)
            p[o + 1] = mixed(ng * na, g * a)
            p[o + 2] = mixed(nr * na, r * a)
            p[o + 3] = mixed(na, a)
            // Colour never above alpha.
            for k in 0..<3 where p[o + k] > p[o + 3] { p[o + k] = p[o + 3] }
        }
        canvas.touched()
    }

    private static func mix(_ a: Color, _ b: Color, _ t: Double) -> (Double, Double, Double) {
        (a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t, a.blue + (b.blue - a.blue) * t)
    }

    /// A Gaussian blur of standard deviation `sigma` pixels (three box blurs each way), transparent beyond the
    /// canvas.
    static func blur(_ canvas: VectorCanvas, sigma: Double) {
        guard sigma.isFinite, sigma > 0.1 else { return }
        let (w, h) = (canvas.image.width, canvas.image.height)
        let sigma = min(sigma, Double(max(w, h)) * 2)
        var data = [Float](repeating: 0, count: w * h * 4)
        let p = canvas.pixels
        for i in 0..<(w * h * 4) { data[i] = Float(p[i]) }
        let radii = boxRadii(sigma: sigma)
        data.withUnsafeMutableBufferPointer { buffer in
            var line = [Float](repeating: 0, count: max(w, h) * 4)
            for r in radii {
                boxPass(buffer, line: &line, count: w, lines: h, step: 4, lineStep: w * 4, radius: r)
                boxPass(buffer, line: &line, count: h, lines: w, step: w * 4, lineStep: 4, radius: r)
            }
        }
        for i in 0..<(w * h) {
            let o = i * 4
            let a = min(max(data[o + 3].rounded(), 0), 255)
            p[o + 3] = UInt8(a)
            for k in 0..<3 { p[o + k] = UInt8(min(max(data[o + k].rounded(), 0), a)) }
        }
        canvas.touched()
    }

    /// The radii of three box blurs whose sum approximates a Gaussian of `sigma` (the box sizes of the usual
    /// formula: odd widths wl and wl + 2, m of the first).
    static func boxRadii(sigma: Double) -> [Int] {
        let n = 3.0
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var wl = Int(ideal.rounded(.down))
        if wl % 2 == 0 { wl -= 1 }
        wl = max(wl, 1)
        let wu = wl + 2
        let m = ((12 * sigma * sigma - n * Double(wl * wl) - 4 * n * Double(wl) - 3 * n) / (-4 * Double(wl) - 4))
            .rounded()
        return (0..<3).map { Double($0) < m ? (wl - 1) / 2 : (wu - 1) / 2 }
    }

    /// One box blur along every line (`lines` lines of `count` pixels, `step` floats apart, lines `lineStep`
    /// apart), zero beyond the ends.
    private static func boxPass(_ data: UnsafeMutableBufferPointer<Float>, line: inout [Float], count: Int,
                                lines: Int, step: Int, lineStep: Int, radius: Int) {
        guard radius > 0 else { return }
        let scale = 1 / Float(2 * radius + 1)
        for l in 0..<lines {
            let base = l * lineStep
            for i in 0..<count { for k in 0..<4 { line[i * 4 + k] = data[base + i * step + k] } }
            var sum: (Float, Float, Float, Float) = (0, 0, 0, 0)
            for i in 0...min(radius, count - 1) {
                sum.0 += line[i * 4]; sum.1 += line[i * 4 + 1]; sum.2 += line[i * 4 + 2]; sum.3 += line[i * 4 + 3]
            }
            for i in 0..<count {
                let o = base + i * step
                data[o] = sum.0 * scale; data[o + 1] = sum.1 * scale
                data[o + 2] = sum.2 * scale; data[o + 3] = sum.3 * scale
                let add = i + radius + 1, remove = i - radius
                if add < count {
                    sum.0 += line[add * 4]; sum.1 += line[add * 4 + 1]
                    sum.2 += line[add * 4 + 2]; sum.3 += line[add * 4 + 3]
                }
                if remove >= 0 {
                    sum.0 -= line[remove * 4]; sum.1 -= line[remove * 4 + 1]
                    sum.2 -= line[remove * 4 + 2]; sum.3 -= line[remove * 4 + 3]
                }
            }
        }
    }

    /// Puts a shadow under `canvas`: its alpha in `color` (whose alpha scales it), moved by (dx, dy) pixels
    /// (rounded to whole pixels), blurred by `sigma`; `scratch` (the same pixels) holds the shadow.
    static func shadow(of canvas: VectorCanvas, into scratch: VectorCanvas, color: Color, dx: Double, dy: Double,
                       sigma: Double) {
        let (w, h) = (canvas.image.width, canvas.image.height)
        let (ox, oy) = (Int(min(max(dx.rounded(), -1e6), 1e6)), Int(min(max(dy.rounded(), -1e6), 1e6)))
        let p = canvas.pixels, s = scratch.pixels
        let (cr, cg, cb, ca) = (color.red * color.alpha, color.green * color.alpha, color.blue * color.alpha,
                                color.alpha)
        for y in 0..<h {
            let sy = y - oy
            guard sy >= 0, sy < h else { continue }
            for x in 0..<w {
                let sx = x - ox
                guard sx >= 0, sx < w else { continue }
                let a = Double(p[(sy * w + sx) * 4 + 3])
                let o = (y * w + x) * 4
                s[o] = UInt8((a * cb).rounded()); s[o + 1] = UInt8((a * cg).rounded())
                s[o + 2] = UInt8((a * cr).rounded()); s[o + 3] = UInt8((a * ca).rounded())
            }
        }
        blur(scratch, sigma: sigma)
        // The group over its shadow.
        for i in 0..<(w * h) {
            let o = i * 4
            let inverse = 255 - Int(p[o + 3])
            for k in 0..<4 { p[o + k] = UInt8(Int(p[o + k]) + (Int(s[o + k]) * inverse + 127) / 255) }
        }
        canvas.touched()
    }
}
