import Foundation
import LaminaCore

/// The gradient parameter t of every pixel of a picture, as affine steps over the pixel grid: the value at
/// pixel (i, j) comes from the pixel centre mapped into layer space, grid.origin + (i + 0.5, j + 0.5) / density.
struct GradientField: Sendable {
    enum Kind: Sendable {
        /// t = t0 + i * di + j * dj.
        case axial(t0: Double, di: Double, dj: Double)
        /// u = u0 + i * du, v = v0 + j * dv; t = sqrt(u^2 + v^2).
        case radial(u0: Double, du: Double, v0: Double, dv: Double)
        /// x = x0 + i * step, y = y0 + j * step (points from S); t = (atan2(y, x) - angle0) / 2pi, wrapped to [0, 1).
        case conic(x0: Double, y0: Double, step: Double, angle0: Double)
        /// Every pixel has the last colour.
        case degenerate
    }

    let kind: Kind

    init(style: GradientStyle, bounds: CGRect, grid: CGRect, density: Double) {
        let (bx, by, bw, bh) = (Double(bounds.minX), Double(bounds.minY), Double(bounds.width), Double(bounds.height))
        let sx = bx + Double(style.startPoint.x) * bw, sy = by + Double(style.startPoint.y) * bh
        let ex = bx + Double(style.endPoint.x) * bw, ey = by + Double(style.endPoint.y) * bh
        // The first pixel centre relative to S, and the step between centres.
        let step = 1 / density
        let qx = Double(grid.minX) + step / 2 - sx, qy = Double(grid.minY) + step / 2 - sy
        let (dx, dy) = (ex - sx, ey - sy)
        guard sx.isFinite, sy.isFinite, ex.isFinite, ey.isFinite, qx.isFinite, qy.isFinite else {
            kind = .degenerate
            return
        }
        switch style.type {
        case .axial:
            let length2 = dx * dx + dy * dy
            guard length2 > 0, length2.isFinite else { kind = .degenerate; return }
            kind = .axial(t0: (qx * dx + qy * dy) / length2, di: step * dx / length2, dj: step * dy / length2)
        case .radial:
            let (rx, ry) = (abs(dx), abs(dy))
            guard rx > 0, ry > 0 else { kind = .degenerate; return }
            kind = .radial(u0: qx / rx, du: step / rx, v0: qy / ry, dv: step / ry)
        case .conic:
            guard dx != 0 || dy != 0 else { kind = .degenerate; return }
            kind = .conic(x0: qx, y0: qy, step: step, angle0: atan2(dy, dx))
        }
    }
}

/// Fills a picture's pixels from a field and a ramp, row by row; large pictures are split among the cores
/// (rows are independent, each chunk writes only its own rows).
struct GradientJob: @unchecked Sendable {
    let field: GradientField
    let table: UnsafePointer<UInt32>
    let tableSize: Int
    let pixels: UnsafeMutablePointer<UInt32>
    let width: Int
    let height: Int

    /// Pictures of at least this many pixels are split among the cores.
    static let parallelPixels = 1 << 17

    func run() {
        let cores = Processors.active
        guard width * height >= Self.parallelPixels, cores > 1, height > 1 else {
            fill(rows: 0..<height)
            return
        }
        let chunks = min(height, cores * 4)
        let size = (height + chunks - 1) / chunks
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let rows = (chunk * size)..<min((chunk + 1) * size, height)
            if !rows.isEmpty { fill(rows: rows) }
        }
    }

    /// The table entry for `t`: nearest of the colours at k / size, the first colour below 0 and the last above 1.
    @inline(__always)
    private func lookup(_ t: Double, scale: Double, top: Double) -> UInt32 {
        var g = t * scale + 1.5
        if !(g >= 0) { g = 0 }
        if g > top { g = top }
        return table[Int(g)]
    }

    private func fill(rows: Range<Int>) {
        let scale = Double(tableSize), top = Double(tableSize + 2)
        switch field.kind {
        case .degenerate:
            let word = table[tableSize + 2]
            for j in rows {
                let row = pixels + j * width
                for i in 0..<width { row[i] = word }
            }
        case .axial(let t0, let di, let dj):
            for j in rows {
                let row = pixels + j * width
                let start = t0 + Double(j) * dj
                if di == 0 {
                    let word = lookup(start, scale: scale, top: top)
                    for i in 0..<width { row[i] = word }
                } else if dj == 0 && j > rows.lowerBound {
                    // A horizontal gradient: every row is the chunk's first row.
                    row.update(from: pixels + rows.lowerBound * width, count: width)
                } else {
                    for i in 0..<width { row[i] = lookup(start + Double(i) * di, scale: scale, top: top) }
                }
            }
        case .radial(let u0, let du, let v0, let dv):
            for j in rows {
                let row = pixels + j * width
                let v = v0 + Double(j) * dv, v2 = v * v
                for i in 0..<width {
                    let u = u0 + Double(i) * du
                    row[i] = lookup((u * u + v2).squareRoot(), scale: scale, top: top)
                }
            }
        case .conic(let x0, let y0, let step, let angle0):
            let turn = 2 * Double.pi
            for j in rows {
                let row = pixels + j * width
                let y = y0 + Double(j) * step
                for i in 0..<width {
                    var t = (fastAtan2(y, x0 + Double(i) * step) - angle0) / turn
                    if t < 0 { t += 1 }
                    if t < 0 { t += 1 }
                    if t >= 1 { t = 0 }
                    row[i] = lookup(t, scale: scale, top: top)
                }
            }
        }
    }
}

/// atan2 within about 1e-5 radians (a minimax polynomial for atan on [-1, 1] and the octant identities): a
/// hundredth of a table step of the conic ramp, several times faster than the library's.
@inline(__always)
func fastAtan2(_ y: Double, _ x: Double) -> Double {
    let ax = abs(x), ay = abs(y)
    if ax == 0 && ay == 0 { return 0 }
    let swap = ay > ax
    let a = swap ? ax / ay : ay / ax
    let s = a * a
    var r = a * (0.99997726 + s * (-0.33262347 + s * (0.19354346 + s * (-0.11643287
        + s * (0.05265332 + s * -0.01172120)))))
    if swap { r = .pi / 2 - r }
    if x < 0 { r = .pi - r }
    return y < 0 ? -r : r
}
