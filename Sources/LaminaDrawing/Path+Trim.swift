import Foundation
import LaminaCore

extension Path {
    /// The part of the path between the fractions `from` and `to` of its total length (all subpaths in order,
    /// curves by their true length, measured as `PathMeasure` walks the elements): CAShapeLayer's strokeStart
    /// and strokeEnd. Fractions are clamped to 0...1 (NaN counts as 0); `from >= to` gives an empty path.
    ///
    /// With 0 and 1 the path itself comes back (elements with coordinates that are not finite dropped), exact.
    /// Otherwise the kept parts are rebuilt from the path flattened to within `tolerance` (points): straight
    /// pieces, each kept subpath's part a subpath of its own. A closed subpath kept whole stays closed (its join
    /// at the closing point); a closed subpath that is cut is open, so a stroke puts caps at the cut ends.
    public func trimmed(from: CGFloat, to: CGFloat, tolerance: Double = PathMeasure.defaultTolerance) -> Path {
        let lo = from.isNaN ? 0 : min(max(Double(from), 0), 1)
        let hi = to.isNaN ? 0 : min(max(Double(to), 0), 1)
        guard lo < hi else { return Path() }
        if lo == 0 && hi == 1 { return finiteElements }
        let flat = FlatPath(self, tolerance: tolerance)
        return flat.path(keeping: [(lo * flat.length, hi * flat.length)])
    }

    /// The path without the elements that have a coordinate that is not finite (PathMeasure skips them too).
    public var finiteElements: Path {
        func finite(_ points: CGPoint...) -> Bool { points.allSatisfy { $0.x.isFinite && $0.y.isFinite } }
        func finite(_ r: CGRect) -> Bool { finite(r.origin, CGPoint(x: r.maxX, y: r.maxY)) }
        return Path(elements.filter { element in
            switch element {
            case .move(let p), .line(let p): return finite(p)
            case .curve(let p, let c1, let c2): return finite(p, c1, c2)
            case .quadCurve(let p, let c): return finite(p, c)
            case .arc(let c, let r, let a0, let a1, _): return finite(c) && r.isFinite && a0.isFinite && a1.isFinite
            case .close: return true
            case .rect(let r), .ellipse(let r): return finite(r)
            case .roundedRect(let r, _): return finite(r)
            }
        })
    }
}

/// A path flattened into straight pieces (PathMeasure's walker), grouped by subpath, from which parts given as
/// distances along the whole path are rebuilt as a Path.
struct FlatPath {
    struct Subpath {
        /// The pieces, in `FlatPath.pieces`.
        var pieces: Range<Int>
        var closed: Bool
        /// Distance along the whole path where the subpath starts and ends.
        var start: Double
        var end: Double
        var length: Double { end - start }
    }

    let pieces: [PathMeasure.Piece]
    let subpaths: [Subpath]
    let length: Double

    init(_ path: Path, tolerance: Double) {
        let tolerance = tolerance > 0 && tolerance.isFinite ? tolerance : PathMeasure.defaultTolerance
        var flattener = PathFlattener(tolerance: tolerance)
        for element in path.elements { flattener.add(element) }
        pieces = flattener.pieces
        length = flattener.distance
        var subpaths: [Subpath] = []
        let marks = flattener.subpaths
        for (k, mark) in marks.enumerated() {
            let end = k + 1 < marks.count ? marks[k + 1].firstPiece : pieces.count
            guard mark.firstPiece < end else { continue }
            let first = pieces[mark.firstPiece], last = pieces[end - 1]
            subpaths.append(Subpath(pieces: mark.firstPiece..<end, closed: mark.closed, start: first.start,
                                    end: last.start + last.length))
        }
        self.subpaths = subpaths
    }

    /// The parts between the given distances along the whole path (sorted, not overlapping).
    func path(keeping ranges: [(Double, Double)]) -> Path {
        var path = Path()
        for subpath in subpaths {
            let local = ranges.compactMap { (a, b) -> (Double, Double)? in
                let (u, v) = (max(a, subpath.start), min(b, subpath.end))
                return u <= v ? (u, v) : nil
            }
            append(subpath, parts: local, to: &path)
        }
        return path
    }

    /// Appends the parts (whole-path distances within the subpath, sorted) of one subpath. A closed subpath kept
    /// whole is closed; when its first part begins at its start and its last part reaches its end, the two are one
    /// part running through the closing point, as a dashed closed path is stroked.
    func append(_ subpath: Subpath, parts: [(Double, Double)], to path: inout Path) {
        guard !parts.isEmpty else { return }
        let epsilon = 1e-9 * max(subpath.length, 1)
        let wholeStart = parts[0].0 <= subpath.start + epsilon
        let wholeEnd = parts[parts.count - 1].1 >= subpath.end - epsilon
        if subpath.closed && parts.count == 1 && wholeStart && wholeEnd {
            let first = pieces[subpath.pieces.lowerBound]
            path.move(to: CGPoint(x: first.x0, y: first.y0))
            for index in subpath.pieces.dropLast() {
                path.addLine(to: CGPoint(x: pieces[index].x1, y: pieces[index].y1))
            }
            path.closeSubpath()
            return
        }
        var parts = parts[...]
        var wrapped: (Double, Double)?
        if subpath.closed && parts.count > 1 && wholeStart && wholeEnd {
            wrapped = parts.removeFirst()
            let last = parts.removeLast()
            addPart(subpath, from: last.0, to: subpath.end, continuing: false, to: &path)
            addPart(subpath, from: subpath.start, to: wrapped!.1, continuing: true, to: &path)
        }
        for (u, v) in parts { addPart(subpath, from: u, to: v, continuing: false, to: &path) }
    }

    /// The point `d` along the whole path, on the subpath's pieces.
    private func point(_ subpath: Subpath, at d: Double, from index: inout Int) -> CGPoint {
        while index + 1 < subpath.pieces.upperBound && pieces[index].start + pieces[index].length < d { index += 1 }
        let piece = pieces[index]
        let t = piece.length > 0 ? min(max((d - piece.start) / piece.length, 0), 1) : 0
        return CGPoint(x: piece.x0 + (piece.x1 - piece.x0) * t, y: piece.y0 + (piece.y1 - piece.y0) * t)
    }

    /// One part, u...v along the whole path: a move to its start (unless `continuing` from the point where the
    /// last part ended), a line to each piece end
    /// inside it and to its end. A part of zero length is a move and a line to the same point (a dot with round or
    /// square caps).
    private func addPart(_ subpath: Subpath, from u: Double, to v: Double, continuing: Bool, to path: inout Path) {
        var index = subpath.pieces.lowerBound
        // The first piece whose end is past u (or the last).
        while index + 1 < subpath.pieces.upperBound && pieces[index].start + pieces[index].length <= u { index += 1 }
        let start = point(subpath, at: u, from: &index)
        if !continuing { path.move(to: start) }
        while index < subpath.pieces.upperBound && pieces[index].start + pieces[index].length < v {
            path.addLine(to: CGPoint(x: pieces[index].x1, y: pieces[index].y1))
            index += 1
        }
        index = min(index, subpath.pieces.upperBound - 1)
        path.addLine(to: point(subpath, at: v, from: &index))
    }
}
