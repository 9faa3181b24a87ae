import Foundation
import LaminaCore

extension Path {
    /// The path's total length (all subpaths, curves flattened to within `tolerance` points).
    public func length(tolerance: Double = PathMeasure.defaultTolerance) -> Double {
        FlatPath(self, tolerance: tolerance).length
    }

    /// The parts between the given fractions of the whole length (each pair clamped to 0...1; pairs sorted and
    /// not overlapping, as a Lottie trim that wraps past the end gives): rebuilt from the path flattened to
    /// within `tolerance`, as `trimmed(from:to:)` does, with a closed subpath cut at its closing point joined
    /// there when both parts touch it.
    public func keeping(fractions: [(Double, Double)], tolerance: Double = PathMeasure.defaultTolerance) -> Path {
        let ranges = fractions.compactMap { (a, b) -> (Double, Double)? in
            let lo = a.isNaN ? 0 : min(max(a, 0), 1), hi = b.isNaN ? 0 : min(max(b, 0), 1)
            return lo < hi ? (lo, hi) : nil
        }.sorted { $0.0 < $1.0 }
        guard !ranges.isEmpty else { return Path() }
        if ranges.count == 1 && ranges[0] == (0, 1) { return finiteElements }
        let flat = FlatPath(self, tolerance: tolerance)
        return flat.path(keeping: ranges.map { ($0.0 * flat.length, $0.1 * flat.length) })
    }
}
