import Foundation
import Lamina

/// One probe pixel of a reference scene: the straight RGBA expected at a point (in points; at output
/// scale s the pixel probed is (floor(x * s), floor(y * s))), within `tol` per channel, in the frame at `time`
/// (seconds; nil: 0, for scenes that do not move).
public struct Probe: Codable, Sendable, Equatable {
    public var at: [Double]
    public var rgba: [Int]
    public var tol: Int
    public var what: String
    /// nil: every scale.
    public var scales: [Double]?
    /// The time of the frame probed, in seconds; nil: 0.
    public var time: Double?

    public init(at: [Double], rgba: [Int], tol: Int = 2, what: String, scales: [Double]? = nil, time: Double? = nil) {
        self.at = at
        self.rgba = rgba
        self.tol = tol
        self.what = what
        self.scales = scales
        self.time = time
    }
}

/// A reference scene's probes file (NAME.probes.json).
public struct ProbeFile: Codable, Sendable {
    public var scene: String
    public var issue: String?
    /// The output scales to check; nil: 1 and 2.
    public var scales: [Double]?
    public var probes: [Probe]

    /// The times of the frames the probes look at, in increasing order (at least 0).
    public var times: [Double] {
        Array(Set(probes.map { $0.time ?? 0 })).sorted()
    }

    public static func load(_ url: URL) throws -> ProbeFile {
        try JSONDecoder().decode(ProbeFile.self, from: Data(contentsOf: url))
    }
}

extension Image {
    /// The pixel probed for a point at output scale `scale`.
    public func probe(_ point: CGPoint, scale: CGFloat) -> RGBA8? {
        let x = Int((point.x * scale).rounded(.down)), y = Int((point.y * scale).rounded(.down))
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return rgba(x: x, y: y)
    }

    /// The probes that fail, as messages ("(17, 25) inside: expected (0, 255, 0, 255) ±2, got (...)").
    public func failedProbes(_ probes: [Probe], scale: CGFloat) -> [String] {
        var failures: [String] = []
        for probe in probes where probe.scales?.contains(Double(scale)) ?? true {
            let point = CGPoint(x: probe.at[0], y: probe.at[1])
            let expected = RGBA8(
                r: UInt8(probe.rgba[0]), g: UInt8(probe.rgba[1]), b: UInt8(probe.rgba[2]), a: UInt8(probe.rgba[3]))
            guard let actual = self.probe(point, scale: scale) else {
                failures.append("(\(probe.at[0]), \(probe.at[1])) \(probe.what): outside the \(width)x\(height) image")
                continue
            }
            if actual.maxChannelDifference(to: expected) > probe.tol {
                let when = probe.time.map { " at \($0) s" } ?? ""
                failures.append(
                    "(\(probe.at[0]), \(probe.at[1]))\(when) at scale \(scale), \(probe.what): expected \(expected) ±\(probe.tol), got \(actual)")
            }
        }
        return failures
    }
}
