import Foundation
import LaminaCore

/// A Path measured along its length: KeyframeAnimation's `path`, where the layer moves at constant speed along
/// the path and (rotationMode auto) turns to its tangent.
///
/// The path is flattened once into straight pieces, each within `tolerance` of the curve (and at most 1/16
/// radian of turning on arcs, so lengths are within about 2e-4 of the true arc length). The elements are
/// walked as DrawingContext draws them with cairo:
/// - a move starts a subpath and adds no length; a line, curve or arc with no current point starts with a
///   move (to the point, the first control point, the control point, or the arc's start);
/// - an arc is joined to the current point by a line; `clockwise` means decreasing angle, as
///   DrawingContext.addArc passes it to cairo, with angles of any size reduced by `DrawingContext.arcAngles`;
/// - close adds the line back to the subpath's start, where the current point then is;
/// - rect runs from its minimum corner along +x first; ellipse starts at its right end and runs towards +y
///   (clockwise on the y-down screen); roundedRect starts where its top edge meets the top-right corner and
///   runs clockwise, the top edge's straight part last (the closing line).
/// Elements with a coordinate that is not finite are skipped.
///
/// The tangent within a flattened piece of a curve is interpolated between the curve's exact tangents at the
/// piece's ends, so a layer turned to it turns smoothly rather than in steps.
public struct PathMeasure: Sendable {
    /// One straight piece: from (x0, y0) to (x1, y1), starting `start` along the path, with the curve's
    /// tangent angles at its ends.
    struct Piece: Sendable {
        var x0, y0, x1, y1: Double
        var start, length: Double
        var angle0, angle1: Double
    }

    /// The pieces with positive length in path order; jumps between subpaths are not pieces.
    let pieces: [Piece]
    /// The first point of the path, for a path with no length.
    let firstPoint: CGPoint?

    /// The flattening tolerance, in the path's units.
    public let tolerance: Double
    /// The total length, summed over the subpaths.
    public let length: Double
    /// For each element of the path, in order, the distance along the path where it ends (a move: where it
    /// starts the next subpath).
    public let elementEnds: [Double]

    /// A keyframe of the path (CAKeyframeAnimation's path keyframes): where it is along the path, the point, and
    /// the direction of the path arriving there (the first: leaving it), atan2(dy, dx) in radians.
    public struct Vertex: Equatable, Sendable {
        public var distance: Double
        public var point: CGPoint
        public var angle: Double
    }

    /// The path's keyframes, which a keyframe animation's `keyTimes` name (docs/animation.md, "Keyframes"): its
    /// first point, then the end of every line and curve (even one of no length); an arc's joining line when it
    /// has length and the arc's end when it turns; a close when it draws a line back; a rect's four corners
    /// (the last by its close); an ellipse's end; a rounded rect's corner arcs and straight sides (those with
    /// length). A move after the first point starts no keyframe: the jump to it is part of the next one's
    /// segment. Empty for a path with no usable element.
    public let vertices: [Vertex]

    /// Core Animation-like fidelity for layer paths: a twentieth of a point.
    public static let defaultTolerance = 0.05

    /// Measures `path`, flattening it to within `tolerance` (a tolerance that is not positive and finite is
    /// taken as `defaultTolerance`).
    public init(_ path: Path, tolerance: Double = PathMeasure.defaultTolerance) {
        let tolerance = tolerance > 0 && tolerance.isFinite ? tolerance : Self.defaultTolerance
        var flattener = PathFlattener(tolerance: tolerance)
        var ends: [Double] = []
        for element in path.elements {
            flattener.add(element)
            ends.append(flattener.distance)
        }
        elementEnds = ends
        vertices = flattener.finishedVertices()
        self.tolerance = tolerance
        pieces = flattener.pieces
        firstPoint = flattener.firstPoint
        length = flattener.distance
    }

    /// The number of straight pieces the path was flattened into.
    public var pieceCount: Int { pieces.count }

    /// The point `d` along the path and the tangent direction there, atan2(dy, dx) in radians (y down, so pi/2
    /// points down the screen). `d` is clamped to 0...length (NaN counts as 0). Where one subpath ends and the
    /// next begins, the next one's start. A path with no length gives its first point (or .zero) and angle 0.
    /// A binary search over the pieces: O(log n), no allocation.
    public func point(atDistance d: Double) -> (point: CGPoint, angle: Double) {
        guard !pieces.isEmpty else { return (firstPoint ?? .zero, 0) }
        let d = d.isNaN ? 0 : min(max(d, 0), length)
        // The last piece starting at or before d.
        var first = 0, count = pieces.count
        while count > 0 {
            let step = count / 2
            if pieces[first + step].start <= d {
                first += step + 1
                count -= step + 1
            } else {
                count = step
            }
        }
        let piece = pieces[max(first - 1, 0)]
        let t = min(max((d - piece.start) / piece.length, 0), 1)
        let point = CGPoint(x: piece.x0 + (piece.x1 - piece.x0) * t, y: piece.y0 + (piece.y1 - piece.y0) * t)
        var turn = piece.angle1 - piece.angle0
        if turn > .pi { turn -= 2 * .pi } else if turn < -.pi { turn += 2 * .pi }
        var angle = piece.angle0 + turn * t
        if angle > .pi { angle -= 2 * .pi } else if angle <= -.pi { angle += 2 * .pi }
        return (point, angle)
    }
}

/// Turns path elements into PathMeasure's pieces, tracking the current point and subpath start as cairo does.
struct PathFlattener {
    let tolerance: Double
    var pieces: [PathMeasure.Piece] = []
    var distance = 0.0
    var firstPoint: CGPoint?
    var current: SIMD2<Double>?
    var subpathStart: SIMD2<Double>?
    /// Where each subpath's pieces begin and whether a close ended it (Path+Trim.swift strokes parts of them).
    /// Drawing on after a close begins a new subpath at the closed point, as in cairo.
    var subpaths: [(firstPiece: Int, closed: Bool)] = []
    /// PathMeasure's keyframes so far; an angle is nil where no piece has been walked yet.
    var vertices: [(distance: Double, point: SIMD2<Double>, angle: Double?)] = []

    /// The most pieces one element is cut into, whatever its size.
    static let maximumPieces = 1 << 16
    /// The most an arc turns within one piece (radians): keeps the chord's length within 1/6000 of the arc's.
    static let maximumArcStep = 1.0 / 16

    init(tolerance: Double) { self.tolerance = tolerance }

    mutating func add(_ element: Path.Element) {
        func v(_ p: CGPoint) -> SIMD2<Double> { SIMD2(Double(p.x), Double(p.y)) }
        func finite(_ points: CGPoint...) -> Bool { points.allSatisfy { $0.x.isFinite && $0.y.isFinite } }
        switch element {
        case .move(let p):
            guard finite(p) else { return }
            move(v(p))
        case .line(let p):
            guard finite(p) else { return }
            let drawn = current != nil
            line(v(p))
            if drawn { markVertex() }
        case .curve(let p, let c1, let c2):
            guard finite(p, c1, c2) else { return }
            if current == nil { move(v(c1)) }
            cubic(v(c1), v(c2), v(p))
            markVertex()
        case .quadCurve(let p, let c):
            guard finite(p, c) else { return }
            if current == nil { move(v(c)) }
            // The equivalent cubic, as DrawingContext hands it to cairo.
            let p0 = current!, control = v(c), end = v(p)
            cubic(p0 + 2.0 / 3 * (control - p0), end + 2.0 / 3 * (control - end), end)
            markVertex()
        case .arc(let c, let r, let a0, let a1, let clockwise):
            guard finite(c), r.isFinite, let (start, end) = DrawingContext.arcAngles(
                start: Double(a0), end: Double(a1), clockwise: clockwise)
            else { return }
            arc(center: v(c), radii: SIMD2(repeating: max(0, Double(r))), from: start, to: end, clockwise: clockwise,
                marking: true)
        case .close:
            closeMarking()
        case .rect(let rect):
            let r = rect.standardized
            guard finite(r.origin, CGPoint(x: r.maxX, y: r.maxY)) else { return }
            let (x0, y0, x1, y1) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
            move(SIMD2(x0, y0))
            line(SIMD2(x1, y0))
            markVertex()
            line(SIMD2(x1, y1))
            markVertex()
            line(SIMD2(x0, y1))
            markVertex()
            closeMarking()
        case .ellipse(let rect):
            let r = rect.standardized
            guard finite(r.origin, CGPoint(x: r.maxX, y: r.maxY)), r.width > 0, r.height > 0 else { return }
            current = nil
            arc(center: SIMD2(Double(r.midX), Double(r.midY)), radii: SIMD2(Double(r.width), Double(r.height)) / 2,
                from: 0, to: 2 * .pi, clockwise: false, marking: true)
            closeMarking()
        case .roundedRect(let rect, let radius):
            let r = rect.standardized
            guard finite(r.origin, CGPoint(x: r.maxX, y: r.maxY)) else { return }
            let half = Double(min(r.width, r.height)) / 2
            let k = radius.isNaN ? 0 : max(0, min(Double(radius), half))
            let (x0, y0, x1, y1) = (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
            let radii = SIMD2(k, k)
            current = nil
            arc(center: SIMD2(x1 - k, y0 + k), radii: radii, from: -.pi / 2, to: 0, clockwise: false, marking: true)
            arc(center: SIMD2(x1 - k, y1 - k), radii: radii, from: 0, to: .pi / 2, clockwise: false, marking: true)
            arc(center: SIMD2(x0 + k, y1 - k), radii: radii, from: .pi / 2, to: .pi, clockwise: false, marking: true)
            arc(center: SIMD2(x0 + k, y0 + k), radii: radii, from: .pi, to: 3 * .pi / 2, clockwise: false,
                marking: true)
            closeMarking()
        }
    }

    mutating func move(_ p: SIMD2<Double>) {
        current = p
        subpathStart = p
        subpaths.append((pieces.count, false))
        if firstPoint == nil { firstPoint = CGPoint(x: p.x, y: p.y) }
        // The path's first point is its first keyframe; later moves are none.
        if vertices.isEmpty { vertices.append((distance, p, nil)) }
    }

    /// A keyframe where the walk now is, arriving in the direction of the last piece.
    mutating func markVertex() {
        guard let current else { return }
        vertices.append((distance, current, pieces.last?.angle1))
    }

    /// A close that is a keyframe when it draws a line back (one longer than rounding: an ellipse's end is its
    /// start give or take 1e-15).
    mutating func closeMarking() {
        let before = distance
        close()
        if distance - before > 1e-9 * max(1, abs(before)) { markVertex() }
    }

    /// The keyframes with every angle known: one not yet known (before the first piece) is the first piece's.
    func finishedVertices() -> [PathMeasure.Vertex] {
        let first = pieces.first?.angle0 ?? 0
        return vertices.map { v in
            PathMeasure.Vertex(distance: v.distance, point: CGPoint(x: v.point.x, y: v.point.y), angle: v.angle ?? first)
        }
    }

    /// A straight piece from the current point to `p` with the given end tangents (the chord's direction when
    /// nil). No piece for zero length; with no current point, a move.
    mutating func line(_ p: SIMD2<Double>, angle0: Double? = nil, angle1: Double? = nil) {
        guard let from = current else { return move(p) }
        current = p
        let delta = p - from
        let length = (delta * delta).sum().squareRoot()
        guard length > 0, length.isFinite else { return }
        let chord = atan2(delta.y, delta.x)
        pieces.append(PathMeasure.Piece(
            x0: from.x, y0: from.y, x1: p.x, y1: p.y, start: distance, length: length,
            angle0: angle0 ?? chord, angle1: angle1 ?? chord))
        distance += length
    }

    mutating func close() {
        guard let start = subpathStart, current != nil else { return }
        line(start)
        current = start
        if !subpaths.isEmpty { subpaths[subpaths.count - 1].closed = true }
        subpaths.append((pieces.count, false))
    }

    /// The cubic Bezier from the current point, cut into n equal parameter steps with n from Wang's formula
    /// (the chords are within the tolerance of the curve), the tolerance also at most 1/2000 of the control
    /// polygon so that small curves keep their length.
    mutating func cubic(_ c1: SIMD2<Double>, _ c2: SIMD2<Double>, _ p3: SIMD2<Double>) {
        guard let p0 = current else { return }
        func norm(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
        let polygon = norm(c1 - p0) + norm(c2 - c1) + norm(p3 - c2)
        let tol = min(tolerance, polygon / 2000)
        let bend = max(norm(p0 - 2 * c1 + c2), norm(c1 - 2 * c2 + p3))
        let estimate = tol > 0 ? (0.75 * bend / tol).squareRoot().rounded(.up) : 1
        // Coordinates near the largest doubles can make the bend not a number: one piece then.
        let n = estimate.isNaN ? 1 : Int(min(max(estimate, 1), Double(Self.maximumPieces)))
        func point(_ t: Double) -> SIMD2<Double> {
            let s = 1 - t
            return s * s * s * p0 + 3 * s * s * t * c1 + 3 * s * t * t * c2 + t * t * t * p3
        }
        func tangent(_ t: Double) -> Double? {
            let s = 1 - t
            let d = s * s * (c1 - p0) + 2 * s * t * (c2 - c1) + t * t * (p3 - c2)
            return d.x == 0 && d.y == 0 ? nil : atan2(d.y, d.x)
        }
        for i in 1...n {
            let t0 = Double(i - 1) / Double(n), t1 = Double(i) / Double(n)
            line(i == n ? p3 : point(t1), angle0: tangent(t0), angle1: tangent(t1))
        }
    }

    /// An elliptical arc about `center` with radii (rx, ry), from angle `from` to `to` (decreasing when
    /// clockwise), joined to the current point by a line (or moved to when there is none). `marking`: the joining
    /// line (when it has length) and the turn (when there is one) are keyframes.
    mutating func arc(center: SIMD2<Double>, radii: SIMD2<Double>, from: Double, to: Double, clockwise: Bool,
                      marking: Bool = false) {
        func point(_ a: Double) -> SIMD2<Double> { center + radii * SIMD2(cos(a), sin(a)) }
        let start = point(from)
        if current == nil {
            move(start)
        } else {
            let before = distance
            line(start)
            if marking, distance > before { markVertex() }
        }
        let radius = max(radii.x, radii.y)
        let sweep = clockwise ? from - to : to - from
        guard radius > 0, sweep > 0 else { return }
        defer { if marking { markVertex() } }
        // Chord deviation <= radius (1 - cos(step / 2)) for a circle; the ellipse's second derivative is at
        // most the larger radius, so the same bound holds for it.
        let sagittaStep = tolerance < radius ? 2 * acos(1 - tolerance / radius) : .pi / 2
        let step = min(sagittaStep, Self.maximumArcStep)
        let n = Int(min(max((sweep / step).rounded(.up), 1), Double(Self.maximumPieces)))
        let direction: Double = clockwise ? -1 : 1
        func tangent(_ a: Double) -> Double {
            let d = direction * radii * SIMD2(-sin(a), cos(a))
            return atan2(d.y, d.x)
        }
        for i in 1...n {
            let a0 = from + direction * sweep * Double(i - 1) / Double(n)
            let a1 = i == n ? to : from + direction * sweep * Double(i) / Double(n)
            line(point(a1), angle0: tangent(a0), angle1: tangent(a1))
        }
    }
}
